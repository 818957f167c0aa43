"""The JSON API on a real uvicorn: runs start, stream, end, cancel and read back from their traces;
every refusal is JSON with a message."""

from __future__ import annotations

import json
import os

import httpx
import pytest

from ragix_core.config import parse_config
from ragix_core.runtime.run import run_goal
from ragix_core.serve.settings import ServeSettings, SettingsError
from tests.serve.conftest import ScriptsByGoal, fenced

GOAL = "How many lines does README.md have?"
SCRIPT = {GOAL: [fenced("wc -l README.md")]}  # one command: its wc line is the answer as printed


def start(client: httpx.Client, goal: str = GOAL, **fields) -> dict:
    response = client.post("/api/runs", json={"goal": goal, **fields})
    assert response.status_code == 202, response.text
    return response.json()


def sse_messages(client: httpx.Client, path: str) -> list:
    """(event, data) pairs of a server-sent-events response, read to its end."""
    out, event = [], None
    with client.stream("GET", path) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        for line in response.iter_lines():
            if line.startswith("event:"):
                event = line.split(":", 1)[1].strip()
            elif line.startswith("data:"):
                out.append((event, line.split(":", 1)[1].strip()))
    return out


def test_a_graph_run_goes_through_the_real_tools_and_reads_back_from_its_trace(serve, project):
    server = serve(SCRIPT)
    with server.client() as c:
        run = start(c, engine="graph_v30", root="project")
        assert run["status"] in ("queued", "running") and run["engine"] == "graph_v30"
        done = server.wait_for(run["id"])
        assert done["status"] == "finished" and done["stop_reason"] == "unconfirmed"  # one command's short output
        assert done["result"]["final_answer"] == "README.md has 19 lines."
        assert done["result"]["executed_steps"][0]["result"]["stdout"].startswith("19 README.md")
        trace = c.get(f"/api/runs/{run['id']}/trace").json()
        assert [r for r in trace if r["kind"] == "tool_call"][0]["data"]["argv"][-1] == "README.md"
        assert (project / ".ragix" / "reasoning_traces" / f"{run['id']}.jsonl").is_file()
        assert run["id"] in [r["id"] for r in c.get("/api/runs").json()]
        messages = sse_messages(c, f"/api/runs/{run['id']}/events")
    kinds = [event for event, _ in messages]
    assert kinds[0] == "run_start" and "tool_call" in kinds and kinds[-1] == "end"
    assert json.loads(messages[-1][1])["status"] == "finished"


def test_the_event_stream_follows_a_run_while_it_happens(serve):
    server = serve(SCRIPT, delay=0.3)
    with server.client() as c:
        run = start(c)
        messages = sse_messages(c, f"/api/runs/{run['id']}/events")
    kinds = [event for event, _ in messages]
    assert kinds.count("llm_call") == 1 and kinds[-2] == "run_end" and kinds[-1] == "end"


def test_a_run_the_server_did_not_start_is_listed_and_read_from_its_trace(serve, project):
    from tests.scripted_llm import ScriptedLLM

    llm = ScriptedLLM(list(SCRIPT[GOAL]))
    result = run_goal(GOAL, cwd=project, config=parse_config({}), client_factory=lambda s: llm)
    server = serve({})
    with server.client() as c:
        listed = {r["id"]: r for r in c.get("/api/runs").json()}
        assert listed[result.session_id]["goal"] == GOAL and listed[result.session_id]["status"] == "traced"
        run = c.get(f"/api/runs/{result.session_id}").json()
        assert run["stop_reason"] == "unconfirmed" and run["engine"] == "graph"
        assert run["answer"] == result.state.final_answer  # read from the trace's run_end
        page = c.get(f"/runs/{result.session_id}").text
        mermaid = c.get(f"/api/runs/{result.session_id}/mermaid")
    assert "README.md has 19 lines" in page  # the past run's page shows what it answered
    assert mermaid.status_code == 200 and mermaid.text.startswith("flowchart TD")
    assert "DIRECT_EXEC" in mermaid.text and "rc=0" in mermaid.text and "RESPOND -->|1| END_" in mermaid.text


