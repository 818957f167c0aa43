"""The crash-safe JSONL log: concurrency, crashes, full disks, bad input."""

from __future__ import annotations

import errno
import json
import multiprocessing as mp
import os
import signal
import subprocess
import sys
import time

import pytest

from ragix_core.memory import jsonl_log
from ragix_core.memory.encoding import MAX_LINE_BYTES, decode_output
from ragix_core.memory.errors import CorpusWriteError
from ragix_core.memory.jsonl_log import JsonlLog, LogReader

WRITERS = 4
PER_WRITER = 10_000


def _writer(path: str, wid: int, n: int) -> None:
    log = JsonlLog(path)
    for i in range(n):
        # Every 10th line is larger than a stdio buffer (up to 20 KB): a buffered
        # json.dump + write("\n") splits those into several writes that interleave.
        size = (i * 37) % 20_000 if i % 10 == 0 else (i * 37) % 600
        log.append({"w": wid, "i": i, "pad": "x" * size, "text": "é€😀"})


def test_concurrent_appends_keep_every_line_intact(tmp_path):
    path = tmp_path / "events.jsonl"
    ctx = mp.get_context("spawn")  # not fork: earlier tests leave llama.cpp threads in this process
    procs = [ctx.Process(target=_writer, args=(str(path), w, PER_WRITER)) for w in range(WRITERS)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
        assert p.exitcode == 0
    seen = {w: [] for w in range(WRITERS)}
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    assert lines[-1] == b""  # ends with a newline
    for line in lines[:-1]:
        rec = json.loads(line)  # every line parses on its own
        assert rec["pad"] == "x" * len(rec["pad"]) and rec["text"] == "é€😀"
        seen[rec["w"]].append(rec["i"])
    assert len(lines) - 1 == WRITERS * PER_WRITER
    for w in range(WRITERS):
        assert seen[w] == list(range(PER_WRITER))  # per writer: complete and in order


def test_partial_last_line_is_skipped_then_repaired(tmp_path):
    log = JsonlLog(tmp_path / "e.jsonl")
    for i in range(5):
        log.append({"i": i})
    with open(log.path, "ab") as f:  # what kill -9 in the middle of a write leaves
        f.write(b'{"i": 5, "goal": "half writ')
    reader = log.reader()
    assert [r["i"] for _, r in reader] == [0, 1, 2, 3, 4]
    assert reader.partial_tail is True and reader.skipped == 0
    assert reader.end_offset < log.size()

    log.append({"i": 6})
    data = log.path.read_bytes()
    assert data.endswith(b"\n")
    reader = log.reader()
    assert [r["i"] for _, r in reader] == [0, 1, 2, 3, 4, 6]
    assert reader.partial_tail is False and reader.skipped == 0
    # The fragment was kept aside, not destroyed.
    assert log.quarantine_path.read_bytes() == b'{"i": 5, "goal": "half writ\n'
    assert log.repairs == 1


def test_complete_record_missing_only_its_newline_is_kept(tmp_path):
    log = JsonlLog(tmp_path / "e.jsonl")
    log.append({"i": 0})
    with open(log.path, "ab") as f:
        f.write(b'{"i": 1}')
    log.append({"i": 2})
    assert [r["i"] for r in log] == [0, 1, 2]
    assert not log.quarantine_path.exists()


_KILL_CHILD = r"""
import sys
from ragix_core.memory.jsonl_log import JsonlLog
log = JsonlLog(sys.argv[1])
i = 0
print("ready", flush=True)
while True:
    log.append({"i": i, "blob": "y" * 300_000})
    i += 1
"""


def test_sigkill_during_appends_leaves_a_readable_appendable_log(tmp_path):
    path = tmp_path / "e.jsonl"
    child = subprocess.Popen([sys.executable, "-c", _KILL_CHILD, str(path)], stdout=subprocess.PIPE)
    assert child.stdout.readline().strip() == b"ready"
    while not path.exists() or path.stat().st_size < 3_000_000:  # let it write a few records
        time.sleep(0.01)
    child.send_signal(signal.SIGKILL)
    child.wait()
    child.stdout.close()
    # Simulate the worst case on top: the kill landed mid-line.
    with open(path, "ab") as f:
        f.write(b'{"i": -1, "blob": "yyyy')
    reader = LogReader(path)
    got = [r["i"] for _, r in reader]
    assert got == list(range(len(got))) and len(got) >= 10
    assert reader.partial_tail and reader.skipped == 0

    JsonlLog(path).append({"i": "after"})
    reader = LogReader(path)
    after = [r["i"] for _, r in reader]
    assert after == got + ["after"]
    assert not reader.partial_tail and reader.skipped == 0
    assert path.read_bytes().endswith(b"\n")


def _patched_write(monkeypatch, fake):
    monkeypatch.setattr(jsonl_log.os, "write", fake)


def test_enospc_restores_the_file_and_names_path_and_cause(tmp_path, monkeypatch):
    log = JsonlLog(tmp_path / "e.jsonl")
    log.append({"i": 0})
    before = log.path.read_bytes()

    def full(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with monkeypatch.context() as m:
        _patched_write(m, full)
        with pytest.raises(CorpusWriteError) as info:
            log.append({"i": 1})
    assert str(log.path) in str(info.value) and "ENOSPC" in str(info.value)
    assert info.value.errno == errno.ENOSPC
    assert log.path.read_bytes() == before


def test_short_write_is_rolled_back(tmp_path, monkeypatch):
    log = JsonlLog(tmp_path / "e.jsonl")
    log.append({"i": 0})
    before = log.path.read_bytes()
    real_write = os.write

    def half(fd, data):  # what a nearly full disk does: writes part, returns the count, no error
        return real_write(fd, bytes(data[: len(data) // 2]))

    with monkeypatch.context() as m:
        _patched_write(m, half)
        with pytest.raises(CorpusWriteError, match="short write"):
            log.append({"i": 1, "pad": "z" * 1000})
    assert log.path.read_bytes() == before
    log.append({"i": 2})
    assert [r["i"] for r in log] == [0, 2]


def test_bulk_append_is_all_or_nothing(tmp_path, monkeypatch):
    log = JsonlLog(tmp_path / "e.jsonl")
    log.append({"i": 0})
    before = log.path.read_bytes()
    monkeypatch.setattr(jsonl_log, "CHUNK_BYTES", 200)
    real_write = os.write
    calls = []

    def second_fails(fd, data):
        calls.append(len(data))
        if len(calls) == 2:
            raise OSError(errno.EDQUOT, os.strerror(errno.EDQUOT))
        return real_write(fd, data)

    with monkeypatch.context() as m:
        _patched_write(m, second_fails)
        with pytest.raises(CorpusWriteError, match="EDQUOT"):
            log.append_many([{"i": i, "pad": "p" * 100} for i in range(1, 10)])
    assert len(calls) == 2
    assert log.path.read_bytes() == before
    log.append_many([{"i": i} for i in range(1, 4)])
    assert [r["i"] for r in log] == [0, 1, 2, 3]


def test_real_full_filesystem(tmp_path):
    mnt = tmp_path / "tiny"
    mnt.mkdir()
    res = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mnt)], capture_output=True)
    if res.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {res.stderr.decode(errors='replace').strip()}")
    try:
        log = JsonlLog(mnt / "e.jsonl")
        written = 0
        with pytest.raises(CorpusWriteError) as info:
            for i in range(10_000):
                before = log.path.read_bytes() if log.path.exists() else b""
                log.append({"i": i, "pad": "q" * 3000})
                written += 1
        assert info.value.errno in (errno.ENOSPC, None)  # None: a short write was detected
        assert str(log.path) in str(info.value)
        assert log.path.read_bytes() == before  # byte-identical to before the failed append
        reader = log.reader()
        assert [r["i"] for _, r in reader] == list(range(written))
        assert reader.skipped == 0 and not reader.partial_tail
    finally:
        subprocess.run(["umount", str(mnt)], check=False)


def test_corrupt_lines_are_skipped_and_counted(tmp_path):
    path = tmp_path / "e.jsonl"
    path.write_bytes(
        b'{"i": 0}\n'
        b"not json at all\n"
        b"[1, 2, 3]\n"  # valid JSON but not a record
        b'{"i": 1}\n'
        b"\n"  # blank lines are not corruption
        b'{"i": \xff\xfe}\n'  # invalid UTF-8
        b'{"i": 2}\n'
    )
    reader = LogReader(path)
    assert [r["i"] for _, r in reader] == [0, 1, 2]
    assert reader.skipped == 3 and reader.records == 3 and not reader.partial_tail


def test_reader_resumes_from_an_offset(tmp_path):
    log = JsonlLog(tmp_path / "e.jsonl")
    for i in range(3):
        log.append({"i": i})
    first = log.reader()
    list(first)
    for i in range(3, 5):
        log.append({"i": i})
    rest = log.reader(start=first.end_offset)
    assert [r["i"] for _, r in rest] == [3, 4]


def test_oversized_record_is_truncated_but_valid(tmp_path):
    log = JsonlLog(tmp_path / "e.jsonl")
    big = "line of tool output\n" * 200_000  # ~4 MB
    log.append({"goal": "dump", "stdout": big, "stderr": "E" * 500_000, "returncode": 0})
    raw = log.path.read_bytes()
    assert len(raw) <= MAX_LINE_BYTES
    lines = raw.split(b"\n")
    assert len(lines) == 2 and lines[1] == b""
    rec = json.loads(lines[0])
    assert rec["truncated"] is True and rec["original_bytes"] > MAX_LINE_BYTES
    assert rec["goal"] == "dump" and rec["returncode"] == 0  # short fields untouched
    assert big.startswith(rec["stdout"].split("…[truncated]")[0])
    assert len(rec["stdout"]) < len(big)
    assert len(lines[0]) + 1 <= MAX_LINE_BYTES


def test_many_medium_fields_and_escapes_still_fit(tmp_path):
    log = JsonlLog(tmp_path / "e.jsonl")
    rec = {f"f{i}": '"\\\n\t' * 20_000 for i in range(30)}  # escaping doubles the size
    log.append(rec)
    raw = log.path.read_bytes()
    assert len(raw) <= MAX_LINE_BYTES
    assert json.loads(raw)["truncated"] is True


def test_non_utf8_output_and_lone_surrogates(tmp_path):
    text = decode_output(b"ok \xff\xfe bad \xc3")
    assert text == "ok \ufffd\ufffd bad \ufffd"
    log = JsonlLog(tmp_path / "e.jsonl")
    raw_name = os.fsdecode(b"file-\xff.txt")  # surrogateescape: contains a lone surrogate
    log.append({"stdout": raw_name, "pair": "\ud83d\ude00", "meta": {"k\udc80": 1}})
    (rec,) = list(log)
    assert rec["stdout"] == "file-\ufffd.txt"
    assert rec["pair"] == "😀"  # a well-formed surrogate pair is joined, not replaced
    assert rec["meta"] == {"k\ufffd": 1}


def test_non_dict_record_is_a_clear_error(tmp_path):
    with pytest.raises(TypeError, match="must be a dict"):
        JsonlLog(tmp_path / "e.jsonl").append(["not", "a", "dict"])


def _appender(path: str, n: int) -> None:
    log = JsonlLog(path)
    for i in range(n):
        log.append({"i": i})


def test_rewrite_while_another_process_appends_loses_nothing(tmp_path):
    path = tmp_path / "e.jsonl"
    log = JsonlLog(path)
    log.append({"i": -1})
    ctx = mp.get_context("spawn")  # not fork: earlier tests leave llama.cpp threads in this process
    child = ctx.Process(target=_appender, args=(str(path), 3000))
    child.start()
    rewrites = 0
    while child.is_alive() or rewrites < 3:
        log.rewrite(lambda r: True)  # replaces the file by rename each time
        rewrites += 1
        time.sleep(0.002)  # flock is not fair: without a pause this loop can starve the appender
    child.join()
    assert child.exitcode == 0
    got = [r["i"] for r in log]
    assert got == [-1] + list(range(3000))
