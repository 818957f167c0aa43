"""Deep research over local documents, measured: the full loop against three baselines, one command.

    python benchmarks/research_bench.py [--per-kind 2] [--planted 3] [--seed 7] [--model NAME_OR_GGUF]
                                        [--json out.json] [--skip-model] [--limit N] [--threads N]
    python benchmarks/research_bench.py --docset git-doc|sqlite3-doc [--limit N] [--kinds ...] [--only ID,...]
                                        [--json out.json]

With ``--docset NAME`` the questions are a frozen set over a real Debian manual
(benchmarks/research_docsets/NAME/questions.yaml, see research_docsets.py): the package is fetched into
.bench when missing, the set is verified against its pages (the run stops if it no longer holds), and
part 2 runs on it (kinds single, multi, unanswerable; accepted variants count as matches); parts 1 and 3
are skipped.

1. Index speed: ~800 generated HTML pages (~30 MB) indexed cold, then updated with nothing
   changed, next to reading the same bytes (the floor); and the research collection.
2. Questions from benchmarks/research_corpus.py (fictional: no model knows them), sampled
   ``--per-kind`` per kind: single, multi (2-3 documents), unanswerable, conflict (monitor mode),
   strict_trap (strict mode; the answer is only in tier 5). Four systems on each, same model:
     no_retrieval   the question alone ("answer or say NOT FOUND")
     bm25_oneshot   the first search's chunks (the mode's tiers), one analyst call, no critic
     full_loop      DeepResearchOrchestrator: analyst/critic/writer, gap search, 3 rounds
     oracle         every chunk of the gold documents, one analyst call
3. The critic alone on drafts with planted errors (``--planted`` questions x 6 error kinds,
   plus the correct draft): which are REJECTed.

Metrics need no model judge: exact match / token F1 / correct-wrong-declined (a right decline
counts as correct for unanswerable and strict_trap), gold-document recall per round, citation
counts (fabricated: a path or chunk not in the collection; precision: cited gold documents),
strict-mode tier violations, conflict detection, declines and false declines (declined although a gold
document was retrieved), answers that cite a gold page, citations the critic repaired, Item schema
validity, tokens, p50/p95 wall time.
Rates carry Wilson 95 % intervals. Everything prints as JSON; a Markdown table follows.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from pydantic import BaseModel  # noqa: E402

from benchmarks import provenance  # noqa: E402
from ragix_core.core.stop import StopRun  # noqa: E402
from ragix_core.eval.metrics import wilson  # noqa: E402
from ragix_core.llm.structured import ask_json  # noqa: E402
from ragix_core.research import DeepResearchOrchestrator, DocumentIndex, SourceTierFilter, validate_items  # noqa: E402
from ragix_core.research.agents import AnalystAgent, CriticAgent  # noqa: E402
from ragix_core.research.checks import Resolver, check_draft  # noqa: E402
from ragix_core.research.context import Context, item_of  # noqa: E402
from ragix_core.research.draft import ClaimIn, Draft, is_not_found  # noqa: E402
from ragix_core.research.agents.writer import answers_differ  # noqa: E402
from ragix_core.research.settings import SourceMap, load_settings  # noqa: E402
from research_corpus import Question, generate  # noqa: E402

SYSTEMS = ("no_retrieval", "bm25_oneshot", "full_loop", "oracle")
KINDS = ("single", "multi", "unanswerable", "conflict", "strict_trap")


# -- scoring ------------------------------------------------------------------------------

def norm(text: str) -> str:
    text = re.sub(r"[^\w\s]", " ", str(text or "").casefold().replace(",", ""))
    return " ".join(w for w in text.split() if w not in ("a", "an", "the"))


def f1(pred: str, gold: str) -> float:
    p, g = norm(pred).split(), norm(gold).split()
    common = sum(min(p.count(w), g.count(w)) for w in set(g))
    if not p or not g or not common:
        return 0.0
    pr, rc = common / len(p), common / len(g)
    return 2 * pr * rc / (pr + rc)


def forms(q: Question) -> List[List[str]]:
    """The parts a right answer states, each as its accepted forms (one part, the gold answer, by default)."""
    return q.accept or [[q.answer]]


def verdict(q: Question, answer: str) -> str:
    """correct / wrong / declined: every part must appear (as whole words) in the answer, in one of its
    forms; for a question without an answer, declining is correct."""
    declined = not answer or is_not_found(answer)
    if not q.answer:
        return "correct" if declined else "wrong"
    if declined:
        return "declined"
    said = f" {norm(answer)} "
    return "correct" if all(any(f" {norm(f)} " in said for f in part) for part in forms(q)) else "wrong"


def cited_gold(r: Dict[str, Any], q: Question) -> bool:
    return any(c["path"] in q.gold_docs for c in r.get("citations", []))


class Counting:
    """Counts tokens of one system's calls."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.backend, self.model = inner, inner.backend, inner.model
        self.prompt = self.completion = self.calls = 0

    def complete(self, messages, **kw):
        r = self.inner.complete(messages, **kw)
        self.calls += 1
        self.prompt += r.usage.prompt_tokens
        self.completion += r.usage.completion_tokens
        return r


