"""The ensemble (spec 002 §9, pattern 1): several engines answer one goal, a vote merges the answers.

Registered as the strategy ``ensemble``, so `ragix eval SET -s ensemble -s graph_v30 -s s0` compares it with
its members in one run, on the same goals. Members come from ``meta["ensemble"]["members"]`` (names of the
registry; an engine may appear more than once: with a temperature above 0 and a run seed, each run draws other
samples), else ``DEFAULT_MEMBERS``. They run one after another in the run's context, so their model calls
and tokens are the ensemble's cost (on one local model, running them at once would only queue the calls).

The vote: answers of members that ended ``success`` are grouped when their normalised tokens overlap by
``SIMILARITY`` or more (token Jaccard, ``ragix_core.sampling``); the largest group wins, ties to the earliest
member. When a member changed the project, execution decides instead of prose: members are grouped by what
they changed, path by path (``_signature``; a member that changed nothing is one more group), as the main
path votes on command outputs. ``agreement`` = winners / members (all members: a member that failed did not
agree). Each member's calls and tokens are kept beside its answer (``usage``), so a report can set the
ensemble's cost against what each member spent inside it (unseeded samples make a member's cost differ from
its own run). The run succeeds when a group holds a strict majority of the members; else it ends
``no_agreement`` with the largest group's answer. ``meta["ensemble"]`` keeps every member's answer, stop and
group, and what the vote was on (``vote_on``: answers or changes).

Members that may write (the profile writes, the engine runs commands, not a dry run) each work in a throwaway
copy of the project (runtime/tree_copy.py), so no member sees another's writes and the project changes once:
when the vote succeeds, the winning member's changes are carried back; otherwise none are (a write no majority
agreed on is not made), and ``meta["ensemble"]["changes"]`` lists what each member changed and whether it was
applied. A project too big to copy ends ``bad_ensemble`` before any member runs. Members in copies get no MCP
tools (those servers act on the real project). Under a read-only profile members share the project: nothing
they run can change it.

A member that ends ``user_abort`` (Ctrl-C, which the graphs catch) ends the ensemble with that stop: no
later member starts and no member's change is applied. Each member publishes its own RUN_END; the ensemble
publishes the last one (its answer, stop and agreement), so a trace read back (`ragix trace show`, `ragix
serve`) ends with the ensemble's answer, not its last member's.
"""

from __future__ import annotations

import dataclasses
from contextlib import ExitStack
from typing import Any, Dict, List, Optional, Tuple

from ragix_core.core.events import RUN_END_ANSWER_CHARS, EventKind
from ragix_core.core.interrupt import USER_ABORT
from ragix_core.core.registry import build_engine, get_engine
from ragix_core.core.text import bounded
from ragix_core.core.types import ReasoningState
from ragix_core.runtime.tree_copy import TreeChanges, TreeCopy, TreeCopyError
from ragix_core.sampling import cluster, cluster_by_similarity, token_jaccard

__all__ = ["EnsembleEngine", "build", "DEFAULT_MEMBERS", "SIMILARITY", "MAX_MEMBERS"]

DEFAULT_MEMBERS = ("graph_v30", "s0", "s0_json")  # three engines that answer project questions with tools
SIMILARITY = 0.5
MAX_MEMBERS = 7


def _members(meta: Dict[str, Any]) -> List[str]:
    members = list((meta.get("ensemble") or {}).get("members") or DEFAULT_MEMBERS)
    if not 2 <= len(members) <= MAX_MEMBERS:
        raise ValueError(f"an ensemble needs 2 to {MAX_MEMBERS} members, got {len(members)}")
    for name in members:
        if name == "ensemble":
            raise ValueError("an ensemble cannot be a member of itself")
        get_engine(name)  # UnknownEngine (a ValueError) names the known ones
    return members


def _isolated(ctx: Any, name: str) -> bool:
    """Whether member ``name`` must work in a copy: it could change the project otherwise."""
    return bool(ctx.toolbox.profile.writes and ctx.previews is None and get_engine(name).runs_commands)


def _in_copy(ctx: Any, copy: TreeCopy) -> Any:
    """The run's context with every tool box confined to ``copy`` (model roles, events, corpus unchanged)."""
    return dataclasses.replace(ctx, cwd=copy.root, toolbox=ctx.toolbox.rooted_at(copy.root),
                               reflect_box=ctx.reflect_box.rooted_at(copy.root), mcp=None)


def _spent(before: Dict[str, int], after: Dict[str, int]) -> Dict[str, int]:
    """What one member cost: the run's usage after it, less before it (members run one after another)."""
    return {k: int(after.get(k, 0)) - int(before.get(k, 0)) for k in after}


