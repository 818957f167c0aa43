"""Property tests: any record becomes exactly one valid, bounded JSON line."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from ragix_core.memory.encoding import clean_text, encode_record

# Text including lone surrogates, controls and astral characters.
texts = st.text(alphabet=st.characters(blacklist_categories=()), max_size=60)
values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | texts,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(texts, children, max_size=4),
    max_leaves=20,
)
records = st.dictionaries(texts, values, max_size=6)


def _cleaned(obj):
    if isinstance(obj, str):
        return clean_text(obj)
    if isinstance(obj, dict):
        return {clean_text(k): _cleaned(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_cleaned(v) for v in obj]
    return obj


@settings(max_examples=300, deadline=None)
@given(records)
def test_any_record_round_trips_as_one_line(record):
    data = encode_record(record)
    assert data.endswith(b"\n") and data.count(b"\n") == 1  # newlines inside strings are escaped
    assert json.loads(data) == _cleaned(record)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=30), min_size=1, max_size=8), st.integers(200, 5000))
def test_any_oversized_record_fits_and_says_so(words, limit):
    record = {f"k{i}": w * (limit // len(w) + 1) for i, w in enumerate(words)}
    data = encode_record(record, max_bytes=limit)
    assert len(data) <= limit and data.endswith(b"\n")
    decoded = json.loads(data)
    assert decoded["truncated"] is True and decoded["original_bytes"] > limit
