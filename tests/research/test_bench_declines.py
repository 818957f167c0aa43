"""benchmarks/research_bench.py counts declines, and false declines: a gold document was retrieved."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from benchmarks import research_bench as bench  # noqa: E402
from benchmarks.research_corpus import Question  # noqa: E402


def record(qid, system="full_loop", **kw):
    base = {"id": qid, "system": system, "answer": "", "verdict": "declined", "seconds": 1.0, "calls": 1,
            "prompt_tokens": 10, "completion_tokens": 5, "citations": []}
    return {**base, **kw}


QUESTIONS = {q.id: q for q in [
    Question("gold-retrieved", "single", "q1?", "64", ["a.md"]),
    Question("gold-missed", "single", "q2?", "Vantoria", ["b.md"]),
    Question("answered", "single", "q3?", "glass", ["d.md"]),
    Question("unanswerable", "unanswerable", "q4?", ""),
    Question("oneshot-decline", "single", "q5?", "412", ["e.md"]),
]}


def test_false_declines_are_declines_whose_gold_document_was_retrieved():
    records = [record("gold-retrieved", declined=True, context_docs=["a.md", "x.md"]),
               record("gold-missed", declined=True, context_docs=["c.md"]),
               record("answered", declined=False, answer="glass", verdict="correct", context_docs=["d.md"]),
               record("unanswerable", declined=True, verdict="correct", context_docs=["a.md"]),
               # a one-shot system has no "declined": its answer says
               record("oneshot-decline", system="bm25_oneshot", answer="NOT FOUND", context_docs=["e.md"]),
               record("gold-retrieved", system="no_retrieval")]  # retrieved nothing: not counted
    rates = bench.decline_rates(records, QUESTIONS)
    assert rates["decline_rate"]["n"] == "3/4" and rates["false_decline_rate"]["n"] == "2/4"
    assert bench.decline_rates([records[-1]], QUESTIONS) == {}


def test_the_summary_and_its_table_show_the_decline_rates():
    records = [record("gold-retrieved", declined=True, context_docs=["a.md"], repaired=2)]
    report = {"systems": {name: bench.summarize(records, name, QUESTIONS) for name in bench.SYSTEMS}}
    full = report["systems"]["full_loop"]
    assert full["false_decline_rate"]["n"] == "1/1" and full["citations_repaired"] == 2
    table = bench.markdown(report)
    assert "| false declines (gold doc retrieved) | – | – | 1.0 (1/1)" in table


def test_only_and_systems_choose_the_questions_and_systems_a_run_reruns():
    every = list(QUESTIONS.values())
    assert [q.id for q in bench.only_of(every, every, ["answered", "gold-missed"])] == ["gold-missed", "answered"]
    assert bench.only_of(every, every, None) == every
    import pytest

    with pytest.raises(SystemExit, match="no question 'nope'"):
        bench.only_of(every, every, ["nope"])
    args = bench.parse_args(["--only", "a,b", "--only", "c", "--systems", "bm25_oneshot,full_loop"])
    assert args.only == ["a", "b", "c"] and args.systems == ["bm25_oneshot", "full_loop"]
    with pytest.raises(SystemExit):
        bench.parse_args(["--systems", "full_loop,magic"])
    report = {"systems": {"full_loop": bench.summarize([record("answered", answer="glass", verdict="correct",
                                                               declined=False, context_docs=["d.md"])],
                                                       "full_loop", QUESTIONS)}}
    table = bench.markdown(report)
    assert table.splitlines()[0] == "| metric | full_loop |" and "no_retrieval" not in table


def report(commit, ids, systems, model="m", verdict="correct"):
    recs = [record(i, system=s, answer="64", verdict=verdict, context_docs=["a.md"]) for i in ids for s in systems]
    return {"date": "d", "commit": commit, "command": f"run {commit}", "docset": {"name": "set"}, "model": model,
            "questions_run": ids, "records": recs}


def test_a_composed_report_takes_the_other_systems_from_the_earlier_run_on_the_questions_both_ran():
    from benchmarks import research_compose

    new = report("new1", ["gold-retrieved", "answered"], ["full_loop"])
    earlier = report("old1", ["gold-retrieved", "gold-missed"], ["bm25_oneshot", "full_loop", "oracle"])
    out = research_compose.compose(new, earlier, QUESTIONS)
    assert out["questions_run"] == ["gold-retrieved"] and list(out["systems"]) == ["bm25_oneshot", "full_loop", "oracle"]
    assert {(r["system"], r["id"]) for r in out["records"]} == {("full_loop", "gold-retrieved"),
                                                                  ("bm25_oneshot", "gold-retrieved"), ("oracle", "gold-retrieved")}
    assert out["composed_from"]["earlier"] == {"commit": "old1", "command": "run old1", "systems": ["bm25_oneshot", "oracle"]}
    import pytest

    with pytest.raises(ValueError, match="different models"):
        research_compose.compose(new, report("old2", ["answered"], ["oracle"], model="other"), QUESTIONS)


def test_a_union_puts_two_runs_questions_together_in_the_sets_order_the_new_run_winning_a_shared_one():
    from benchmarks import research_compose

    new = report("new1", ["unanswerable", "answered"], ["bm25_oneshot", "full_loop"], verdict="wrong")
    earlier = report("old1", ["gold-retrieved", "answered"], ["bm25_oneshot", "full_loop", "oracle"])
    out = research_compose.union(new, earlier, QUESTIONS)
    assert out["questions_run"] == ["gold-retrieved", "answered", "unanswerable"]
    assert list(out["systems"]) == ["bm25_oneshot", "full_loop"]  # only the systems both ran
    answered = [r for r in out["records"] if r["id"] == "answered"]
    assert len(answered) == 2 and all(r["verdict"] == "wrong" for r in answered)  # the new run's records
    assert out["systems"]["full_loop"]["correct"]["n"] == "1/3"
    assert out["composed_from"]["earlier"]["questions"] == ["gold-retrieved"]


def test_a_union_of_one_systems_runs_composes_with_an_earlier_run_of_the_others():
    # A system's set run in two parts (put together with --union), then beside the other systems' earlier run.
    from benchmarks import research_compose

    part_a = report("new1", ["gold-retrieved"], ["full_loop"])
    part_b = report("new1", ["answered"], ["full_loop"])
    whole = research_compose.union(part_b, part_a, QUESTIONS)
    out = research_compose.compose(whole, report("old1", ["gold-retrieved", "answered"], ["bm25_oneshot"]), QUESTIONS)
    assert list(out["systems"]) == ["bm25_oneshot", "full_loop"] and out["questions_run"] == ["gold-retrieved", "answered"]
    assert out["composed_from"]["new"]["command"]["earlier"]["command"] == "run new1"  # what the union was made of