class EnsembleEngine:
    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx
        self.trace: List[str] = []

    def run(self, state: ReasoningState) -> ReasoningState:
        state = self._vote(state)
        ensemble = state.meta.get("ensemble") or {}
        self.ctx.bus.publish(EventKind.RUN_END, state.session_id, stop_reason=state.stop_reason,
                             answer=bounded(str(state.final_answer or ""), RUN_END_ANSWER_CHARS),
                             agreement=ensemble.get("agreement"), winner=ensemble.get("winner"))
        return state

    def _vote(self, state: ReasoningState) -> ReasoningState:
        try:
            members = _members(state.meta)
        except ValueError as exc:
            state.stop_reason, state.last_error = "bad_ensemble", str(exc)
            state.final_answer = f"No answer: {exc}"
            return state
        with ExitStack() as copies:
            return self._run_members(state, members, copies)

    def _run_members(self, state: ReasoningState, members: List[str], copies: ExitStack) -> ReasoningState:
        trees: List[Optional[TreeCopy]] = []
        changes: List[Optional[TreeChanges]] = []  # read as each member ends, before any is applied
        results = []
        for i, name in enumerate(members):
            member_ctx = self.ctx
            copy = None
            if _isolated(self.ctx, name):
                try:
                    copy = copies.enter_context(TreeCopy(self.ctx.cwd))
                except TreeCopyError as exc:
                    state.stop_reason = "bad_ensemble"
                    state.last_error = f"{exc}; run one engine, or point --cwd at a smaller directory"
                    state.final_answer = f"No answer: {state.last_error}"
                    state.meta["ensemble"] = {"members": results, "groups": 0, "agreement": 0.0, "winner": None}
                    return state
                member_ctx = _in_copy(self.ctx, copy)
            self.trace.append(f"MEMBER:{name}")
            sub = ReasoningState(goal=state.goal, session_id=state.session_id,
                                 meta={k: v for k, v in state.meta.items() if k != "ensemble"})
            sub.meta["strategy"] = name
            before = self.ctx.usage()
            sub = build_engine(get_engine(name), member_ctx).run(sub)
            state.executed_steps.extend(sub.executed_steps)
            trees.append(copy)
            changes.append(copy.changes() if copy is not None else None)
            results.append({"member": i, "engine": name, "stop_reason": sub.stop_reason,
                            "answer": sub.final_answer or "", "error": sub.last_error,
                            "usage": _spent(before, self.ctx.usage())})
            if sub.stop_reason == USER_ABORT:  # Ctrl-C stops the ensemble, not only the member it hit
                state.meta["ensemble"] = {"members": results, "groups": 0, "agreement": 0.0, "winner": None}
                state.stop_reason, state.last_error = USER_ABORT, sub.last_error
                state.final_answer = sub.final_answer
                return state
        state = self._elect(state, members, results, changes)
        self._carry_back(state, results, trees, changes)
        return state

    def _carry_back(self, state: ReasoningState, results: List[Dict[str, Any]], trees: List[Optional[TreeCopy]],
                    changes: List[Optional[TreeChanges]]) -> None:
        """Apply the winner's changes to the project when the vote succeeded; record every member's."""
        if not any(trees):
            return
        won = state.meta["ensemble"].get("winner_member")
        report = []
        for r, tree, found in zip(results, trees, changes):
            if tree is None or found is None:
                continue
            entry = {"member": r["member"], "engine": r["engine"], "applied": False, **found.summary()}
            if found and r["member"] == won and state.stop_reason == "success":
                try:
                    tree.apply(found)
                    entry["applied"] = True
                except TreeCopyError as exc:
                    state.stop_reason, state.last_error = "apply_failed", str(exc)
            report.append(entry)
        state.meta["ensemble"]["changes"] = report

    def _elect(self, state: ReasoningState, members: List[str], results: List[Dict[str, Any]],
               changes: List[Optional[TreeChanges]]) -> ReasoningState:
        self.trace.append("VOTE")
        answered = [r for r in results if r["stop_reason"] == "success" and r["answer"].strip()]
        # Execution decides where there is execution to compare: when a member changed the project, members
        # agree when they changed the same paths the same way (their prose may differ: "done", "Created x").
        by_changes = any(c for c in changes if c is not None)
        if by_changes:
            groups = cluster(answered, lambda r: _signature(changes[r["member"]]))
        else:
            groups = cluster_by_similarity(answered, lambda r: r["answer"], token_jaccard, SIMILARITY)
        for g, group in enumerate(groups):
            for r in group.members:
                r["group"] = g
        winner = groups[0] if groups else None
        agreement = winner.size / len(members) if winner else 0.0
        state.meta["ensemble"] = {"members": results, "groups": len(groups), "agreement": round(agreement, 3),
                                  "vote_on": "changes" if by_changes else "answers",
                                  "winner": winner.representative["engine"] if winner else None,
                                  "winner_member": winner.representative["member"] if winner else None}
        state.confidence = round(agreement, 3)
        if winner is None:
            state.stop_reason = "no_answer"
            state.final_answer = "No member of the ensemble answered: " + "; ".join(
                f"{r['engine']} ended {r['stop_reason']}" for r in results)
            return state
        state.final_answer = winner.representative["answer"]
        state.stop_reason = "success" if winner.size * 2 > len(members) else "no_agreement"
        if state.stop_reason != "success":
            state.last_error = f"no majority: the largest group has {winner.size} of {len(members)} members"
        return state


def _signature(changes: Optional[TreeChanges]) -> Tuple[Tuple[str, str], ...]:
    """What a member did to the project, path by path (not the bytes: two members appending the same line
    at different times, or writing a date, still did the same thing). A member that changed nothing: ()."""
    if not changes:
        return ()
    return tuple(sorted([("written", p) for p in changes.written] + [("removed", p) for p in changes.removed]
                        + [("dir made", p) for p in changes.dirs_made]
                        + [("dir removed", p) for p in changes.dirs_removed]))


def build(ctx: Any) -> EnsembleEngine:
    return EnsembleEngine(ctx)
