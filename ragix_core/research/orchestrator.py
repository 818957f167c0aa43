"""The actor-critic loop of spec 004 §5 over a local document index.

    the mode: --mode, else the question's words (mode_detection.py), else research.default_mode
    the dates: --since/--until, else a range the question states (time_range.py)
    search the index (the mode's tiers, the dates asked)  ->  SourceTierFilter  ->  context
    research.reasoning.enabled false  ->  the search results as the Item (spec 004's "default search")
    ambiguous (an entity, or changes with no start)?  ->  ClarificationAgent: the options, no guess
    round 1..max_iterations:
        analyst.research (or .revise after a REJECT)
        SEARCH_REQUIRED -> the gap search: its new_queries run against the index, new chunks
                           appended to the context (bounded), next round
        DRAFT_READY     -> critic.review: checks, then the model; PASS/WARN ends the loop
    rounds over, still REJECTed -> the first draft that passed every check, if one did (a WARN:
                           only the model's opinion was against it)
    writer.compose  ->  one NLWeb Item (report, clarification or error), validated
    declined?  ->  the decomposer splits the question into the questions it asks; two or more: each is
                   researched as above, on its own, and the reports are composed (parts.py)

Every agent turn is logged (IterationLogger) and published on the bus (RESEARCH_AGENT,
RESEARCH_SEARCH), and every failure becomes an error Item naming it — never a traceback.
"""

from __future__ import annotations

import asyncio
import time
import traceback
from pathlib import Path
from typing import Any, Dict, List, Optional
from urllib.parse import quote as urlquote

from ragix_core.config.research import MODES, ResearchSection
from ragix_core.core.events import EventBus, EventKind
from ragix_core.core.stop import StopRun
from ragix_core.core.text import one_line

from .agents import AnalystAgent, ClarificationAgent, CriticAgent, DecomposerAgent, WriterAgent
from .checks import Resolver
from .context import Context, item_of
from .filters import NoValidSourcesError, SourceTierFilter
from .index import DocumentIndex, Hit
from .items import validate_items
from .mode_detection import choose_mode
from .parts import compose_parts, part_records
from .time_range import VersionBound, parse_time_range
from .settings import SourceMap
from .utils import IterationLogger

__all__ = ["DeepResearchOrchestrator", "MAX_QUERY_CHARS", "AGENT_ROLES"]

MAX_QUERY_CHARS = 2000
# Which configured LLM role each agent uses (spec 004: the writer may use a cheaper model).
AGENT_ROLES = {"analyst": "planner", "critic": "verifier", "writer": "worker", "clarification": "planner",
               "decomposer": "planner"}
SITE = "ragix research"
DECLINED_STATUSES = ("NOT_FOUND", "UNVERIFIED")  # ended without an answer the documents back
_SCORES = {"High": 90, "Medium": 70, "Low": 40}


def _kept_verified(draft: Any, review: Dict[str, Any]) -> tuple:
    """A draft every deterministic check passed, kept when the revisions the model's critic asked
    for ended rejected: a decline needs evidence against the answer (a check that fails), not the
    opinion of the model alone. Its doubts stay in the report, as a WARN."""
    critique = f"Verified against the documents; the critic's doubts were not resolved: {review.get('critique', '')}"
    return draft, {**review, "status": "WARN", "critique": critique.strip()}


def _answer_key(answer: str) -> str:
    """An answer up to case, spacing and final punctuation: what "the same draft again" compares."""
    return " ".join((answer or "").casefold().split()).rstrip(" .")


def _new_id() -> str:
    from ragix_core.runtime.context import new_session_id

    return new_session_id()


