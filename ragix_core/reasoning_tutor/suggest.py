"""The tutor's suggested moves: complete moves the player may copy, or an instruction, never a template.

A 1.5B player copies what it is shown, placeholders included (measured: it sent "ANSWER STATING THE
VALUES OF THESE CLAIMS" three times). So a suggestion is either a complete move — a command with every
argument known, or a RESPOND whose claims are facts the player's own actions produced and whose answer
is those facts written as sentences (``draft``) — or, when the move needs content only the player can
supply (the arithmetic to compute, the file to list), a sentence saying what to do. When several facts
could meet an obligation (the lines of a file), each becomes its own RESPOND: choosing the one that
answers the goal is the player's job. Nothing here fills in a value that no observation showed. The
wording (instructions, intents, the sentence for each predicate) is the prompt file ``tutor_hints.md``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ragix_core import prompts
from ragix_core.reasoning_tutor.checker import suggest_command
from ragix_core.reasoning_tutor.claims import PREDICATES, Claim, IllTyped, MAX_TEXT, make_claim
from ragix_core.reasoning_tutor.hints import PROMPT, candidates, incomplete, pattern_command
from ragix_core.reasoning_tutor.respond import admissible, match_obligations
from ragix_core.evidence.steps import printed_nothing
from ragix_core.sampling import short_output_key

__all__ = ["Suggestion", "suggest", "draft", "printed_claim", "unconfirmed_output", "unproven_output",
           "found_nothing_here", "misread_here", "MAX_OPTIONS", "PRINTED_LINES"]

MAX_OPTIONS = 6
PRINTED_LINES = 3  # a longer output (a listing) is material for the answer, not the answer itself
_STATES_ITSELF = ("echo", "printf", "calc")  # print what they were given: agreeing with them proves nothing
_BACKGROUND = ("exists", "listed", "complete", "line")


def _say(key: str, /, **values: Any) -> str:
    return prompts.section(PROMPT, key, **values)


@dataclass
class Suggestion:
    moves: List[Dict[str, Any]] = field(default_factory=list)
    note: str = ""

    def render(self) -> str:
        lines = [json.dumps(m, ensure_ascii=False) for m in self.moves]
        if len(self.moves) > 1:
            lines.insert(0, _say("suggest_several"))
        if self.note:
            lines.append(self.note)
        return "\n".join(lines) or "(none)"

    def answers(self) -> List[str]:
        return [m["answer"] for m in self.moves if m.get("move") == "RESPOND"]


def draft(claims: Sequence[Claim]) -> str:
    """The claims written as sentences: an answer that states exactly what they state. A predicate's sentence
    (part ``sentence_PREDICATE``) names its arguments as the predicate's signature does (path, text, int...)."""
    return " ".join(_say(f"sentence_{c.predicate}", **{kind: _shown(kind, value) for kind, value
                                                        in zip(PREDICATES[c.predicate].args, c.args)})
                    for c in claims)


def _shown(kind: str, value: str) -> str:
    """A path of "." reads as what it is: "42 files match *.py under .." was the drafted sentence."""
    return _say("project_directory") if kind == "path" and value == "." else value


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
            return Suggestion(note=_say("suggest_pending_incomplete", claim_id=node.id, command=command))
        return Suggestion([_propose(command, _say("intent_test", claim_id=node.id))])
    # Only what a RESPOND may rest on: measured, the tutor drafted "8*42.50 = 340" (8 is in no output)
    # and then rejected it, and the player copied the draft until the turns ran out.
    observed = t.evidence.output_texts()
    truths = admissible(t.truths(), t.goal, observed)
    patterns = list(t.settings.accept)
    if not patterns:
        chosen = [c for _, c in truths][-MAX_OPTIONS:] or _answer_options(t)
        if not chosen:
            return Suggestion(note=_say("suggest_no_facts"))
        return Suggestion([_respond([c]) for c in chosen])
    per_obligation: List[List[Claim]] = []
    for ob in match_obligations(patterns, truths):
        if ob.truth is not None:
            per_obligation.append([next(c for n, c in truths if n == ob.truth)])
            continue
        options = _options(ob.pattern, t.evidence)
        if ob.pattern.predicate == "value":
            kept = admissible(truths + [("", c) for c in options], t.goal, observed)
            options = [c for n, c in kept if n == ""]
        if options:
            per_obligation.append(options)
            continue
        command = pattern_command(ob.pattern)
        if incomplete(command, [a for a in ob.pattern.args if isinstance(a, str)]):
            key = "suggest_value_unproven" if ob.pattern.predicate == "value" else "suggest_unproven_incomplete"
            return Suggestion(note=_say(key, obligation=ob.pattern.text(), command=command))
        return Suggestion([_propose(command, _say("intent_evidence", obligation=ob.pattern.text()))])
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


def _answer_options(t: Any) -> List[Claim]:
    """In a game without obligations and no truth yet: the claims the latest command's output offers as the
    answer. None after a command that failed (what its error derives, `missing(READ.md)` for a mistyped name,
    is the command's mistake), found nothing (an empty output, a pipe that counted 0) or printed a short answer
    no other command bears out yet (measured: a cross-check's own fact, suggested at once, won "2 lines of the
    project contain sqlparse/filters/" for how many .py files it holds). Otherwise the facts the rules derived
    from it (from either command of an agreeing pair), else the pair's output itself (printed_claim). Facts of
    earlier commands are not offered: they are in the state prompt, and offering them would skip the check."""
    latest = _latest_observation(t)
    if latest is None or latest.data.get("status") != "ok" or found_nothing_here(latest) or misread_here(latest):
        return []
    pair = _agreeing(t)
    if pair is None and _short_output(latest) is not None:
        return []  # a short answer waiting for its cross-check
    basis = [o.id for o in (pair or (latest,))]
    facts = [c for n, c in t.evidence.all_facts()
             if c.predicate not in _BACKGROUND and any(_derived_from(t, n, o) for o in basis)]
    printed = printed_claim(t, pair)
    return facts[-4:] or ([printed] if printed else [])


