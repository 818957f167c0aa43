"""`ragix run --resume SESSION` refuses what it cannot resume, saying why and what to do instead."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from ragix_core.cli import app
from ragix_core.runtime.run_control import RunRecord, save_record


def _resume(*args: str):
    result = CliRunner().invoke(app, ["run", *args])
    return result.exit_code, " ".join(result.output.split())  # rich wraps long lines


def _record(tmp_path: Path, sid: str, strategy: str = "graph_v30", checkpoint: dict = None) -> Path:
    path = save_record(RunRecord(sid, "How many lines?", str(tmp_path), strategy))
    if checkpoint is not None:
        path.write_text(json.dumps(checkpoint))
    return path


def test_unknown_session_and_bad_ids(home):
    code, out = _resume("--resume", "20990101T000000-nothere")
    assert code == 2 and "no run '20990101T000000-nothere'" in out
    code, out = _resume("--resume", "../etc")
    assert code == 2 and "session id" in out


def test_a_finished_run_has_nothing_to_resume(home, tmp_path):
    _record(tmp_path, "done-1", checkpoint={"version": 1, "next_node": "END", "iterations": 5,
                                            "state": {"stop_reason": "success"}})
    code, out = _resume("--resume", "done-1")
    assert code == 2 and "finished (stop reason: success)" in out


def test_an_engine_without_checkpoints_says_start_again(home, tmp_path):
    _record(tmp_path, "res-1", strategy="research")
    code, out = _resume("--resume", "res-1")
    assert code == 2 and "keeps no checkpoint" in out and "--strategy research" in out


def test_a_run_stopped_before_its_first_checkpoint(home, tmp_path):
    _record(tmp_path, "early-1")
    code, out = _resume("--resume", "early-1")
    assert code == 2 and "no checkpoint yet" in out


def test_a_garbled_checkpoint_is_named(home, tmp_path):
    path = _record(tmp_path, "bad-1")
    path.write_text('{"version": 1, "next_node": "EXECUTE", "iter')
    code, out = _resume("--resume", "bad-1")
    assert code == 2 and "checkpoint" in out and "cannot be read" in out


def test_resume_takes_the_runs_own_settings(home, tmp_path):
    code, out = _resume("--resume", "x-1", "--strategy", "s0", "another goal")
    assert code == 2 and "leave out GOAL, --strategy" in out
    code, out = _resume()
    assert code == 2 and "give a GOAL, or --resume SESSION" in out


def test_saving_a_run_removes_the_oldest_beyond_the_kept_count_and_nothing_of_the_users(home: Path, tmp_path: Path):
    import os

    from ragix_core.runtime.run_control import prune_runs, runs_dir

    for n in range(5):
        path = _record(tmp_path, f"s{n}")
        os.utime(path.parent / "run.json", (1000 + n, 1000 + n))  # s0 oldest ... s4 newest
    (runs_dir() / "s1" / "notes.txt").write_text("mine")  # something the user put there
    _record(tmp_path, "s0", checkpoint={"next_node": "PLAN"})  # s0 resumed: its checkpoint is the newest write
    (runs_dir() / "s0" / "run.json").touch()
    os.utime(runs_dir() / "s0" / "run.json", (999, 999))
    removed = prune_runs(2, protect="s4")
    assert sorted(p.name for p in removed) == ["s2", "s3"]  # s1 holds the user's file; s0 was written last
    assert sorted(p.name for p in runs_dir().iterdir()) == ["s0", "s1", "s4"]
    assert (runs_dir() / "s1" / "notes.txt").read_text() == "mine"


def test_save_record_keeps_the_run_it_saves_even_with_a_count_of_one(home: Path, tmp_path: Path):
    from ragix_core.runtime.run_control import runs_dir

    _record(tmp_path, "old")
    save_record(RunRecord("new", "How many lines?", str(tmp_path), "graph_v30"), keep=1)
    assert [p.name for p in runs_dir().iterdir()] == ["new"]
