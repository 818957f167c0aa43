"""The repl (real sandbox), the operator (real worker) and the search providers."""

from __future__ import annotations

import os
import re
import sys
import time
import types

import pytest

from ragix_core.chat import messages as M
from ragix_core.chat.search import (DocsProvider, ExperienceProvider, ProviderError, ProviderSettings, SearchHit,
                                    build_providers, search_all)
from ragix_core.chat.tools import ChatTools, OperatorTool, ReplTool, SearchTool, operator_args


def _after(earlier, tool, tool_input, outcome, n):
    """The thread as the graph would hold it after ``outcome``."""
    call = M.reasoning(f"t:{2 * n + 1:03d}", "x", action=tool, tool_name=tool, tool_input=tool_input)
    result = M.tool_message(f"t:{2 * n + 2:03d}", tool_call_id=call.id, tool=tool, tool_input=tool_input,
                            output=outcome.output, error=outcome.error, **outcome.meta)
    return earlier + [call, result]


# -- repl --------------------------------------------------------------------------


def test_repl_keeps_variables_within_a_thread_and_a_new_thread_starts_clean(repl_box):
    repl = ReplTool(repl_box)
    thread = [M.human("t", "q")]
    first = repl.run({"code": "import math\nx = 347 * 29\nprint('side effect')"}, thread)
    assert first.error is None and first.output == "side effect"
    thread = _after(thread, "repl", {"code": "import math\nx = 347 * 29\nprint('side effect')"}, first, 0)
    second = repl.run({"code": "x - 1234"}, thread)  # a last bare expression is shown, like a prompt
    assert second.error is None and second.output == "8829"  # earlier output is not shown again
    assert second.meta["replayed_cells"] == 1
    fresh = repl.run({"code": "print(x)"}, [M.human("t2", "q")])
    assert fresh.error and "NameError" in fresh.error


def test_a_cell_that_failed_half_way_keeps_what_it_defined(repl_box):
    repl = ReplTool(repl_box)
    thread = [M.human("t", "q")]
    bad = repl.run({"code": "a = 5\nb = 1 / 0"}, thread)
    assert "ZeroDivisionError (line 2)" in bad.error
    thread = _after(thread, "repl", {"code": "a = 5\nb = 1 / 0"}, bad, 0)
    assert repl.run({"code": "a * 2"}, thread).output == "10"


def test_repl_is_confined_no_network_no_writes_no_environment(repl_box, monkeypatch):
    monkeypatch.setenv("RAGIX_CHAT_SECRET", "leak-me")
    repl = ReplTool(repl_box)
    root = repl_box.root
    code = ("import os, socket\n"
            "try:\n    socket.create_connection(('1.1.1.1', 53), timeout=2); print('NET OPEN')\n"
            "except OSError as e:\n    print('no network')\n"
            f"try:\n    open({os.path.join(root, 'written.txt')!r}, 'w').write('x'); print('WROTE')\n"
            "except OSError:\n    print('read-only')\n"
            "print(os.environ.get('RAGIX_CHAT_SECRET'))")
    out = repl.run({"code": code}, [M.human("t", "q")])
    assert out.output.splitlines() == ["no network", "read-only", "None"]
    assert not os.path.exists(os.path.join(root, "written.txt"))


def test_repl_timeout_is_an_error_and_the_cell_is_not_replayed(repl_box):
    from ragix_core.tools import Limits, ToolBox

    box = ToolBox(repl_box.root, profile="repl", limits=Limits(timeout=1.5, cpu_seconds=5))
    out = ReplTool(box).run({"code": "while True:\n    pass"}, [M.human("t", "q")])
    assert out.error and "timed out" in out.error and out.meta["replayable"] is False


def test_repl_without_code_says_what_is_missing(repl_box):
    out = ReplTool(repl_box).run({"expression": "1+1"}, [])
    assert out.error == "repl needs tool_input.code: the Python source to run"


def test_repl_driver_semantics_in_process(capsys):
    from ragix_core.chat import repl_driver

    with pytest.raises(SystemExit) as exit_info:
        repl_driver.main(["x = 2", "print('hidden')", "x ** 10\nundefined_name"])
    assert exit_info.value.code == 1
    out = capsys.readouterr()
    assert "hidden" not in out.out and "NameError (line 2)" in out.err


# -- operator ------------------------------------------------------------------------


@pytest.mark.parametrize("tool_input,expected", [
    ({"expression": "347*29"}, {"op": "evaluate", "expr": "347*29"}),
    ({"expression": "26.2 mile", "to": "ft"}, {"op": "convert", "quantity": "26.2 mile", "to": "ft"}),
    ({"operation": "solve", "expression": "x**2-4", "variable": "x"}, {"op": "solve", "expr": "x**2-4", "var": "x"}),
    ({"op": "Factor", "expr": "x**2-1"}, {"op": "factor", "expr": "x**2-1"}),
])
def test_operator_input_maps_to_the_worker_request(tool_input, expected):
    assert operator_args(tool_input) == expected