def found_nothing_here(node: Any) -> bool:
    """An observation that shows no evidence (evidence/steps.printed_nothing): two such agree whatever they
    searched for."""
    return printed_nothing(node.data.get("stdout"), str(node.data.get("command") or ""))


def misread_here(node: Any) -> bool:
    """An observation of a command whose shape cannot compute what it was likely written for (a count of one
    file's path), or that searched for the text of a project path (measured: `grep -rl FILE . | wc -l` printed
    1 for "how many lines does FILE have?" and won on the paraphrase set): never an answer, never agreement."""
    return bool(node.data.get("misread"))


def _latest_observation(tutor: Any) -> Any:
    nodes = tutor.graph.of_kind("observation")
    return nodes[-1] if nodes else None


def _derived_from(tutor: Any, fact_id: str, observation_id: str) -> bool:
    return any(e.src == observation_id and e.dst == fact_id for e in tutor.graph.edges)


def _short_output(node: Any) -> Optional[str]:
    """The whole output of an observation that worked and printed a short answer (at most PRINTED_LINES
    lines, MAX_TEXT characters once whitespace is collapsed), of a command that read something (not an
    `echo` of words it was given, not `calc`) and found something; else None. Measured: `grep -l '^test_'
    tests/*.py | wc -l` and another wrong pipe both printed 0 and won "0 test modules" over the first
    command's right 10."""
    d = node.data
    program = (str(d.get("command") or "").split() or [""])[0].rsplit("/", 1)[-1]
    if (d.get("status") != "ok" or d.get("truncated") or program in _STATES_ITSELF or found_nothing_here(node)
            or misread_here(node)):
        return None
    lines = [line for line in (d.get("stdout") or "").splitlines() if line.strip()]
    text = " ".join(" ".join(lines).split())
    return text if len(lines) <= PRINTED_LINES and len(text) <= MAX_TEXT else None


def _agreeing(tutor: Any) -> Optional[Tuple[Any, Any]]:
    """The latest observation and an earlier one of another command whose short outputs agree (the main
    path's key, sampling.short_output_key), or None."""
    nodes = tutor.graph.of_kind("observation")
    if not nodes or _short_output(nodes[-1]) is None:
        return None
    latest = nodes[-1]
    key = short_output_key(latest.data.get("stdout") or "")
    for earlier in reversed(nodes[:-1]):
        if (_short_output(earlier) is not None and earlier.data.get("command") != latest.data.get("command")
                and short_output_key(earlier.data.get("stdout") or "") == key):
            return latest, earlier
    return None


def unconfirmed_output(tutor: Any) -> bool:
    """The latest command printed a short answer that no earlier command's output agrees with yet."""
    latest = _latest_observation(tutor)
    return latest is not None and _short_output(latest) is not None and _agreeing(tutor) is None


def unproven_output(tutor: Any) -> Optional[Tuple[str, str, bool]]:
    """(command, short output, agreed) for a game that ended without a win: the short output two different
    commands printed, the earliest such pair, else the first command's short output (agreed False); None
    when no command printed a short answer. The cross-checks that fail to agree were asked for a command
    written another way, and were measured counting something else (`grep -rl def . | wc -l` beside
    `find . -name '*.py' | wc -l`): the first command's output is the direct attempt at the goal."""
    shorts = [(n, _short_output(n)) for n in tutor.graph.of_kind("observation")]
    shorts = [(n, text) for n, text in shorts if text is not None]
    for i, (node, text) in enumerate(shorts):
        key = short_output_key(node.data.get("stdout") or "")
        for other, _ in shorts[i + 1:]:
            if (other.data.get("command") != node.data.get("command")
                    and short_output_key(other.data.get("stdout") or "") == key):
                return str(node.data.get("command") or ""), text, True
    if not shorts:
        return None
    node, text = shorts[0]
    return str(node.data.get("command") or ""), text, False


def printed_claim(tutor: Any, pair: Optional[Tuple[Any, Any]] = None) -> Optional[Claim]:
    """``output(A, TEXT)`` for the latest command when its short output (TEXT, whole) agrees with another
    command's (``pair``, from _agreeing when not given), else None.

    Measured (issue 34): on goals with no obligations, a command whose output the rules turn into no fact
    (a pipe ending in `wc -l` over `grep`, `sort | tail -1`) left the tutor nothing to suggest and the
    player nothing it could win with. Taking any short output as the answer was measured next: on the
    paraphrase set's first 15 questions it made 5 wrong wins ("1" for a file's lines, from `grep -rl FILE .
    | wc -l`). So a short output is suggested only once a command written another way printed the same
    (the main path's cross-check): what was printed is evidence the tutor checks exactly, and two
    different commands agreeing is what makes it an answer rather than one pipe's slip."""
    pair = pair or _agreeing(tutor)
    if pair is None:
        return None
    latest = pair[0]
    if tutor.evidence.output(latest.data.get("action", "")) is None:
        return None
    try:
        return make_claim("output", [latest.data["action"], _short_output(latest)])
    except IllTyped:  # a text the claim language cannot hold (a control character): no suggestion
        return None


def _dedupe(claims: Sequence[Claim]) -> List[Claim]:
    out: List[Claim] = []
    for c in claims:
        if c not in out:
            out.append(c)
    return out[:4]  # a RESPOND carries at most 4 claims (moves.MAX_RESPOND_CLAIMS)
