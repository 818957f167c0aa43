"""The context the agents read: index hits as NLWeb-like items, labelled S1, S2, ... in order.

A label is what the model cites; the engine maps it back to the chunk, its document path
and its tier, so a path in a citation always comes from the index, never from the model.
Items are appended only (a gap search adds to the end), which keeps the prompt's prefix,
and so llama.cpp's prompt cache, valid from one call to the next.
"""

from __future__ import annotations

import re
from typing import Any, Dict, Iterable, List, Optional, Tuple

from ragix_core.core.text import bounded

from .index import Hit

__all__ = ["Context", "item_of", "normalize_label"]

_LABEL = re.compile(r"\[?\s*S\s*(\d{1,3})\s*\]?\Z", re.I)


def item_of(hit: Hit, source: str) -> Dict[str, Any]:
    """A hit in the NLWeb item shape the tier filter reads (``site`` = its source)."""
    return {"url": hit.path, "name": hit.title or hit.path, "site": source, "description": hit.text,
            "path": hit.path, "chunk": hit.chunk, "heading": hit.heading, "score": hit.score, "date": hit.date}


def normalize_label(value: str) -> Optional[str]:
    """"S3", "[S3]", "s 3" -> "S3"; None when it is not a label."""
    m = _LABEL.match(str(value or "").strip())
    return f"S{int(m.group(1))}" if m else None


class Context:
    def __init__(self, max_chunks: int = 10, max_chars: int = 7000) -> None:
        self.items: List[Dict[str, Any]] = []
        self.max_chunks = max_chunks
        self.max_chars = max_chars
        self._by_chunk: Dict[str, str] = {}

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self):
        return iter(self.items)

    def add(self, items: Iterable[Dict[str, Any]]) -> List[str]:
        """Append enriched items not already present (up to ``max_chunks``); returns their labels."""
        added = []
        for item in items:
            if len(self.items) >= self.max_chunks:
                break
            chunk = item.get("chunk")
            if not chunk or chunk in self._by_chunk:
                continue
            label = f"S{len(self.items) + 1}"
            self.items.append({**item, "label": label})
            self._by_chunk[chunk] = label
            added.append(label)
        return added

    def by_label(self, label: str) -> Optional[Dict[str, Any]]:
        norm = normalize_label(label)
        if norm is None:
            return None
        n = int(norm[1:])
        return self.items[n - 1] if 1 <= n <= len(self.items) else None

    def label_of(self, chunk: str) -> Optional[str]:
        return self._by_chunk.get(chunk)

    def tier(self, item: Dict[str, Any]) -> Optional[int]:
        return (item.get("_reasoning_metadata") or {}).get("tier")

    def render(self, compare_tiers: Optional[Tuple[int, int]] = None) -> str:
        """The items as the prompt shows them, within ``max_chars`` of chunk text in all.
        With ``compare_tiers`` (monitor mode), grouped by side: more credible, less credible, others."""
        if not self.items:
            return "(no sources)"
        share = max(200, self.max_chars // max(len(self.items), 1))
        groups: List[Tuple[str, List[Dict[str, Any]]]] = [("", self.items)]
        if compare_tiers:
            hi, lo = compare_tiers
            high = [i for i in self.items if self.tier(i) is not None and self.tier(i) <= hi]
            low = [i for i in self.items if self.tier(i) is None or self.tier(i) >= lo]
            rest = [i for i in self.items if i not in high and i not in low]
            groups = [(f"MORE CREDIBLE SOURCES (tier {hi} or better)", high),
                      (f"LESS CREDIBLE SOURCES (tier {lo} or worse, or unknown)", low),
                      ("OTHER SOURCES", rest)]
        out = []
        for title, items in groups:
            if title:
                out.append(f"== {title} ==" + ("" if items else "\n(none)"))
            for item in items:
                where = item.get("name") or item.get("path")
                if item.get("heading") and item.get("heading") != where:
                    where = f"{where} > {item['heading']}"
                out.append(f"[{item['label']}] {item.get('path')} ({where})\n"
                           f"{bounded(item.get('description'), share, marker=False)}")
        return "\n\n".join(out)
