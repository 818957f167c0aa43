"""What the player (the model) is shown each turn, built from the tutor's state.

Two messages: the game's rules and the goal (``tutor_player.md``: the same for
the whole run, so llama.cpp reuses its cached prefix every turn) and the state
(``tutor_state.md``: obligations, truths, the facts most worth citing, the
latest outputs, the last verdict, hints). Everything shown is bounded: a long
game costs about the same per turn as a short one.
"""

from __future__ import annotations

from typing import Any, Dict, List, Sequence

from ragix_core import prompts
from ragix_core.core.text import bounded, one_line
from ragix_core.reasoning_tutor.claims import PREDICATES, Pattern
from ragix_core.reasoning_tutor.hints import candidates, hints
from ragix_core.reasoning_tutor.suggest import Suggestion, suggest
from ragix_core.reasoning_tutor.respond import match_obligations
from ragix_core.tools.policy import READ_TOOLS

__all__ = ["system_prompt", "state_prompt", "messages", "MAX_FACTS", "MAX_OBSERVATIONS"]

MAX_FACTS = 24
MAX_OBSERVATIONS = 2
OBSERVATION_CHARS = 900
# Facts a player rarely needs to cite; shown last when the list is long.
_BACKGROUND = ("exists", "listed", "complete", "line")
# Predicates a player may claim (the derived-only bookkeeping ones are left out of the prompt's table).
_SHOWN = ("contains", "line_count", "match_count", "file_count", "setting", "defines", "imports", "exists",
          "missing", "no_match", "value", "output")
_SHORT = {  # one short line each: the prompt is re-read by a small model every turn
    "contains": "a line of file contains text", "line_count": "file has n lines (wc -l)",
    "match_count": "n lines of file or dir contain text (grep -c)", "file_count": "n files under dir match glob",
    "setting": "file sets key = value", "defines": "file defines function/class name", "imports": "file imports module",
    "exists": "path exists", "missing": "path does not exist", "no_match": "no line under path contains text",
    "value": "expr evaluates to number (calc)", "output": "the output of an action (its id) contains text"}


def _predicate_table() -> str:
    lines = []
    for name in _SHOWN:
        sig = PREDICATES[name]
        lines.append(f"- {name}({', '.join(sig.args)}): {_SHORT[name]}")
    return "\n".join(lines)


def system_prompt(goal: str, accept: Sequence[Pattern], tools: Sequence[str] = READ_TOOLS) -> str:
    obligations = ("; ".join(p.text() for p in accept) + " (a ?name is a value your answer must state)") if accept \
        else "at least one validated claim that answers the goal"
    return prompts.render("tutor_player", tools=", ".join(tools), predicates=_predicate_table(),
                          goal=bounded(goal, 2000), obligations=obligations)


def _facts(tutor: Any) -> List[str]:
    facts = tutor.evidence.all_facts()
    accept = tutor.settings.accept
    wanted = [fc for p in accept for fc in candidates(p, tutor.evidence)]
    wanted = [fc for fc in facts if fc in wanted]
    useful = [(n, c) for n, c in facts if c.predicate not in _BACKGROUND and (n, c) not in wanted]
    background = [(n, c) for n, c in facts if c.predicate in _BACKGROUND and (n, c) not in wanted]
    chosen = wanted[-MAX_FACTS:]
    chosen += useful[-(MAX_FACTS - len(chosen)):] if len(chosen) < MAX_FACTS else []
    chosen += background[-(MAX_FACTS - len(chosen)):] if len(chosen) < MAX_FACTS else []
    order = {n: i for i, (n, _) in enumerate(facts)}
    chosen.sort(key=lambda nc: order[nc[0]])
    lines = [f"{n} {one_line(c.text(), 200)}" for n, c in chosen]
    if len(facts) > len(chosen):
        lines.append(f"({len(facts) - len(chosen)} more facts not shown)")
    return lines


def _observations(tutor: Any) -> List[str]:
    nodes = [n for n in tutor.graph.of_kind("observation")][-MAX_OBSERVATIONS:]
    out = []
    for n in nodes:
        d = n.data
        text = d.get("stdout") or d.get("stderr") or "(no output)"
        out.append(f"{n.id} $ {d.get('command')}  (rc={d.get('returncode')})\n" + bounded(text.rstrip(), OBSERVATION_CHARS))
    return out


def _obligations(tutor: Any) -> List[str]:
    if not tutor.settings.accept:
        truths = tutor.truths()
        return [f"- at least one validated claim: {'met by ' + truths[0][0] if truths else 'not met yet'}"]
    out = []
    for ob in match_obligations(tutor.settings.accept, tutor.truths()):
        out.append(f"- {ob.pattern.text()}: " + (f"met by {ob.truth} ({', '.join(f'?{k}={v}' for k, v in ob.bindings.items())})"
                                                if ob.truth else "not met yet"))
    return out


def _repeated(tutor: Any) -> str:
    """Every move the tutor rejected as a repetition, once each. Measured (issue 34, an unseen task): the
    player proposed the same `ls` six turns running, each rejected as a repetition, and the game stalled;
    the last verdict alone named only the latest one."""
    moves = dict.fromkeys(one_line(v.text, 160) for v in tutor.verdicts
                          if v.status == "rejected" and v.kind == "repetition")
    return "; ".join(f"`{m}`" for m in moves) or "(none)"


def state_prompt(tutor: Any, max_turns: int, suggestion: "Suggestion | None" = None) -> str:
    last = tutor.verdicts[-1] if tutor.verdicts else None
    last_text = (f"turn {last.turn} {one_line(last.text, 160)} → {last.status.upper()} ({last.kind}): "
                 f"{one_line(last.reason, 500)}") if last else "(none yet)"
    truths = [f"{n} {one_line(c.text(), 200)}" for n, c in tutor.truths()]
    return prompts.render(
        "tutor_state", turn=tutor.turn + 1, max_turns=max_turns, score=tutor.score,
        obligations_status="\n".join(_obligations(tutor)),
        truths="\n".join(truths) or "(none)",
        facts="\n".join(_facts(tutor)) or "(none: propose a command)",
        observations="\n".join(_observations(tutor)) or "(none)",
        last_verdict=last_text,
        repeated=_repeated(tutor),
        hints="\n".join(f"- {h}" for h in hints(tutor)) or "- (none)",
        suggestion=(suggestion or suggest(tutor)).render(),
    )


def messages(tutor: Any, max_turns: int, tools: Sequence[str] = READ_TOOLS,
             suggestion: "Suggestion | None" = None) -> List[Dict[str, str]]:
    return [{"role": "system", "content": system_prompt(tutor.goal, tutor.settings.accept, tools)},
            {"role": "user", "content": state_prompt(tutor, max_turns, suggestion)}]
