"""A scripted model for planner runs with MCP tools: it answers by which prompt it is given.

The planner's prompt (it names the "planning agent") gets ``plan``, as JSON (given a list of plans,
the next one each time, the last one repeated: a replan after REFLECT can take another route); a request for a
command in a code block gets ``command`` fenced, when one is given; every other call gets ``answer`` (the writer, a verifier, a free-text request). Records every prompt, so a test can
read what the planner was shown."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional

from ragix_core.llm.base import Completion, Usage


class RoutedModel:
    backend = "scripted"
    model = "scripted"

    def __init__(self, plan: "Dict[str, Any] | List[Dict[str, Any]]", answer: str, command: Optional[str] = None) -> None:
        self.plans = list(plan) if isinstance(plan, list) else [plan]
        self.answer, self.command = answer, command
        self.prompts: List[str] = []

    def complete(self, messages, *, schema: Optional[Dict[str, Any]] = None, max_tokens=512, temperature=0.0,
                 timeout=None, seed=None) -> Completion:
        prompt = "\n".join(str(m["content"]) for m in messages)
        self.prompts.append(prompt)
        if "planning agent" in prompt:
            text = json.dumps(self.plans[min(len(self.planner_prompts()) - 1, len(self.plans) - 1)])
        elif self.command is not None and "code block" in prompt and schema is None:
            text = f"This runs it:\n```sh\n{self.command}\n```"
        elif schema is not None:
            text = json.dumps({"answer": self.answer, "confidence": 0.9, "verdict": "pass", "complexity": "moderate",
                               "diagnosis": "The step failed; see its error.",
                               "new_plan_summary": "Read what is needed another way."})
        else:
            text = self.answer
        data = json.loads(text) if schema is not None else None
        return Completion(text=text, data=data, usage=Usage(10, 5), model="scripted", backend="scripted")

    def planner_prompts(self) -> List[str]:
        return [p for p in self.prompts if "planning agent" in p]


def plan_of(*steps: Dict[str, Any]) -> Dict[str, Any]:
    return {"objective": "answer from the tools", "validation": "the outputs answer it", "confidence": 0.8,
            "steps": [{"num": i, **s} for i, s in enumerate(steps, 1)]}