class _Answer(BaseModel):
    answer: str


# -- the systems --------------------------------------------------------------------------

def _context(index: DocumentIndex, smap: SourceMap, tf: SourceTierFilter, hits: list, mode: str, s) -> Context:
    ctx = Context(s.retrieval.max_context_chunks, s.retrieval.max_context_chars)
    ctx.add(tf.filter_and_enrich([item_of(h, smap.source_of(h.path)) for h in hits], mode) if hits else [])
    return ctx


def one_shot(q: Question, client: Any, index: DocumentIndex, smap: SourceMap, tf: SourceTierFilter, s,
             oracle: bool) -> Dict[str, Any]:
    """One analyst call on a fixed context: the first search's chunks, or the gold documents'."""
    mode = q.mode
    if oracle:
        hits = gold_chunks(q, index, s.retrieval.max_context_chunks)
    else:
        hits = index.search(q.question, s.retrieval.k, accept=lambda p: tf.allows(smap.source_of(p), mode))
    ctx = _context(index, smap, tf, hits, mode, s)
    compare = tuple(s.mode_configs["monitor"].compare_tiers)
    agent = AnalystAgent(client, s.reasoning.analyst_timeout, compare_tiers=compare, max_rounds=1)
    try:
        reply = agent.research(q.question, ctx, mode, final=True)
    except StopRun as exc:
        return {"answer": "", "error": exc.reason, "context_docs": sorted({i["path"] for i in ctx})}
    draft = reply["draft"]
    check_draft(draft, Resolver(ctx, index, index.docs_dir, smap, tf), q.question, mode)
    cits = [c for c in draft.citations]
    return {"answer": draft.answer, "other_answer": draft.other_answer,
            "citations": [{"path": c.path, "tier": c.tier, "exists": c.exists, "side": c.side,
                           "supported": c.support != "none"} for c in cits],
            "context_docs": sorted({i["path"] for i in ctx}),
            "conflict": bool(draft.other_answer and not is_not_found(draft.other_answer) and draft.answer
                             and not is_not_found(draft.answer) and answers_differ(draft.answer, draft.other_answer))}


def _all_chunks(index: DocumentIndex, path: str) -> list:
    return index.chunks_of(path)


def gold_chunks(q: Question, index: DocumentIndex, first: int) -> list:
    """Every chunk of the gold documents, the ``first`` that match the question best ahead of the rest:
    a manual page can outgrow the context budget, and the oracle must not lose its answer to the cut."""
    docs = q.gold_docs + q.conflict_docs
    best = index.search(q.question, first, accept=lambda p: p in docs)
    seen = {h.chunk for h in best}
    return best + [h for d in docs for h in _all_chunks(index, d) if h.chunk not in seen]


