"""The tutor: the deterministic judge of the proof game.

``Tutor.judge(move)`` plays one move: it checks legality, runs an accepted
action through the executor it was given (the confined tool boxes), derives
facts from the output with the rules, checks claims against the evidence,
updates the proof graph and returns a ``Verdict`` with a reason and points. It
never calls a model: the same moves and the same tool outputs give the same
verdicts, graph and score (tests/reasoning_tutor/test_determinism.py).

Game rules (docs/TUTOR.md has the full table):
- a claim is a validated truth only when the checker proves it from evidence;
- an undecidable claim must be reformulated or backed by the next action; if that
  action does not settle it, it is closed as unproven;
- the tutor decides whether an action reads or writes; writes need the run's write
  access and ``truths_before_write`` validated truths first;
- RESPOND wins only when every obligation is met by a validated truth, the answer
  states the obligations' values, and every checkable atom of the answer is in a
  truth or the goal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ragix_core.core.text import bounded, one_line
from ragix_core.core.types import ToolResult
from ragix_core.reasoning_tutor.actions import Action, ActionRefused, classify
from ragix_core.reasoning_tutor.checker import (ILL_TYPED, PROVABLE, REFUTABLE, Check, Evidence, check_claim,
                                                key_conflict, suggest_command, unify)
from ragix_core.reasoning_tutor.claims import PREDICATES, Claim, IllTyped, Pattern, Var, make_claim, make_pattern
from ragix_core.reasoning_tutor.graph import Node, ProofGraph
from ragix_core.reasoning_tutor.moves import (Ask, Assert, Challenge, ClaimIn, Link, Propose, Reformulate, Respond,
                                              move_text)
from ragix_core.reasoning_tutor.respond import admissible, match_obligations, ungrounded
from ragix_core.reasoning_tutor.rules import Output, RuleSet, default_rules, normalize_command, output_status
from ragix_core.reasoning_tutor.scoring import POINTS, Points, Tally

__all__ = ["Tutor", "TutorSettings", "Verdict", "ACCEPTED", "REJECTED", "HELD", "WON"]

ACCEPTED, REJECTED, HELD, WON = "accepted", "rejected", "held", "won"
STDOUT_KEPT = 6000  # characters of an output stored in the graph (the tool box already caps what it returns)
MAX_FACT_ROUNDS = 3  # fact rules applied to facts derived by fact rules, this deep


@dataclass
class TutorSettings:
    accept: List[Pattern] = field(default_factory=list)  # obligations; none = "one validated truth"
    truths_before_write: int = 2
    writes_allowed: bool = False  # the run may write at all (profile + user approval)
    stall_turns: int = 3  # turns without progress before the hint says so; twice that ends the game
    points: Points = POINTS
    rules: Optional[RuleSet] = None


@dataclass
class Verdict:
    turn: int
    move: str  # ASSERT, PROPOSE, ...
    text: str  # the move in one line
    status: str  # accepted | rejected | held | won
    kind: str  # provable, refuted, undecidable, ill_typed, illegal, policy, repetition, executed, ...
    reason: str
    points: int
    score: int = 0
    nodes: List[str] = field(default_factory=list)

    def to_dict(self) -> Dict[str, Any]:
        return dict(self.__dict__)


class Tutor:
    def __init__(self, goal: str, graph: ProofGraph, execute: Callable[[Action], ToolResult],
                 settings: Optional[TutorSettings] = None) -> None:
        self.goal = goal
        self.graph = graph
        self.execute = execute
        self.settings = settings or TutorSettings()
        self.rules = self.settings.rules or default_rules()
        self.p = self.settings.points
        self.evidence = Evidence()
        self.tally = Tally()
        self.verdicts: List[Verdict] = []
        self.score = 0
        self.turn = 0
        self.won = False
        self.answer: Optional[str] = None
        self.pending: Optional[str] = None  # an undecidable claim awaiting its action or reformulation
        self.last_rejected_respond: Optional[str] = None
        self._claims: Dict[Claim, str] = {}  # player claims by content (latest node)
        # (command as rules read it, epoch) -> action id: `-name "*.py"` and `-name '*.py'` are one command
        self._commands: Dict[Tuple[str, int], str] = {}
        self._moves_seen: Dict[str, int] = {}
        self._entities: Dict[str, str] = {}
        self._questions: Dict[str, Pattern] = {}
        self.idle_turns = 0  # consecutive turns without a new fact or truth
        graph.note("start", goal=goal, accept=[p.text() for p in self.settings.accept],
                   truths_before_write=self.settings.truths_before_write, writes_allowed=self.settings.writes_allowed)

    # ------------------------------------------------------------------ API
    @property
    def stalled(self) -> bool:
        return self.idle_turns >= 2 * self.settings.stall_turns

    def truths(self) -> List[Tuple[str, Claim]]:
        """Validated player claims that still hold on current evidence."""
        out = []
        for claim, node_id in self._claims.items():
            if self.graph.nodes[node_id].status == "validated" and check_claim(claim, self.evidence).status == PROVABLE:
                out.append((node_id, claim))
        return out

    def judge(self, move: Any) -> Verdict:
        self.turn += 1
        self.tally.moves += 1
        self.tally.by_move[move.move] = self.tally.by_move.get(move.move, 0) + 1
        self.graph.note("move", turn=self.turn, move=move.model_dump())
        before = self._progress_marker()
        key = move.model_dump_json()
        repeat = self._moves_seen.get(key)
        self._moves_seen[key] = (self.turn, before)
        # The same move with nothing new since is a loop. PROPOSE has its own check (same command, same epoch).
        if repeat is not None and repeat[1] == before and not isinstance(move, Propose):
            verdict = self._verdict(move, REJECTED, "repetition", f"the same move as turn {repeat[0]}, and nothing "
                                    "changed since", self.p.repetition)
        else:
            handler = {Assert: self._assert, Ask: self._ask, Propose: self._propose, Challenge: self._challenge,
                       Reformulate: self._reformulate, Link: self._link, Respond: self._respond}[type(move)]
            verdict = handler(move)
        if verdict.status == REJECTED:
            self.tally.illegal += 1
            self.tally.policy += verdict.kind == "policy"
        if isinstance(move, Assert):  # any rejection of the move itself: ill-typed, refuted, repetition, blocked
            self.tally.asserts += 1
            self.tally.asserts_rejected += verdict.status == REJECTED
        progress = self._progress_marker() != before or verdict.status == WON
        self.idle_turns = 0 if progress else self.idle_turns + 1
        self.score += verdict.points
        verdict.score = self.score
        self.verdicts.append(verdict)
        self.graph.note("verdict", **verdict.to_dict())
        return verdict

    def finish(self) -> None:
        """End of the game: a claim still awaiting its action is closed as unproven."""
        if self.pending:
            self.graph.set_status(self.pending, "unproven", "the game ended before an action settled it")
            self.tally.claims_rejected += 1
            self.pending = None
        self.graph.note("end", won=self.won, score=self.score, turns=self.turn, tally=self.tally.to_dict())

    def _progress_marker(self) -> Tuple[int, int, int]:
        return len(self.evidence.all_facts()), self.tally.truths, self.evidence.epoch

    # ------------------------------------------------------------------ moves
    def _assert(self, move: Assert) -> Verdict:
        if self.pending:
            return self._blocked(move)
        return self._claim_move(move, move.claim)

    def _reformulate(self, move: Reformulate) -> Verdict:
        node = self.graph.nodes.get(move.target.strip())
        if node is None or node.kind != "claim" or node.id.startswith("F"):
            return self._verdict(move, REJECTED, "illegal", f"{move.target!r} is not one of your claims", self.p.illegal)
        if node.status not in ("undecidable", "unproven", "refuted", "ill_typed"):
            return self._verdict(move, REJECTED, "illegal", f"{node.id} is {node.status or 'not judged'}; only an "
                                 "undecidable, unproven, refuted or ill-typed claim can be reformulated", self.p.illegal)
        if self.pending == node.id:  # abandoned before an action settled it
            self.pending = None
            self.tally.claims_rejected += 1
        self.graph.set_status(node.id, "superseded", f"reformulated at turn {self.turn}")
        return self._claim_move(move, move.claim, previous=node.id)

    def _claim_move(self, move: Any, raw: ClaimIn, previous: Optional[str] = None) -> Verdict:
        self.tally.claims += 1
        try:
            claim = make_claim(raw.predicate, raw.args)
        except IllTyped as exc:
            self.tally.claims_rejected += 1
            node = self.graph.add_node("claim", f"{raw.predicate}{tuple(raw.args)}", {"raw": raw.model_dump(), "by": "player"},
                                       status=ILL_TYPED, turn=self.turn, prefix="C")
            self._link_previous(previous, node.id)
            return self._verdict(move, REJECTED, ILL_TYPED, f"ill-typed: {exc}", self.p.illegal, [node.id])
        existing = self._claims.get(claim)
        if existing and self.graph.nodes[existing].status in ("validated", "refuted"):
            self.tally.claims_rejected += self.graph.nodes[existing].status == "refuted"
            return self._verdict(move, REJECTED, "repetition", f"already judged as {existing} "
                                 f"({self.graph.nodes[existing].status})", self.p.repetition, [existing])
        node = self._new_claim(claim)
        self._link_previous(previous, node.id)
        check = check_claim(claim, self.evidence)
        self._apply_check(node, check)
        if check.status == PROVABLE:
            return self._verdict(move, ACCEPTED, PROVABLE, f"{node.id} is a validated truth: {check.reason}",
                                 self.p.truth, [node.id])
        if check.status == REFUTABLE:
            self.tally.claims_rejected += 1
            return self._verdict(move, REJECTED, "refuted", f"{node.id} is refuted: {check.reason}", self.p.refuted,
                                 [node.id])
        self.pending = node.id
        return self._verdict(move, HELD, "undecidable", f"{node.id} is undecidable: {check.reason}. Next move: PROPOSE an "
                             f"action that tests it (e.g. {suggest_command(claim)}) or REFORMULATE {node.id}", 0, [node.id])

    def _propose(self, move: Propose) -> Verdict:
        try:
            action = classify(move.command)
        except ActionRefused as exc:
            node = self.graph.add_node("action", move.command, {"intent": move.intent, "declared": move.mode},
                                       status="refused", turn=self.turn)
            return self._verdict(move, REJECTED, "policy", f"refused: {exc}", self.p.policy, [node.id])
        earlier = self._commands.get((normalize_command(action.command), self.evidence.epoch))
        if earlier:
            obs = [e.dst for e in self.graph.edges if e.src == earlier and e.kind == "derives"]
            return self._verdict(move, REJECTED, "repetition", f"already ran as {earlier}; its output is "
                                 f"{', '.join(obs) or 'recorded'}", self.p.repetition, [earlier])
        refusal = self._write_refusal(action, move.mode)
        data = {"intent": move.intent, "command": action.command, "mode": action.mode, "declared": move.mode,
                "why": action.why, "tool": action.call.tool}
        node = self.graph.add_node("action", action.command, data, turn=self.turn)
        if refusal:
            self.graph.set_status(node.id, "refused", refusal)
            return self._verdict(move, REJECTED, "policy", refusal, self.p.policy, [node.id])
        result = self.execute(action)
        if result.refused:
            self.graph.set_status(node.id, "refused", result.error or "refused")
            return self._verdict(move, REJECTED, "policy", f"the confinement layer refused it: "
                                 f"{one_line(result.error, 300)}", self.p.policy, [node.id])
        self.graph.set_status(node.id, "executed")
        self._commands[(normalize_command(action.command), self.evidence.epoch)] = node.id
        if action.mode == "write":  # what was observed before may have changed: older facts are stale from now on
            self.evidence.epoch += 1
        obs, new_facts = self._observe(node, action, result)
        notes = [f"{obs.id}: rc={result.returncode}" + (" (no match)" if result.no_match else ""),
                 f"{len(new_facts)} new fact(s)"]
        if not result.ok:
            notes.append("error: " + one_line(result.stderr or result.error, 160))
        settled, pending_points = self._settle_pending()
        notes += settled + self._answer_questions()
        points = (self.p.evidence if new_facts else 0) + pending_points
        return self._verdict(move, ACCEPTED, "executed", "; ".join(notes), points,
                             [node.id, obs.id] + new_facts[:20])

    def _ask(self, move: Ask) -> Verdict:
        raw = move.question
        try:
            pattern = make_pattern(raw.predicate, [Var(a.strip()[1:]) if a.strip().startswith("?") else a
                                                   for a in raw.args])
        except IllTyped as exc:
            return self._verdict(move, REJECTED, ILL_TYPED, f"ill-typed question: {exc}", self.p.illegal)
        if any(p == pattern for p in self._questions.values()):
            return self._verdict(move, REJECTED, "repetition", "this question was already asked", self.p.repetition)
        node = self.graph.add_node("question", pattern.text(), {"pattern": pattern.text()}, status="open", turn=self.turn)
        self._questions[node.id] = pattern
        found = self._answer_questions(only=node.id)
        reason = f"{node.id} " + ("answered: " + "; ".join(found) if found else "is open: no evidence matches it yet")
        return self._verdict(move, ACCEPTED, "asked", reason, 0, [node.id])

    def _link(self, move: Link) -> Verdict:
        claim_node = self.graph.nodes.get(move.claim.strip())
        q = self.graph.nodes.get(move.question.strip())
        if q is None or q.kind != "question":
            return self._verdict(move, REJECTED, "illegal", f"{move.question!r} is not a question", self.p.illegal)
        claim = self._claim_of(claim_node)
        if claim is None:
            return self._verdict(move, REJECTED, "illegal", f"{move.claim!r} is not a validated truth or a current fact",
                                 self.p.illegal)
        bindings = unify(self._questions[q.id], claim)
        if bindings is None:
            return self._verdict(move, REJECTED, "illegal", f"{claim.text()} does not answer {q.label}", self.p.illegal)
        self.graph.add_edge(claim_node.id, q.id, "supports", "answers")
        self.graph.set_status(q.id, "answered")
        return self._verdict(move, ACCEPTED, "linked", f"{claim_node.id} answers {q.id}", 0, [claim_node.id, q.id])

    def _challenge(self, move: Challenge) -> Verdict:
        node = self.graph.nodes.get(move.target.strip())
        if node is None or node.kind != "claim" or node.status not in ("validated", "fact"):
            return self._verdict(move, REJECTED, "illegal", f"{move.target!r} is not a validated truth or a fact",
                                 self.p.illegal)
        claim = Claim(node.data["predicate"], tuple(node.data["args"]))
        if node.status == "fact":
            current = self.evidence.fact_id(claim) == node.id
            conflicts = [n for n, c in self.evidence.facts(claim.predicate) if n != node.id and key_conflict(claim, c)]
            if current and not conflicts:
                return self._verdict(move, REJECTED, "challenge_failed", f"{node.id} stands: current evidence",
                                     self.p.challenge_failed, [node.id])
            why = "stale: observed before a write" if not current else f"contradicted by {', '.join(conflicts)}"
            self.graph.set_status(node.id, "disputed", why)
            return self._verdict(move, ACCEPTED, "challenge_upheld", f"{node.id} is {why}", self.p.challenge_upheld,
                                 [node.id])
        check = check_claim(claim, self.evidence)
        if check.status == PROVABLE:
            return self._verdict(move, REJECTED, "challenge_failed", f"{node.id} stands: {check.reason}",
                                 self.p.challenge_failed, [node.id])
        status = "refuted" if check.status == REFUTABLE else "stale"
        self._apply_check(node, check, status)
        return self._verdict(move, ACCEPTED, "challenge_upheld", f"{node.id} no longer holds: {check.reason}",
                             self.p.challenge_upheld, [node.id])

    def _respond(self, move: Respond) -> Verdict:
        if self.pending:
            return self._blocked(move)
        problems: List[str] = []
        made: List[str] = []
        for raw in move.claims:
            self.tally.claims += 1
            try:
                claim = make_claim(raw.predicate, raw.args)
            except IllTyped as exc:
                self.tally.claims_rejected += 1
                problems.append(f"claim {raw.text()} is ill-typed: {exc}")
                continue
            existing = self._claims.get(claim)
            if existing and self.graph.nodes[existing].status == "validated":
                continue
            node = self._new_claim(claim)
            made.append(node.id)
            check = check_claim(claim, self.evidence)
            self._apply_check(node, check, None if check.status != "undecidable" else "unproven")
            if check.status != PROVABLE:
                self.tally.claims_rejected += 1
                problems.append(f"{node.id} {claim.text()} is {check.status}: {check.reason}")
        all_truths = self.truths()
        truths = admissible(all_truths, self.goal, self.evidence.output_texts())
        unfounded = [t for t in all_truths if t not in truths]
        obligations = match_obligations(self.settings.accept, truths, move.answer)
        for ob in obligations:
            if ob.truth is None:
                near = next((f"{n} {c.text()}" for n, c in unfounded if unify(ob.pattern, c) is not None), None)
                problems.append(f"obligation {ob.pattern.text()} is not met by any validated truth" +
                                (f" ({near} computes with a number that no command printed and the goal does not "
                                 "state; calculate with the values the files show)" if near else ""))
            elif ob.unstated:
                problems.append(f"the answer does not state {', '.join(ob.unstated)} (from {ob.truth})")
        if not self.settings.accept and not truths:
            problems.append("no validated truth yet: an answer needs at least one")
        loose = ungrounded(move.answer, [c for _, c in truths], self.goal)
        if loose:
            problems.append("the answer states " + ", ".join(repr(a.value) for a in loose[:6]) +
                            ", which no validated truth states")
        if not move.answer.strip():
            problems.append("the answer is empty")
        truth_points = self.p.truth * sum(self.graph.nodes[n].status == "validated" for n in made)
        if problems:
            self.last_rejected_respond = "; ".join(problems)
            return self._verdict(move, REJECTED, "illegal", "RESPOND rejected: " + "; ".join(problems),
                                 self.p.illegal + truth_points, made)
        self.won = True
        self.answer = move.answer.strip()
        used = sorted({ob.truth for ob in obligations if ob.truth} or {n for n, _ in truths})
        return self._verdict(move, WON, "won", f"answer accepted; it rests on {', '.join(used)}",
                             self.p.win + truth_points, made + used)

    # ------------------------------------------------------------------ helpers
    def _blocked(self, move: Any) -> Verdict:
        claim = self.graph.nodes[self.pending]
        return self._verdict(move, REJECTED, "illegal", f"{claim.id} {claim.label} is undecidable: first PROPOSE an "
                             f"action that tests it or REFORMULATE {claim.id}", self.p.illegal, [claim.id])

    def _write_refusal(self, action: Action, declared: str) -> Optional[str]:
        if action.mode != "write":
            return None
        if declared != "write":
            return f"declared 'read', but this action writes ({action.why})"
        if not self.settings.writes_allowed:
            return "write actions are not allowed in this run (read-only profile or no --yes)"
        have = len(self.truths())
        if have < self.settings.truths_before_write:
            return (f"write actions need {self.settings.truths_before_write} validated truths first; "
                    f"you have {have}")
        return None

    def _observe(self, action_node: Node, action: Action, result: ToolResult) -> Tuple[Node, List[str]]:
        status = output_status(result)
        command = normalize_command(result.written or action.display)
        data = {"action": action_node.id, "command": command, "ran": result.command, "returncode": result.returncode,
                "status": status,
                "truncated": result.truncated, "stdout": bounded(result.stdout, STDOUT_KEPT),
                "stderr": bounded(result.stderr, 1000), "epoch": self.evidence.epoch,
                # what the command computes, checked by the engine (evidence/pipe_mistakes.py, path_as_text.py)
                "misread": result.mistake or result.doubt or ""}
        lines = len(result.stdout.splitlines())
        obs = self.graph.add_node("observation", f"{command} → rc={result.returncode}, {lines} line(s)", data,
                                  status=status, turn=self.turn)
        self.graph.add_edge(action_node.id, obs.id, "derives", "executed")
        self.evidence.add_output(action_node.id, obs.id, result.stdout, result.truncated)
        derived, dropped = self.rules.from_output(Output(command, status, result.stdout, result.stderr,
                                                         result.truncated or len(result.stdout) > STDOUT_KEPT))
        if dropped:  # a line the language cannot hold was seen: the output is not a complete view of the file
            derived = [d for d in derived if d.claim.predicate != "complete"]
            self.graph.note("dropped", observation=obs.id, count=dropped)
        new: List[str] = []
        frontier = [(obs.id, d) for d in derived]
        for _ in range(MAX_FACT_ROUNDS + 1):
            next_round = []
            for src, d in frontier:
                fact_id, fresh = self._add_fact(src, d.rule, d.claim)
                if fresh:
                    new.append(fact_id)
                    next_round += [(fact_id, dd) for dd in self.rules.from_fact(d.claim)]
            frontier = next_round
            if not frontier:
                break
        return obs, new

    def _add_fact(self, src: str, rule: str, claim: Claim) -> Tuple[str, bool]:
        existing = self.evidence.fact_id(claim)
        if existing:
            self.graph.add_edge(src, existing, "derives", rule)
            return existing, False
        node = self.graph.add_node("claim", claim.text(), {**claim.to_dict(), "by": f"rule:{rule}",
                                                           "epoch": self.evidence.epoch},
                                   status="fact", turn=self.turn, prefix="F")
        self.graph.add_edge(src, node.id, "derives", rule)
        self.evidence.add_fact(node.id, claim)
        for kind, value in zip(PREDICATES[claim.predicate].args, claim.args):
            if kind == "path" and value not in self._entities:
                self._entities[value] = self.graph.add_node("entity", value, {"path": value}, turn=self.turn).id
            if kind == "path":
                obs = src if self.graph.nodes[src].kind == "observation" else None
                if obs:
                    self.graph.add_edge(obs, self._entities[value], "derives", "mentions")
        return node.id, True

    def _settle_pending(self) -> Tuple[List[str], int]:
        """Re-check the claim that waited for this action: (notes, points)."""
        if not self.pending:
            return [], 0
        node = self.graph.nodes[self.pending]
        self.pending = None
        claim = Claim(node.data["predicate"], tuple(node.data["args"]))
        check = check_claim(claim, self.evidence)
        if check.status == PROVABLE:
            self._apply_check(node, check)
            return [f"{node.id} is now a validated truth"], self.p.truth
        self.tally.claims_rejected += 1
        if check.status == REFUTABLE:
            self._apply_check(node, check)
            return [f"{node.id} is refuted: {check.reason}"], self.p.refuted
        self.graph.set_status(node.id, "unproven", "the action did not settle it")
        return [f"{node.id} stays unproven and is closed"], self.p.unproven

    def _answer_questions(self, only: Optional[str] = None) -> List[str]:
        out = []
        for qid, pattern in self._questions.items():
            if only and qid != only:
                continue
            for node_id, claim in self.evidence.facts(pattern.predicate):
                if unify(pattern, claim) is not None and self.graph.add_edge(node_id, qid, "supports", "answers"):
                    out.append(f"{node_id} {claim.text()}")
                    if self.graph.nodes[qid].status != "answered":
                        self.graph.set_status(qid, "answered")
        return out[:8]

    def _new_claim(self, claim: Claim) -> Node:
        node = self.graph.add_node("claim", claim.text(), {**claim.to_dict(), "by": "player"}, turn=self.turn,
                                   prefix="C")
        self._claims[claim] = node.id
        return node

    def _apply_check(self, node: Node, check: Check, status: Optional[str] = None) -> None:
        for src, label in check.supports:
            self.graph.add_edge(src, node.id, "supports", label)
        for src, label in check.refutes:
            self.graph.add_edge(src, node.id, "refutes", label)
        new_status = status or {PROVABLE: "validated", REFUTABLE: "refuted"}.get(check.status, "undecidable")
        self.graph.set_status(node.id, new_status, check.reason)
        if new_status == "validated":
            self.tally.truths += 1

    def _link_previous(self, previous: Optional[str], node_id: str) -> None:
        if previous:
            self.graph.add_edge(previous, node_id, "derives", "reformulated as")

    def _claim_of(self, node: Optional[Node]) -> Optional[Claim]:
        if node is None or node.kind != "claim" or "predicate" not in node.data:
            return None
        claim = Claim(node.data["predicate"], tuple(node.data["args"]))
        if node.status == "validated" and check_claim(claim, self.evidence).status == PROVABLE:
            return claim
        if node.status == "fact" and self.evidence.fact_id(claim) == node.id:
            return claim
        return None

    def _verdict(self, move: Any, status: str, kind: str, reason: str, points: int,
                 nodes: Sequence[str] = ()) -> Verdict:
        return Verdict(self.turn, move.move, move_text(move), status, kind, reason, points, nodes=list(nodes))
