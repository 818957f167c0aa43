"""What a run carries to another machine and brings back (eval/portable_run.py, workspace pack/unpack), without
Ray: the packed directory, the driver's paths taken out, the trace written only inside --trace-dir."""

import os
from pathlib import Path

import pytest

from ragix_core.eval.evaluate import ScenarioResult
from ragix_core.eval.harness import EvalOptions, default_corpus_factory
from ragix_core.eval.portable_run import PortableOutcome, land, make_portable
from ragix_core.eval.scenario import Scenario
from ragix_core.eval.workspace import WorkspaceError, fingerprint, pack_directory, unpack_directory


def project(root: Path) -> Path:
    (root / "src").mkdir(parents=True)
    (root / "src" / "a.py").write_text("print(1)\n")
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").write_text("ref\n")
    (root / ".ragix").mkdir()
    (root / ".ragix" / "events.jsonl").write_text("{}\n")
    os.symlink("src/a.py", root / "link.py")
    return root


def test_a_packed_directory_unpacks_to_what_a_working_copy_holds(tmp_path):
    src = project(tmp_path / "p")
    out = unpack_directory(pack_directory(src), tmp_path / "out")
    assert (out / "src" / "a.py").read_text() == "print(1)\n"
    assert not (out / ".git").exists() and not (out / ".ragix").exists()  # never copied to a run
    assert (out / "link.py").is_symlink() and os.readlink(out / "link.py") == "src/a.py"  # a link stays a link
    assert {k: v[0] for k, v in fingerprint(out).items()} == {"src/a.py": 9, "link.py": 8}


def test_packing_refuses_a_missing_or_too_large_directory(tmp_path):
    with pytest.raises(WorkspaceError, match="working directory not found"):
        pack_directory(tmp_path / "nope")
    (tmp_path / "big").mkdir()
    (tmp_path / "big" / "data.bin").write_bytes(os.urandom(4096))
    with pytest.raises(WorkspaceError, match=r"more than the 0 MiB sent to remote workers; point --cwd"):
        pack_directory(tmp_path / "big", limit=1000)


def test_packing_stops_as_soon_as_the_limit_is_passed_not_after_the_whole_tree(tmp_path, monkeypatch):
    import tarfile

    big = tmp_path / "big"
    big.mkdir()
    for i in range(40):  # incompressible: 40 x 64 KiB, the limit passed after a few
        (big / f"f{i:02d}.bin").write_bytes(os.urandom(65536))
    added = []
    real_addfile = tarfile.TarFile.addfile
    monkeypatch.setattr(tarfile.TarFile, "addfile", lambda self, info, fileobj=None, **kw:
                        (added.append(info.name), real_addfile(self, info, fileobj, **kw))[1])
    with pytest.raises(WorkspaceError, match="packs to more than"):
        pack_directory(big, limit=150_000)
    assert 2 <= len(added) < 10, added


def test_without_the_tar_filter_a_member_leading_out_is_refused(tmp_path, monkeypatch):
    # Pythons before 3.10.12 / 3.11.4 have no extraction filter: the same refusals are made by hand.
    import io
    import tarfile

    monkeypatch.delattr(tarfile, "tar_filter")
    src = project(tmp_path / "p")
    out = unpack_directory(pack_directory(src), tmp_path / "out")
    assert (out / "link.py").is_symlink() and (out / "src" / "a.py").read_text() == "print(1)\n"
    for name, link in (("../evil.txt", None), ("/abs.txt", None), ("up", "../../etc/passwd")):
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w:gz") as tar:
            info = tarfile.TarInfo(name)
            if link:
                info.type, info.linkname = tarfile.SYMTYPE, link
                tar.addfile(info)
            else:
                info.size = 3
                tar.addfile(info, io.BytesIO(b"bad"))
        with pytest.raises(WorkspaceError, match="leads out of the directory"):
            unpack_directory(buf.getvalue(), tmp_path / f"x{len(name)}")
    assert not (tmp_path / "evil.txt").exists()


def test_unpacking_garbage_is_a_workspace_error(tmp_path):
    with pytest.raises(WorkspaceError, match="cannot unpack a working directory"):
        unpack_directory(b"not a tar", tmp_path / "x")


def test_each_directory_is_packed_once_and_the_drivers_paths_are_taken_out(tmp_path):
    a, b = project(tmp_path / "a"), project(tmp_path / "b")
    (b / "extra.txt").write_text("b\n")
    opts = EvalOptions(cwd=a, trace_dir=tmp_path / "traces", corpus_dir=tmp_path / "c", strategy="s0")
    jobs = [(Scenario(id="1", input="q"), 1, print, opts), (Scenario(id="2", input="q", cwd=b), 1, print, opts),
            (Scenario(id="3", input="q"), 2, print, opts), (Scenario(id="4", input="q", empty_workdir=True), 1, print, opts)]
    portable, packs = make_portable(jobs, default_corpus_factory)
    assert len(packs) == 2 and portable[0].source == portable[2].source != portable[1].source
    assert portable[3].source is None
    for pj in portable:
        assert pj.scenario.cwd is None and pj.opts.cwd is None and pj.opts.trace_dir is None
        assert pj.opts.corpus_dir is None and pj.keep_trace and pj.opts.strategy == "s0"
    assert [pj.index for pj in portable] == [0, 1, 2, 3]
    assert jobs[0][3].trace_dir == tmp_path / "traces"  # the caller's options are not changed


def test_a_trace_lands_by_its_bare_name_inside_the_trace_dir(tmp_path):
    res = ScenarioResult(id="x", passed=True, trace_path="/worker/tmp/run-1/traces/s0-x-1.jsonl")
    outcome = PortableOutcome(index=0, result=res, trace=("../../escape.jsonl", b'{"kind": "x"}\n'), pid=1,
                              model_loads=0)
    landed = land(outcome, tmp_path / "traces")
    assert landed.trace_path == str(tmp_path / "traces" / "escape.jsonl")
    assert not (tmp_path / "escape.jsonl").exists()
    gone = land(PortableOutcome(index=0, result=ScenarioResult(id="y", passed=True, trace_path="/w/t"), trace=None,
                                pid=1, model_loads=0), None)
    assert gone.trace_path is None  # the worker's path means nothing here
