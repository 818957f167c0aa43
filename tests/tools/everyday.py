"""Everyday shell tasks, and how many ragix can express (issue 11 item 6).

    PYTHONPATH=. python -m tests.tools.everyday            # this checkout
    PYTHONPATH=/path/to/old python /path/to/tests/tools/everyday.py   # another one

A task counts as expressible when the command, written as a person would, is admitted
and exits 0 (diff: 0 or 1) in a small sample project (layer 1 alone, profile dev, --yes).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from ragix_core.tools import Limits, ToolBox

TASKS = [
    ("count lines of every python file", "find . -name '*.py' | xargs wc -l"),
    ("largest files", "du -a . | sort -n | tail -n 3"),
    ("lines matching TODO with numbers", "grep -rn TODO ."),
    ("how many TODOs", "grep -r TODO . | wc -l"),
    ("print line 2 of a file", "sed -n 2p notes.txt"),
    ("replace a word in a file", "sed -i s/foo/bar/ notes.txt"),
    ("sum a CSV column", "awk -F, 'NR>1 {s+=$2} END {print s}' data.csv"),
    ("second column of a CSV", "cut -d, -f2 data.csv"),
    ("rows where score > 10", "awk -F, '$2 > 10' data.csv"),
    ("compare two files", "diff -u notes.txt notes2.txt"),
    ("lines common to two sorted files", "comm -12 a.txt b.txt"),
    ("merge two files side by side", "paste -d, a.txt b.txt"),
    ("join two tables on a key", "join -t, a.csv b.csv"),
    ("number the lines", "nl notes.txt"),
    ("reverse each line", "rev notes.txt"),
    ("file name without directory", "basename src/main.py"),
    ("directory of a path", "dirname src/main.py"),
    ("absolute path of a file", "realpath notes.txt"),
    ("today's date", "date +%Y-%m-%d"),
    ("print a message", "echo done"),
    ("formatted output", "printf '%s=%s\\n' key value"),
    ("checksum a file", "sha256sum notes.txt"),
    ("md5 of a file", "md5sum notes.txt"),
    ("what kind of file is it", "file notes.txt"),
    ("unique sorted words", "tr ' ' '\\n' < notes.txt | sort -u"),
    ("unique sorted values", "cut -d, -f1 data.csv | sort | uniq -c"),
    ("first 5 lines", "head -n 5 notes.txt"),
    ("files changed recently", "find . -mmin -60 -type f"),
    ("save output to a file", "grep -rn TODO . > todo.txt"),
    ("append to a log", "echo done >> log.txt"),
    ("write output and show it", "grep -rn TODO . | tee todo2.txt"),
    ("make a script executable", "chmod +x run.sh"),
    ("symlink a config", "ln -s notes.txt latest.txt"),
    ("files NUL-separated to grep", "find . -name '*.py' -print0 | xargs -0 grep -l def"),
    ("archive a directory", "tar -czf src.tgz src"),
    ("list an archive", "tar -tzf sample.tgz"),
    ("compress a file", "gzip -k notes.txt"),
    ("copy a file", "cp notes.txt notes.bak"),
    ("make nested directories", "mkdir -p build/out"),
    ("count files per extension", "find . -type f | sed 's/.*\\.//' | sort | uniq -c"),
]


def sample(root: Path) -> None:
    (root / "src").mkdir()
    (root / "src" / "main.py").write_text("def main():\n    pass  # TODO\n")
    (root / "notes.txt").write_text("foo one\nfoo two\nTODO three\n")
    (root / "notes2.txt").write_text("foo one\nbar two\n")
    (root / "data.csv").write_text("name,score\nann,30\nbob,7\n")
    (root / "a.txt").write_text("a\nb\nc\n")
    (root / "b.txt").write_text("b\nc\nd\n")
    (root / "a.csv").write_text("k1,x\nk2,y\n")
    (root / "b.csv").write_text("k1,1\nk2,2\n")
    (root / "run.sh").write_text("#!/bin/sh\necho hi\n")
    import tarfile

    with tarfile.open(root / "sample.tgz", "w:gz") as tar:
        tar.add(root / "a.txt", arcname="a.txt")


def main() -> int:
    ok = 0
    for what, command in TASKS:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "proj"
            root.mkdir()
            sample(root)
            box = ToolBox(root, profile="dev", sandbox="none", assume_yes=True, limits=Limits(timeout=30))
            result = box.run_command(command)
        # diff answers "the files differ" with status 1: that is its result, not a failure
        good = not result.refused and (result.returncode == 0 or (command.startswith("diff") and result.returncode == 1))
        ok += good
        why = "" if good else (result.error or result.stderr.strip().splitlines()[-1:] or [""])
        print(f"{'yes' if good else 'NO '}  {what:38} {command:55} {str(why)[:90]}")
    print(f"\nexpressible: {ok}/{len(TASKS)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