def no_retrieval(q: Question, client: Any, s) -> Dict[str, Any]:
    messages = [{"role": "user", "content": f"Answer the question in a few words. If you do not know, answer "
                                            f"exactly NOT FOUND.\n\nQUESTION: {q.question}"}]
    try:
        reply, _ = ask_json(client, messages, _Answer, stop_reason="answer_failed", max_tokens=60,
                            timeout=s.reasoning.analyst_timeout)
        return {"answer": reply.answer, "citations": []}
    except StopRun as exc:
        return {"answer": "", "error": exc.reason, "citations": []}


def full_loop(q: Question, client: Any, index: DocumentIndex, s) -> Dict[str, Any]:
    orch = DeepResearchOrchestrator(index, settings=s, client=client, log_dir=Path(tempfile.mkdtemp()) / "logs")
    items = orch.run_research(q.question, q.mode)
    try:
        validate_items(items)
        valid = True
    except ValueError:
        valid = False
    schema = items[0]["schema_object"]
    rounds = orch.last_run.get("rounds", [])
    docs_by_round = []
    for r in rounds:
        docs = sorted({c.rpartition("#")[0] for c in r.get("chunks", [])})
        if not docs_by_round or docs != docs_by_round[-1]:
            docs_by_round.append(docs)
    conflict = schema.get("conflict") or {}
    return {"answer": schema.get("answer", ""), "status": schema.get("status"), "stop_reason": schema.get("stop_reason"),
            "citations": [{"path": c["path"], "tier": c["tier"], "chunk": c["chunk"],
                           "exists": (index.docs_dir / c["path"]).is_file() and index.get(c["chunk"]) is not None,
                           "side": "?"} for c in schema.get("citations", [])],
            "valid_item": valid, "rounds": schema.get("iterations"), "docs_by_round": docs_by_round,
            "declined": bool(orch.last_run.get("declined")), "context_docs": orch.last_run.get("retrieved_paths", []),
            "repaired": len(orch.last_run.get("repaired") or []), "resampled": orch.last_run.get("resampled", 0),
            "conflict": bool(conflict.get("disagree")), "gap_queries": [r["gap_queries"] for r in rounds if r.get("gap_queries")],
            "critic": (schema.get("critic") or {}).get("status"),
            # why each draft was answered or rejected: the answer and the critic's verdict per round, and the
            # failures of the last review (what a decline rests on)
            "drafts": [{"round": r["round"], "answer": r.get("answer"), "verdict": r.get("verdict")}
                       for r in rounds if "verdict" in r],
            "last_failures": list(((orch.last_run.get("review") or {}).get("failures") or []))[:6]}


# -- planted errors -----------------------------------------------------------------------

def planted_drafts(q: Question, index: DocumentIndex, others: List[Question]) -> Dict[str, tuple]:
    """(draft, mode) per error kind, built from the gold document that states the answer."""
    gold = next(h for d in q.gold_docs for h in _all_chunks(index, d) if q.answer in h.text)
    sentence = next(s for s in re.split(r"(?<=\.)\s+", gold.text) if q.answer in s).strip()
    quote = sentence.rstrip(".")
    ok = ClaimIn(text=sentence, source=gold.chunk, quote=quote)
    wrong_entity = next(o.answer for o in others if o.answer and o.answer != q.answer and not o.answer.isdigit()
                        and not q.answer.isdigit()) if not q.answer.isdigit() else str(int(q.answer) + 130)
    forum = next(h for h in index.search("processor uses", 20) if h.path.startswith("forum/"))
    return {
        "correct": (Draft(q.answer, [ok]), "discovery"),
        "fabricated_label": (Draft(q.answer, [ClaimIn(text=sentence, source="S37", quote=quote)]), "discovery"),
        "missing_document": (Draft(q.answer, [ClaimIn(text=sentence, source="official/companies/atlas-extra.md#0",
                                                      quote=quote)]), "discovery"),
        "quote_not_in_source": (Draft(q.answer, [ClaimIn(text=sentence, source=gold.chunk,
                                                         quote=f"{q.answer} was confirmed by the audit committee of the ministry")]),
                                "discovery"),
        "wrong_answer": (Draft(wrong_entity, [ok]), "discovery"),
        "tier_violation": (Draft(q.answer, [ok, ClaimIn(text="forum says", source=forum.chunk,
                                                        quote=forum.text.split(".")[0].split("says")[-1].strip()[:60])]),
                           "strict"),
    }


