"""Real read-only commands must work, with the same output under every layer."""

from __future__ import annotations

import pytest

from ragix_core.core.types import ToolCall
from ragix_core.tools import Limits
from tests.tools.conftest import make_box, sandboxes


def lines(text: str):
    return [line.strip() for line in text.strip().splitlines()]


# (command or ToolCall, check(stdout, world) -> bool)
BENIGN = [
    ("ls", lambda out, w: {"README.md", "src", "docs", "data.csv"} <= set(lines(out))),
    ("ls -la src", lambda out, w: "a.py" in out and "b.py" in out),
    ("find . -name '*.py'", lambda out, w: sorted(lines(out)) == ["./src/a.py", "./src/b.py"]),
    # ragix runs xargs itself; one batch keeps wc's "total" line, as bash's one wc run prints it
    ("find . -name '*.md' | xargs wc -l | sort -n",
     lambda out, w: lines(out)[-1].split() == ["7", "total"] and sum(int(x.split()[0]) for x in lines(out)[:-1]) == 7),
    ("grep -n 'def ' src/a.py", lambda out, w: out == "1:def foo():\n"),
    ("grep -rl TODO src docs README.md", lambda out, w: sorted(lines(out)) == ["README.md", "src/b.py"]),
    ("head -n 2 README.md", lambda out, w: out == "# Demo\nhello world\n"),
    ("tail -n 1 README.md", lambda out, w: out == "TODO: more\n"),
    ("tail -2 README.md", lambda out, w: out == "hello world\nTODO: more\n"),
    ("wc -l README.md", lambda out, w: out == "3 README.md\n"),
    ("wc --lines README.md", lambda out, w: out == "3 README.md\n"),
    ("cat data.csv | cut -d, -f2 | sort | uniq -c", lambda out, w: lines(out) == ["2 30", "1 7", "1 score"]),
    ("pwd", lambda out, w: out.strip() == str(w["proj"].resolve())),
    ("stat -c %s README.md", lambda out, w: out.strip() == str((w["proj"] / "README.md").stat().st_size)),
    ("cat README.md | tr a-z A-Z | head -n 1", lambda out, w: out == "# DEMO\n"),
    ("sort -t, -k2 -n data.csv", lambda out, w: lines(out)[-1] in ("ann,30", "cid,30") and lines(out)[1] == "bob,7"),
    ("grep -c 30 data.csv", lambda out, w: out == "2\n"),
    ("find src -type f | sort", lambda out, w: lines(out) == ["src/a.py", "src/b.py"]),
    ("ls -R docs", lambda out, w: "guide.md" in out),
    ("head -c 6 README.md", lambda out, w: out == "# Demo"),
    ("find . -name '*.py' -print0 | xargs -0 grep -l foo", lambda out, w: sorted(lines(out)) == ["./src/a.py", "./src/b.py"]),
    ("find . -maxdepth 1 -type d | sort", lambda out, w: lines(out) == [".", "./docs", "./src"]),
    ("find . \\( -name '*.md' -o -name '*.csv' \\) -type f | sort",
     lambda out, w: lines(out) == ["./README.md", "./data.csv", "./docs/guide.md"]),
    ("grep -E 'fo+' src/a.py", lambda out, w: out == "def foo():\n"),
    ("grep -e -- README.md", lambda out, w: out == ""),  # a pattern starting with '-' via -e
    ("cat -n docs/guide.md | tail -n 1", lambda out, w: lines(out) == ["4\tstep two"]),
    ("du -s -b src/a.py", lambda out, w: out.split()[0] == str((w["proj"] / "src" / "a.py").stat().st_size)),
    ("sort data.csv | uniq | wc -l", lambda out, w: out.strip() == "4"),
    (ToolCall("grep", {"pattern": "def ", "path": "src", "recursive": True}),
     lambda out, w: sorted(lines(out)) == ["src/a.py:def foo():", "src/b.py:def bar():"]),
    (ToolCall("wc", {"args": ["-l", "README.md"]}), lambda out, w: out == "3 README.md\n"),
    (ToolCall("find", {"path": "src", "name": "*.py", "type": "f"}), lambda out, w: sorted(lines(out)) == ["src/a.py", "src/b.py"]),
    (ToolCall("head", {"path": "README.md", "lines": 1}), lambda out, w: out == "# Demo\n"),
    (ToolCall("shell", {"argv": ["ls", "-d", "src"]}), lambda out, w: out == "src\n"),
]
IDS = [c if isinstance(c, str) else f"{c.tool}:{c.args}" for c, _ in BENIGN]
LAYERS = [pytest.param("none", id="layer1")] + sandboxes()


def test_benign_set_is_large_enough():
    assert len(BENIGN) >= 20


@pytest.mark.parametrize("sandbox", LAYERS)
@pytest.mark.parametrize("case", BENIGN, ids=IDS)
def test_benign(case, sandbox, world):
    call, check = case
    box = make_box(world, sandbox, limits=Limits(timeout=30))  # generous: a loaded CI machine is no failure
    result = box.run_command(call) if isinstance(call, str) else box.run(call)
    # "grep -e --" matches nothing: grep's exit code 1 is the right answer there
    expected_rc = 1 if call == "grep -e -- README.md" else 0
    assert not result.refused, result.error
    assert result.returncode == expected_rc, result
    assert result.error is None
    assert check(result.stdout, world), result.stdout
    assert result.duration is not None and result.command


# A pipeline reports its rightmost failing stage (bash's pipefail), so a wrong path
# is seen as a failure even when a later stage prints a plausible "0"; a search that
# matched nothing before a counting stage is data, not a failure.
# A search that matched nothing last is an answer: exit 1 kept, ``no_match`` set, and ``ok``.
# So is diff's exit 1 (the inputs differ) and expr's (the value is 0): ``answer_exit``; their exit 2 is a failure.
# (command, exit code, stdout, ok, why an exit 1 is ok)
PIPE_STATUS = [
    ("find docs/missing.md | wc -l", 1, "0", False, ""),
    ("cat nope.txt | sort | head -n 1", 1, "", False, ""),
    ("grep -r NO_SUCH_WORD src | wc -l", 0, "0", True, ""),
    ("find . -name '*.py' | xargs grep -l NO_SUCH_WORD | wc -l", 0, "0", True, ""),
    ("grep NO_SUCH_WORD README.md", 1, "", True, "no_match"),
    ("find . -name '*.py' | xargs grep -l NO_SUCH_WORD", 123, "", True, "no_match"),
    ("grep -r TODO missing_dir | wc -l", 2, "0", False, ""),
    ("grep NO_SUCH_WORD missing.txt", 2, "", False, ""),
    ("diff -q src/a.py src/b.py", 1, "Files src/a.py and src/b.py differ", True, "answer_exit"),
    ("diff src/a.py src/a.py", 0, "", True, ""),
    ("diff src/a.py src/b.py | head -n 1", 0, "1,2c1,4", True, ""),
    ("diff src/a.py missing.txt", 2, "", False, ""),
    ("expr 2 - 2", 1, "0", True, "answer_exit"),
    ("expr 2 +", 2, "", False, ""),
]


@pytest.mark.parametrize("command,rc,out,ok,why", PIPE_STATUS, ids=[row[0] for row in PIPE_STATUS])
def test_pipeline_status_is_the_rightmost_failure(command, rc, out, ok, why, world):
    result = make_box(world, "none", limits=Limits(timeout=30)).run_command(command)
    assert not result.refused, result.error
    assert result.returncode == rc, result
    assert result.stdout.strip() == out
    assert result.ok is ok and (result.no_match, result.answer_exit) == (why == "no_match", why == "answer_exit")
