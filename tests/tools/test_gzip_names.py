"""zcat and gunzip run as the gzip they are (gzip -dc, gzip -d), under gzip's policy.

Measured at 4018844: NL2Bash fs_1-131 ("lines in all *.gz files after decompression") drew `gunzip` and
`xargs gunzip` six times, each refused as a tool the profile lacks.
"""

from __future__ import annotations

import gzip
import subprocess
from pathlib import Path

import pytest

from ragix_core.tools import Limits, ToolBox
from tests.tools.conftest import HAS_BWRAP

SANDBOXES = ["none", pytest.param("bwrap", marks=pytest.mark.skipif(not HAS_BWRAP, reason="no bubblewrap"))]


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    root = tmp_path / "p"
    (root / "d").mkdir(parents=True)
    for name, text in (("a.txt.gz", "1\n2\n"), ("d/b.gz", "x\ny\nz\n")):
        with gzip.open(root / name, "wt") as f:
            f.write(text)
    return root


def box(root: Path, profile: str, sandbox: str = "none") -> ToolBox:
    return ToolBox(root, profile=profile, sandbox=sandbox, assume_yes=True, limits=Limits(timeout=30))


@pytest.mark.parametrize("sandbox", SANDBOXES)
@pytest.mark.parametrize("command", ["find . -name '*.gz' | sort | xargs zcat | wc -l", "zcat d/b.gz",
                                     "gunzip -c a.txt.gz"])
def test_reading_a_compressed_file_prints_what_bash_prints(project, sandbox, command):
    res = box(project, "reflect", sandbox).run_command(command)
    assert res.returncode == 0, res.error or res.stderr
    assert res.stdout == subprocess.run(["bash", "-c", command], cwd=project, capture_output=True, text=True,
                                        check=True).stdout
    assert not res.writes


def test_gunzip_in_place_is_a_write_refused_where_the_profile_only_reads(project):
    refused = box(project, "reflect").run_command("gunzip a.txt.gz")
    assert refused.returncode == 126 and refused.error.startswith("refused: gunzip (gzip -d): ")
    assert (project / "a.txt.gz").exists()
    done = box(project, "dev").run_command("gunzip a.txt.gz")
    assert done.returncode == 0 and done.writes and (project / "a.txt").read_text() == "1\n2\n"
    assert not (project / "a.txt.gz").exists()