# -- the run ------------------------------------------------------------------------------

def index_speed(work: Path, pages: int = 800) -> Dict[str, Any]:
    rng = random.Random(3)
    html = work / "html"
    html.mkdir(parents=True, exist_ok=True)
    syllables = ["bra", "vel", "qua", "zor", "mi", "tal", "dun", "ke", "lo", "sar", "ny", "thi", "gor", "pe"]
    words = sorted({"".join(rng.choice(syllables) for _ in range(rng.randint(2, 4))) for _ in range(4000)})
    for n in range(pages):
        paras = "".join(f"<h2>Section {k}</h2><p>{' '.join(rng.choice(words) for _ in range(rng.randint(400, 700)))}.</p>"
                        for k in range(8))
        (html / f"page{n:04d}.html").write_text(f"<html><head><title>Page {n}</title><script>var x=1;</script></head>"
                                                f"<body><nav>menu</nav><h1>Page {n}</h1>{paras}</body></html>")
    size = sum(p.stat().st_size for p in html.iterdir())
    t = time.perf_counter()
    for p in html.iterdir():
        p.read_bytes()
    read_s = time.perf_counter() - t
    idx = DocumentIndex.open(html, work / "html-index")
    cold = idx.update()
    warm = idx.update()
    t = time.perf_counter()
    for _ in range(20):
        idx.search(" ".join(rng.sample(words, 4)), 8)
    search_ms = (time.perf_counter() - t) / 20 * 1000
    idx.close()
    return {"pages": pages, "mb": round(size / 1e6, 1), "cold_index_s": round(cold.seconds, 2),
            "cold_pages_per_s": round(pages / cold.seconds, 1), "chunks": cold.chunks,
            "update_unchanged_s": round(warm.seconds, 3), "read_bytes_only_s": round(read_s, 3),
            "search_ms": round(search_ms, 2)}


def rate(num: int, den: int) -> Dict[str, Any]:
    return {"value": round(num / den, 3) if den else None, "n": f"{num}/{den}", "ci95": wilson(num, den)}


def decline_rates(records: List[Dict[str, Any]], questions: Dict[str, Question]) -> Dict[str, Any]:
    """Over the runs of questions that have an answer and known gold documents: how many declined,
    and how many declined although a gold document was among the retrieved chunks (a false decline:
    the checks, not retrieval, lost the answer). {} when no run qualifies."""
    known = [r for r in records if questions[r["id"]].answer and questions[r["id"]].gold_docs and "context_docs" in r]
    if not known:
        return {}
    declined = [r for r in known if r.get("declined", not r.get("answer") or is_not_found(r.get("answer", "")))]
    false = [r for r in declined if set(questions[r["id"]].gold_docs) & set(r["context_docs"])]
    return {"decline_rate": rate(len(declined), len(known)), "false_decline_rate": rate(len(false), len(known))}


