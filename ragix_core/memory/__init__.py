"""Durable memory of ragix runs: crash-safe JSONL logs, their search index, session traces.

Submodules are imported on demand by their users; this package itself only
re-exports the light, dependency-free pieces.
"""

from .encoding import MAX_LINE_BYTES, decode_output
from .errors import CorpusError, CorpusReadError, CorpusWriteError, InvalidSessionId
from .jsonl_log import JsonlLog, LogReader

__all__ = [
    "MAX_LINE_BYTES",
    "decode_output",
    "CorpusError",
    "CorpusReadError",
    "CorpusWriteError",
    "InvalidSessionId",
    "JsonlLog",
    "LogReader",
]
