"""A scripted model for whole-engine runs in a subprocess: it answers any request from its shape.

For a JSON-schema request it writes the smallest value the schema accepts (enums: a value that
ends a loop when there is one: "answer", "final", ...); for free text, a fenced command that
counts the fixture's lines and a sentence stating the count (asked for the same answer another
way, the same count written otherwise). Served by tests/scripted_openai.py,
so the server under test reaches it through its ordinary ragix.yaml (an openai backend on
loopback): no hook in ragix, no real model, nothing recorded.
"""

from __future__ import annotations

from typing import Any, Dict

from tests.scripted_openai import response_schema

__all__ = ["schema_reply", "FREE_TEXT"]

FREE_TEXT = "This counts them:\n```sh\nwc -l app.py\n```\napp.py has 6 lines."
# The main path confirms a short output with a second command written another way (prompts/command_followup.md).
CROSS_CHECK = "Counted another way:\n```sh\ncat app.py | wc -l\n```\napp.py has 6 lines."
_ENDING = ("answer", "final", "final_answer", "respond", "done", "stop", "ANSWERED", "accept")


def _fill(schema: Dict[str, Any], depth: int = 0) -> Any:
    if depth > 8:
        return None
    if "enum" in schema:
        values = list(schema["enum"])
        return next((v for v in values if v in _ENDING), values[0])
    if "const" in schema:
        return schema["const"]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return _fill(schema[key][0], depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object" or "properties" in schema:
        props = schema.get("properties") or {}
        return {name: _fill(sub, depth + 1) for name, sub in props.items()}
    if kind == "array":
        n = max(1, int(schema.get("minItems", 1)))
        n = min(n, int(schema.get("maxItems", n)))
        return [_fill(schema.get("items") or {"type": "string"}, depth + 1) for _ in range(n)]
    if kind == "integer":
        return max(int(schema.get("minimum", 1)), 1) if schema.get("maximum", 1) >= 1 else int(schema["minimum"])
    if kind == "number":
        low, high = float(schema.get("minimum", 0.0)), float(schema.get("maximum", 1.0))
        return min(max(0.9, low), high)
    if kind == "boolean":
        return True
    if kind == "null":
        return None
    text = "app.py has 6 lines"
    return text[: int(schema.get("maxLength", len(text)))].ljust(int(schema.get("minLength", 0)), ".")


def schema_reply(request: Dict[str, Any]) -> str:
    import json

    schema = response_schema(request)
    if schema:
        return json.dumps(_fill(schema))
    asked = str((request.get("messages") or [{}])[-1].get("content", ""))
    return CROSS_CHECK if "computes the same answer another way" in asked else FREE_TEXT
