"""The output contract (spec 004 Phase 5): NLWeb Items, validated by a pydantic model.

Every result — a report, a request for clarification, an error — is a list with one Item::

    {"@type": "Item", "url", "name", "site", "siteUrl", "score" (0-100), "description" (Markdown),
     "schema_object": {"@type": "ResearchReport" | "ResearchClarification" | "ResearchError", ...}}

A report's ``schema_object`` holds the spec's fields (mode, iterations, sources_used,
confidence, total_sources_analyzed) plus ``citations``: ``{path, source, tier, chunk, quote}``
with ``path`` relative to the documents directory.
"""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError

__all__ = ["ResearchItem", "CitationOut", "validate_items", "ItemSchemaError"]


class ItemSchemaError(ValueError):
    """An Item does not match the contract; the message names the field."""


class CitationOut(BaseModel):
    model_config = ConfigDict(extra="forbid")
    path: str = Field(..., min_length=1)
    source: str
    tier: Optional[int] = Field(None, ge=1, le=5)
    chunk: str = Field(..., min_length=1)
    quote: str


class ResearchItem(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    type: Literal["Item"] = Field("Item", alias="@type")
    url: str = Field(..., min_length=1)
    name: str = Field(..., min_length=1)
    site: str = Field(..., min_length=1)
    siteUrl: str = Field(..., min_length=1)
    score: int = Field(..., ge=0, le=100)
    description: str
    schema_object: Dict[str, Any] = Field(default_factory=dict)

    def model_post_init(self, _context: Any) -> None:
        cits = self.schema_object.get("citations")
        if cits is not None:
            if not isinstance(cits, list):
                raise ValueError("schema_object.citations must be a list")
            for c in cits:
                CitationOut.model_validate(c)


def validate_items(items: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """``items`` checked against the contract and returned as plain dicts (``@type`` keyed)."""
    if not isinstance(items, list) or not items:
        raise ItemSchemaError("a research result must be a non-empty list of Items")
    out = []
    for n, item in enumerate(items):
        try:
            out.append(ResearchItem.model_validate(item).model_dump(by_alias=True))
        except ValidationError as exc:
            first = exc.errors()[0]
            loc = ".".join(str(p) for p in first["loc"]) or "(item)"
            raise ItemSchemaError(f"item {n}: {loc}: {first['msg']}") from None
    return out
