"""Frozen question sets over real manuals (benchmarks/research_docsets.py) and how research_bench scores them."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from benchmarks import research_bench as bench  # noqa: E402
from benchmarks import research_docsets as docsets  # noqa: E402
from benchmarks.research_corpus import Question  # noqa: E402
from ragix_core.eval.benchmarks.errors import BenchmarkError  # noqa: E402
from tests.research.conftest import LIMIT_QUESTION, ScriptedLLM, analyst, critic, label  # noqa: E402

HEADER = """package: demo-doc
version: "1.0-1"
doc_root: usr/share/doc/demo
sources: benchmarks/research_gitdoc/sources.yaml
mode: discovery
date: "2026-11-28"
frozen: "do not edit after the first model run; add a new file instead"
questions:
"""
QUESTIONS = """  - id: port
    kind: single
    question: Which port does the daemon use?
    answer: "9418"
    variants: ["nine four one eight"]
    quote: "listens on port 9418"
    gold: [daemon.html]
  - id: both
    kind: multi
    question: Which port and which server?
    parts:
      - {answer: "9418", quote: "listens on port 9418", gold: [daemon.html]}
      - {answer: "lighttpd", variants: [lighty], quote: "(Default: lighttpd)", gold: [web.html]}
  - id: none
    kind: unanswerable
    question: How do I configure the cloud service?
    why: the manual has no cloud service
    absent: [cloud]
