"""Recovery hints: what the tutor tells the player about loops, stalls and unmet obligations.

Deterministic, computed from the tutor's state only. They name what is missing
and the kind of command whose output the rules can use; they never contain a
value the player has not observed (a hint that leaked an answer would make the
game prove nothing).
"""

from __future__ import annotations

from typing import List

from ragix_core.reasoning_tutor.checker import suggest_command, unify
from ragix_core.reasoning_tutor.claims import PREDICATES, Claim, Pattern, Var
from ragix_core.reasoning_tutor.respond import match_obligations

__all__ = ["hints", "pattern_command"]


def pattern_command(pattern: Pattern) -> str:
    """A command template for an obligation: its fixed arguments filled in, unknowns as NAME."""
    args = [a if not isinstance(a, Var) else (a.name or kind).upper()
            for a, kind in zip(pattern.args, PREDICATES[pattern.predicate].args)]
    return suggest_command(Claim(pattern.predicate, tuple(args)))


def hints(tutor: "object") -> List[str]:
    """Hints for the player's next move (the tutor's state after the last verdict)."""
    t = tutor
    out: List[str] = []
    last = t.verdicts[-1] if t.verdicts else None
    if t.pending:
        node = t.graph.nodes[t.pending]
        claim = Claim(node.data["predicate"], tuple(node.data["args"]))
        out.append(f"{node.id} is undecidable. Your next move must be PROPOSE (e.g. `{suggest_command(claim)}`) "
                   f"or REFORMULATE {node.id}.")
    if not t.evidence.all_facts() and not t.pending:
        out.append("You have no evidence yet: PROPOSE a read command whose output answers the goal.")
    truths = t.truths()
    obligations = match_obligations(t.settings.accept, truths)
    unmet = [ob for ob in obligations if ob.truth is None]
    for ob in unmet:
        facts = [(n, c) for n, c in t.evidence.facts(ob.pattern.predicate) if unify(ob.pattern, c) is not None]
        if facts:
            n, c = facts[-1]
            out.append(f"Fact {n} {c.text()} meets obligation {ob.pattern.text()}: claim it (ASSERT, or inside "
                       "RESPOND's claims).")
        else:
            out.append(f"Nothing proves {ob.pattern.text()} yet: PROPOSE a command such as "
                       f"`{pattern_command(ob.pattern)}`.")
    if t.settings.accept and not unmet:
        out.append("Every obligation is met by a validated truth: RESPOND now. State the values of your truths; "
                   "state no number or name that they do not contain.")
    elif not t.settings.accept and truths:
        out.append("You have validated truths: RESPOND when they answer the goal, citing them as claims.")
    if last is not None and last.kind == "repetition":
        out.append("You repeated a move. Do something different.")
    if last is not None and last.move == "RESPOND" and last.status == "rejected":
        out.append("Your answer was rejected; fix exactly what the verdict names.")
    if t.idle_turns >= t.settings.stall_turns:
        left = 2 * t.settings.stall_turns - t.idle_turns
        out.append(f"No progress for {t.idle_turns} turns ({left} more and the game ends). Try another command "
                   "or claim a fact from the list.")
    return out
