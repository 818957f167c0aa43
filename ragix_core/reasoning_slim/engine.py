"""ContractiveReasoner: entropy-driven tree decomposition with peer review (spec 002 §4).

    engine = ContractiveReasoner(max_depth=2, k_entropy_samples=3)        # embedded model
    result = await engine.solve("What weekday is 45 days after a Monday?")
    result.final_answer, result.to_mermaid(), result.export_trace("t.json")
    engine.solve_sync(question)                                          # for scripts

Each node goes NEW → NORMALIZE (root) → SOLVE (k samples → clusters → entropy H)
→ DONE when H < entropy_decompose_threshold (or no depth, loop or token budget is left),
else → DECOMPOSE → children (pruned by BM25 relevance before any call; the rest solved
concurrently) → PRE-REVIEW → PEER-REVIEW (if enabled) → COLLAPSE (k samples of a merge of
the kept children's answers). A collapse is accepted when it lowers H by at least
entropy_gamma_min_reduction or ends below entropy_collapse_threshold; otherwise the node
rebranches (a different split), at most max_rebranch_attempts times, and if no collapse
is accepted the node keeps its direct majority answer. docs/CONTRACTIVE.md has the rules.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from ragix_core.core.events import EventBus, EventKind
from ragix_core.core.stop import StopRun
from ragix_core.core.text import bounded
from ragix_core.reasoning_slim import ops
from ragix_core.reasoning_slim.blocking import in_thread
from ragix_core.reasoning_slim.budget import Ledger, MeteredClient
from ragix_core.reasoning_slim.entropy import node_entropy
from ragix_core.reasoning_slim.params import ContractiveParams, preset as make_preset
from ragix_core.reasoning_slim.relevance import RelevanceIndex
from ragix_core.reasoning_slim.result import ContractiveResult, Metrics
from ragix_core.reasoning_slim.review import peer_record, pre_review, rank_score
from ragix_core.reasoning_slim.tree import Node, NodeState, walk
from ragix_core.sampling import sequence_similarity

__all__ = ["ContractiveReasoner", "normalize_question", "build", "ContractiveEngine", "MAX_QUESTION_CHARS"]

MAX_QUESTION_CHARS = 4000
READING_DIVERGENCE = 0.5  # two readings less similar than this (sequence similarity) are two interpretations


def normalize_question(question: Any) -> str:
    """NORMALIZE (f1): one question as plain text — control characters and runs of spaces
    folded, bounded; ``ValueError`` for anything that is not a non-empty string."""
    if not isinstance(question, str):
        raise ValueError(f"the question must be text, not {type(question).__name__}")
    text = "".join(ch if ch.isprintable() or ch in "\n\t" else " " for ch in question)
    lines = [" ".join(line.split()) for line in text.splitlines()]
    text = "\n".join(line for line in lines if line).strip()
    if not text:
        raise ValueError("the question is empty")
    return bounded(text, MAX_QUESTION_CHARS)


@dataclass
class _Solve:
    """One solve's mutable state (a reasoner can run several solves, e.g. in a chat)."""

    question: str
    context: str
    index: RelevanceIndex
    ledger: Ledger
    ids: Any = field(default_factory=lambda: itertools.count(0))
    loops: int = 0
    rebranches: int = 0
    peer_calls: int = 0
    peer_reviewed: int = 0
    peer_approved: int = 0
    events: List[Dict[str, Any]] = field(default_factory=list)
    clarification: Optional[Dict[str, Any]] = None


