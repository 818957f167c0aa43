"""Untrusted model text → JSON checked against a schema."""

from __future__ import annotations

import pytest

from ragix_core.llm import LLMBadOutput
from ragix_core.llm.jsonout import check_schema, parse_json, salvage_json, schema_errors

SCHEMA = {
    "type": "object",
    "properties": {
        "steps": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3},
        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
        "kind": {"enum": ["plan", "answer"]},
    },
    "required": ["steps", "kind"],
    "additionalProperties": False,
}


@pytest.mark.parametrize("text", ['{"a": 1}', '```json\n{"a": 1}\n```', 'Sure! Here it is: {"a": 1} Hope it helps.'])
def test_parse_tolerates_fences_and_prose(text):
    assert parse_json(text, "t") == {"a": 1}


@pytest.mark.parametrize("text", ["", "no json here", '{"a": ', "{'a': 1}"])
def test_non_json_is_bad_output_naming_the_source(text):
    with pytest.raises(LLMBadOutput, match="backend X"):
        parse_json(text, "backend X")


def test_valid_value_has_no_errors():
    assert schema_errors({"steps": ["ls"], "kind": "plan", "confidence": 0.5}, SCHEMA) == []


@pytest.mark.parametrize(
    "value, fragment",
    [
        ({"kind": "plan"}, "missing required key 'steps'"),
        ({"steps": [], "kind": "plan"}, "fewer than 1"),
        ({"steps": ["a", 2], "kind": "plan"}, "$.steps[1]: expected string"),
        ({"steps": ["a"], "kind": "other"}, "not in"),
        ({"steps": ["a"], "kind": "plan", "extra": 1}, "unexpected key"),
        ({"steps": ["a"], "kind": "plan", "confidence": 2}, "above maximum"),
        ({"steps": ["a"], "kind": "plan", "confidence": True}, "expected number"),
        ([1], "expected object"),
    ],
)
def test_mismatches_are_reported(value, fragment):
    assert any(fragment in e for e in schema_errors(value, SCHEMA))


def test_check_schema_raises_with_the_mismatch():
    with pytest.raises(LLMBadOutput, match="missing required key"):
        check_schema('{"kind": "plan"}', SCHEMA, "w")


def test_absurdly_nested_text_is_bad_output_not_a_crash():
    with pytest.raises(LLMBadOutput):
        parse_json("[" * 100_000 + "]" * 100_000, "w")


# A plan cut at max_tokens inside its last field, as the embedded model wrote one at temperature 0.3.
CUT_PLAN = ('{\n  "objective": "Count the log files of a month",\n  "steps": [\n    {\n      "num": 1,\n'
            '      "description": "list the logs",\n      "tool": "ls",\n      "args": {\n        "command": "ls logs"\n'
            '      }\n    },\n    {\n      "num": 2,\n      "description": "count them",\n      "tool": "find",\n'
            '      "args": {\n        "command": "find logs -name \'2023-04-*.log\' | wc -l"\n      }\n    }\n  ],\n'
            '  "validation": "The output of the script should be the')


def test_a_cut_object_is_closed_after_its_last_complete_member():
    first = next(salvage_json(CUT_PLAN))
    assert [s["args"]["command"] for s in first["steps"]] == ["ls logs", "find logs -name '2023-04-*.log' | wc -l"]
    assert "validation" not in first  # the field the cut fell in is dropped, not kept half-written


def test_a_cut_array_keeps_its_complete_items_and_never_a_cut_number():
    candidates = list(salvage_json('{"a": "x, ]}", "b": [10, 25'))
    assert candidates[0] == {"a": "x, ]}", "b": [10]}  # 25 may have been 250
    # inside a nested object the longest candidate misses its own keys: shorter ones follow
    nested = list(salvage_json('{"steps": [{"num": 1, "command": "ls"}, {"num": 2, "comm'))
    assert nested[0] == {"steps": [{"num": 1, "command": "ls"}, {"num": 2}]}
    assert {"steps": [{"num": 1, "command": "ls"}]} in nested


@pytest.mark.parametrize("text", ['{"a": 1}', "not json", '["a", "b', '{"a', "", '{"a": 1}}'])
def test_complete_or_non_object_text_gives_nothing_to_salvage(text):
    assert list(salvage_json(text)) == []


def test_bad_output_carries_the_reply_and_says_where_it_ends():
    with pytest.raises(LLMBadOutput) as exc:
        parse_json(CUT_PLAN, "test")
    assert exc.value.text == CUT_PLAN
    assert '"validation": "The output of the script should be the' in str(exc.value).split(", ends ")[1]


@pytest.mark.parametrize("text", ['{"answer": ', '{"answer": "five"}'])
def test_check_schema_failures_carry_the_calls_usage(text):
    """Not JSON and JSON off the schema both raise with the call's cost, for the role's totals."""
    from ragix_core.llm import Usage

    with pytest.raises(LLMBadOutput) as info:
        check_schema(text, {"type": "object", "properties": {"answer": {"type": "integer"}}, "required": ["answer"]},
                     "test", usage=Usage(40, 7))
    assert info.value.usage == Usage(40, 7) and info.value.text == text
