"""Recovery hints: what the tutor tells the player about loops, stalls and unmet obligations.

Deterministic, computed from the tutor's state only. They name what is missing
and the kind of command whose output the rules can use; they never contain a
value the player has not observed (a hint that leaked an answer would make the
game prove nothing). Their wording is the prompt file ``tutor_hints.md`` (one
part per hint); this module decides which hints apply and fills in their values.
"""

from __future__ import annotations

import re
from typing import Any, List, Tuple

from ragix_core import prompts
from ragix_core.reasoning_tutor.checker import suggest_command, unify
from ragix_core.reasoning_tutor.claims import PREDICATES, Claim, Pattern, Var
from ragix_core.reasoning_tutor.respond import match_obligations

__all__ = ["hints", "pattern_command", "candidates", "incomplete", "PROMPT"]

PROMPT = "tutor_hints"  # the wording of the hints and of the tutor's suggestions (suggest.py)

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


def _say(key: str, /, **values: Any) -> str:
    return prompts.section(PROMPT, key, **values)


def hints(tutor: "object") -> List[str]:
    """Hints for the player's next move (the tutor's state after the last verdict)."""
    t = tutor
    out: List[str] = []
    last = t.verdicts[-1] if t.verdicts else None
    if t.pending:
        node = t.graph.nodes[t.pending]
        claim = Claim(node.data["predicate"], tuple(node.data["args"]))
        out.append(_say("pending", claim_id=node.id, command=suggest_command(claim)))
    if not t.evidence.all_facts() and not t.pending:
        out.append(_say("no_evidence"))
    truths = t.truths()
    obligations = match_obligations(t.settings.accept, truths)
    unmet = [ob for ob in obligations if ob.truth is None]
    for ob in unmet:
        facts = candidates(ob.pattern, t.evidence)
        if facts and ob.pattern.predicate == "contains" and facts[-1][1].predicate == "line":
            out.append(_say("obligation_lines", obligation=ob.pattern.text(), path=facts[-1][1].args[0]))
        elif facts:
            n, c = facts[-1]
            out.append(_say("obligation_fact", fact_id=n, fact=c.text(), obligation=ob.pattern.text()))
        else:
            out.append(_say("obligation_unproven", obligation=ob.pattern.text(), command=pattern_command(ob.pattern)))
    if t.settings.accept and not unmet:
        out.append(_say("all_met"))
    elif not t.settings.accept and truths:
        out.append(_say("truths_without_obligations"))
    if last is not None and last.kind == "repetition":
        out.append(_say("repetition"))
    if last is not None and last.move == "RESPOND" and last.status == "rejected":
        out.append(_say("answer_rejected"))
    if t.idle_turns >= t.settings.stall_turns:
        left = 2 * t.settings.stall_turns - t.idle_turns
        out.append(_say("stall", idle_turns=t.idle_turns, turns_left=left))
    return out
