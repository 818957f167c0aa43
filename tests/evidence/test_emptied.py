"""A pipeline that printed nothing is run a stage at a time to say which stage left no line (evidence/emptied.py)."""

from __future__ import annotations

from ragix_core.core.types import ToolResult
from ragix_core.evidence.emptied import MAX_PROBES, emptied_stage, pipe_prefixes
from tests.reasoning_v30.test_main_path import fenced, run


def _runner(outputs):
    ran = []

    def run_(command):
        ran.append(command)
        out = outputs.get(command)
        if isinstance(out, ToolResult):
            return out
        return ToolResult("shell", 0 if out else 1, stdout=out or "", no_match=not out)
    return run_, ran


def test_prefixes_cut_at_unquoted_pipes_only():
    assert pipe_prefixes("grep -rn 'a|b' . | grep -v x | wc -l") == ["grep -rn 'a|b' .", "grep -rn 'a|b' . | grep -v x"]
    assert pipe_prefixes("grep -rn a .") == [] and pipe_prefixes("grep a f || echo none") == []


def test_the_stage_that_dropped_every_line_is_named_with_the_first_line_it_got():
    command = "grep -rn storage ./ | grep -v ./ | awk '{print $2}' | uniq"
    run_, ran = _runner({"grep -rn storage ./": "./api.py:3:from .storage import load\n./cli.py:1:import storage\n"})
    said = emptied_stage(command, run_)
    assert ran == ["grep -rn storage ./", "grep -rn storage ./ | grep -v ./"]  # it stops at the stage that emptied it
    assert said == ("`grep -rn storage ./` printed 2 lines (the first: `./api.py:3:from .storage import load`), "
                    "and `| grep -v ./` left none of them.")


def test_the_last_stage_and_the_first_are_named_too():
    run_, _ = _runner({"grep -rn x .": "./a:1:x\n"})
    assert "and `| grep -c zzz` left none" in emptied_stage("grep -rn x . | grep -c zzz", run_)
    run_, _ = _runner({})
    assert emptied_stage("grep -rn nothing . | wc -l", run_) == "Its first stage `grep -rn nothing .` alone printed nothing."


def test_a_count_of_nothing_names_the_stage_that_lost_the_lines():
    run_, ran = _runner({"grep -rn 23:00-23:59 server.log": ""})
    assert emptied_stage("grep -rn 23:00-23:59 server.log | wc -l", run_, "0") == (
        "Its first stage `grep -rn 23:00-23:59 server.log` alone printed nothing.")
    assert ran == ["grep -rn 23:00-23:59 server.log"]
    # every stage before the last printed lines: the last made the 0 of them
    run_, _ = _runner({"grep -h ERROR a.log": "ERROR disk\nERROR net\n"})
    assert emptied_stage("grep -h ERROR a.log | awk '/WARN/{n++} END{print n+0}'", run_, "0") == (
        "`grep -h ERROR a.log` printed 2 lines (the first: `ERROR disk`), and `| awk '/WARN/{n++} END{print n+0}'` "
        "printed only `0` from them.")


def test_a_search_under_xargs_that_matched_nothing_is_a_clean_empty_stage():
    nothing = ToolResult("shell", 123, no_match=True)  # grep's exit 1 under xargs
    run_, _ = _runner({"find . -name '*.csv'": "./a.csv\n", "find . -name '*.csv' | xargs grep zzz": nothing})
    said = emptied_stage("find . -name '*.csv' | xargs grep zzz | sort", run_)
    assert said and "and `| xargs grep zzz` left none of them." in said


def test_a_refused_or_failing_probe_and_a_long_pipe_say_nothing():
    refused = ToolResult("shell", 126, refused=True, error="refused")
    run_, _ = _runner({"cat a": refused})
    assert emptied_stage("cat a | grep x", run_) is None
    run_, _ = _runner({"cat a": ToolResult("shell", 2, stderr="no such file")})
    assert emptied_stage("cat a | grep x", run_) is None
    long = " | ".join(["cat a"] + ["grep x"] * (MAX_PROBES + 1))
    run_, ran = _runner({p: "x\n" for p in pipe_prefixes(long)})
    assert emptied_stage(long, run_) is None and len(ran) == MAX_PROBES


def _retry_prompt(tmp_path, monkeypatch, files, goal, *replies):
    """The prompt of the one retry after the first command, on a project of ``files`` (path -> text)."""
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    root = tmp_path / "project"
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    _, llm = run(goal, root, *replies, reasoning={"voting": {"samples": 0, "retries": 1}})
    return llm.calls[1]["messages"][0]["content"]


def test_the_retry_is_told_which_stage_left_nothing(tmp_path, monkeypatch):
    retry = _retry_prompt(tmp_path, monkeypatch, {"src/api.py": "from .storage import load\n",
                                                  "src/storage.py": "def load():\n    return 1\n"},
                          "Which files in src import storage?", fenced("grep -rn storage ./src | grep -v ./"),
                          fenced("grep -rl 'import' src"), "src/api.py imports it.")
    # (the search ran again with -i, ragix's own mend of a search that found nothing; its stages are probed)
    assert "storage ./src` printed 1 line (the first: `./src/api.py:1:from .storage import load`)" in retry
    assert "and `| grep -v ./` left none of them." in retry


def test_the_retry_after_a_count_of_nothing_is_told_which_stage_lost_the_lines(tmp_path, monkeypatch):
    retry = _retry_prompt(tmp_path, monkeypatch, {"logs/a.log": "23:40 login\n22:10 login\n"},
                          "How many logins happened after 23:00?", fenced("grep -rn '^23' logs | grep -v logs | wc -l"),
                          fenced("grep -c '^23' logs/a.log"), "1 login.")
    assert "only printed `0`, which shows nothing found" in retry
    assert ("`grep -rn '^23' logs` printed 1 line (the first: `logs/a.log:1:23:40 login`), "
            "and `| grep -v logs` left none of them.") in retry, retry