"""
PAGES = {"daemon.html": "<html><body><h1>daemon</h1><p>The daemon listens on port 9418.</p></body></html>",
         "web.html": "<html><body><h1>web</h1><p>The server to start. (Default: lighttpd)</p></body></html>",
         "other.html": "<html><body><p>Unrelated page about hooks.</p></body></html>"}


def write_set(tmp_path, questions=QUESTIONS, header=HEADER):
    (tmp_path / "sets" / "demo").mkdir(parents=True)
    (tmp_path / "sets" / "demo" / "questions.yaml").write_text(header + questions)
    return tmp_path / "sets"


def write_pages(tmp_path, pages=PAGES):
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, html in pages.items():
        (docs / name).write_text(html)
    return docs


# -- loading ------------------------------------------------------------------------------

def test_a_set_loads_into_questions_whose_parts_carry_their_accepted_forms(tmp_path):
    ds = docsets.load_docset("demo", write_set(tmp_path))
    port, both, none = ds.questions
    assert (ds.package, ds.version, ds.include, ds.mode) == ("demo-doc", "1.0-1", ["*.html"], "discovery")
    assert port.accept == [["9418", "nine four one eight"]] and port.gold_docs == ["daemon.html"]
    assert both.accept == [["9418"], ["lighttpd", "lighty"]] and both.gold_docs == ["daemon.html", "web.html"]
    assert both.answer == "9418; lighttpd"
    assert none.answer == "" and none.gold_docs == [] and ds.absent["none"] == ["cloud"]


@pytest.mark.parametrize("questions, header, message", [
    (QUESTIONS, HEADER.replace("frozen:", "note:"), "the header lacks frozen"),
    (QUESTIONS.replace("kind: single", "kind: trivia"), HEADER, "kind must be one of"),
    (QUESTIONS.replace("  - id: none", "  - id: port"), HEADER, "question id port is used twice"),
    (QUESTIONS.replace("    gold: [daemon.html]\n", ""), HEADER, "needs its gold pages"),
    (QUESTIONS.replace("    absent: [cloud]\n", ""), HEADER, "names the terms no page has"),
    (QUESTIONS.replace("    why: the manual", '    answer: "x"\n    why: the manual'), HEADER, "has no answer"),
    (QUESTIONS.replace('      - {answer: "lighttpd", variants: [lighty], quote: "(Default: lighttpd)", gold: [web.html]}\n',
                       ""), HEADER, "two or more parts"),
    (QUESTIONS, HEADER.replace("research_gitdoc/sources.yaml", "nowhere.yaml"), "sources file"),
])
def test_a_malformed_set_is_refused_with_what_is_wrong(tmp_path, questions, header, message):
    with pytest.raises(BenchmarkError, match=message):
        docsets.load_docset("demo", write_set(tmp_path, questions, header))


def test_an_unknown_set_names_the_sets_there_are(tmp_path):
    with pytest.raises(BenchmarkError, match="no question set 'nope'.*git-doc"):
        docsets.load_docset("nope", tmp_path)


# -- verifying against the pages ----------------------------------------------------------

def test_a_set_that_holds_on_its_pages_has_no_problems(tmp_path):
    ds = docsets.load_docset("demo", write_set(tmp_path))
    assert docsets.verify_docset(ds, write_pages(tmp_path)) == []


@pytest.mark.parametrize("pages, expected", [
    ({**PAGES, "daemon.html": "<p>The daemon listens on port 9419.</p>"}, "answer '9418' is not on gold page daemon.html"),
    ({k: v for k, v in PAGES.items() if k != "web.html"}, "gold page web.html does not exist"),
    ({**PAGES, "other.html": "<p>It listens on port 9418.</p>"}, "quote also stands on other.html: add it to gold"),
    ({**PAGES, "web.html": "<p>listens on port 9418. (Default: lighttpd)</p>"}, "web.html states every part"),
    ({**PAGES, "other.html": "<p>Our Cloud offering.</p>"}, "'cloud' stands on other.html"),
])
def test_verify_names_each_way_the_set_and_its_pages_disagree(tmp_path, pages, expected):
    docsets.page_text.cache_clear()
    ds = docsets.load_docset("demo", write_set(tmp_path))
    problems = docsets.verify_docset(ds, write_pages(tmp_path, pages))
    assert any(expected in p for p in problems), problems


@pytest.mark.parametrize("name", docsets.docset_names())
def test_each_frozen_set_holds_on_the_pages_of_its_pinned_package(name):
    ds = docsets.load_docset(name)
    kinds = [q.kind for q in ds.questions]
    assert 20 <= len(kinds) <= 30 and 2 <= kinds.count("unanswerable") <= 3 and kinds.count("multi") >= 2
    docs = docsets.fetched_docs(ds)
    if docs is None:
        pytest.skip(f"{ds.package} {ds.version} is not fetched: python benchmarks/research_docsets.py fetch {name} "
                    "(scripts/test.sh does it; research_bench.py --docset fetches it itself)")
    assert docsets.verify_docset(ds, docs) == []


# -- scoring ------------------------------------------------------------------------------

BOTH = Question("both", "multi", "q?", "9418; lighttpd", ["daemon.html", "web.html"], accept=[["9418"], ["lighttpd", "lighty"]])
PORT = Question("port", "single", "q?", "2 weeks", ["gc.html"], accept=[["2 weeks", "two weeks", "14 days"]])
NONE = Question("none", "unanswerable", "q?", "")


@pytest.mark.parametrize("q, answer, expected", [
    (PORT, "Two weeks by default.", "correct"),
    (PORT, "14 days", "correct"),
    (PORT, "12 weeks", "wrong"),  # whole words: "2 weeks" is not inside "12 weeks"
    (PORT, "NOT FOUND", "declined"),
    (BOTH, "Port 9418, served by lighty", "correct"),
    (BOTH, "Port 9418", "wrong"),  # a multi-page answer needs every part
    (NONE, "NOT FOUND", "correct"),
    (NONE, "Use the cloud console", "wrong"),
])
def test_an_answer_is_right_when_it_states_every_part_in_an_accepted_form(q, answer, expected):
    assert bench.verdict(q, answer) == expected


def record(qid, system, answer, cites=(), **kw):
    q = {"port": PORT, "both": BOTH, "none": NONE}[qid]
    return {"id": qid, "system": system, "answer": answer, "verdict": bench.verdict(q, answer), "seconds": 2.0,
            "calls": 1, "prompt_tokens": 10, "completion_tokens": 5,
            "citations": [{"path": p, "exists": True, "tier": 1} for p in cites], **kw}


def test_the_summary_counts_answers_citing_a_gold_page_and_the_table_drops_unmeasured_rows():
    questions = {"port": PORT, "both": BOTH, "none": NONE}
    records = [record("port", "full_loop", "two weeks", ["gc.html"]),
               record("both", "full_loop", "9418 and lighttpd", ["other.html"]),
               record("none", "full_loop", "NOT FOUND"),
               record("port", "bm25_oneshot", "NOT FOUND", context_docs=["gc.html"])]
    report = {"systems": {name: bench.summarize(records, name, questions) for name in bench.SYSTEMS}}
    full = report["systems"]["full_loop"]
    assert full["correct"]["n"] == "3/3" and full["cited_gold_page"]["n"] == "1/2"
    assert report["systems"]["bm25_oneshot"]["false_decline_rate"]["n"] == "1/1"
    assert full["exact_match"]["n"] == "2/2"  # "two weeks" is an accepted form; the multi answer states both parts
    table = bench.markdown(report)
    assert "| answers citing a gold page | – | – | 0.5 (1/2)" in table
    assert "conflict" not in table and "strict" not in table  # no question of a manual measures them


# -- the four systems on a set's question, with a scripted model ---------------------------

def smart_reply(messages):
    """Analyst: cite the limits page when it is in the context, else decline; critic: pass; alone: decline."""
    system = messages[0]["content"]
    if "CRITIC" in system:
        return critic("PASS")
    if "ANALYST" in system or "analyst" in system.lower():
        if "official/pack-limits.md" in messages[-1]["content"]:
            return analyst("64", [("limit", label(messages, "official/pack-limits.md"),
                                   "The open pack limit per repository is 64")])
        return analyst("NOT FOUND", status="DRAFT_READY")
    return {"answer": "NOT FOUND"}


def test_every_system_runs_on_a_set_question_and_is_scored_without_a_judge(manual_index, settings):
    settings.reasoning.writer_llm = False
    q = Question("limit", "single", LIMIT_QUESTION, "64", ["official/pack-limits.md"], accept=[["64", "sixty-four"]])
    llm = ScriptedLLM([smart_reply] * 20)
    records, ran = bench.run_systems([q], llm, manual_index, settings, None)
    by_system = {r["system"]: r for r in records}
    assert ran == [q] and set(by_system) == set(bench.SYSTEMS)
    assert by_system["no_retrieval"]["verdict"] == "declined"
    for name in ("bm25_oneshot", "full_loop", "oracle"):
        assert by_system[name]["verdict"] == "correct", by_system[name]
        assert bench.cited_gold(by_system[name], q)
    assert all(r["calls"] >= 1 and r["prompt_tokens"] == 100 * r["calls"] for r in records)
    summary = bench.summarize(records, "full_loop", {"limit": q})
    assert summary["correct"]["n"] == "1/1" and summary["cited_gold_page"]["n"] == "1/1"


def test_the_oracle_puts_the_gold_chunks_that_match_the_question_first(manual_index):
    q = Question("limit", "single", LIMIT_QUESTION, "64", ["official/pack-limits.md", "news/weekly.md"])
    hits = bench.gold_chunks(q, manual_index, 1)
    assert {h.path for h in hits} == {"official/pack-limits.md", "news/weekly.md"}
    assert len(hits) == len({h.chunk for h in hits}) == sum(len(manual_index.chunks_of(p)) for p in q.gold_docs)
    assert "64" in hits[0].text


def test_the_docset_run_reports_every_system_as_json_and_a_table(monkeypatch, tmp_path, capsys):
    ds = docsets.load_docset("git-doc")
    if docsets.fetched_docs(ds) is None:
        pytest.skip("git-doc is not fetched: python benchmarks/research_docsets.py fetch git-doc")
    monkeypatch.setattr(bench, "make_model", lambda args: ScriptedLLM([smart_reply] * 40))
    out = tmp_path / "report.json"
    assert bench.main(["--docset", "git-doc", "--limit", "2", "--json", str(out), "--work", str(tmp_path / "idx")]) == 0
    import json

    report = json.loads(out.read_text())
    assert report["questions_run"] == [q.id for q in ds.questions[:2]] and report["docset"]["version"] == ds.version
    assert set(report["systems"]) == set(bench.SYSTEMS)
    assert report["systems"]["full_loop"]["declined"]["n"] == "2/2"  # the scripted analyst finds no pack limit here
    assert "| correct (all kinds) |" in capsys.readouterr().out
