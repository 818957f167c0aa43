"""Session trace files written from the event bus."""

from __future__ import annotations

import errno
import os

import pytest

from ragix_core.core.events import EventBus, EventKind
from ragix_core.memory import jsonl_log
from ragix_core.memory.errors import InvalidSessionId
from ragix_core.memory.traces import (
    TRUNCATED_KIND,
    TraceWriter,
    default_trace_dirs,
    find_trace,
    read_trace,
    validate_session_id,
)


def test_writer_records_bus_events_of_its_session(tmp_path):
    bus = EventBus()
    writer = TraceWriter(tmp_path / "traces", "run-1")
    bus.subscribe(writer)
    bus.publish(EventKind.RUN_START, "run-1", goal="find files")
    bus.publish(EventKind.NODE_ENTER, "other-run", node="PLAN")  # another session on the same bus
    bus.publish(EventKind.TOOL_CALL, "run-1", tool="ls", stdout=b"bytes \xff".decode("utf-8", "replace"))
    records = read_trace(tmp_path / "traces" / "run-1.jsonl")
    assert [r["kind"] for r in records] == ["run_start", "tool_call"]
    assert records[0]["data"] == {"goal": "find files"} and records[0]["session_id"] == "run-1"
    assert isinstance(records[0]["ts"], float)


def test_cap_writes_one_marker_then_stops(tmp_path):
    bus = EventBus()
    writer = TraceWriter(tmp_path, "s", max_per_session=3)
    bus.subscribe(writer)
    for i in range(10):
        bus.publish(EventKind.LLM_CALL, "s", i=i)
    records = read_trace(writer.path)
    assert [r["kind"] for r in records] == ["llm_call"] * 3 + [TRUNCATED_KIND]
    assert records[-1]["data"] == {"max_per_session": 3, "first_dropped_kind": "llm_call"}
    assert writer.stopped
    # A resumed writer for the same session sees the marker and writes nothing more.
    again = TraceWriter(tmp_path, "s", max_per_session=3)
    bus.subscribe(again)
    bus.publish(EventKind.RUN_END, "s")
    assert len(read_trace(writer.path)) == 4


def test_resumed_session_continues_counting(tmp_path):
    bus = EventBus()
    bus.subscribe(TraceWriter(tmp_path, "s", max_per_session=4))
    bus.publish(EventKind.RUN_START, "s")
    bus.publish(EventKind.NODE_ENTER, "s")
    bus2 = EventBus()
    bus2.subscribe(TraceWriter(tmp_path, "s", max_per_session=4))
    for _ in range(5):
        bus2.publish(EventKind.NODE_EXIT, "s")
    kinds = [r["kind"] for r in read_trace(tmp_path / "s.jsonl")]
    assert kinds == ["run_start", "node_enter", "node_exit", "node_exit", TRUNCATED_KIND]


def test_write_failure_is_reported_once_and_never_raises(tmp_path, monkeypatch, capsys):
    bus = EventBus()
    writer = TraceWriter(tmp_path, "s")
    bus.subscribe(writer)

    def full(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(jsonl_log.os, "write", full)
    bus.publish(EventKind.RUN_START, "s")
    bus.publish(EventKind.RUN_END, "s")
    monkeypatch.undo()
    err = capsys.readouterr().err
    assert err.count("ENOSPC") == 1 and "trace writing stopped" in err
    assert writer.error is not None and writer.stopped


@pytest.mark.parametrize("bad", ["", "a/b", "../x", "..", ".hidden", "a\x00b", "a\nb", "tab\tid", " x",
                                 "x" * 201, "a\\b", "bidi\u202e", 42, None])
def test_unsafe_session_ids_are_rejected_with_a_reason(tmp_path, bad):
    with pytest.raises(InvalidSessionId) as info:
        TraceWriter(tmp_path, bad)
    assert "session id" in str(info.value)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("good", ["test-bypass", "2026-11-26T01:02:03_abc", "run.1", "日本"])
def test_ordinary_session_ids_pass(good):
    assert validate_session_id(good) == good


def test_find_trace_searches_dirs_in_order(tmp_path, ragix_home):
    a, b = tmp_path / "a", tmp_path / "b"
    TraceWriter(b, "sess").write({"kind": "run_start"})
    assert find_trace("sess", [a, b]) == b / "sess.jsonl"
    TraceWriter(a, "sess").write({"kind": "run_start"})
    assert find_trace("sess", [a, b]) == a / "sess.jsonl"
    assert find_trace("missing", [a, b]) is None
    with pytest.raises(InvalidSessionId):
        find_trace("../etc/passwd", [a])
    dirs = default_trace_dirs(tmp_path / "proj")
    assert dirs == [tmp_path / "proj" / ".ragix" / "reasoning_traces", ragix_home / "experience" / "traces"]


def test_read_trace_skips_damage(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"kind": "run_start"}\ngarbage\n{"kind": "run_end"}\n{"kind": "par')
    assert [r["kind"] for r in read_trace(path)] == ["run_start", "run_end"]


def test_writer_from_config(tmp_path):
    from ragix_core.memory.traces import trace_writer_from_config
    from ragix_core.reasoning_v30.config import TracesSection

    writer = trace_writer_from_config(TracesSection(max_per_session=2), tmp_path, "cfg-run")
    assert writer.path == tmp_path / ".ragix" / "reasoning_traces" / "cfg-run.jsonl"
    assert writer.max_per_session == 2
    assert trace_writer_from_config(TracesSection(enabled=False), tmp_path, "x") is None
    out = trace_writer_from_config(TracesSection(output_dir=str(tmp_path / "abs")), tmp_path / "p", "y")
    assert out.path == tmp_path / "abs" / "y.jsonl"
