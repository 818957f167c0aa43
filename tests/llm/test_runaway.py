"""A command's reply stops once its command has one pipeline stage more than the executor takes
(llm/runaway.py): the command read from the cut reply is refused for the same reason as the whole one."""

from __future__ import annotations

import pytest

from ragix_core.llm.base import Completion, Usage, cut_at_stop, cut_until
from ragix_core.llm.command_prompt import ask_free_command
from ragix_core.llm.runaway import past_stage_limit
from ragix_core.tools.lexer import MAX_STAGES, split_pipeline
from ragix_core.tools.refusal import Refusal
from tests.scripted_llm import ScriptedLLM

# The shape measured at 6326e22 (paraphrase set): one `grep -v` more per file name until the token cap.
LOOPING = ("To list them:\n```bash\ngrep -rl 'sqlparse' . | " +
           " | ".join(f"grep -v 'name{i}.py'" for i in range(30)) + " | grep -v 'name")
SHORT = "Count them:\n```bash\nfind . -name '*.py' | grep -v test | sort | uniq | wc -l\n```\nDone | ok | ok"


class Streaming:
    """A client that honours ``until`` as the embedded backend does: generation stops where it says."""

    backend = model = "streaming"

    def __init__(self, replies):
        self.replies, self.untils = list(replies), []

    def complete(self, messages, *, schema=None, max_tokens=512, temperature=0.0, timeout=None, seed=None,
                 stop=None, until=None):
        self.untils.append(until)
        whole = cut_at_stop(self.replies.pop(0), stop)
        text = whole
        for end in range(len(whole) + 1):  # token by token, here a character at a time
            cut = until(whole[:end]) if until is not None else None
            if cut is not None:
                text = whole[:cut]
                break
        return Completion(text=text, usage=Usage(10, len(text)), model=self.model, backend=self.backend)


def _stages(command: str) -> int:
    return len(split_pipeline(command))


def test_a_looping_pipeline_is_cut_with_one_stage_too_many_and_refused_as_the_whole_one_is():
    end = past_stage_limit(LOOPING)
    assert end is not None and LOOPING[end] == "|"
    command = LOOPING[LOOPING.index("grep -rl"):end].strip()
    for text in (command, LOOPING[LOOPING.index("grep -rl"):]):
        with pytest.raises(Refusal, match="too many pipeline stages"):
            split_pipeline(text)
    assert command.count(" | ") == MAX_STAGES  # MAX_STAGES + 1 whole stages


@pytest.mark.parametrize("text", [
    SHORT,  # five stages, and the prose after the block has pipes: never cut
    "Use `a | b | c | d | e | f | g | h | i | j` like this:\n```bash\nls | wc -l\n```",  # pipes before the block
    "```bash\n# a | b | c | d | e | f | g | h | i | j | k\nls | wc -l\n```",  # a comment line's pipes
    "```bash\ngrep -E 'a|b|c|d|e|f|g|h|i|j|k' f | sort\n```",  # quoted pipes
    '```bash\necho "a|b|c|d|e|f|g|h|i|j|k" | wc -c\n```',
    "```bash\nls || ls || ls || ls || ls || ls || ls || ls || ls || ls\n```",  # `||` is no stage (refused apart)
    "No code block | a | b | c | d | e | f | g | h | i | j",
])
def test_a_reply_within_the_limit_or_with_pipes_elsewhere_is_never_cut(text):
    assert past_stage_limit(text) is None


@pytest.mark.parametrize("text", [LOOPING, SHORT, "```sh\n" + " | ".join(["cat f"] * 12), "```\n\n" + "a|" * 12])
def test_the_cut_is_prefix_stable_so_a_streaming_backend_and_a_whole_reply_cut_alike(text):
    whole = past_stage_limit(text)
    seen = None
    for end in range(len(text) + 1):
        cut = past_stage_limit(text[:end])
        if seen is not None:
            assert cut == seen, (end, cut, seen)
        seen = cut if cut is not None else seen
    assert seen == whole


def test_the_command_is_read_from_the_cut_reply_whether_the_client_stops_or_the_text_is_cut():
    streaming = Streaming([LOOPING])
    stopped = ask_free_command(streaming, "goal")
    assert streaming.untils == [past_stage_limit]
    cut_later = ask_free_command(ScriptedLLM([LOOPING]), "goal")  # its complete() takes no ``until``
    assert stopped == cut_later and _refused(stopped)
    assert ask_free_command(Streaming([SHORT]), "goal") == "find . -name '*.py' | grep -v test | sort | uniq | wc -l"


def test_cut_until_keeps_the_text_when_the_reply_is_not_complete():
    assert cut_until("abc", None) == "abc"
    assert cut_until("abcdef", lambda t: 2 if len(t) > 3 else None) == "ab"
    assert cut_until("ab", lambda t: 2 if len(t) > 3 else None) == "ab"


def test_the_role_wrapper_passes_until_to_a_client_that_takes_it_and_cuts_the_text_of_one_that_does_not():
    from ragix_core.llm.roles import TracedClient

    messages = [{"role": "user", "content": "goal"}]
    streaming = Streaming([LOOPING])
    passed = TracedClient(streaming, "worker").complete(messages, until=past_stage_limit)
    cut = TracedClient(ScriptedLLM([LOOPING]), "worker").complete(messages, until=past_stage_limit)
    assert streaming.untils == [past_stage_limit]
    assert passed.text == cut.text == LOOPING[:past_stage_limit(LOOPING)]


def _refused(command: str) -> bool:
    try:
        split_pipeline(command)
    except Refusal as exc:
        return "too many pipeline stages" in str(exc)
    return False
