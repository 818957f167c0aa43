"""Turning untrusted model text into JSON, and checking it against a schema.

Constrained decoding makes well-formed JSON likely, not certain: a reply can be
cut by max_tokens, a server may ignore the schema, and a fallback (json_object
mode) only promises *some* JSON. So every backend runs the text through
``parse_json`` and ``check_schema`` and turns a failure into ``LLMBadOutput``, which
carries the text. ``salvage_json`` recovers what a reply cut at max_tokens had
finished: the object closed after its last complete member.

``check_schema`` covers the JSON Schema subset the engines use (type,
properties, required, additionalProperties=false, enum, const, items,
min/max items/length, minimum/maximum, anyOf). It is not a full validator;
pydantic models on the caller's side do the fine-grained checks.
"""

from __future__ import annotations

import json
import re
from typing import Any, Dict, Iterator, List, Optional

from .base import LLMBadOutput, Usage

__all__ = ["parse_json", "check_schema", "schema_errors", "salvage_json"]

_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)
_TYPES = {
    "object": dict,
    "array": list,
    "string": str,
    "boolean": bool,
    "null": type(None),
}


def parse_json(text: str, where: str) -> Any:
    """Parse ``text`` as JSON (tolerating a ```json fence); ``LLMBadOutput`` naming ``where`` otherwise."""
    body = text.strip()
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group(1)
    try:
        return json.loads(body)
    except (ValueError, RecursionError):  # RecursionError: absurdly nested untrusted text
        pass
    # Servers without grammar support sometimes wrap the object in prose: take the outermost {...}.
    start, end = body.find("{"), body.rfind("}")
    if 0 <= start < end:
        try:
            return json.loads(body[start : end + 1])
        except (ValueError, RecursionError):
            pass
    start = text[:120].replace("\n", "\\n")
    # The end says where a reply was cut (in a string, after a step...): a trace keeps only this message.
    end = f", ends {text[-120:].replace(chr(10), chr(92) + 'n')!r}" if len(text) > 120 else ""
    raise LLMBadOutput(f"{where}: reply is not JSON ({len(text)} chars, starts {start!r}{end})", text=text)


_CLOSERS = {"{": "}", "[": "]"}
MAX_SALVAGE_CHARS = 20_000  # a reply longer than this was not cut by a plan-sized max_tokens


def _cut_points(body: str) -> List[tuple]:
    """(index, open containers) where ``body`` can be cut after a complete value: just after a
    closing bracket, or just before a comma, outside strings; the last one first."""
    points: List[tuple] = []
    stack: List[str] = []
    in_string = escaped = False
    for i, ch in enumerate(body):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
            continue
        if ch == '"':
            in_string = True
        elif ch in _CLOSERS:
            stack.append(ch)
        elif ch in "}]":
            if not stack or _CLOSERS[stack[-1]] != ch:
                return []  # not a JSON prefix: nothing to salvage
            stack.pop()
            if stack:
                points.append((i + 1, tuple(stack)))
        elif ch == "," and stack:
            points.append((i, tuple(stack)))
    return points[::-1]


def salvage_json(text: str) -> Iterator[Dict[str, Any]]:
    """The JSON objects a reply cut before its end had finished, longest first: the object closed
    after each complete member (an array keeps its complete items). Nothing when ``text`` is not a
    cut object. The caller takes the first that validates: a nested object closed early misses its
    own keys. Measured: plans cut at 700 tokens inside their last field ("validation") ended runs in
    ``plan_generation_failed`` after a repair that was cut the same way."""
    body = text.strip()
    if not body.startswith("{") or len(body) > MAX_SALVAGE_CHARS:
        return
    try:
        json.loads(body)
        return  # complete: nothing was cut
    except (ValueError, RecursionError):
        pass
    seen = set()  # the cut after a closing bracket and the one before its comma give one candidate
    for cut, stack in _cut_points(body):
        candidate = body[:cut].rstrip().rstrip(",") + "".join(_CLOSERS[c] for c in reversed(stack))
        if candidate in seen:
            continue
        seen.add(candidate)
        try:
            value = json.loads(candidate)
        except (ValueError, RecursionError):
            continue
        if isinstance(value, dict) and value:
            yield value


def _type_ok(value: Any, expected: str) -> bool:
    if expected == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if expected == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    py = _TYPES.get(expected)
    return py is None or isinstance(value, py)


def schema_errors(value: Any, schema: Dict[str, Any], path: str = "$") -> List[str]:
    """A list of human-readable mismatches (empty when ``value`` fits ``schema``)."""
    errors: List[str] = []
    if not isinstance(schema, dict):
        return errors
    if "anyOf" in schema:
        options = [schema_errors(value, s, path) for s in schema["anyOf"]]
        if all(options):
            errors.append(f"{path}: matches none of anyOf")
        return errors
    expected = schema.get("type")
    if expected is not None:
        kinds = expected if isinstance(expected, list) else [expected]
        if not any(_type_ok(value, k) for k in kinds):
            return [f"{path}: expected {'/'.join(kinds)}, got {type(value).__name__}"]
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {value!r} not in {schema['enum']!r}")
    if "const" in schema and value != schema["const"]:
        errors.append(f"{path}: expected {schema['const']!r}")
    if isinstance(value, dict):
        props = schema.get("properties") or {}
        for key in schema.get("required") or []:
            if key not in value:
                errors.append(f"{path}: missing required key {key!r}")
        for key, sub in props.items():
            if key in value:
                errors.extend(schema_errors(value[key], sub, f"{path}.{key}"))
        if schema.get("additionalProperties") is False:
            extra = sorted(set(value) - set(props))
            if extra:
                errors.append(f"{path}: unexpected key(s) {extra}")
    if isinstance(value, list):
        if "minItems" in schema and len(value) < schema["minItems"]:
            errors.append(f"{path}: fewer than {schema['minItems']} items")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            errors.append(f"{path}: more than {schema['maxItems']} items")
        items = schema.get("items")
        if isinstance(items, dict):
            for i, item in enumerate(value):
                errors.extend(schema_errors(item, items, f"{path}[{i}]"))
    if isinstance(value, str):
        if "minLength" in schema and len(value) < schema["minLength"]:
            errors.append(f"{path}: shorter than {schema['minLength']}")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            errors.append(f"{path}: longer than {schema['maxLength']}")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append(f"{path}: below minimum {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            errors.append(f"{path}: above maximum {schema['maximum']}")
    return errors


def check_schema(text: str, schema: Optional[Dict[str, Any]], where: str, usage: Optional[Usage] = None) -> Any:
    """Parse ``text`` and require it to fit ``schema``; return the parsed value. ``usage``: the
    call's, carried by the ``LLMBadOutput`` so the tokens of a reply that failed are still counted."""
    try:
        data = parse_json(text, where)
    except LLMBadOutput as exc:
        exc.usage = usage if usage is not None else exc.usage
        raise
    if schema:
        errors = schema_errors(data, schema)
        if errors:
            raise LLMBadOutput(f"{where}: JSON does not match the schema: {'; '.join(errors[:5])}", text=text,
                               usage=usage)
    return data
