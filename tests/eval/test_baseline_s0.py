import subprocess
from types import SimpleNamespace

from ragix_core.eval.baseline_s0 import make_s0_runner
from ragix_core.eval.evaluate import evaluate_run
from ragix_core.eval.scenario import Scenario
from ragix_core.core.events import EventKind
from ragix_core.core.types import ToolResult


class ScriptedClient:
    """Replies in order; records the prompts it was given."""

    def __init__(self, *replies):
        self.replies = list(replies)
        self.prompts = []

    def complete(self, messages, **kw):
        self.prompts.append(messages)
        data, text = self.replies.pop(0)
        return SimpleNamespace(text=text, data=data, usage=SimpleNamespace(prompt_tokens=50, completion_tokens=7))


class ShellBox:
    """Runs the command for real in the working copy (no confinement: test only)."""

    def __init__(self, cwd, refuse=()):
        self.cwd, self.refuse = cwd, refuse

    def run_command(self, cmd):
        if any(word in cmd for word in self.refuse):
            return ToolResult(tool="shell", returncode=126, refused=True, error="not allowed", command=cmd)
        p = subprocess.run(cmd, shell=True, cwd=self.cwd, capture_output=True, text=True, timeout=10)
        return ToolResult(tool="shell", returncode=p.returncode, stdout=p.stdout, stderr=p.stderr, command=cmd)


def runner_with(client, refuse=()):
    return make_s0_runner(client_factory=lambda *a: client,
                          toolbox_factory=lambda cwd, bus, sid, prof: ShellBox(cwd, refuse))


def test_s0_runs_one_command_and_answers_from_its_output(tmp_path):
    (tmp_path / "x.md").write_text("a\nb\nc\n")
    client = ScriptedClient(({"command": "wc -l x.md"}, ""), (None, "x.md has 3 lines"))
    res = runner_with(client)("How many lines in x.md?", cwd=tmp_path)
    assert res.state.final_answer == "x.md has 3 lines" and res.state.stop_reason == "success"
    # the real output reached the answer prompt
    assert "3 x.md" in client.prompts[1][1]["content"]
    assert res.usage == {"llm_calls": 2, "prompt_tokens": 100, "completion_tokens": 14}
    tool_events = [e for e in res.events if e.kind == EventKind.TOOL_CALL]
    assert [e.data["command"] for e in tool_events] == ["wc -l x.md"]
    r = evaluate_run(Scenario(id="l", input="q", expected_patterns=["3 lines"], must_run_commands=["wc"]), res)
    assert r.passed and r.steps == 1 and r.complexity_got is None


def test_s0_tolerates_a_reply_without_json(tmp_path):
    client = ScriptedClient((None, "```\nls\n```"), (None, "files"))
    res = runner_with(client)("list", cwd=tmp_path)
    assert res.state.executed_steps[0].tool_call.args["command"] == "ls"


def test_s0_refused_command_is_not_counted_as_run(tmp_path):
    client = ScriptedClient(({"command": "rm -rf x"}, ""), (None, "could not"))
    res = runner_with(client, refuse=("rm",))("delete x", cwd=tmp_path)
    r = evaluate_run(Scenario(id="d", input="q", must_run_commands=["rm"]), res)
    assert not r.passed and r.missing_commands == ["rm"]
    assert "[refused]" in client.prompts[1][1]["content"]


def test_s0_llm_failure_is_a_stop_reason_not_a_crash(tmp_path):
    class Down:
        def complete(self, *a, **k):
            raise RuntimeError("backend unreachable")

    res = runner_with(Down())("q", cwd=tmp_path)
    assert res.state.stop_reason.startswith("s0_failed") and "unreachable" in res.state.stop_reason
    assert res.state.final_answer is None