def summarize(records: List[Dict[str, Any]], system: str, questions: Dict[str, Question]) -> Dict[str, Any]:
    rs = [r for r in records if r["system"] == system]
    out: Dict[str, Any] = {}
    answerable = [r for r in rs if questions[r["id"]].answer and questions[r["id"]].kind in ("single", "multi")]
    out["exact_match"] = rate(sum(norm(r["answer"]) in {norm(f) for f in forms(questions[r["id"]])[0]}
                                  if len(forms(questions[r["id"]])) == 1 else r["verdict"] == "correct"
                                  for r in answerable), len(answerable))
    out["f1"] = round(statistics.mean(f1(r["answer"], questions[r["id"]].answer) for r in answerable), 3) if answerable else None
    for v in ("correct", "wrong", "declined"):
        out[v] = rate(sum(r["verdict"] == v for r in rs), len(rs))
    for kind in KINDS:
        k = [r for r in rs if questions[r["id"]].kind == kind]
        out[f"correct_{kind}"] = rate(sum(r["verdict"] == "correct" for r in k), len(k))
    cits = [c for r in rs for c in r.get("citations", [])]
    out["citations"] = len(cits)
    out["fabricated_citations"] = rate(sum(not c["exists"] for c in cits), len(cits))
    gold_cits = [(c, questions[r["id"]]) for r in rs for c in r.get("citations", []) if questions[r["id"]].gold_docs]
    out["citation_precision"] = rate(sum(c["path"] in q.gold_docs + q.conflict_docs for c, q in gold_cits), len(gold_cits))
    # of the answers given (not declined) to questions with gold pages: how many cite at least one of them
    given = [r for r in rs if questions[r["id"]].gold_docs and r["verdict"] != "declined"]
    out["cited_gold_page"] = rate(sum(cited_gold(r, questions[r["id"]]) for r in given), len(given))
    strict_runs = [r for r in rs if questions[r["id"]].mode == "strict"]
    strict = [c for r in strict_runs for c in r.get("citations", [])]
    # None, not 0, when no strict-mode question ran: nothing was measured
    out["strict_tier_violations"] = sum(1 for c in strict if c.get("tier") is None or c["tier"] > 2) if strict_runs else None
    conflicts = [r for r in rs if questions[r["id"]].kind == "conflict"]
    out["conflict_detected"] = rate(sum(bool(r.get("conflict")) for r in conflicts), len(conflicts))
    with_docs = [r for r in rs if questions[r["id"]].gold_docs and "context_docs" in r]
    if with_docs:
        out["gold_doc_recall"] = round(statistics.mean(
            len(set(questions[r["id"]].gold_docs) & set(r["context_docs"])) / len(questions[r["id"]].gold_docs)
            for r in with_docs), 3)
    out.update(decline_rates(rs, questions))
    if any("repaired" in r for r in rs):
        out["citations_repaired"] = sum(r.get("repaired", 0) for r in rs)
    per_round = [r for r in rs if questions[r["id"]].gold_docs and r.get("docs_by_round")]
    if per_round:
        depth = max(len(r["docs_by_round"]) for r in per_round)
        out["gold_doc_recall_by_round"] = [round(statistics.mean(
            len(set(questions[r["id"]].gold_docs) & set(r["docs_by_round"][min(i, len(r["docs_by_round"]) - 1)]))
            / len(questions[r["id"]].gold_docs) for r in per_round), 3) for i in range(depth)]
        out["gap_searches"] = sum(len(r.get("gap_queries") or []) for r in rs)
    if any("valid_item" in r for r in rs):
        out["item_schema_valid"] = rate(sum(r.get("valid_item", False) for r in rs), len(rs))
    secs = sorted(r["seconds"] for r in rs)
    out["p50_s"] = round(statistics.median(secs), 1) if secs else None
    out["p95_s"] = round(secs[min(len(secs) - 1, int(0.95 * len(secs)))], 1) if secs else None
    out["prompt_tokens"] = sum(r["prompt_tokens"] for r in rs)
    out["completion_tokens"] = sum(r["completion_tokens"] for r in rs)
    out["llm_calls"] = sum(r["calls"] for r in rs)
    out["errors"] = sum(1 for r in rs if r.get("error"))
    return out


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 epilog="With --docset, --per-kind, --planted and --seed do not apply: the set's "
                                        "questions run in their frozen order, and no planted-error drafts are built.")
    ap.add_argument("--docset", default=None, metavar="NAME",
                    help="a frozen question set over a real manual (benchmarks/research_docsets/NAME; fetched with "
                         "apt-get download when missing) instead of the generated collection")
    ap.add_argument("--per-kind", type=int, default=2, help="generated collection: questions per kind (5 kinds)")
    ap.add_argument("--planted", type=int, default=2,
                    help="generated collection: questions whose drafts get planted errors")
    ap.add_argument("--seed", type=int, default=7, help="generated collection: the collection's and the sample's seed")
    ap.add_argument("--limit", type=int, default=None, metavar="N", help="run only the first N chosen questions")
    ap.add_argument("--model", default=None, help="model name or GGUF path (default: the embedded default)")
    ap.add_argument("--threads", type=int, default=None,
                    help="embedded model threads (default: every core; 1 when another model job shares the machine)")
    ap.add_argument("--json", type=Path, default=None, help="also write the report here")
    ap.add_argument("--work", type=Path, default=None, help="keep the generated collection (or the set's index) here")
    ap.add_argument("--skip-model", action="store_true",
                    help="no model: index speed and the collection (with --docset: fetch, verify and index the set)")
    ap.add_argument("--kinds", default=None,
                    help=f"question kinds to run, comma-separated, in order (generated: {', '.join(KINDS)}; "
                         f"a docset: single, multi, unanswerable); default: all")
    ap.add_argument("--systems", default=",".join(SYSTEMS),
                    help=f"systems to run, comma-separated (default: all: {', '.join(SYSTEMS)})")
    ap.add_argument("--only", action="append", default=None, metavar="ID",
                    help="run only these question ids (repeatable, or comma-separated), in the set's order")
    ap.add_argument("--max-minutes", type=float, default=None,
                    help="start no new question after this many minutes (the report says how many ran)")
    args = ap.parse_args(argv)
    args.systems = [x.strip() for x in args.systems.split(",") if x.strip()]
    if not args.systems or any(x not in SYSTEMS for x in args.systems):
        ap.error(f"--systems: choose among {', '.join(SYSTEMS)}")
    args.only = [i.strip() for spec in args.only or [] for i in spec.split(",") if i.strip()] or None
    if args.limit is not None and args.limit < 1:
        ap.error("--limit must be 1 or more")
    return args