@pytest.mark.parametrize("tool_input,message", [
    ({}, "needs tool_input.expression"),
    ({"operation": "convert", "expression": "3 km"}, "needs tool_input.to"),
    ({"operation": "launch", "expression": "1"}, "unknown operation 'launch'"),
])
def test_operator_input_errors_name_what_is_wrong(tool_input, message):
    with pytest.raises(ValueError, match=message):
        operator_args(tool_input)


def test_operator_runs_exact_math_and_units(repl_box):
    op = OperatorTool(repl_box)
    assert op.run({"expression": "347*29"}, []).output == "10063"
    assert op.run({"expression": "100 degF", "to": "degC"}, []).output == "37.7777777778 degree_Celsius"
    bad = op.run({"expression": "__import__('os')"}, [])
    assert bad.error and "unsupported" in bad.error


# -- search --------------------------------------------------------------------------


@pytest.fixture()
def docs(tmp_path):
    d = tmp_path / "docs"
    (d / "services").mkdir(parents=True)
    (d / "services" / "zephyr.md").write_text("# Zephyr ingest\n\nThe Zephyr ingest service listens on port 7421.\n\n"
                                              "It is owned by the Kestrel team.\n")
    (d / "orion.txt").write_text("The Orion cluster has 48 nodes with 64 GB of RAM each.\n")
    (d / "blob.bin").write_bytes(b"\0\x01zephyr")
    (d / ".hidden").mkdir()
    (d / ".hidden" / "zephyr.md").write_text("zephyr secret draft")
    return d


def test_docs_search_finds_the_passage_and_follows_edits(docs, tmp_path):
    provider = DocsProvider(str(docs), str(tmp_path / "idx"))
    hits = provider.search("which port does zephyr listen on", 3)
    assert hits[0].ref == "services/zephyr.md" and "7421" in hits[0].text
    assert hits[0].title.startswith("Zephyr ingest") and hits[0].source == "docs"
    assert all(".hidden" not in h.ref and h.ref != "blob.bin" for h in hits)
    (docs / "orion.txt").write_text("The Orion cluster now has 96 nodes.\n")
    os.utime(docs / "orion.txt", ns=(time.time_ns(), time.time_ns() + 10_000_000))
    assert "96" in provider.search("orion nodes", 1)[0].text
    (docs / "services" / "zephyr.md").unlink()
    assert provider.search("zephyr port", 3) == []


def test_docs_search_shares_the_research_index(docs, tmp_path):
    # `ragix research index DIR --index I` and `ragix chat --docs DIR` read one index: what one built,
    # the other finds without indexing again.
    from ragix_core.research.index import DocumentIndex

    built = DocumentIndex.open(docs, tmp_path / "shared")
    assert built.update().indexed == 2
    built.close()
    provider = DocsProvider(str(docs), str(tmp_path / "shared"))
    assert provider.index.update().indexed == 0
    assert "48 nodes" in provider.search("orion cluster nodes", 1)[0].text


def test_docs_search_survives_query_syntax(docs, tmp_path):
    provider = DocsProvider(str(docs), str(tmp_path / "idx"))
    for query in ['zephyr" OR (', "NEAR(a b)", "*", "port:7421", ""]:
        provider.search(query, 2)  # FTS5 syntax in a query is text, never an error


def test_docs_provider_needs_a_directory(tmp_path):
    with pytest.raises(ProviderError, match="not a directory"):
        DocsProvider(str(tmp_path / "missing"))


def test_providers_by_name_and_by_factory(docs, home, monkeypatch):
    module = types.ModuleType("fake_web_provider")

    class Web:
        name = "web"

        def __init__(self, settings):
            self.settings = settings

        def search(self, query, top_k):
            return [SearchHit("web", "Result", f"web says {query}", ref="https://example.org")]

    module.make = Web
    monkeypatch.setitem(sys.modules, "fake_web_provider", module)
    providers, notes = build_providers(["docs", "experience", "fake_web_provider:make"],
                                       ProviderSettings(docs=str(docs)))
    assert [p.name for p in providers] == ["docs", "web"]
    assert notes == ["experience: memory is off under this profile or config"]
    with pytest.raises(ProviderError, match="cannot be loaded"):
        build_providers(["no_such_module_xyz:make"], ProviderSettings())


