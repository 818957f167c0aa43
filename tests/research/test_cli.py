"""`ragix research` and `ragix research index` end to end through the CLI, with a scripted model
behind the run's roles; `ragix trace show` on a research log folder."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ragix_core.cli import app

from .conftest import TIERS, ScriptedLLM, analyst, critic, label, writer


@pytest.fixture
def sources(tmp_path):
    import yaml

    path = tmp_path / "tiers.yaml"
    path.write_text(yaml.safe_dump(TIERS))
    return path


@pytest.fixture
def scripted(monkeypatch):
    holder = {}

    def install(replies):
        llm = ScriptedLLM(replies)
        holder["llm"] = llm
        monkeypatch.setattr("ragix_core.llm.roles.build_client", lambda settings: llm)
        return llm

    return install


def invoke(*args):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})


def test_index_command_reports_counts_and_skips(docs):
    (docs / "broken.txt").write_bytes(b"\x00\x00")
    r = invoke("research", "index", str(docs), "--json")
    assert r.exit_code == 0, r.output
    stats = json.loads(r.output)
    assert stats["documents"] == 6 and stats["skipped"] == {"unreadable": 1}
    r = invoke("research", "index", str(docs))
    assert r.exit_code == 0 and "6 documents" in r.output and "0 indexed now, 6 unchanged" in r.output


def test_research_prints_items_as_json_with_existing_citations(docs, sources, scripted):
    scripted([lambda m: analyst("Quellmere", [("c", label(m, "official/vantoria.html"), "capital of Vantoria is Quellmere")]),
              critic("PASS"), writer("Quellmere [S1].")])
    r = invoke("research", "What is the capital of Vantoria?", "--docs", str(docs), "--sources", str(sources),
               "--mode", "strict", "--json")
    assert r.exit_code == 0, r.output
    items = json.loads(r.stdout)
    cit = items[0]["schema_object"]["citations"][0]
    assert (docs / cit["path"]).is_file() and cit["tier"] == 1 and items[0]["schema_object"]["mode"] == "strict"


def test_live_lines_show_rounds_and_verdicts(docs, sources, scripted):
    scripted([analyst("NOT FOUND", status="SEARCH_REQUIRED", queries=["glass exports"]),
              lambda m: analyst("glass", [("e", label(m, "official/vantoria.html"), "Vantoria exports glass")]),
              critic("PASS"), writer("glass [S1].")])
    r = invoke("research", "What does Vantoria export?", "--docs", str(docs), "--sources", str(sources))
    assert r.exit_code == 0, r.output
    assert "round 1 analyst: SEARCH_REQUIRED queries: glass exports" in r.output
    assert "gap search (round 1): 'glass exports'" in r.output and "round 2 critic: PASS" in r.output


def test_no_answer_exits_1_and_logs_render_with_trace_show(docs, sources, scripted):
    scripted([analyst("NOT FOUND")])
    r = invoke("research", "Who founded Zorblat?", "--docs", str(docs), "--sources", str(sources), "--json",
               "--max-iterations", "1")
    assert r.exit_code == 1
    folder = json.loads(r.stdout)[0]["url"].removeprefix("file://")
    shown = invoke("trace", "show", folder)
    assert shown.exit_code == 0 and "analyst" in shown.output and "NOT_FOUND" in shown.output


@pytest.mark.parametrize("args,message", [
    (["--mode", "fast"], "modes are strict"),
    (["--since", "last week"], "not a date"),
    (["--sources", "/nonexistent/tiers.yaml"], "cannot read"),
])
def test_usage_errors_exit_2_with_the_reason(docs, args, message):
    r = invoke("research", "q?", "--docs", str(docs), *args)
    assert r.exit_code == 2 and message in r.output
    assert "[red]" not in r.output  # markup is rendered, not printed


def test_a_missing_docs_directory_exits_2(tmp_path):
    r = invoke("research", "q?", "--docs", str(tmp_path / "none"))
    assert r.exit_code == 2 and "not a directory" in r.output
    r = invoke("research", "index", str(tmp_path / "none"))
    assert r.exit_code == 2 and "not found" in r.output


def test_a_collection_in_a_system_tree_is_researched_from_the_user_cache(docs, sources, scripted, tmp_path,
                                                                        monkeypatch):
    # /usr/share/doc/git-doc as it is on Debian: a system tree, which may be no project's root and which
    # ragix does not write into, even as root. Stand-in: the collection's own directory made a system tree.
    import ragix_core.tools.paths as paths

    monkeypatch.setattr(paths, "SYSTEM_TREES", paths.SYSTEM_TREES + (str(docs.resolve()),))
    monkeypatch.setattr("ragix_core.research.index._cache_root", lambda: tmp_path / "cache")
    scripted([lambda m: analyst("Quellmere", [("c", label(m, "official/vantoria.html"), "capital of Vantoria is Quellmere")]),
              critic("PASS"), writer("Quellmere [S1].")])
    r = invoke("research", "What is the capital of Vantoria?", "--docs", str(docs), "--sources", str(sources),
               "--mode", "strict", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)[0]["schema_object"]["status"] == "ANSWERED"
    assert not (docs / ".ragix").exists()  # nothing written into the collection
    assert list((tmp_path / "cache").glob("*/research_index.sqlite"))
