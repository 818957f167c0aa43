"""CLASSIFY's labels: who says whether a goal is BYPASS, SIMPLE, MODERATE or COMPLEX.

A mixin of ``AgentFunctions`` (agent_fns.py), which holds what these methods read and set:
``planner`` (the model that labels), ``labels`` ("model" or "rules_first"), ``last_complexity``
(the label PLAN plans under) and ``labelled_by_rules`` (the main path labelled without the model).
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
        plans. Measured (RESULTS.md, three sets, `--repeat 3`): at 888e61b the rules' labels passed
        97/111 against the model's 99/111 with 25 % fewer tokens: an option, not the default."""
        label = rule_based_complexity(goal)
        if label is None and needs_tools(goal) and self.labels == "rules_first":
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
        """CLASSIFY on the main path (try_first), without a model call: BYPASS vs tools is all it
        decides. A greeting, or a conceptual question that names nothing in the project
        (classify_rules.needs_tools), is BYPASS and never runs a tool; a goal that asks several
        things plans (MODERATE); every other goal is SIMPLE: one command first. Measured on an
        unseen set at 7a1739a: the model labelled a greeting and a conceptual question COMPLEX, and
        both were answered with a file's line count."""
        label = rule_based_complexity(goal)
        if label is None:
            label = TaskComplexity.MODERATE if several_asks(goal) else TaskComplexity.SIMPLE
            self.labelled_by_rules = True
        self.last_complexity = label
        return label

    def plan_complexity(self, goal: str) -> TaskComplexity:
        """The label a goal plans under once its one-command try failed. On the main path (labelled by
        rules, without a model call) SIMPLE, whose budget is no reflection: the attempt's retries were
        shown the failures already. Measured at afe3c2b (NL2Bash, paraphrase set): the 3 escalated runs
        planned, reflected and replanned for 240-410 s each and all failed, while the 3 answered by the
        vote or a retry passed. Under classify_first: never below MODERATE (one command did not do)."""
        if self.labelled_by_rules:
            self.last_complexity = TaskComplexity.SIMPLE
            return TaskComplexity.SIMPLE
        label = self.last_complexity or TaskComplexity.MODERATE
        if label in (TaskComplexity.BYPASS, TaskComplexity.SIMPLE):
            label = TaskComplexity.MODERATE
        self.last_complexity = label
        return label