def test_a_trace_reached_through_a_symlink_or_a_dotted_id_is_not_found(serve, project, tmp_path):
    outside = tmp_path / "outside.jsonl"
    outside.write_text(json.dumps({"kind": "run_start", "session_id": "x", "ts": 1, "data": {"goal": "secret"}}) + "\n")
    traces = project / ".ragix" / "reasoning_traces"
    traces.mkdir(parents=True)
    os.symlink(outside, traces / "linked.jsonl")
    server = serve({})
    with server.client() as c:
        assert c.get("/api/runs/linked").status_code == 404
        assert "linked" not in [r["id"] for r in c.get("/api/runs").json()]
        for bad in ("..%2Foutside", "..", "%2E%2E"):
            response = c.get(f"/api/runs/{bad}/trace")
            assert response.status_code == 404 and "error" in response.json()


@pytest.mark.parametrize("fields, status, words", [
    ({"engine": "nope"}, 400, "unknown engine 'nope'"),
    ({"root": "elsewhere"}, 400, "unknown root 'elsewhere'"),
    ({"profile": "sovereign"}, 400, "profile 'sovereign' is not allowed"),
    ({"goal": "   "}, 400, "the goal is empty"),
    ({"goal": "x" * 5000}, 400, "the limit is 4000"),
    ({"goal": 3}, 422, "goal"),
])
def test_a_run_the_server_does_not_allow_is_refused_with_a_message(serve, fields, status, words):
    server = serve({})
    with server.client() as c:
        response = c.post("/api/runs", json={"goal": GOAL, **fields})
    assert response.status_code == status and words in response.json()["error"]
    assert "Traceback" not in response.text


def test_oversized_and_malformed_bodies_get_json_errors(serve):
    server = serve({}, max_body_bytes=1000)
    with server.client() as c:
        big = c.post("/api/runs", json={"goal": "x" * 2000})
        chunked = c.post("/api/runs", content=iter([b'{"goal": "', b"x" * 2000, b'"}']),
                         headers={"content-type": "application/json"})
        broken = c.post("/api/runs", content=b"{not json", headers={"content-type": "application/json"})
    assert big.status_code == 413 and "over 1000 bytes" in big.json()["error"]
    assert chunked.status_code == 413
    assert broken.status_code == 422 and broken.json()["error"]


def test_runs_beyond_the_bound_are_refused_and_a_cancelled_run_ends_cancelled(serve):
    slow = "How many files are in docs?"
    server = serve({slow: [fenced("ls docs")] * 5, GOAL: SCRIPT[GOAL]}, delay=1.0, max_active=1, max_queued=1)
    with server.client() as c:
        first = start(c, goal=slow)
        queued = start(c)
        refused = c.post("/api/runs", json={"goal": GOAL})
        assert refused.status_code == 429 and "allows 2" in refused.json()["error"]
        assert c.post(f"/api/runs/{queued['id']}/cancel").json()["status"] == "cancelled"
        c.post(f"/api/runs/{first['id']}/cancel")
        assert server.wait_for(first["id"])["status"] == "cancelled"
        assert c.post("/api/runs/nope/cancel").status_code == 404
    assert server.model.calls.count(GOAL) == 0  # the cancelled queued run never asked the model


def test_a_state_change_from_another_origin_or_host_is_refused(serve):
    server = serve(SCRIPT)
    with server.client() as c:
        foreign = c.post("/api/runs", json={"goal": GOAL}, headers={"origin": "http://evil.example"})
        rebinding = c.get("/api/runs", headers={"host": "evil.example"})
        own = c.post("/api/runs", json={"goal": GOAL}, headers={"origin": server.url})
    assert foreign.status_code == 403 and "evil.example" in foreign.json()["error"]
    assert rebinding.status_code == 421
    assert own.status_code == 202


