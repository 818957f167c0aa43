"""Edits that must work in the write profiles (dev, sovereign), under layer 1 alone and each OS layer."""

from __future__ import annotations

import os

import pytest

from ragix_core.core.types import ToolCall
from ragix_core.tools import Limits
from tests.tools.conftest import make_box, sandboxes

# (commands run in order, check(world, last result) -> bool); each case gets a fresh world
EDITS = [
    (["sed -i s/hello/HELLO/ README.md"], lambda w, r: "HELLO world" in (w["proj"] / "README.md").read_text()),
    (["echo new > notes.txt", "echo more >> notes.txt"], lambda w, r: (w["proj"] / "notes.txt").read_text() == "new\nmore\n"),
    (["sort data.csv > sorted.csv"], lambda w, r: (w["proj"] / "sorted.csv").read_text().splitlines()[0] == "ann,30"),
    (["grep -rn TODO src | tee todo.txt"], lambda w, r: r.stdout and (w["proj"] / "todo.txt").read_text() == r.stdout),
    (["ln -s README.md readme-link", "cat readme-link"], lambda w, r: r.stdout.startswith("# Demo")),
    (["chmod +x src/a.py"], lambda w, r: os.access(w["proj"] / "src" / "a.py", os.X_OK)),
    (["tar -czf src.tgz src", "tar -tzf src.tgz"], lambda w, r: sorted(r.stdout.split()) == ["src/", "src/a.py", "src/b.py"]),
    (["mkdir out", "tar -czf src.tgz src", "tar -xzf src.tgz -C out", "cat out/src/a.py"],
     lambda w, r: r.stdout.startswith("def foo")),
    (["gzip -k README.md", "gzip -dc README.md.gz"], lambda w, r: r.stdout.startswith("# Demo")),
    (["cp README.md README-COPY.md"], lambda w, r: (w["proj"] / "README-COPY.md").read_text().startswith("# Demo")),
    ([{"tool": "write_file", "args": {"path": "top.txt", "content": "t\n"}}], lambda w, r: (w["proj"] / "top.txt").exists()),
    (["mv data.csv data2.csv"], lambda w, r: (w["proj"] / "data2.csv").exists() and not (w["proj"] / "data.csv").exists()),
    (["rm big.txt"], lambda w, r: not (w["proj"] / "big.txt").exists()),
    (["mkdir -p build/out", "touch build/out/x"], lambda w, r: (w["proj"] / "build" / "out" / "x").exists()),
    (["cp -r src src2"], lambda w, r: (w["proj"] / "src2" / "b.py").exists()),
    (["awk -F, 'NR>1 {s+=$2} END {print s}' data.csv > total.txt"], lambda w, r: (w["proj"] / "total.txt").read_text() == "67\n"),
]
IDS = [" ; ".join(c if isinstance(c, str) else c["tool"] for c in cmds) for cmds, _ in EDITS]
LAYERS = [pytest.param("dev", "none", id="dev-layer1")] + [
    pytest.param(profile, p.values[0], marks=p.marks, id=f"{profile}-{p.values[0]}")
    for profile in ("dev", "sovereign") for p in sandboxes()]


@pytest.mark.parametrize("profile,sandbox", LAYERS)
@pytest.mark.parametrize("case", EDITS, ids=IDS)
def test_edit_works(case, profile, sandbox, world):
    commands, check = case
    (world["proj"] / ".git" / "hooks").mkdir(parents=True)  # protected names present, as in a real checkout
    box = make_box(world, sandbox, profile=profile, assume_yes=True, limits=Limits(timeout=30))
    result = None
    for c in commands:
        result = box.run_command(c) if isinstance(c, str) else box.run(ToolCall(c["tool"], c["args"]))
        assert not result.refused and result.returncode == 0 and result.error is None, (c, result)
    assert check(world, result), result