def only_of(chosen: List[Question], every: List[Question], only: Optional[List[str]]) -> List[Question]:
    """``chosen`` narrowed to the ids of ``--only``; an id the set does not hold stops the run."""
    if not only:
        return chosen
    known = {q.id for q in every}
    unknown = [i for i in only if i not in known]
    if unknown:
        raise SystemExit(f"--only: no question {unknown[0]!r} in this set")
    return [q for q in chosen if q.id in only]


def kinds_of(spec: Optional[str], allowed) -> List[str]:
    kinds = [k.strip() for k in (spec or ",".join(allowed)).split(",") if k.strip()]
    unknown = [k for k in kinds if k not in allowed]
    if unknown:
        raise SystemExit(f"--kinds: unknown kind {unknown[0]!r}; kinds are {', '.join(allowed)}")
    return kinds


def run_systems(chosen: List[Question], client: Any, index: DocumentIndex, s, max_minutes: Optional[float],
                systems=SYSTEMS):
    """Every system on every question, same model; (records, questions that ran)."""
    smap, tf = SourceMap(s), SourceTierFilter(s.source_tiers, s.mode_configs)
    records: List[Dict[str, Any]] = []
    began = time.monotonic()
    ran: List[Question] = []
    for q in chosen:
        if max_minutes is not None and time.monotonic() - began > max_minutes * 60:
            break
        ran.append(q)
        for system in systems:
            counter = Counting(client)
            t = time.perf_counter()
            if system == "no_retrieval":
                out = no_retrieval(q, counter, s)
            elif system == "full_loop":
                out = full_loop(q, counter, index, s)
            else:
                out = one_shot(q, counter, index, smap, tf, s, oracle=system == "oracle")
            out.update(system=system, id=q.id, seconds=round(time.perf_counter() - t, 2), calls=counter.calls,
                       prompt_tokens=counter.prompt, completion_tokens=counter.completion)
            out["verdict"] = verdict(q, out.get("answer", ""))
            records.append(out)
            print(json.dumps({k: out.get(k) for k in ("id", "system", "answer", "verdict", "declined", "seconds", "calls")}),
                  flush=True)
    return records, ran


def bench_settings(sources: Path):
    s = load_settings(None, sources)
    s.reasoning.writer_llm = False  # the report's prose is not scored; the answer and citations are
    # a shared 2-core machine can be several times slower than idle: a timeout would measure the load
    s.reasoning.analyst_timeout = s.reasoning.critic_timeout = s.reasoning.writer_timeout = 1800
    return s


