"""The tutor's suggested moves: complete moves the player may copy, or an instruction, never a template.

A 1.5B player copies what it is shown, placeholders included (measured: it sent "ANSWER STATING THE
VALUES OF THESE CLAIMS" three times). So a suggestion is either a complete move — a command with every
argument known, or a RESPOND whose claims are facts the player's own actions produced and whose answer
is those facts written as sentences (``draft``) — or, when the move needs content only the player can
supply (the arithmetic to compute, the file to list), a sentence saying what to do. When several facts
could meet an obligation (the lines of a file), each becomes its own RESPOND: choosing the one that
answers the goal is the player's job. Nothing here fills in a value that no observation showed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Dict, List, Sequence

from ragix_core.reasoning_tutor.checker import suggest_command
from ragix_core.reasoning_tutor.claims import Claim, MAX_TEXT, make_claim
from ragix_core.reasoning_tutor.hints import candidates, incomplete, pattern_command
from ragix_core.reasoning_tutor.respond import match_obligations

__all__ = ["Suggestion", "suggest", "draft", "MAX_OPTIONS"]

MAX_OPTIONS = 6
_BACKGROUND = ("exists", "listed", "complete", "line")
_SENTENCE = {
    "contains": '{0} says: "{1}"', "line": '{0} has the line: "{1}"', "line_count": "{0} has {1} lines.",
    "match_count": '{2} lines of {0} contain "{1}".', "file_count": "{2} files match {1} under {0}.",
    "setting": "{0} sets {1} to {2}.", "defines": "{0} defines {1}.", "imports": "{0} imports {1}.",
    "exists": "{0} exists.", "missing": "{0} does not exist.", "no_match": 'No line under {0} contains "{1}".',
    "value": "{0} = {1}.", "output": 'The output of {0} contains "{1}".', "listed": "{0} was listed.",
    "complete": "{0} was read in full.",
}


@dataclass
class Suggestion:
    moves: List[Dict[str, Any]] = field(default_factory=list)
    note: str = ""

    def render(self) -> str:
        lines = [json.dumps(m, ensure_ascii=False) for m in self.moves]
        if len(self.moves) > 1:
            lines.insert(0, "(several facts fit: copy the one move that answers the goal)")
        if self.note:
            lines.append(self.note)
        return "\n".join(lines) or "(none)"

    def answers(self) -> List[str]:
        return [m["answer"] for m in self.moves if m.get("move") == "RESPOND"]


def draft(claims: Sequence[Claim]) -> str:
    """The claims written as sentences: an answer that states exactly what they state."""
    return " ".join(_SENTENCE[c.predicate].format(*c.args) for c in claims)


def _propose(command: str, intent: str) -> Dict[str, Any]:
    return {"move": "PROPOSE", "intent": intent, "command": command, "mode": "read"}


def _respond(claims: Sequence[Claim]) -> Dict[str, Any]:
    return {"move": "RESPOND", "answer": draft(claims), "claims": [c.to_dict() for c in claims]}


def _options(pattern: Any, evidence: Any) -> List[Claim]:
    """Distinct claims that meet ``pattern``, newest last; a line of the obligation's file becomes a
    ``contains`` claim of the whole line."""
    out: List[Claim] = []
    for _, fact in candidates(pattern, evidence):
        claim = fact
        if pattern.predicate == "contains" and fact.predicate == "line":
            claim = make_claim("contains", [fact.args[0], fact.args[1][:MAX_TEXT]])
        if claim not in out:
            out.append(claim)
    return out[-MAX_OPTIONS:]


def suggest(tutor: Any) -> Suggestion:
    t = tutor
    if t.pending:
        node = t.graph.nodes[t.pending]
        claim = Claim(node.data["predicate"], tuple(node.data["args"]))
        command = suggest_command(claim)
        if incomplete(command, claim.args):
            return Suggestion(note=f"PROPOSE a command whose output settles {node.id} (for example {command}, with "
                                   "the uppercase part replaced), or REFORMULATE it.")
        return Suggestion([_propose(command, f"test {node.id}")])
    truths = t.truths()
    patterns = list(t.settings.accept)
    if not patterns:
        facts = [c for _, c in t.evidence.all_facts() if c.predicate not in _BACKGROUND]
        chosen = [c for _, c in truths][-MAX_OPTIONS:] or facts[-4:]
        if not chosen:
            return Suggestion(note="PROPOSE a read command whose output answers the goal.")
        return Suggestion([_respond([c]) for c in chosen])
    per_obligation: List[List[Claim]] = []
    for ob in match_obligations(patterns, truths):
        if ob.truth is not None:
            per_obligation.append([next(c for n, c in truths if n == ob.truth)])
            continue
        options = _options(ob.pattern, t.evidence)
        if options:
            per_obligation.append(options)
            continue
        command = pattern_command(ob.pattern)
        if incomplete(command, [a for a in ob.pattern.args if isinstance(a, str)]):
            if ob.pattern.predicate == "value":
                note = ("Nothing proves " + ob.pattern.text() + " yet: write the arithmetic yourself from the numbers "
                        "in your facts and PROPOSE it as the command: calc followed by the expression.")
            else:
                note = (f"Nothing proves {ob.pattern.text()} yet: PROPOSE a command whose output shows it (for "
                        f"example {command}, with the uppercase part replaced by what the goal and facts name).")
            return Suggestion(note=note)
        return Suggestion([_propose(command, f"evidence for {ob.pattern.text()}")])
    varying = next((i for i, opts in enumerate(per_obligation) if len(opts) > 1), None)
    base = [opts[-1] for opts in per_obligation]
    if varying is None:
        return Suggestion([_respond(_dedupe(base))])
    moves = []
    for option in per_obligation[varying]:
        claims = list(base)
        claims[varying] = option
        moves.append(_respond(_dedupe(claims)))
    return Suggestion(moves)


def _dedupe(claims: Sequence[Claim]) -> List[Claim]:
    out: List[Claim] = []
    for c in claims:
        if c not in out:
            out.append(c)
    return out[:4]  # a RESPOND carries at most 4 claims (moves.MAX_RESPOND_CLAIMS)
