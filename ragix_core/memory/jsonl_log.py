"""A crash-safe, multi-process append-only JSONL file.

Why this shape:
- Each record is written with ONE ``os.write`` of the whole encoded line while
  holding an exclusive ``flock``. ``json.dump`` + ``write("\\n")`` through a
  buffered file was measured to interleave lines between processes here; one
  write under the lock does not.
- ``os.write`` on a full disk may write part of the line and return a short
  count without raising. Any short write or ``OSError`` truncates the file back
  to its pre-write size and raises ``CorpusWriteError``: the file is left
  byte-identical to before.
- A writer killed with SIGKILL (or a power cut) can leave a partial last line.
  The next writer repairs it under the lock before appending: a tail that is
  valid JSON only lacks its newline and gets one; anything else is moved to
  ``<file>.quarantine`` (kept, not destroyed) and cut from the log.
- ``prune``-style rewrites replace the file by rename. A writer that was
  waiting on the old inode's lock notices the swap and reopens the path.

Readers never load the whole file: ``LogReader`` streams records, can start
from a byte offset (incremental indexing) and counts what it skips.
"""

from __future__ import annotations

import fcntl
import json
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Tuple

from ragix_core.core.interrupt import no_interrupt

from .encoding import encode_record
from .errors import CorpusReadError, CorpusWriteError

__all__ = ["JsonlLog", "LogReader", "RewriteResult", "CHUNK_BYTES"]

CHUNK_BYTES = 4 << 20  # bulk appends go out in writes of at most this size
_OPEN_FLAGS = os.O_RDWR | os.O_CREAT | os.O_APPEND | getattr(os, "O_CLOEXEC", 0)


class RewriteResult:
    """What a ``JsonlLog.rewrite`` did."""

    __slots__ = ("kept", "removed", "quarantined")

    def __init__(self, kept: int = 0, removed: int = 0, quarantined: int = 0) -> None:
        self.kept, self.removed, self.quarantined = kept, removed, quarantined

    def as_dict(self) -> Dict[str, int]:
        return {"kept": self.kept, "removed": self.removed, "quarantined": self.quarantined}


class LogReader:
    """Streams the records of a JSONL file from ``start`` (a line start).

    After (or during) iteration: ``records`` yielded, ``skipped`` corrupt lines
    (invalid JSON or not an object), ``partial_tail`` True if the file ends with
    an unterminated line (crashed or in-progress writer; it is neither parsed
    nor counted in ``end_offset``), ``end_offset`` the byte after the last
    complete line read.
    """

    def __init__(self, path: "os.PathLike[str] | str", start: int = 0, stop: Optional[int] = None) -> None:
        self.path = Path(path)
        self.start = start
        self.stop = stop
        self.records = 0
        self.skipped = 0
        self.partial_tail = False
        self.end_offset = start

    def __iter__(self) -> Iterator[Tuple[int, Dict[str, Any]]]:
        """Yield ``(offset, record)`` for every valid line."""
        try:
            f = open(self.path, "rb")
        except FileNotFoundError:
            return
        except OSError as exc:
            raise CorpusReadError(self.path, exc) from None
        with f:
            if self.start:
                f.seek(self.start - 1)
                if f.read(1) != b"\n":
                    raise CorpusReadError(self.path, f"offset {self.start} is not the start of a line")
            offset = self.start
            for line in f:
                if self.stop is not None and offset >= self.stop:
                    break
                end = offset + len(line)
                if not line.endswith(b"\n"):
                    self.partial_tail = True
                    break
                self.end_offset = end
                try:
                    obj = json.loads(line)
                except ValueError:  # JSONDecodeError and UnicodeDecodeError
                    obj = None
                if isinstance(obj, dict):
                    self.records += 1
                    yield offset, obj
                elif line.strip():  # blank lines are not corruption
                    self.skipped += 1
                offset = end