class DeepResearchOrchestrator:
    def __init__(self, index: DocumentIndex, *, settings: Optional[ResearchSection] = None, roles: Any = None,
                 client: Any = None, bus: Optional[EventBus] = None, session_id: Optional[str] = None,
                 log_dir: "Path | str | None" = None) -> None:
        """``roles``: the run's ``llm.roles.Roles`` (each agent asks through its role, see AGENT_ROLES);
        or ``client``: one LLMClient for every agent (tests, benchmarks). ``log_dir``: where the
        per-query logs go (default: the index's folder ``/research``)."""
        if roles is None and client is None:
            raise ValueError("DeepResearchOrchestrator needs roles or a client")
        self.index = index
        self.settings = settings or ResearchSection()
        self.roles = roles
        self.client = client
        self.bus = bus or EventBus()
        self.session_id = session_id
        self.log_dir = Path(log_dir) if log_dir else Path(index.location) / "research"
        self.source_map = SourceMap(self.settings)
        self.source_filter = SourceTierFilter(self.settings.source_tiers, self.settings.mode_configs)
        self.last_run: Dict[str, Any] = {}
        self._versions: List[VersionBound] = []  # the current question's version bounds

    @classmethod
    def from_context(cls, ctx: Any, index: DocumentIndex, settings: Optional[ResearchSection] = None,
                     log_dir: "Path | str | None" = None) -> "DeepResearchOrchestrator":
        """Inside the one runtime: the RunContext's roles, bus and session id."""
        return cls(index, settings=settings or ctx.config.research, roles=ctx.roles, bus=ctx.bus,
                   session_id=ctx.session_id, log_dir=log_dir)

    def _client(self, agent: str) -> Any:
        return self.roles.get(AGENT_ROLES[agent]) if self.roles is not None else self.client

    def _publish(self, kind: EventKind, **data: Any) -> None:
        self.bus.publish(kind, self.session_id or "", **data)

    # -- the run ------------------------------------------------------------------------

    async def arun_research(self, query: str, mode: Optional[str] = None, items: Optional[List[Any]] = None,
                            temporal_context: Optional[Dict[str, str]] = None) -> List[Dict[str, Any]]:
        """``run_research`` for async callers (the spec's signature); runs in a worker thread."""
        return await asyncio.to_thread(self.run_research, query, mode, items, temporal_context)

    def run_research(self, query: str, mode: Optional[str] = None, items: Optional[List[Any]] = None,
                     temporal_context: Optional[Dict[str, str]] = None) -> List[Dict[str, Any]]:
        """A list with one NLWeb Item: the report, a clarification request, or an error.
        ``mode`` None: read from the question, else the configured default; ``temporal_context``
        None or empty: a date range the question states, if any. The choices are in ``last_run``
        and in the Item's ``schema_object`` (``mode_choice``, ``time_range``)."""
        choice = choose_mode(query if isinstance(query, str) else "", mode, self.settings.default_mode)
        mode = choice.mode
        temporal, time_note, self._versions = _time_range(query, temporal_context)
        query_id = self.session_id or _new_id()
        logger = IterationLogger(query_id, self.log_dir)
        self.last_run = {"query_id": query_id, "mode": mode, "mode_choice": choice.as_dict(), "time_range": time_note,
                         "rounds": [], "log_dir": str(logger.dir)}
        start = time.perf_counter()
        try:
            if not isinstance(query, str) or not query.strip():
                raise ValueError("the question is empty")
            if len(query) > MAX_QUERY_CHARS:
                raise ValueError(f"the question is {len(query)} characters long; the limit is {MAX_QUERY_CHARS}")
            if mode not in MODES:
                raise ValueError(f"unknown mode {mode!r}; modes are: {', '.join(MODES)}")
            result = self._answer(query.strip(), mode, items, temporal, logger)
        except NoValidSourcesError as exc:
            result = self._format_error_result(query, str(exc), "no_valid_sources", mode)
        except StopRun as exc:
            result = self._format_error_result(query, exc.message, exc.reason, mode)
        except ValueError as exc:
            result = self._format_error_result(query, str(exc), "bad_input", mode)
        except Exception as exc:  # the contract: an error is an Item, never a traceback
            logger.log_agent_output(0, "error", None, traceback.format_exc(limit=8))
            result = self._format_error_result(query, f"{type(exc).__name__}: {exc}", "internal_error", mode)
        schema = result[0]["schema_object"]
        # "declined": the run ended without an answer it could back (a benchmark's false declines are
        # these runs whose retrieved_paths held a gold document).
        self.last_run.update(seconds=round(time.perf_counter() - start, 3), status=schema.get("status"),
                             stop_reason=schema.get("stop_reason"),
                             declined=schema.get("status") in DECLINED_STATUSES)
        self.last_run.setdefault("retrieved_paths", [])
        logger.log_summary(schema.get("iterations", 0), schema.get("status", "ERROR"), mode,
                           {"query": query, "stop_reason": schema.get("stop_reason"),
                            "seconds": self.last_run["seconds"], "usage": self._usage(),
                            "citations": schema.get("citations", []), "answer": schema.get("answer"),
                            "declined": self.last_run["declined"], "repaired": self.last_run.get("repaired", []),
                            "rounds": self.last_run.get("rounds", [])})
        return result

    def _in_versions(self, path: str) -> bool:
        """The question's version bound ("before version 3") allows the document (time_range.VersionBound)."""
        return all(b.allows(path) for b in self._versions)

    def _search(self, query: str, k: int, mode: str, temporal: Dict[str, str]) -> List[Hit]:
        return self.index.search(query, k, accept=lambda p: self.source_filter.allows(self.source_map.source_of(p), mode)
                                 and self._in_versions(p), since=temporal.get("since"), until=temporal.get("until"))

    def _items(self, hits: List[Hit]) -> List[Dict[str, Any]]:
        return [item_of(h, self.source_map.source_of(h.path)) for h in hits]

    def _initial_items(self, query: str, mode: str, temporal: Dict[str, str]) -> List[Dict[str, Any]]:
        r = self.settings.retrieval
        hits = self._search(query, r.k, mode, temporal)
        if mode == "monitor":  # both sides of the comparison must be in the context
            hi, lo = self.settings.mode_configs["monitor"].compare_tiers or [1, 5]
            for side in (lambda t: t is not None and t <= hi, lambda t: t is None or t >= lo):
                extra = self.index.search(query, max(2, r.k // 2),
                                          accept=lambda p, side=side: side(self.source_map.info(p).tier)
                                          and self._in_versions(p),
                                          since=temporal.get("since"), until=temporal.get("until"))
                hits += [h for h in extra if h.chunk not in {x.chunk for x in hits}]
        if not hits and mode == "strict":
            # Nothing allowed matched: let the filter say why (NoValidSourcesError) when others did.
            unfiltered = self.index.search(query, r.k, accept=self._in_versions, since=temporal.get("since"),
                                           until=temporal.get("until"))
            self.source_filter.filter_and_enrich(self._items(unfiltered), mode)
        return self._items(hits)

    def _run(self, query: str, mode: str, items: Optional[List[Any]], temporal: Dict[str, str],
             logger: IterationLogger) -> List[Dict[str, Any]]:
        rs, r = self.settings.reasoning, self.settings.retrieval
        if not self.index.counts()[0]:
            raise ValueError(f"the index of {self.index.docs_dir} holds no document: run `ragix research index` "
                             "and check the skipped files it reports")
        if items is None:
            items = self._initial_items(query, mode, temporal)
        else:
            items = [it.to_dict() if isinstance(it, Hit) else dict(it) for it in items]
            for it in items:
                if "site" not in it and "source" not in it and it.get("path"):
                    it["site"] = self.source_map.source_of(str(it["path"]))
        context = Context(r.max_context_chunks, r.max_context_chars)
        context.add(self.source_filter.filter_and_enrich(items, mode))
        choice, time_note = self.last_run["mode_choice"], self.last_run["time_range"]
        # The first search's event says which mode and dates the run uses and why (the trace, the live view).
        self._publish(EventKind.RESEARCH_SEARCH, iteration=0, query=query, hits=len(items), added=len(context),
                      mode=mode, mode_source=choice["source"], mode_reason=choice["reason"], **temporal,
                      time_reason=time_note["reason"])
        logger.log_agent_output(0, "search", {"query": query, "mode": mode, "temporal": temporal,
                                              "mode_choice": choice, "time_range": time_note},
                                {"chunks": [i["chunk"] for i in context]})
        self.last_run["rounds"].append({"round": 0, "chunks": [i["chunk"] for i in context]})
        self._note_retrieved(context)
        if not rs.enabled:
            return self._format_search_only(query, mode, list(context))

        clarifier = ClarificationAgent(self._client("clarification"), self.index, rs.analyst_timeout)
        ambiguity = clarifier.detect(query, [Hit(i["path"], i["chunk"], "", 0.0, i.get("name", ""), date=i.get("date"))
                                             for i in context], temporal)
        if ambiguity:
            options = clarifier.generate_options(query, ambiguity)
            self._log_turn(logger, 0, clarifier, options)
            return self._format_clarification(query, mode, options)

        resolver = Resolver(context, self.index, self.index.docs_dir, self.source_map, self.source_filter)
        compare = self.settings.mode_configs["monitor"].compare_tiers or [1, 5]
        analyst = AnalystAgent(self._client("analyst"), rs.analyst_timeout, compare_tiers=(compare[0], compare[1]),
                               max_rounds=rs.max_iterations)
        critic = CriticAgent(self._client("critic"), resolver, rs.critic_timeout, use_llm=rs.critic_llm)
        writer = WriterAgent(self._client("writer"), rs.writer_timeout, use_llm=rs.writer_llm)

        draft, review = None, None
        verified = None  # the first draft that passed the deterministic checks, if a revision fails them
        rejected: set = set()  # the answers of rejected drafts, normalized
        repeated = False  # the last rejected draft repeated an earlier rejected answer
        iteration = 0
        searched: set = {query.casefold()}
        exhausted = False  # a gap search found nothing new: the next round must draft
        while iteration < rs.max_iterations:
            iteration += 1
            final = iteration == rs.max_iterations or exhausted
            if review is not None and review["status"] == "REJECT" and draft is not None:
                # A revision that repeated a rejected answer: the greedy model, shown the same facts, writes it
                # again; the next one is drawn at a temperature (measured at 1a712fb, sqlite3-doc: each of the
                # three declined multi questions wrote one draft three times).
                resample = repeated and rs.repeat_temperature > 0
                response = analyst.revise(draft, review, context, final=final,
                                          temperature=rs.repeat_temperature if resample else None)
                if resample:
                    self.last_run["resampled"] = self.last_run.get("resampled", 0) + 1
            else:
                response = analyst.research(query, context, mode, temporal, final=final)
            self._log_turn(logger, iteration, analyst, {k: v for k, v in response.items() if k != "draft"},
                           status=response["status"], queries=response["new_queries"])
            if response["status"] == "SEARCH_REQUIRED":
                exhausted = not self._gap_search(response["new_queries"], searched, mode, temporal, context,
                                                 iteration, logger)
                continue  # the next round drafts from the new evidence (or from what there is)
            draft = response["draft"]
            review = critic.review(draft, query, mode)
            self._log_turn(logger, iteration, critic, review, status=review["status"],
                           failures=len(review.get("failures") or []))
            self.last_run["rounds"].append({"round": iteration, "chunks": [i["chunk"] for i in context],
                                            "answer": draft.answer, "verdict": review["status"]})
            if review["status"] in ("PASS", "WARN"):
                break
            repeated = _answer_key(draft.answer) in rejected
            rejected.add(_answer_key(draft.answer))
            if review.get("by") == "model" and verified is None:
                verified = (draft, review)  # passed every check; only the model's opinion rejected it
        assert draft is not None and review is not None  # the last round's schema allows only DRAFT_READY
        if review["status"] == "REJECT" and verified is not None:
            draft, review = _kept_verified(*verified)
        final_report = writer.compose(draft, review, context, mode, query=query)
        self._log_turn(logger, iteration, writer, final_report, status=final_report["status"])
        self.last_run.update(iterations=iteration, draft=draft.to_dict(), review=review,
                             context_chunks=[i["chunk"] for i in context],
                             repaired=(review.get("checks") or {}).get("repaired", []))
        return self._format_result(query, mode, final_report, iteration, list(context), review)

    def _answer(self, query: str, mode: str, items: Optional[List[Any]], temporal: Dict[str, str],
                logger: IterationLogger) -> List[Dict[str, Any]]:
        """The loop's report; after a decline, the report of the question's parts when one of them was answered
        (ADaPT: decomposition only after a failure). Caller-given items are the question's sources: not split."""
        result = self._run(query, mode, items, temporal, logger)
        rs = self.settings.reasoning
        schema = result[0]["schema_object"]
        if not rs.enabled or not rs.decompose or items is not None or schema.get("status") not in DECLINED_STATUSES:
            return result
        decomposer = DecomposerAgent(self._client("decomposer"), rs.analyst_timeout)
        questions = decomposer.split(query)
        self._log_turn(logger, schema.get("iterations", 0) + 1, decomposer, {"parts": questions}, parts=len(questions))
        if not questions:
            return result
        whole = {**self.last_run, "rounds": list(self.last_run.get("rounds", []))}
        retrieved = set(whole.get("retrieved_paths", []))
        parts = []
        for n, question in enumerate(questions, start=1):
            try:
                item = self._run(question, mode, None, temporal, IterationLogger(f"part{n}", logger.dir))[0]
            except StopRun as exc:
                item = self._format_error_result(question, exc.message, exc.reason, mode)[0]
            retrieved |= set(self.last_run.get("retrieved_paths", []))
            parts.append((question, item))
        composed = compose_parts(parts)
        # the whole question's run stays the record; the parts' documents count as retrieved (false declines)
        self.last_run = {**whole, "retrieved_paths": sorted(retrieved), "parts": part_records(parts)}
        if composed is None:
            return result
        schema = {"@type": "ResearchReport", "mode": mode, "iterations": schema.get("iterations", 0),
                  "status": composed["status"], "answer": composed["answer"],
                  "sources_used": composed["sources_used"], "confidence": composed["confidence"],
                  "total_sources_analyzed": len(retrieved), "citations": composed["citations"],
                  "critic": schema.get("critic"), "parts": composed["parts"],
                  "stop_reason": "success" if composed["status"] == "ANSWERED" else composed["status"].lower()}
        return self._base_item(query, mode, f"Research report: {one_line(query, 120)}",
                               _SCORES.get(composed["confidence"], 40) if composed["status"] == "ANSWERED" else 20,
                               composed["description"], schema)

    def _gap_search(self, queries: List[str], searched: set, mode: str, temporal: Dict[str, str],
                    context: Context, iteration: int, logger: IterationLogger) -> List[str]:
        """Run the analyst's new queries against the index (``max_gap_queries`` per round, each once
        per run); returns the labels of the chunks added to the context."""
        r = self.settings.retrieval
        added: List[str] = []
        ran = []
        for q in queries:
            if len(ran) >= r.max_gap_queries or q.casefold() in searched:
                continue
            searched.add(q.casefold())
            hits = self._search(q, r.gap_k, mode, temporal)
            new = context.add(self.source_filter.filter_and_enrich(self._items(hits), mode)) if hits else []
            added += new
            ran.append({"query": q, "hits": [h.chunk for h in hits], "added": new})
            self._publish(EventKind.RESEARCH_SEARCH, iteration=iteration, query=q, hits=len(hits), added=len(new))
        logger.log_agent_output(iteration, "search", {"queries": queries}, {"ran": ran})
        self.last_run["rounds"].append({"round": iteration, "chunks": [i["chunk"] for i in context],
                                        "gap_queries": [x["query"] for x in ran]})
        self._note_retrieved(context)
        return added

    def _note_retrieved(self, context: Context) -> None:
        """The documents of every chunk the run retrieved so far, for ``last_run``."""
        self.last_run["retrieved_paths"] = sorted({i["path"] for i in context})

    def _log_turn(self, logger: IterationLogger, iteration: int, agent: Any, output: Any, **summary: Any) -> None:
        logger.log_agent_output(iteration, agent.agent_name, agent.last_messages, output,
                                {"usage": agent.last_usage, "reply": agent.last_reply})
        self._publish(EventKind.RESEARCH_AGENT, iteration=iteration, agent=agent.agent_name, **summary)

    def _usage(self) -> Dict[str, int]:
        if self.roles is not None:
            return self.roles.summary()
        return {}

    # -- results ------------------------------------------------------------------------

    def _base_item(self, query: str, mode: str, name: str, score: int, description: str,
                   schema_object: Dict[str, Any]) -> List[Dict[str, Any]]:
        site_url = self.index.docs_dir.as_uri()
        log_dir = self.last_run.get("log_dir")
        url = Path(log_dir).resolve().as_uri() if log_dir else f"{site_url}#{urlquote(query[:50])}"
        schema_object.setdefault("query_id", self.last_run.get("query_id"))
        schema_object.setdefault("mode", mode)
        for key in ("mode_choice", "time_range"):
            if self.last_run.get(key):
                schema_object.setdefault(key, self.last_run[key])
        return validate_items([{"@type": "Item", "url": url, "name": name, "site": SITE, "siteUrl": site_url,
                                "score": score, "description": description, "schema_object": schema_object}])

    def _format_result(self, query: str, mode: str, final_report: Dict[str, Any], iterations: int,
                       context: List[Any], review: Optional[Dict[str, Any]] = None) -> List[Dict[str, Any]]:
        citations = [c for c in final_report.get("citations", []) if (self.index.docs_dir / c["path"]).is_file()]
        status = final_report.get("status", "ANSWERED")
        confidence = final_report.get("confidence_level", "Medium")
        schema = {"@type": "ResearchReport", "mode": mode, "iterations": iterations, "status": status,
                  "answer": final_report.get("answer", ""), "sources_used": final_report.get("sources_used", []),
                  "confidence": confidence, "total_sources_analyzed": len(context), "citations": citations,
                  "critic": {k: (review or {}).get(k) for k in ("status", "critique", "mode_compliance", "logical_gaps")},
                  "stop_reason": "success" if status == "ANSWERED" else status.lower()}
        if final_report.get("conflict"):
            schema["conflict"] = final_report["conflict"]
        repaired = ((review or {}).get("checks") or {}).get("repaired")
        if repaired:
            schema["repaired"] = repaired  # citations the engine re-attached to where their text stands
        return self._base_item(query, mode, f"Research report: {one_line(query, 120)}",
                               _SCORES.get(confidence, 40) if status == "ANSWERED" else 20,
                               final_report.get("final_report", ""), schema)

    def _format_clarification(self, query: str, mode: str, options: Dict[str, Any]) -> List[Dict[str, Any]]:
        lines = [options["question"], ""] + [f"{n}. {o['label']}{' (' + o['path'] + ')' if o.get('path') else ''}: "
                                             f"ask \"{o['query']}\"" for n, o in enumerate(options["options"], 1)]
        schema = {"@type": "ResearchClarification", "status": "CLARIFICATION_NEEDED", "iterations": 0,
                  "ambiguity_type": options["ambiguity_type"], "question": options["question"],
                  "options": options["options"], "citations": [], "answer": "",
                  "stop_reason": "clarification_needed"}
        return self._base_item(query, mode, f"Clarification needed: {one_line(query, 120)}", 0, "\n".join(lines), schema)

    def _format_search_only(self, query: str, mode: str, context: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        """``research.reasoning.enabled: false`` (spec 004's feature flag): no agent runs, no model is
        asked; the Item lists what the search found, the mode's tier filter and the dates applied."""
        results = [{"path": i["path"], "chunk": i["chunk"], "title": i.get("name", ""), "date": i.get("date"),
                    "source": i.get("site"), "tier": (i.get("_reasoning_metadata") or {}).get("tier"),
                    "text": one_line(i.get("description", ""), 300)}
                   for i in context]
        lines = ["Research reasoning is disabled (research.reasoning.enabled: false): the search results, "
                 "unverified, best first.", ""]
        lines += [f"{n}. **{r['title']}** ({r['path']}, {r['date'] or 'undated'}, {r['source']}): {r['text']}"
                  for n, r in enumerate(results, 1)]
        schema = {"@type": "ResearchSearchResults", "status": "SEARCH_ONLY", "iterations": 0, "results": results,
                  "citations": [], "answer": "", "stop_reason": "reasoning_disabled"}
        return self._base_item(query, mode, f"Search results: {one_line(query, 120)}", 0,
                               "\n".join(lines) if results else "Research reasoning is disabled; the search found "
                               "nothing.", schema)

    def _format_error_result(self, query: Any, error_message: str, stop_reason: str = "error",
                             mode: str = "") -> List[Dict[str, Any]]:
        text = one_line(query, 120) if isinstance(query, str) and query.strip() else "(no question)"
        schema = {"@type": "ResearchError", "status": "ERROR", "error": error_message, "stop_reason": stop_reason,
                  "iterations": 0, "citations": [], "answer": ""}
        return self._base_item(text, mode or self.settings.default_mode, f"Research failed: {text}", 0,
                               f"**Research failed** ({stop_reason}): {error_message}", schema)


def _time_range(query: Any, explicit: Optional[Dict[str, str]]) -> "tuple[Dict[str, str], Dict[str, Any], List[VersionBound]]":
    """(the dates the run filters by, what chose them, the version bounds it filters by): the caller's
    range, else the question's."""
    given = {k: v for k, v in (explicit or {}).items() if k in ("since", "until") and v}
    if given:
        return given, {"source": "flag", **given, "reason": "--since/--until were given"}, []
    found = parse_time_range(query) if isinstance(query, str) else None
    if found is None:
        return {}, {"source": "none", "reason": "the question states no time range"}, []
    note: Dict[str, Any] = {"source": "question", **found.temporal(), "phrases": found.phrases}
    note["reason"] = found.describe() or "the question states no date range"
    if found.versions:
        note["versions"] = found.versions
        note["reason"] += "; " + "; ".join(
            f"documents whose path names a version {b.op} {'.'.join(map(str, b.version))} (from {b.phrase!r}), "
            "and those naming none" for b in found.version_bounds)
    if not found.temporal():
        note["reason"] = note["reason"].removeprefix("the question states no date range; ")
    return found.temporal(), note, found.version_bounds