def make_model(args: argparse.Namespace):
    from ragix_core.llm.factory import make_client

    return make_client({"backend": "embedded", "model": args.model} if args.model else None, threads=args.threads)


def finish(report: Dict[str, Any], args: argparse.Namespace) -> int:
    text = json.dumps(report, indent=1, default=str)
    if args.json:
        args.json.write_text(text)
    print(text)
    if "systems" in report:
        print(markdown(report))
    return 0


def main_docset(args: argparse.Namespace, report: Dict[str, Any]) -> int:
    from research_docsets import fetch_docset, load_docset, verify_docset

    from ragix_core.eval.benchmarks.errors import BenchmarkError

    try:
        ds = load_docset(args.docset)
        docs = fetch_docset(ds)
    except BenchmarkError as exc:
        print(f"research_bench: {exc}", file=sys.stderr)
        return 2
    problems = verify_docset(ds, docs)
    if problems:  # a set that no longer matches its pages would score the pages, not the systems
        print(f"research_bench: {args.docset} does not hold on {docs}:\n  " + "\n  ".join(problems), file=sys.stderr)
        return 2
    kinds = kinds_of(args.kinds, ("single", "multi", "unanswerable"))
    report["docset"] = {"name": ds.name, "package": ds.package, "version": ds.version, "mode": ds.mode,
                        "questions": len(ds.questions)}
    s = bench_settings(ds.sources)
    index = DocumentIndex.open(docs, args.work or docs.parent / "index")
    st = index.update()
    report["collection"] = {"documents": st.documents, "chunks": st.chunks, "seconds": round(st.seconds, 2),
                            "skipped": dict(st.skipped)}
    print(json.dumps({"docset": report["docset"], "collection": report["collection"]}), flush=True)
    if args.skip_model:
        return finish(report, args)
    chosen = only_of([q for q in ds.questions if q.kind in kinds], ds.questions, args.only)[: args.limit]
    client = make_model(args)
    report["model"] = getattr(client, "model", "?")
    records, ran = run_systems(chosen, client, index, s, args.max_minutes, args.systems)
    by_id = {q.id: q for q in ds.questions}
    report["questions_run"] = [q.id for q in ran]
    report["questions_chosen"] = len(chosen)
    report["systems"] = {name: summarize(records, name, by_id) for name in args.systems}
    report["records"] = records
    return finish(report, args)


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    report: Dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                              "commit": provenance.commit(), "command": " ".join(["python"] + sys.argv)}
    if args.docset:
        return main_docset(args, report)
    report.update(seed=args.seed, per_kind=args.per_kind, planted=args.planted)
    kinds = kinds_of(args.kinds, KINDS)
    work = args.work or Path(tempfile.mkdtemp(prefix="ragix-research-bench-"))
    report["index_speed"] = index_speed(work)
    questions = generate(work / "collection", seed=args.seed)
    s = bench_settings(work / "collection" / "sources.yaml")
    index = DocumentIndex.open(work / "collection" / "docs", work / "collection-index")
    st = index.update()
    report["collection"] = {"documents": st.documents, "chunks": st.chunks, "seconds": round(st.seconds, 2),
                            "skipped": dict(st.skipped)}
    print(json.dumps({"index_speed": report["index_speed"], "collection": report["collection"]}), flush=True)
    if args.skip_model:
        print(json.dumps(report, indent=1))
        return 0
    client = make_model(args)
    report["model"] = getattr(client, "model", "?")
    rng = random.Random(args.seed)
    chosen: List[Question] = []
    for kind in kinds:
        pool = [q for q in questions if q.kind == kind]
        chosen += rng.sample(pool, min(args.per_kind, len(pool)))
    chosen = only_of(chosen, questions, args.only)[: args.limit]
    by_id = {q.id: q for q in questions}
    records, ran = run_systems(chosen, client, index, s, args.max_minutes, args.systems)
    report["questions_run"] = [q.id for q in ran]
    report["questions_chosen"] = len(chosen)
    report["systems"] = {name: summarize(records, name, by_id) for name in args.systems}
    report.update(planted_critic(ran, questions, client, index, s, args.planted))
    report["records"] = records
    return finish(report, args)


