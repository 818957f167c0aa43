"""One report from the reports of a question's parts (agents/decomposer.py), each researched on its own.

Every part kept its own loop, critic and citations, so the composed report adds no claim of its own: it is
the parts' answers side by side, each section with its own sources. When some parts could not be backed, the
report says which, and answers the others: status PARTIAL, never ANSWERED (the question was not fully
answered), and not a decline (part of it was).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

__all__ = ["compose_parts", "part_records", "PARTIAL"]

PARTIAL = "PARTIAL"
_RANK = {"High": 2, "Medium": 1, "Low": 0}


def _citation_key(c: Dict[str, Any]) -> Tuple[str, str]:
    return str(c.get("path")), str(c.get("chunk"))


def part_records(parts: Sequence[Tuple[str, Dict[str, Any]]]) -> List[Dict[str, Any]]:
    """Each part's question, status, answer and stop reason: what a report and the run's record keep."""
    return [{"question": q, "status": item["schema_object"].get("status"),
             "answer": item["schema_object"].get("answer", ""),
             "stop_reason": item["schema_object"].get("stop_reason")} for q, item in parts]


def compose_parts(parts: Sequence[Tuple[str, Dict[str, Any]]]) -> Optional[Dict[str, Any]]:
    """``parts``: (the part's question, its report Item). The composed report's fields (status, answer,
    description, citations, sources_used, confidence, parts), or None when no part was answered."""
    answered = [(q, item) for q, item in parts if item["schema_object"].get("status") == "ANSWERED"]
    if not answered:
        return None
    sections: List[str] = []
    citations: List[Dict[str, Any]] = []
    sources: List[str] = []
    for question, item in parts:
        schema = item["schema_object"]
        sections.append(f"### {question}\n\n{item.get('description', '').strip()}")
        if schema.get("status") != "ANSWERED":
            continue
        for c in schema.get("citations") or []:
            if _citation_key(c) not in {_citation_key(x) for x in citations}:
                citations.append(c)
        sources += [s for s in schema.get("sources_used") or [] if s not in sources]
    missing = [q for q, item in parts if item["schema_object"].get("status") != "ANSWERED"]
    answer = "; ".join(item["schema_object"].get("answer", "").strip() for _, item in answered)
    lead = ("The question asks several things; each was researched on its own." if not missing else
            f"The question asks several things; each was researched on its own, and {len(missing)} of "
            f"{len(parts)} could not be backed by the documents: " + "; ".join(missing))
    confidence = min((item["schema_object"].get("confidence", "Medium") for _, item in answered),
                     key=lambda c: _RANK.get(c, 0))
    return {"status": PARTIAL if missing else "ANSWERED", "answer": answer,
            "description": lead + "\n\n" + "\n\n".join(sections), "citations": citations,
            "sources_used": sources, "confidence": "Low" if missing else confidence,
            "parts": part_records(parts)}