class ContractiveReasoner:
    def __init__(self, *, model: Optional[str] = None, backend: str = "embedded", base_url: Optional[str] = None,
                 peer_model: Optional[str] = None, peer_backend: Optional[str] = None,
                 preset: Optional[str] = None, params: Optional[ContractiveParams] = None,
                 max_depth: Optional[int] = None, max_loops: Optional[int] = None,
                 max_global_tokens: Optional[int] = None, max_branch_tokens: Optional[int] = None,
                 max_concurrent_branches: Optional[int] = None, entropy_decompose_threshold: Optional[float] = None,
                 entropy_collapse_threshold: Optional[float] = None,
                 entropy_gamma_min_reduction: Optional[float] = None, k_entropy_samples: Optional[int] = None,
                 min_relevance_threshold: Optional[float] = None, max_rebranch_attempts: Optional[int] = None,
                 timeout_sec: Optional[float] = None, roles: Any = None, bus: Optional[EventBus] = None,
                 session_id: str = "", client_factory: Any = None, **more: Any) -> None:
        """Parameters: spec 002 §10.1 (None = the preset's value, else the spec default); ``more``
        takes the other ``ContractiveParams`` fields. Models: ``roles`` (a run's ``Roles``) or
        backend/model/base_url for every role, peer_model/peer_backend for the peer (which turns
        peer review on). ``client_factory`` replaces the real backends (tests)."""
        spec_values = dict(max_depth=max_depth, max_loops=max_loops, max_global_tokens=max_global_tokens,
                           max_branch_tokens=max_branch_tokens, max_concurrent_branches=max_concurrent_branches,
                           entropy_decompose_threshold=entropy_decompose_threshold,
                           entropy_collapse_threshold=entropy_collapse_threshold,
                           entropy_gamma_min_reduction=entropy_gamma_min_reduction,
                           k_entropy_samples=k_entropy_samples, min_relevance_threshold=min_relevance_threshold,
                           max_rebranch_attempts=max_rebranch_attempts, timeout_sec=timeout_sec)
        base = params or make_preset(preset)
        if peer_model or peer_backend:
            more.setdefault("peer_review", True)
        self.params = base.with_overrides(**spec_values, **more)
        if roles is None:
            from ragix_core.llm.config import BackendSettings, LLMConfig, RoleOverride
            from ragix_core.llm.roles import Roles

            default = BackendSettings(backend=backend, **({"model": model} if model else {}), base_url=base_url)
            peer = RoleOverride(backend=peer_backend, model=peer_model)
            roles = Roles(LLMConfig(default=default, peer=peer), bus=bus, session_id=session_id,
                          client_factory=client_factory)
        self.roles = roles
        self.bus = bus if bus is not None else getattr(roles, "bus", None)
        self.session_id = session_id or getattr(roles, "session_id", "")
        self._slots = threading.BoundedSemaphore(self.params.max_concurrent_branches)

    @classmethod
    def from_context(cls, ctx: Any, *, params: Optional[ContractiveParams] = None) -> "ContractiveReasoner":
        """The engine of a run: its roles, event bus and session. Peer review is on when the
        ``llm.peer`` role is configured with its own backend or model."""
        params = params or ContractiveParams()
        peer = ctx.config.llm.peer
        if (peer.backend or peer.model) and not params.peer_review:
            params = params.with_overrides(peer_review=True)
        return cls(params=params, roles=ctx.roles, bus=ctx.bus, session_id=ctx.session_id)

    # -- public API -------------------------------------------------------------------------

    def solve_sync(self, question: str, context: Optional[str] = None) -> ContractiveResult:
        """``solve`` for scripts; fails clearly inside a running event loop (use ``await solve``)."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(self.solve(question, context=context))
        raise RuntimeError("solve_sync() called inside a running event loop; use `await engine.solve(...)`")

    async def solve(self, question: str, context: Optional[str] = None) -> ContractiveResult:
        q = normalize_question(question)
        p = self.params
        start = time.perf_counter()
        run = _Solve(question=q, context=context or "", index=RelevanceIndex(q),
                     ledger=Ledger(p.max_global_tokens, "global"))
        root = Node(id=next(run.ids), depth=0, question=q)
        root.enter(NodeState.NEW)
        self._emit(run, root)
        root.enter(NodeState.NORMALIZE)
        self._emit(run, root)
        stop = "success"
        try:
            await self._node(run, root, run.ledger)
        except StopRun as exc:  # the backend is gone: end with its name, keep what the tree has
            stop = exc.reason
            root.outcome = root.outcome or bounded(exc.message, 300, marker=False)
        finally:
            run.index.close()
        answer = root.answer
        if stop == "success":
            if run.clarification is not None:
                stop, answer = "clarification_needed", run.clarification["message"]
            elif root.state is NodeState.FAILED or not answer:
                stop = "token_budget" if run.ledger.exhausted() else "no_answer"
        metrics = self._metrics(run, root, time.perf_counter() - start)
        return ContractiveResult(question=q, final_answer=answer, root=root, metrics=metrics, stop_reason=stop,
                                 clarification=run.clarification, params=p.to_dict(), events=run.events,
                                 models=self._models())

    # -- the state machine ------------------------------------------------------------------

    def _client(self, role: str, run: _Solve, node: Node, ledger: Ledger) -> MeteredClient:
        return MeteredClient(self.roles.get(role), node, ledger, timeout=self.params.timeout_sec, slots=self._slots)

    async def _node(self, run: _Solve, node: Node, ledger: Ledger) -> None:
        p = self.params
        node.enter(NodeState.SOLVE)
        self._emit(run, node)
        reading = p.clarify and node.depth == 0
        sampled = await in_thread(
            ops.sample_answers, self._client("worker", run, node, ledger),
            "slim_solve_reading" if reading else "slim_solve", p, reading=reading,
            question=node.question, context=ops.context_block(run.context))
        node.samples = list(sampled.samples)
        node.entropy = node_entropy(node.question, sampled.clusters)
        if not sampled.samples:
            node.enter(NodeState.FAILED)
            node.outcome = "budget spent before an answer" if ledger.exhausted() else "no usable answer"
            self._emit(run, node)
            return
        best = sampled.clusters[0].representative
        node.answer, node.reasoning = best["answer"], best["reasoning"]
        node.answer_entropy = node.entropy.total
        node.outcome = f"direct: {sampled.summary()}"
        if reading and self._clarify(run, node, sampled.clusters):
            node.enter(NodeState.DONE)
            self._emit(run, node)
            return
        if self._should_decompose(run, node, ledger):
            await self._decompose(run, node, ledger)
        node.enter(NodeState.DONE)
        self._emit(run, node)

    def _should_decompose(self, run: _Solve, node: Node, ledger: Ledger) -> bool:
        p = self.params
        return (node.entropy is not None and node.entropy.total >= p.entropy_decompose_threshold
                and node.depth < p.max_depth and run.loops < p.max_loops and not ledger.exhausted())

    async def _decompose(self, run: _Solve, node: Node, ledger: Ledger) -> None:
        p = self.params
        assert node.entropy is not None
        before = node.entropy.total
        avoid: List[str] = []
        for attempt in range(1 + p.max_rebranch_attempts):
            if run.loops >= p.max_loops or ledger.exhausted():
                break
            run.loops += 1
            if attempt:
                run.rebranches += 1
            node.enter(NodeState.DECOMPOSE)
            self._emit(run, node)
            subs = await in_thread(ops.decompose, self._client("planner", run, node, ledger), node.question,
                                           p, avoid=avoid, context=run.context, attempt=attempt)
            avoid.extend(subs)
            record: Dict[str, Any] = {"attempt": attempt, "subquestions": subs}
            node.collapses.append(record)
            if len(subs) < 2:
                record["outcome"] = "no usable decomposition"
                continue
            node.decomposed = True
            children = self._spawn(run, node, subs)
            live = [c for c in children if c.state is not NodeState.PRUNED]
            await asyncio.gather(*(self._node(run, c, ledger.child(p.max_branch_tokens, f"branch n{c.id}"))
                                   for c in live))
            kept = await self._review(run, node, live)
            record["kept"] = [c.id for c in kept]
            if not kept:
                record["outcome"] = "no child kept"
                continue
            node.enter(NodeState.COLLAPSE)
            self._emit(run, node)
            merged = await in_thread(
                ops.sample_answers, self._client("worker", run, node, ledger), "slim_collapse", p,
                question=node.question, facts=ops.facts_block(kept), context=ops.context_block(run.context))
            if not merged.samples:
                record["outcome"] = "collapse gave no usable answer"
                continue
            after = node_entropy(node.question, merged.clusters)
            top = merged.clusters[0].representative
            reduction = before - after.total
            accepted = reduction >= p.entropy_gamma_min_reduction or after.total <= p.entropy_collapse_threshold
            record.update(answer=top["answer"], entropy=after.to_dict(), reduction=round(reduction, 4),
                          accepted=accepted, samples=list(merged.samples))
            if accepted:
                record["outcome"] = "accepted"
                node.answer, node.reasoning = top["answer"], top["reasoning"]
                node.answer_entropy = after.total
                node.outcome = f"collapsed: H {before:.2f} -> {after.total:.2f}"
                return
            record["outcome"] = f"rejected: H {before:.2f} -> {after.total:.2f} (gamma {p.entropy_gamma_min_reduction})"
        node.outcome = (node.outcome + "; " if node.outcome else "") + "kept direct answer (no collapse contracted)"

    def _spawn(self, run: _Solve, node: Node, subs: List[str]) -> List[Node]:
        out = []
        for text in subs:
            child = Node(id=next(run.ids), depth=node.depth + 1, question=text, parent=node.id)
            child.relevance = run.index.relevance(text)
            child.enter(NodeState.NEW)
            node.children.append(child)
            if child.relevance < self.params.min_relevance_threshold:
                child.enter(NodeState.PRUNED)
                child.outcome = f"relevance {child.relevance:.2f} < {self.params.min_relevance_threshold}"
            self._emit(run, child)
            out.append(child)
        return out

    async def _review(self, run: _Solve, node: Node, children: List[Node]) -> List[Node]:
        """PRE-REVIEW every answered child, PEER-REVIEW them if enabled; the kept ones, best first."""
        p = self.params
        node.enter(NodeState.PRE_REVIEW)
        self._emit(run, node)
        answered = [c for c in children if c.state is NodeState.DONE and c.answer]
        for c in answered:
            c.pre_review = pre_review(c)
        if p.peer_review and answered:
            node.enter(NodeState.PEER_REVIEW)
            self._emit(run, node)
            for c in answered:
                if run.peer_calls >= p.max_peer_calls:
                    c.peer = {"verdict": None, "skipped": "max_peer_calls reached"}
                    continue
                run.peer_calls += 1
                reply = await in_thread(ops.peer_review, self._client("peer", run, c, run.ledger),
                                                run.question, c, p)
                if reply is None:
                    c.peer = {"verdict": None, "error": "no usable review"}
                    continue
                c.peer = peer_record(reply)
                run.peer_reviewed += 1
                run.peer_approved += c.peer["verdict"] == "approved"
                self._emit(run, c)
        return sorted((c for c in answered if not c.excluded), key=rank_score, reverse=True)

    def _clarify(self, run: _Solve, node: Node, clusters: List[Any]) -> bool:
        """S6: the samples disagree (H over the decompose threshold) and the readings behind the two
        largest answer clusters differ → list the interpretations instead of answering."""
        if node.entropy is None or node.entropy.total < self.params.entropy_decompose_threshold or len(clusters) < 2:
            return False
        first, second = clusters[0].representative, clusters[1].representative
        if sequence_similarity(first.get("reading", ""), second.get("reading", "")) >= READING_DIVERGENCE:
            return False
        interpretations = [{"reading": c.representative.get("reading", ""), "answer": c.representative["answer"],
                            "support": c.size} for c in clusters[:4]]
        listing = "\n".join(f"{i}. {it['reading']} (answer: {it['answer']})" for i, it in enumerate(interpretations, 1))
        run.clarification = {"message": "The question can be read in more than one way; please say which you mean:\n"
                                        + listing, "interpretations": interpretations}
        node.outcome = "clarification requested"
        return True

    # -- reporting --------------------------------------------------------------------------

    def _emit(self, run: _Solve, node: Node) -> None:
        data = {"node_id": node.id, "parent": node.parent, "depth": node.depth, "state": node.state.value,
                "question": bounded(node.question, 200, marker=False), "answer": bounded(node.answer, 200, marker=False),
                "entropy": round(node.entropy.total, 4) if node.entropy else None,
                "relevance": round(node.relevance, 4), "tokens": node.tokens,
                "peer": (node.peer or {}).get("verdict"), "ts": time.time()}
        run.events.append(data)
        if self.bus is not None:
            self.bus.publish(EventKind.TREE_NODE, self.session_id, **data)

    def _metrics(self, run: _Solve, root: Node, duration: float) -> Metrics:
        nodes = list(walk(root))
        reached = [n.depth for n in nodes if n.state is not NodeState.PRUNED]
        # Every model call of the tree is charged to one node (MeteredClient): the run's totals are their sum.
        return Metrics(total_tokens=sum(n.tokens for n in nodes), duration=duration, nodes=len(nodes),
                       max_depth_reached=max(reached, default=0), decomposed=root.decomposed,
                       decompositions=sum(n.decomposed for n in nodes), loops=run.loops, rebranches=run.rebranches,
                       pruned=sum(n.state is NodeState.PRUNED for n in nodes),
                       llm_calls=sum(n.llm_calls for n in nodes), peer_reviewed=run.peer_reviewed,
                       peer_approved=run.peer_approved)

    def _models(self) -> Dict[str, str]:
        out = {}
        for role in ("worker", "planner", "peer"):
            try:
                s = self.roles.settings(role)
                out[role] = f"{s.backend}:{s.model}"
            except Exception:  # roles objects without settings (tests): names are informative only
                continue
        return out


class ContractiveEngine:
    """The registry's engine: ``run(state)`` for ``ragix run --strategy contractive`` and ``ragix eval``."""

    def __init__(self, reasoner: ContractiveReasoner):
        self.reasoner = reasoner
        self.trace: List[str] = []
        self.result: Optional[ContractiveResult] = None

    def run(self, state: Any) -> Any:
        try:
            result = self.reasoner.solve_sync(state.goal)
        except ValueError as exc:  # an empty goal
            state.stop_reason, state.last_error = "invalid_question", str(exc)
            return state
        except Exception as exc:  # never raise out of run(): the run ends with a named reason
            state.stop_reason = "node_exception:CONTRACTIVE"
            state.last_error = f"{type(exc).__name__}: {exc}"
            return state
        self.result = result
        self.trace = [f"{e['state'].upper()} n{e['node_id']}" for e in result.events]
        state.final_answer = result.final_answer
        state.stop_reason = result.stop_reason
        h = result.root.answer_entropy
        state.confidence = round(1.0 - h, 4) if h is not None else None
        state.meta["contractive"] = result.to_dict()
        return state


def build(ctx: Any) -> ContractiveEngine:
    """The registry's entry for ``contractive``: the spec defaults on the run's roles."""
    return ContractiveEngine(ContractiveReasoner.from_context(ctx))
