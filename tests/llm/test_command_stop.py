"""A command's reply ends at its code block's closing fence (llm/command_prompt.py): the command
is the one the whole reply gives, with or without a client that can stop, and a reply the stop would
cut before its command is asked again whole."""

from __future__ import annotations

from ragix_core.llm.base import Completion, Usage, cut_at_stop
from ragix_core.llm.codeblock import CLOSING_FENCE
from ragix_core.llm.command_prompt import ask_free_command
from tests.scripted_llm import ScriptedLLM

EXPLAINED = "To count them:\n```bash\nfind . -name '*.py' | wc -l\n```\nThis finds every Python file and counts the lines."


class Stopping:
    """A client that honours ``stop`` the way llama.cpp's server does, and counts what it generated."""

    backend = model = "stopping"

    def __init__(self, replies):
        self.replies, self.calls = list(replies), []

    def complete(self, messages, *, schema=None, max_tokens=512, temperature=0.0, timeout=None, seed=None, stop=None):
        self.calls.append(stop)
        text = cut_at_stop(self.replies.pop(0), stop)
        return Completion(text=text, usage=Usage(10, len(text)), model=self.model, backend=self.backend)


def test_cut_at_stop_ends_before_the_first_of_the_strings():
    assert cut_at_stop("a\n```\nb\n```\nc", ["\n```\n"]) == "a"
    assert cut_at_stop("abc", ["x", "b", "c"]) == "a" and cut_at_stop("abc", None) == "abc"
    assert cut_at_stop("abc", ["", "z"]) == "abc"  # an empty stop string stops nothing


def test_the_reply_stops_at_the_closing_fence_and_gives_the_whole_replys_command():
    client = Stopping([EXPLAINED])
    assert ask_free_command(client, "goal") == "find . -name '*.py' | wc -l"
    assert client.calls == [[CLOSING_FENCE]]  # one call, asked to stop at the fence


def test_a_client_without_stop_gets_the_same_command_from_its_cut_text():
    llm = ScriptedLLM([EXPLAINED])  # its complete() takes no ``stop``
    assert ask_free_command(llm, "goal") == "find . -name '*.py' | wc -l" and len(llm.calls) == 1


def test_a_bare_opening_fence_cut_by_the_stop_is_asked_again_whole():
    # "\n```\n" is also a bare opening fence: the stopped reply is "Use `ls`:", whose inline code is not
    # the command the whole reply's first block gives.
    bare = "Use `ls`:\n```\nls -la docs\n```\n"
    client = Stopping([bare, bare])
    assert ask_free_command(client, "goal") == "ls -la docs"
    assert client.calls == [[CLOSING_FENCE], None]  # the second call is the whole reply


def test_a_first_block_of_comments_is_asked_again_whole_and_the_next_block_read():
    reply = "```bash\n# count the files\n```\n```bash\nls | wc -l\n```"
    client = Stopping([reply, reply])
    assert ask_free_command(client, "goal") == "ls | wc -l" and len(client.calls) == 2


def test_the_role_wrapper_passes_stop_to_a_client_that_takes_it_and_cuts_the_text_of_one_that_does_not():
    from ragix_core.llm.roles import TracedClient

    stopping = Stopping([EXPLAINED])
    out = TracedClient(stopping, "worker").complete([{"role": "user", "content": "goal"}], stop=[CLOSING_FENCE])
    assert stopping.calls == [[CLOSING_FENCE]] and out.text == "To count them:\n```bash\nfind . -name '*.py' | wc -l"
    scripted = ScriptedLLM([EXPLAINED])
    out = TracedClient(scripted, "worker").complete([{"role": "user", "content": "goal"}], stop=[CLOSING_FENCE])
    assert out.text == "To count them:\n```bash\nfind . -name '*.py' | wc -l" and len(scripted.calls) == 1


def test_a_forwarding_wrapper_takes_stop_only_if_what_it_wraps_does():
    from ragix_core.llm.base import accepts_stop

    class Forwarding:
        def __init__(self, inner):
            self._inner = inner

        def complete(self, messages, **kwargs):
            return self._inner.complete(messages, **kwargs)

    assert accepts_stop(Stopping([])) and not accepts_stop(ScriptedLLM([]))
    assert accepts_stop(Forwarding(Stopping([]))) and not accepts_stop(Forwarding(ScriptedLLM([])))
    llm = ScriptedLLM([EXPLAINED])
    assert ask_free_command(Forwarding(llm), "goal") == "find . -name '*.py' | wc -l"


def test_a_reply_with_no_block_at_all_is_read_as_it_stands_in_one_call():
    llm = Stopping(["Run `grep -rn TODO .` to find them."])
    assert ask_free_command(llm, "goal") == "grep -rn TODO ." and len(llm.calls) == 1