def planted_critic(ran: List[Question], questions: List[Question], client: Any, index: DocumentIndex, s,
                   count: int) -> Dict[str, Any]:
    """The critic alone on drafts with planted errors, built from the first ``count`` answerable questions."""
    smap, tf = SourceMap(s), SourceTierFilter(s.source_tiers, s.mode_configs)
    planted = []
    answerable = [q for q in ran if q.kind in ("single", "multi")][:count]
    for q in answerable:
        for kind, (draft, mode) in planted_drafts(q, index, questions).items():
            ctx = Context()
            critic = CriticAgent(Counting(client), Resolver(ctx, index, index.docs_dir, smap, tf),
                                 s.reasoning.critic_timeout)
            try:
                review = critic.review(draft, q.question, mode)
                status, by = review["status"], review["by"]
            except StopRun as exc:
                status, by = f"error:{exc.reason}", "-"
            planted.append({"id": q.id, "kind": kind, "status": status, "by": by})
            print(json.dumps(planted[-1]), flush=True)
    kinds = sorted({p["kind"] for p in planted if p["kind"] != "correct"})
    critic_report = {k: rate(sum(p["status"] == "REJECT" for p in planted if p["kind"] == k),
                             sum(p["kind"] == k for p in planted)) for k in kinds}
    errors = [p for p in planted if p["kind"] != "correct"]
    critic_report["all_planted_caught"] = rate(sum(p["status"] == "REJECT" for p in errors), len(errors))
    correct = [p for p in planted if p["kind"] == "correct"]
    critic_report["correct_drafts_rejected"] = rate(sum(p["status"] == "REJECT" for p in correct), len(correct))
    return {"critic": critic_report, "planted_records": planted}


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, dict) and value.get("value") is None)


def markdown(report: Dict[str, Any]) -> str:
    rows = [("correct (all kinds)", "correct"), ("wrong", "wrong"), ("declined", "declined"),
            ("exact match (single+multi)", "exact_match"), ("token F1 (single+multi)", "f1"),
            ("correct: single", "correct_single"), ("correct: multi", "correct_multi"),
            ("correct: unanswerable (declined)", "correct_unanswerable"), ("correct: conflict (monitor)", "correct_conflict"),
            ("correct: strict trap (declined)", "correct_strict_trap"), ("conflict detected", "conflict_detected"),
            ("declined (gold docs known)", "decline_rate"), ("false declines (gold doc retrieved)", "false_decline_rate"),
            ("citations repaired", "citations_repaired"),
            ("citations", "citations"), ("fabricated citations", "fabricated_citations"),
            ("citation precision (gold docs)", "citation_precision"), ("answers citing a gold page", "cited_gold_page"), ("strict tier violations", "strict_tier_violations"),
            ("gold-doc recall in context", "gold_doc_recall"), ("gold-doc recall by round", "gold_doc_recall_by_round"),
            ("Item schema valid", "item_schema_valid"), ("LLM calls", "llm_calls"), ("prompt tokens", "prompt_tokens"),
            ("completion tokens", "completion_tokens"), ("p50 / p95 wall s", None), ("backend errors", "errors")]
    sy = report["systems"]
    names = [name for name in SYSTEMS if name in sy]  # a run may choose some systems (--systems)
    out = ["| metric | " + " | ".join(names) + " |", "| --- |" + " --- |" * len(names)]
    for label, key in rows:
        if key is not None and all(_empty(sy[name].get(key)) for name in names):
            continue  # a metric no question of this run measures (conflicts on a manual): no row of dashes
        cells = []
        for name in names:
            m = sy[name]
            if key is None:
                cells.append(f"{m['p50_s']} / {m['p95_s']}")
                continue
            v = m.get(key)
            if isinstance(v, dict):
                ci = v["ci95"]
                cells.append(f"{v['value']} ({v['n']})" + (f" [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else "") if v["value"] is not None else "–")
            else:
                cells.append("–" if v is None else str(v))
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