def test_with_a_token_every_request_needs_it(serve):
    server = serve({}, token="s3cret")
    with server.client() as c:
        assert c.get("/api/runs").status_code == 401
        assert c.get("/api/runs", headers={"authorization": "Bearer s3cret"}).status_code == 200
        page = c.get("/?token=s3cret")
        assert page.status_code == 200 and "ragix_token=s3cret" in page.headers["set-cookie"]
        assert c.get("/api/runs").status_code == 200  # the cookie now carries it


def test_settings_refuse_an_open_address_without_a_token_and_roots_that_are_not_directories(tmp_path):
    with pytest.raises(SettingsError, match="needs --token"):
        ServeSettings(roots={"p": tmp_path}, host="0.0.0.0")
    with pytest.raises(SettingsError, match="is not a directory"):
        ServeSettings(roots={"p": tmp_path / "missing"})
    assert ServeSettings(roots={"p": tmp_path}, host="0.0.0.0", token="t").profiles == ("safe", "dev")


def test_the_schema_is_served_and_the_corpus_finds_a_finished_run(serve):
    server = serve(SCRIPT)
    with server.client() as c:
        schema = c.get("/openapi.json").json()
        assert {"/api/runs", "/api/runs/{run_id}/events", "/api/corpus/search"} <= set(schema["paths"])
        assert c.get("/docs").status_code == 404  # its viewer would load scripts from a CDN
        run = start(c)
        server.wait_for(run["id"])
        hits = c.get("/api/corpus/search", params={"q": "README lines", "root": "project"}).json()
        assert any(h["event"]["goal"] == GOAL for h in hits)
        assert c.get("/api/corpus/search", params={"q": "x", "root": "nope"}).status_code == 400
        assert c.get(f"/api/runs/{run['id']}/items").status_code == 404  # not a research run


def test_a_past_contractive_run_is_exported_as_its_tree(serve, project):
    from tests.reasoning_slim.test_engine import Q, split_client

    result = run_goal(Q, cwd=project, config=parse_config({}), strategy="contractive",
                      client_factory=lambda s: split_client())
    server = serve({})
    with server.client() as c:
        assert c.get(f"/api/runs/{result.session_id}").json()["engine"] == "contractive"
        mermaid = c.get(f"/api/runs/{result.session_id}/mermaid")
    assert mermaid.status_code == 200 and mermaid.text.startswith("graph TD")
    assert "n0 --> n1" in mermaid.text and "H=" in mermaid.text and "class n3 pruned" in mermaid.text


def test_a_past_tutor_run_is_exported_as_its_proof_graph_from_its_trace_alone(serve, project):
    from ragix_core.reasoning_tutor.graph import ProofGraph
    from tests.scripted_llm import ScriptedLLM

    # No acceptance criteria: the short output is cross-checked before it answers (reasoning_tutor/command_turn.py).
    llm = ScriptedLLM([{"move": "PROPOSE", "intent": "count", "command": "wc -l README.md", "mode": "read"},
                       "```sh\ncat README.md | wc -l\n```",
                       {"move": "RESPOND", "answer": "README.md has 19 lines.",
                        "claims": [{"predicate": "line_count", "args": ["README.md", "19"]}]}])
    result = run_goal(GOAL, cwd=project, config=parse_config({}), strategy="tutor", client_factory=lambda s: llm)
    exported = ProofGraph.from_json(result.state.meta["tutor"]["graph"]).to_mermaid()  # `ragix tutor`'s export
    server = serve({})  # a server that did not run it: it has the trace file only
    with server.client() as c:
        assert c.get(f"/api/runs/{result.session_id}").json()["engine"] == "tutor"
        mermaid = c.get(f"/api/runs/{result.session_id}/mermaid")
        page = c.get(f"/runs/{result.session_id}").text
        listing = c.get("/runs").text
    assert mermaid.status_code == 200 and mermaid.text == exported
    assert "wc -l README.md" in mermaid.text and ":::claim_validated" in mermaid.text
    link = f'href="/api/runs/{result.session_id}/mermaid"'
    assert link in page and link in listing  # the past run's page and the runs list offer the export