def test_a_failing_or_hanging_provider_does_not_hide_the_others():
    class Good:
        name = "good"

        def search(self, query, top_k):
            return [SearchHit("good", "t", "found it")]

    class Broken:
        name = "broken"

        def search(self, query, top_k):
            raise ConnectionError("no route")

    class Hangs:
        name = "slow"

        def search(self, query, top_k):
            time.sleep(5)
            return []

    hits, errors = search_all([Broken(), Hangs(), Good()], "q", 3, timeout=0.3)
    assert [h.text for h in hits] == ["found it"]
    assert errors == ["broken: ConnectionError: no route", "slow: no answer within 0.3s"]
    tool = SearchTool([Broken()], 3, 0.3)
    out = tool.run({"query": "q"}, [])
    assert out.error == "search failed: broken: ConnectionError: no route"


def test_search_tool_formats_hits_and_records_sources(docs, tmp_path):
    tool = SearchTool([DocsProvider(str(docs), str(tmp_path / "idx"))], 2, 5.0)
    out = tool.run({"query": "Kestrel team owner"}, [])
    assert out.error is None and out.output.startswith("1. Zephyr ingest (docs: services/zephyr.md)")
    assert out.meta["sources"][0]["ref"] == "services/zephyr.md"
    assert SearchTool([], 2, 1.0, notes=["docs: no document directory"]).run({"query": "x"}, []).error.startswith(
        "no search source")
    assert tool.run({}, []).error == "search needs tool_input.query: a few keywords"


def test_a_search_named_to_the_documents_reads_only_them_and_the_tools_say_they_have_documents(docs, tmp_path):
    class Web:
        name = "web"

        def __init__(self):
            self.asked = []

        def search(self, query, top_k):
            self.asked.append(query)
            return [SearchHit("web", "t", "from the web")]

    web = Web()
    tool = SearchTool([DocsProvider(str(docs), str(tmp_path / "idx")), web], 2, 5.0)
    out = tool.run({"query": "Kestrel team owner", "sources": "docs"}, [])
    assert out.error is None and "services/zephyr.md" in out.output and web.asked == []
    assert tool.run({"query": "x", "sources": "wiki"}, []).error == "no search source named 'wiki' here"
    assert ChatTools([tool]).searches_documents
    assert not ChatTools([SearchTool([web], 2, 5.0)]).searches_documents and not ChatTools([]).searches_documents


def test_closing_the_tools_closes_the_document_index(docs, tmp_path):
    import sqlite3

    from ragix_core.chat.tools import ChatTools

    class NothingOpen:  # a provider without close(): closing the tool still works
        name = "web"

        def search(self, query, top_k):
            return []

    provider = DocsProvider(str(docs), str(tmp_path / "idx"))
    assert provider.search("zephyr port", 1)
    ChatTools([SearchTool([NothingOpen(), provider], 2, 5.0)]).close()
    with pytest.raises(sqlite3.ProgrammingError):
        provider.index.db.execute("SELECT 1")


def test_experience_provider_reads_the_corpus(tmp_path):
    from datetime import datetime, timezone

    from ragix_core.core.types import ReasoningEvent
    from ragix_core.memory.experience import HybridExperienceCorpus

    corpus = HybridExperienceCorpus(tmp_path / "g", tmp_path / "p")
    corpus.append(ReasoningEvent(timestamp=datetime.now(timezone.utc).isoformat(), session_id="old", event_type="execution",
                                 goal="count lines of the parser module", tool_input="wc -l src/parser.py",
                                 outcome_status="success"))
    hits = ExperienceProvider(corpus).search("parser lines", 3)
    assert hits and hits[0].title == "count lines of the parser module" and "wc -l src/parser.py" in hits[0].text


def test_chat_tools_never_raise():
    class Exploding:
        name = "repl"

        def run(self, tool_input, earlier):
            raise KeyError("bug")

    tools = ChatTools([Exploding()])
    assert tools.run("repl", {"code": "1"}, []).error == "internal error in repl: KeyError: 'bug'"
    assert "not available here" in tools.run("search", {"query": "x"}, []).error


def test_an_input_that_is_the_instructions_example_is_refused_and_no_error_shows_one(repl_box):
    # Measured (issue 34): told `operator needs tool_input.expression (e.g. "(12.5*8 + 3)/2" ...)`, the
    # orchestrator ran that example and answered its value as a rectangle's area.
    with pytest.raises(ValueError, match="example from the instructions"):
        operator_args({"expression": "(12.5*8 + 3)/2"})
    with pytest.raises(ValueError, match="example from the instructions"):
        operator_args({"expression": " x**2 -  4", "operation": "solve"})
    with pytest.raises(ValueError) as missing:
        operator_args({})
    assert not re.search(r"\d", str(missing.value))  # says what is missing in words: nothing to paste
    assert operator_args({"expression": "(12.5*8 + 3)/3"})["expr"] == "(12.5*8 + 3)/3"  # not the example
    out = ReplTool(repl_box).run({"code": "print(sum(range(1, 101)))"}, [M.human("t", "q")])
    assert out.error.startswith("repl: this code is the example from the instructions")
