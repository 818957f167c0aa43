"""Reading the fields the index needs out of a stored record.

Records come from our own writers but also from older files and other tools,
so every accessor tolerates missing or mistyped fields instead of raising.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Dict, List, Optional, Tuple

__all__ = ["TEXT_FIELDS", "MAX_FIELD_CHARS", "parse_timestamp", "text_field", "indexed_fields", "is_recovery",
           "record_facts", "format_timestamp"]

# The fields searched with BM25, in FTS column order (spec 000 §5.2's blob).
TEXT_FIELDS = ("goal", "step_description", "error", "llm_critique")
MAX_FIELD_CHARS = 16_384  # indexed prefix of each text field (display reads the stored record)


def parse_timestamp(value: Any) -> Optional[float]:
    """ISO-8601 (``Z`` or offset accepted; naive means UTC, as the spec's ``utcnow``) or epoch → epoch seconds."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if not isinstance(value, str) or not value:
        return None
    try:
        dt = datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    try:
        return dt.timestamp()
    except (OverflowError, OSError, ValueError):
        return None


def format_timestamp(epoch: Optional[float]) -> Optional[str]:
    if epoch is None:
        return None
    return datetime.fromtimestamp(epoch, tz=timezone.utc).isoformat()


def text_field(record: Dict[str, Any], name: str) -> str:
    value = record.get(name)
    if value is None:
        return ""
    return value if isinstance(value, str) else str(value)


def indexed_fields(record: Dict[str, Any]) -> List[str]:
    """The searched fields of ``record`` as every store indexes them (TEXT_FIELDS order, each cut)."""
    return [text_field(record, f)[:MAX_FIELD_CHARS] for f in TEXT_FIELDS]


def record_facts(record: Dict[str, Any]) -> Tuple[Optional[float], Optional[str], str, bool]:
    """``(epoch ts, outcome_status, event_type, recovery)``: what stores keep beside the text to filter and rank."""
    outcome = record.get("outcome_status")
    return (parse_timestamp(record.get("timestamp", record.get("ts"))),
            outcome if isinstance(outcome, str) else None,
            str(record.get("event_type") or record.get("kind") or ""),
            is_recovery(record))


def is_recovery(record: Dict[str, Any]) -> bool:
    """A record that documents getting past a failure (what spec 001 calls a recovery).

    Reflection events are recoveries by nature; engines may also mark an event
    with ``meta.recovered`` or ``meta.reflection_count > 0`` (a step that
    succeeded after at least one reflection).
    """
    if record.get("event_type") == "reflection":
        return True
    meta = record.get("meta")
    if isinstance(meta, dict):
        if meta.get("recovered") is True:
            return True
        count = meta.get("reflection_count")
        if isinstance(count, (int, float)) and not isinstance(count, bool) and count > 0:
            return True
    return False
