"""Turning a record into exactly one bounded, valid UTF-8 JSON line.

Three hazards are handled here so the log writer never has to think about them:
- tool output that is not UTF-8 (decode it with ``decode_output``: bad bytes
  become U+FFFD instead of an exception);
- lone surrogates in ``str`` values (from ``surrogateescape`` decoding or
  broken JSON), which ``str.encode("utf-8")`` refuses; they become U+FFFD;
- records whose line would exceed ``MAX_LINE_BYTES``: the longest string
  fields are shortened until it fits, and ``"truncated": true`` is added, so
  the stored line is still one valid JSON object.
"""

from __future__ import annotations

import json
from dataclasses import asdict, is_dataclass
from datetime import date, datetime
from enum import Enum
from pathlib import PurePath
from typing import Any, Dict, List, Tuple

__all__ = ["MAX_LINE_BYTES", "decode_output", "clean_text", "encode_record", "TRUNCATION_MARK"]

MAX_LINE_BYTES = 1 << 20  # 1 MiB per stored line, newline included
TRUNCATION_MARK = "…[truncated]"


def decode_output(data: "bytes | bytearray | memoryview | str | None") -> str:
    """Decode tool output that may not be UTF-8; undecodable bytes become U+FFFD."""
    if data is None:
        return ""
    if isinstance(data, str):
        return clean_text(data)
    return bytes(data).decode("utf-8", errors="replace")


def clean_text(text: str) -> str:
    """Return ``text`` with lone surrogates replaced by U+FFFD (valid pairs are joined)."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        # utf-16 with surrogatepass joins well-formed pairs; 'replace' marks the lone ones.
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def _jsonable(value: Any) -> Any:
    """``json.dumps`` fallback: common non-JSON values become their natural JSON form."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, PurePath):
        return str(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return decode_output(value)
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    to_dict = getattr(value, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    # Keep the information rather than refusing the whole record.
    return repr(value)


def _clean(obj: Any) -> Any:
    """Deep copy of ``obj`` with every string (keys included) passed through ``clean_text``."""
    if isinstance(obj, str):
        return clean_text(obj)
    if isinstance(obj, dict):
        return {(_clean(k) if isinstance(k, str) else k): _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    return obj


def _dumps(record: Any) -> bytes:
    return (json.dumps(record, ensure_ascii=False, default=_jsonable) + "\n").encode("utf-8")


def encode_record(record: Dict[str, Any], max_bytes: int = MAX_LINE_BYTES) -> bytes:
    """Encode ``record`` as one JSON line (UTF-8, newline-terminated) of at most ``max_bytes``."""
    if not isinstance(record, dict):
        raise TypeError(f"a corpus record must be a dict, got {type(record).__name__}")
    try:
        data = _dumps(record)
    except UnicodeEncodeError:
        record = _clean(json.loads(json.dumps(record, ensure_ascii=True, default=_jsonable)))
        data = _dumps(record)
    except ValueError as exc:  # circular reference, NaN handling never raises by default
        raise TypeError(f"record cannot be encoded as JSON: {exc}") from None
    if len(data) <= max_bytes:
        return data
    return _shrink(json.loads(data), len(data), max_bytes)


# --- truncation -----------------------------------------------------------

Path_ = Tuple[Any, ...]


def _string_leaves(obj: Any, path: Path_, out: List[Tuple[Path_, str]]) -> None:
    if isinstance(obj, str):
        out.append((path, obj))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            _string_leaves(v, path + (k,), out)
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            _string_leaves(v, path + (i,), out)


def _set(obj: Any, path: Path_, value: Any) -> None:
    for part in path[:-1]:
        obj = obj[part]
    obj[path[-1]] = value


def _cut(text: str, max_bytes: int) -> str:
    """Longest prefix of ``text`` whose JSON-escaped UTF-8 size is about ``max_bytes``, plus a mark."""
    if max_bytes <= 0:
        return TRUNCATION_MARK
    size = len(json.dumps(text, ensure_ascii=False).encode("utf-8"))
    keep = max(0, int(len(text) * max_bytes / max(size, 1)))
    return text[:keep] + TRUNCATION_MARK


def _shrink(record: Dict[str, Any], original_size: int, max_bytes: int) -> bytes:
    """Water-fill: cap every string at the largest size L that makes the line fit."""
    leaves: List[Tuple[Path_, str]] = []
    _string_leaves(record, (), leaves)
    sizes = [len(json.dumps(s, ensure_ascii=False).encode("utf-8")) for _, s in leaves]
    # Room for the mark on each cut string and for the two added keys.
    overhead = original_size - sum(sizes) + 80
    budget = max_bytes - overhead
    lo, hi = 0, max(sizes, default=0)
    while lo < hi:  # largest L with sum(min(size, L) + mark) <= budget
        mid = (lo + hi + 1) // 2
        need = sum(min(s, mid) + (len(TRUNCATION_MARK) * 3 if s > mid else 0) for s in sizes)
        if need <= budget:
            lo = mid
        else:
            hi = mid - 1
    cap = lo
    for _ in range(8):  # escaping makes the estimate slightly optimistic: tighten until it fits
        trial = json.loads(json.dumps(record, ensure_ascii=False))
        for (path, text), size in zip(leaves, sizes):
            if size > cap:
                if path:
                    _set(trial, path, _cut(text, cap))
        trial["truncated"] = True
        trial["original_bytes"] = original_size
        data = _dumps(trial)
        if len(data) <= max_bytes:
            return data
        cap = int(cap * 0.8)
    # Not made of long strings (huge lists, thousands of keys): keep what identifies it.
    keep = {k: record[k] for k in ("timestamp", "session_id", "event_type", "kind", "ts") if k in record}
    keep = {k: (_cut(v, 4096) if isinstance(v, str) and len(v) > 4096 else v) for k, v in keep.items()}
    if isinstance(record.get("goal"), str):
        keep["goal"] = record["goal"][:4096]
    keep["truncated"] = True
    keep["original_bytes"] = original_size
    return _dumps(keep)
