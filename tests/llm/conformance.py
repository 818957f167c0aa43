"""The behaviour every backend must show, written once.

A backend's test module subclasses ``Conformance`` and provides fixtures:
``client`` (a working client), ``down_client`` + ``endpoint`` (a client whose
server/model cannot be reached, and the text its error must name), and
``unknown_client`` (a reachable backend asked for a model it does not have).
A backend that cannot show a behaviour here overrides the test with a skip
that says why.
"""

from __future__ import annotations

import pytest

from ragix_core.llm import LLMBadOutput, LLMTimeout, LLMUnavailable, LLMUnknownModel, Usage
from ragix_core.llm.jsonout import schema_errors

SYSTEM = {"role": "system", "content": "You are a terse assistant."}
HELLO = [SYSTEM, {"role": "user", "content": "Say hello."}]
ADD = [
    SYSTEM,
    {"role": "user", "content": 'What is 2 + 3? Reply as JSON: {"answer": <integer>}.'},
]
ANSWER_SCHEMA = {
    "type": "object",
    "properties": {"answer": {"type": "integer"}},
    "required": ["answer"],
    "additionalProperties": False,
}


class Conformance:
    def test_plain_completion(self, client):
        out = client.complete(HELLO, max_tokens=12)
        assert isinstance(out.text, str) and out.text.strip()
        assert out.data is None
        assert out.model == client.model
        assert out.backend == client.backend
        assert out.latency >= 0

    def test_schema_constrained_json(self, client):
        out = client.complete(ADD, schema=ANSWER_SCHEMA, max_tokens=24)
        assert isinstance(out.data, dict)
        assert schema_errors(out.data, ANSWER_SCHEMA) == []
        assert isinstance(out.data["answer"], int)

    def test_usage_accounting(self, client):
        first = client.complete(HELLO, max_tokens=6)
        second = client.complete(ADD, schema=ANSWER_SCHEMA, max_tokens=24)
        for out in (first, second):
            assert out.usage.prompt_tokens > 0
            assert 0 < out.usage.completion_tokens <= 24
            assert 0 <= out.usage.cached_tokens <= out.usage.prompt_tokens  # a share of the prompt, never more
        total = first.usage + second.usage
        assert total.total_tokens == sum(u.prompt_tokens + u.completion_tokens for u in (first.usage, second.usage))
        assert total.cached_tokens == first.usage.cached_tokens + second.usage.cached_tokens
        assert isinstance(total, Usage)

    def test_cut_reply_is_bad_output_that_carries_its_text_and_cost(self, client):
        """Two tokens cannot hold the JSON the schema asks for: the error keeps what the model wrote and
        what the call cost, so a failed call is counted in a run's tokens like any other."""
        with pytest.raises(LLMBadOutput) as info:
            client.complete(ADD, schema=ANSWER_SCHEMA, max_tokens=2)
        exc = info.value
        assert exc.text.strip()  # what the model wrote before the cut
        assert exc.usage.prompt_tokens > 0 and 0 < exc.usage.completion_tokens <= 2

    def test_stop_ends_the_reply_before_the_first_stop_string(self, client):
        """What the main path relies on to stop a command's reply at its code block's closing fence:
        the reply ends where the stop string would begin (greedy, so the text before it is the same)."""
        whole = client.complete(HELLO, max_tokens=12)
        assert len(whole.text.strip()) >= 4, whole.text
        stop = whole.text.strip()[2:4]  # two characters inside the reply
        cut = client.complete(HELLO, max_tokens=12, stop=[stop])
        assert cut.text == whole.text[:whole.text.find(stop)]
        assert cut.usage.completion_tokens <= whole.usage.completion_tokens

    def test_until_ends_the_reply_where_it_says(self, client):
        """What stops a command's reply once its pipeline is past the executor's limit (llm/runaway.py):
        the reply ends at the index ``until`` gives, whether the backend stops generating there or cuts."""
        whole = client.complete(HELLO, max_tokens=12)
        assert len(whole.text) >= 6, whole.text

        def until(text):
            return 3 if len(text) >= 5 else None

        cut = client.complete(HELLO, max_tokens=12, until=until)
        assert cut.text == whole.text[:3]
        assert 0 < cut.usage.completion_tokens <= whole.usage.completion_tokens

    def test_timeout(self, client):
        with pytest.raises(LLMTimeout):
            client.complete(HELLO, max_tokens=256, timeout=0.001)

    def test_unavailable_names_endpoint(self, down_client, endpoint):
        with pytest.raises(LLMUnavailable) as info:
            down_client.complete(HELLO, max_tokens=4, timeout=10)
        assert endpoint in str(info.value)

    def test_unknown_model(self, unknown_client):
        with pytest.raises(LLMUnknownModel) as info:
            unknown_client.complete(HELLO, max_tokens=4, timeout=30)
        assert unknown_client.model in str(info.value)
