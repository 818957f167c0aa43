#!/usr/bin/env bash
# Make a virtual environment with ragix installed, once; print its path on stdout.
#
#   scripts/bootstrap.sh [EXTRAS]      EXTRAS: local (default) | dev | ...
#
# The venv lives OUTSIDE the project tree (default ~/.cache/ragix/venv, override
# with RAGIX_VENV): ragix's tools look at the project's files, and a venv inside
# it would bury the user's files under thousands of site-packages files.
# Re-installs only when pyproject.toml, the extras or the checkout path change.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
extras="${1:-local}"
venv="${RAGIX_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/ragix/venv}"

pick_python() {
  for py in "${RAGIX_PYTHON:-}" python3.11 python3.12 python3.13 python3.10 python3; do
    [ -n "$py" ] || continue
    command -v "$py" >/dev/null 2>&1 || continue
    if "$py" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' 2>/dev/null; then
      echo "$py"; return 0
    fi
  done
  echo "bootstrap: ragix needs Python >= 3.10 (set RAGIX_PYTHON to its path)" >&2
  return 1
}

if [ ! -x "$venv/bin/python" ]; then
  py="$(pick_python)"
  echo "bootstrap: creating virtual environment $venv with $py" >&2
  mkdir -p "$(dirname "$venv")"
  "$py" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --upgrade pip >&2
fi

stamp="$venv/.ragix-install-stamp"
want="$(cat "$here/pyproject.toml" | sha256sum | cut -c1-16) $extras $here"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "bootstrap: installing ragix[$extras] into $venv (the first time this downloads the" >&2
  echo "bootstrap: default model, about 1.1 GB in 22 packages, and the llama.cpp runtime)" >&2
  "$venv/bin/python" -m pip install --progress-bar off -e "$here[$extras]" >&2
  echo "$want" > "$stamp"
fi
echo "$venv"
