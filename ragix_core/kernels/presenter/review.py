"""Worker + tutor review of a model-written audit summary (spec 002 §6.2, the docs/reviewer families).

The worker drafts; the tutor critiques the draft against the kernel data; the worker revises from the
critique, at most ``max_revisions`` times; a critique that finds nothing ends it.

The critique has two parts. The deterministic one is the presenter's claims check (``claims.check_prose``):
every sentence citing a number or a file no kernel produced is a finding. The tutor model's critique is
asked for the rest (a number paired with the wrong file, a wrong "riskiest", a computed number, an
unfounded recommendation); its reply is untrusted: a list of at most ``MAX_PROBLEMS`` non-empty strings
of at most ``MAX_PROBLEM_CHARS`` characters, else it adds nothing and the round records why. The model
only adds: a draft that failed the check is revised whatever the tutor says, and the kept text is always
the chosen draft's sentences that pass the check.

The chosen draft: the last one whose critique found nothing, else the one with the fewest failed-check
sentences, then the fewest tutor problems, ties to the later draft. ``Review`` says what every round found.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional

from ragix_core import prompts
from ragix_core.kernels.presenter.claims import CheckedProse, Facts, check_prose
from ragix_core.llm.base import Completion, LLMClient, LLMError

__all__ = ["Critique", "Review", "review_draft", "tutor_problems", "MAX_REVISIONS", "MAX_PROBLEMS"]

MAX_REVISIONS = 3  # the CLI's bound: each revision is one worker and one tutor call per summary
MAX_PROBLEMS = 5
MAX_PROBLEM_CHARS = 300
TUTOR_TOKENS = 300
_SCHEMA = {"type": "object", "required": ["problems"],
           "properties": {"problems": {"type": "array", "items": {"type": "string"}, "maxItems": MAX_PROBLEMS}}}
# (client, messages, max_tokens, schema) -> Completion; the caller counts calls and tokens, LLMError passes
Call = Callable[[LLMClient, List[Dict[str, str]], int, Optional[Dict[str, Any]]], Completion]


@dataclass
class Critique:
    check: CheckedProse  # the claims check of the draft (deterministic)
    problems: List[str] = field(default_factory=list)  # the tutor model's, validated
    tutor_note: Optional[str] = None  # why the tutor added nothing (no tutor, a failed call, an unusable reply)

    @property
    def found(self) -> bool:
        return bool(self.check.dropped or self.problems)

    def findings(self) -> List[str]:
        """What the worker is told: every failed check first, then the tutor's problems."""
        out = []
        for d in self.check.dropped:
            cited = ", ".join([f"the number {n}" for n in d.numbers] + [f"the file {p}" for p in d.paths])
            if cited:
                out.append(f'"{d.sentence}" cites {cited}, which the facts do not show.')
            for wrong in d.misattributed:  # "N (PATH, ...)"
                number, _, owners = wrong.partition(" (")
                out.append(f'"{d.sentence}" gives {number} to {owners.rstrip(")")}; the facts show it for another.')
        return out + self.problems

    def to_dict(self) -> Dict[str, Any]:
        return {"failed_check": [d.to_dict() for d in self.check.dropped], "tutor_problems": self.problems,
                "tutor_note": self.tutor_note}


@dataclass
class Round:
    draft: str
    critique: Critique

    def to_dict(self) -> Dict[str, Any]:
        return {"draft": self.draft, **self.critique.to_dict()}


@dataclass
class Review:
    rounds: List[Round]
    ended: str  # "clean" (a critique found nothing), "max_revisions", or "worker_error: ..."
    chosen: int  # the round whose draft is kept

    @property
    def draft(self) -> str:
        return self.rounds[self.chosen].draft

    def summary_line(self) -> str:
        """One line for the report: what each round's critique found, and which draft was kept."""
        parts = []
        for i, r in enumerate(self.rounds, 1):
            c = r.critique
            found = [f"{len(c.check.dropped)} sentence(s) citing what no kernel produced"] if c.check.dropped else []
            found += [f"{len(c.problems)} problem(s) named by the tutor"] if c.problems else []
            parts.append(f"draft {i}: " + ("; ".join(found) if found else "nothing found"))
        return f"Review ({self.ended}): " + ". ".join(parts) + f". Kept draft {self.chosen + 1}."

    def to_dict(self) -> Dict[str, Any]:
        return {"ended": self.ended, "chosen": self.chosen + 1, "rounds": [r.to_dict() for r in self.rounds]}


def tutor_problems(data: Any) -> tuple:
    """(problems, None) from a valid ``{"problems": [...]}``, else ([], what was wrong)."""
    if not isinstance(data, dict) or not isinstance(data.get("problems"), list):
        return [], 'the tutor\'s reply is not an object with a "problems" list'
    items = data["problems"]
    if len(items) > MAX_PROBLEMS:
        return [], f"the tutor named {len(items)} problems, more than {MAX_PROBLEMS}"
    out = []
    for item in items:
        if not isinstance(item, str) or not item.strip() or len(item) > MAX_PROBLEM_CHARS:
            return [], f"a problem the tutor named is not a string of 1 to {MAX_PROBLEM_CHARS} characters"
        text = " ".join(item.split())
        if text not in out:
            out.append(text)
    return out, None


def _critique(draft: str, facts: Facts, facts_text: str, tutor: Optional[LLMClient], call: Call) -> Critique:
    critique = Critique(check_prose(draft, facts))
    if tutor is None:
        critique.tutor_note = "no tutor model"
        return critique
    messages = [{"role": "system", "content": prompts.section("audit_review", "tutor_system")},
                {"role": "user", "content": prompts.section("audit_review", "tutor", facts=facts_text, draft=draft)}]
    try:
        reply = call(tutor, messages, TUTOR_TOKENS, _SCHEMA)
    except LLMError as exc:
        critique.tutor_note = f"the tutor's call failed ({type(exc).__name__}: {exc})"
        return critique
    critique.problems, critique.tutor_note = tutor_problems(reply.data)
    return critique


def review_draft(worker: LLMClient, tutor: Optional[LLMClient], messages: List[Dict[str, str]], first: str,
                 facts: Facts, facts_text: str, max_tokens: int, max_revisions: int, call: Call) -> Review:
    """Critique ``first`` (the worker's draft for ``messages``) and revise it at most ``max_revisions`` times."""
    if not 0 <= max_revisions <= MAX_REVISIONS:
        raise ValueError(f"revisions are 0 to {MAX_REVISIONS}, not {max_revisions!r}")
    rounds = [Round(first, _critique(first, facts, facts_text, tutor, call))]
    ended = "clean" if not rounds[0].critique.found else "max_revisions"
    while rounds[-1].critique.found and len(rounds) <= max_revisions:
        findings = "\n".join(f"- {f}" for f in rounds[-1].critique.findings())
        ask = messages + [{"role": "assistant", "content": rounds[-1].draft},
                          {"role": "user", "content": prompts.section("audit_review", "revise", findings=findings)}]
        try:
            draft = call(worker, ask, max_tokens, None).text or ""
        except LLMError as exc:
            ended = f"worker_error: {type(exc).__name__}: {exc}"
            break
        rounds.append(Round(draft, _critique(draft, facts, facts_text, tutor, call)))
        ended = "clean" if not rounds[-1].critique.found else "max_revisions"
    clean = [i for i, r in enumerate(rounds) if not r.critique.found]
    chosen = clean[-1] if clean else min(
        range(len(rounds)), key=lambda i: (len(rounds[i].critique.check.dropped), len(rounds[i].critique.problems), -i))
    return Review(rounds, ended, chosen)
