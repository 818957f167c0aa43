"""Recovery hints: what the tutor tells the player about loops, stalls and unmet obligations.

Deterministic, computed from the tutor's state only. They name what is missing
and the kind of command whose output the rules can use; they never contain a
value the player has not observed (a hint that leaked an answer would make the
game prove nothing).
"""

from __future__ import annotations

import re
from typing import Any, List, Tuple

from ragix_core.reasoning_tutor.checker import suggest_command, unify
from ragix_core.reasoning_tutor.claims import PREDICATES, Claim, Pattern, Var
from ragix_core.reasoning_tutor.respond import match_obligations

__all__ = ["hints", "pattern_command", "candidates", "incomplete"]

# With its file known and its text unknown, these are settled by reading the file.
_READ_FILE = ("contains", "line", "complete")


def pattern_command(pattern: Pattern) -> str:
    """A command template for an obligation: its fixed arguments filled in, unknowns as NAME."""
    path = pattern.args[0]
    if pattern.predicate in _READ_FILE and not isinstance(path, Var):
        return f"cat {path}"
    if pattern.predicate == "contains" and not isinstance(pattern.args[1], Var):
        return f'grep -rn "{pattern.args[1]}" .'  # the file is the unknown: search the project
    args = [a if not isinstance(a, Var) else (a.name or kind).upper()
            for a, kind in zip(pattern.args, PREDICATES[pattern.predicate].args)]
    return suggest_command(Claim(pattern.predicate, tuple(args)))


def incomplete(command: str, known: Any = ()) -> bool:
    """Does a suggested command still hold an UPPERCASE placeholder (a word of 3+ capitals that no known
    argument contains)? Such a command is described to the player, never offered as a move to copy."""
    return any(not any(word in str(k) for k in known) for word in re.findall(r"\b[A-Z]{3,}\b", command))


def candidates(pattern: Pattern, evidence: Any) -> List[Tuple[str, Claim]]:
    """Current facts that prove an instance of ``pattern``: facts matching it, and for a ``contains``
    pattern the lines of its file (any part of such a line can be claimed)."""
    out = [(n, c) for n, c in evidence.facts(pattern.predicate) if unify(pattern, c) is not None]
    if pattern.predicate == "contains":
        path, text = pattern.args
        for n, c in evidence.facts("line"):
            if (isinstance(path, Var) or c.args[0] == path) and (isinstance(text, Var) or text in c.args[1]):
                out.append((n, c))
    return out


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
        facts = candidates(ob.pattern, t.evidence)
        if facts and ob.pattern.predicate == "contains" and facts[-1][1].predicate == "line":
            out.append(f"Obligation {ob.pattern.text()}: the line facts of {facts[-1][1].args[0]} can prove it. "
                       "Claim contains(file, TEXT) with TEXT copied from the line that answers the goal.")
        elif facts:
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
