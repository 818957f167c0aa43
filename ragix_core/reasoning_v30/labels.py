"""CLASSIFY's labels: who says whether a goal is BYPASS, SIMPLE, MODERATE or COMPLEX.

A mixin of ``AgentFunctions`` (agent_fns.py), which holds what these methods read and set:
``planner`` (the model that labels), ``labels`` ("model" or "rules_first"), ``last_complexity``
(the label PLAN plans under), ``labelled_by_rules`` (the try-first route labelled without the
model), ``looks_first`` and ``looks`` (ragix's looks, which may answer a goal before any plan).
The rules themselves are in classify_rules.py.
"""

from __future__ import annotations

from typing import Optional

from ragix_core import prompts
from ragix_core.core.text import bounded
from ragix_core.core.types import TaskComplexity
from ragix_core.llm.structured import ask_json

from .classify_rules import needs_tools, rule_based_complexity, several_asks
from .replies import ClassifyReply

__all__ = ["ComplexityLabels"]


class ComplexityLabels:
    def classify(self, goal: str, template: Optional[str] = None) -> TaskComplexity:
        """``template``: a classify prompt text to use instead of the shipped one (benchmarks).

        With ``labels="rules_first"`` a goal the rules tie to the project (``needs_tools``) is
        labelled without the model: COMPLEX when it asks several things, else MODERATE, which
        plans. Measured (RESULTS.md, three sets, `--repeat 3`): the model labelled 17 of 51
        one-command goals COMPLEX at 3e65034; at 888e61b the rules' labels passed 97/111 against
        the model's 99/111 with 25 % fewer tokens, and never route a project goal to the voted
        one-command path: an option, not the default.

        A goal ragix's own looks answer (``looks_first``, with ``first_plan: looks``) is labelled the
        same way without the model: its first plan needs no model, and its label only sets budgets.
        Measured at a9a2574: the model labelled all 24 such runs MODERATE or COMPLEX, at ~355 tokens
        and 1-3 s a run."""
        label = rule_based_complexity(goal)
        if label is None and needs_tools(goal) and (self.labels == "rules_first" or self._looks_answer(goal)):
            label = TaskComplexity.COMPLEX if several_asks(goal) else TaskComplexity.MODERATE
        if label is None:
            text = prompts.render_text(template, goal=bounded(goal, 4000)) if template is not None else \
                prompts.render("classify", goal=bounded(goal, 4000))
            msg = [{"role": "user", "content": text}]
            reply, _ = ask_json(self.planner, msg, ClassifyReply, stop_reason="classify_failed", max_tokens=16)
            label = TaskComplexity.parse(reply.complexity)
            if label == TaskComplexity.BYPASS and needs_tools(goal):
                label = TaskComplexity.SIMPLE
        self.last_complexity = label
        return label

    def classify_to_try(self, goal: str) -> TaskComplexity:
        """CLASSIFY on the try-first route. A goal the rules tie to the project (``needs_tools``) that
        asks one thing is tried with one command before any model labels it: SIMPLE until the try
        fails, when ``plan_complexity`` asks the model. Measured: the model's label cost a call per
        goal and sent one-command goals ("how many Python files") through PLAN and VERIFY."""
        if rule_based_complexity(goal) is None and needs_tools(goal) and not several_asks(goal) \
                and not self._looks_answer(goal):
            self.last_complexity = TaskComplexity.SIMPLE
            self.labelled_by_rules = True
            return TaskComplexity.SIMPLE
        return self.classify(goal)

    def plan_complexity(self, goal: str) -> TaskComplexity:
        """The label a goal plans under once its one-command try failed: the model's (asked now if
        the rules labelled it), never below MODERATE — one command did not do."""
        label = self.classify(goal) if self.labelled_by_rules else (self.last_complexity or TaskComplexity.MODERATE)
        if label in (TaskComplexity.BYPASS, TaskComplexity.SIMPLE):
            label = TaskComplexity.MODERATE
        self.last_complexity = label
        return label

    def _looks_answer(self, goal: str) -> bool:
        return bool(self.looks_first) and self.looks.would_answer(goal)