class JsonlLog:
    """Append-only JSONL file shared by processes (see the module docstring)."""

    def __init__(self, path: "os.PathLike[str] | str") -> None:
        self.path = Path(path)
        self.quarantine_path = self.path.with_name(self.path.name + ".quarantine")
        self.repairs = 0  # partial tails repaired by this object

    # --- locking ------------------------------------------------------------

    @contextmanager
    def locked(self) -> Iterator[int]:
        """Hold the exclusive lock on the current file; yields a read-write fd (O_APPEND)."""
        while True:
            try:
                fd = os.open(self.path, _OPEN_FLAGS, 0o644)
            except FileNotFoundError:  # first write: create the directory (once, not per append)
                try:
                    self.path.parent.mkdir(parents=True, exist_ok=True)
                    fd = os.open(self.path, _OPEN_FLAGS, 0o644)
                except OSError as exc:
                    raise CorpusWriteError(self.path, exc) from None
            except OSError as exc:
                raise CorpusWriteError(self.path, exc) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                try:
                    current = os.stat(self.path)
                except FileNotFoundError:
                    current = None
                mine = os.fstat(fd)
                if current is None or (current.st_ino, current.st_dev) != (mine.st_ino, mine.st_dev):
                    # Replaced (rewrite) or deleted while we waited: lock the file now at the path.
                    os.close(fd)
                    fd = -1
                    continue
                yield fd
                return
            finally:
                if fd >= 0:
                    os.close(fd)  # closing releases the flock

    # --- writing ------------------------------------------------------------

    def append(self, record: Dict[str, Any]) -> int:
        """Append one record as one line; returns the byte offset where it starts."""
        return self.append_encoded([encode_record(record)])

    def append_many(self, records: Iterable[Dict[str, Any]]) -> int:
        """Append records all-or-nothing under one lock (bulk path); returns the start offset."""
        return self.append_encoded([encode_record(r) for r in records])

    def append_encoded(self, lines: List[bytes]) -> int:
        if not lines:
            return self.size()
        chunks = _chunks(lines, CHUNK_BYTES)
        with no_interrupt(), self.locked() as fd:  # Ctrl-C waits for the line: no torn record
            try:
                start = self._repair_tail(fd)
            except OSError as exc:  # EIO and the like while reading the tail
                raise CorpusWriteError(self.path, exc) from None
            for chunk in chunks:
                try:
                    n = os.write(fd, chunk)
                except OSError as exc:
                    self._rollback(fd, start)
                    raise CorpusWriteError(self.path, exc) from None
                if n != len(chunk):
                    self._rollback(fd, start)
                    raise CorpusWriteError(
                        self.path, f"short write ({n} of {len(chunk)} bytes; disk full?)"
                    )
            return start

    def _rollback(self, fd: int, size: int) -> None:
        try:
            os.ftruncate(fd, size)
        except OSError:
            pass  # truncating to a smaller size does not need space; nothing more to do

    def _repair_tail(self, fd: int) -> int:
        """Make the file end with a newline (we hold the lock); returns the size after repair."""
        size = os.fstat(fd).st_size
        if size == 0 or os.pread(fd, 1, size - 1) == b"\n":
            return size
        # Find the start of the unterminated last line, reading backwards.
        with open(self.path, "rb") as f:
            pos = size
            line_start = 0
            while pos > 0:
                step = min(65536, pos)
                f.seek(pos - step)
                block = f.read(step)
                nl = block.rfind(b"\n")
                if nl >= 0:
                    line_start = pos - step + nl + 1
                    break
                pos -= step
            f.seek(line_start)
            tail = f.read()
        self.repairs += 1
        try:
            complete = isinstance(json.loads(tail), dict)
        except ValueError:
            complete = False
        if complete:  # only the newline was lost: keep the record
            try:
                if os.write(fd, b"\n") == 1:
                    return size + 1
                raise OSError(28, os.strerror(28))
            except OSError as exc:
                raise CorpusWriteError(self.path, exc) from None
        try:
            with open(self.quarantine_path, "ab") as q:
                q.write(tail + b"\n")
        except OSError:
            pass  # no room to keep the fragment: still cut it, or the log stays unappendable
        try:
            os.ftruncate(fd, line_start)
        except OSError as exc:
            raise CorpusWriteError(self.path, exc) from None
        return line_start

    # --- reading ------------------------------------------------------------

    def size(self) -> int:
        try:
            return self.path.stat().st_size
        except FileNotFoundError:
            return 0
        except OSError as exc:
            raise CorpusReadError(self.path, exc) from None

    def reader(self, start: int = 0, stop: Optional[int] = None) -> LogReader:
        return LogReader(self.path, start, stop)

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        for _, record in self.reader():
            yield record

    def read_at(self, offset: int) -> Optional[Dict[str, Any]]:
        """The record whose line starts at ``offset`` (None if that line is not a valid record)."""
        try:
            with open(self.path, "rb") as f:
                f.seek(offset)
                line = f.readline()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise CorpusReadError(self.path, exc) from None
        if not line.endswith(b"\n"):
            return None
        try:
            obj = json.loads(line)
        except ValueError:
            return None
        return obj if isinstance(obj, dict) else None

    def read_many(self, offsets: List[int]) -> List[Optional[Dict[str, Any]]]:
        """``read_at`` for several offsets with one open file (search results)."""
        out: List[Optional[Dict[str, Any]]] = []
        if not offsets:
            return out
        try:
            f = open(self.path, "rb")
        except FileNotFoundError:
            return [None] * len(offsets)
        except OSError as exc:
            raise CorpusReadError(self.path, exc) from None
        with f:
            for offset in offsets:
                f.seek(offset)
                line = f.readline()
                try:
                    obj = json.loads(line) if line.endswith(b"\n") else None
                except ValueError:
                    obj = None
                out.append(obj if isinstance(obj, dict) else None)
        return out

    # --- rewriting ----------------------------------------------------------

    def rewrite(self, keep: Callable[[Dict[str, Any]], bool]) -> RewriteResult:
        """Atomically replace the file with the records for which ``keep`` is true.

        Under the lock: stream the file into a temp file in the same directory,
        fsync it, rename it over the log, fsync the directory. Corrupt lines are
        moved to the quarantine file, not dropped silently.
        """
        result = RewriteResult()
        tmp = self.path.with_name(f".{self.path.name}.tmp-{os.getpid()}")
        with self.locked() as fd:
            self._repair_tail(fd)
            try:
                with open(self.path, "rb") as src, open(tmp, "wb") as dst, open(
                    self.quarantine_path, "ab"
                ) as quarantine:
                    for line in src:
                        try:
                            obj = json.loads(line)
                        except ValueError:
                            obj = None
                        if not isinstance(obj, dict):
                            if line.strip():
                                quarantine.write(line if line.endswith(b"\n") else line + b"\n")
                                result.quarantined += 1
                            continue
                        if keep(obj):
                            dst.write(line)
                            result.kept += 1
                        else:
                            result.removed += 1
                    dst.flush()
                    os.fsync(dst.fileno())
                if result.quarantined == 0 and self.quarantine_path.stat().st_size == 0:
                    self.quarantine_path.unlink()
                os.replace(tmp, self.path)
                _fsync_dir(self.path.parent)
            except OSError as exc:
                try:
                    tmp.unlink()
                except OSError:
                    pass
                raise CorpusWriteError(self.path, exc) from None
        return result


def _chunks(lines: List[bytes], limit: int) -> List[bytes]:
    out: List[bytes] = []
    buf: List[bytes] = []
    size = 0
    for line in lines:
        if buf and size + len(line) > limit:
            out.append(b"".join(buf))
            buf, size = [], 0
        buf.append(line)
        size += len(line)
    if buf:
        out.append(b"".join(buf))
    return out


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
