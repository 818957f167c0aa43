"""The `reasoning:` section of ragix.yaml (spec 000 §6), validated.

Spec 000 §6 is the canonical shape. Spec 002 §8.2's keys are accepted where
they do not conflict (see docs/DECISIONS.md):
- ``graph.max_reflections`` (one number) caps every per-complexity budget;
- ``graph.max_plan_retries``, ``graph.timeout_per_step``, ``graph.complexity_bypass_threshold``;
- ``reflect.enabled``, ``reflect.use_shell``, ``reflect.shell_timeout``, ``reflect.max_commands``;
- ``experience.enabled``, ``experience.max_similar`` (= top_k), ``experience.corpus_path`` (= project_root);
- ``traces.output_dir`` (= path), ``traces.include_prompts``.
"""

from __future__ import annotations

from typing import Dict, List, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ragix_core.core.types import TaskComplexity
from ragix_core.tools.policy import REFLECT_TOOLS

__all__ = [
    "ReasoningConfig",
    "MaxReflections",
    "GraphSection",
    "ReflectSection",
    "ExperienceSection",
    "TracesSection",
    "STRATEGIES",
]

STRATEGIES = ("loop_v1", "graph_v2", "graph_v30")


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class MaxReflections(_Section):
    bypass: int = Field(0, ge=0, le=20)
    simple: int = Field(0, ge=0, le=20)
    moderate: int = Field(1, ge=0, le=20)
    complex: int = Field(3, ge=0, le=20)

    def by_complexity(self, cap: Optional[int] = None) -> Dict[TaskComplexity, int]:
        out = {c: getattr(self, c.value) for c in TaskComplexity}
        if cap is not None:
            out = {c: min(n, cap) for c, n in out.items()}
        return out


class GraphSection(_Section):
    max_iterations: int = Field(50, ge=1, le=10_000)
    # spec 002 §8.2
    max_reflections: Optional[int] = Field(None, ge=0, le=20)
    max_plan_retries: int = Field(1, ge=0, le=5)
    timeout_per_step: float = Field(60.0, gt=0, le=3600)
    complexity_bypass_threshold: float = Field(0.9, ge=0, le=1)


class ReflectSection(_Section):
    allowed_tools: List[str] = Field(default_factory=lambda: list(REFLECT_TOOLS))
    max_context_chars: int = Field(2000, ge=100, le=200_000)
    # spec 002 §8.2
    enabled: bool = True
    use_shell: bool = True
    shell_timeout: float = Field(30.0, gt=0, le=600)
    max_commands: int = Field(5, ge=0, le=50)
    read_only: Literal[True] = True


class ExperienceSection(_Section):
    global_root: str = "~/.ragix"
    project_root: str = ".ragix"
    global_max_age_days: int = Field(90, ge=1)
    project_max_age_days: int = Field(30, ge=1)
    top_k: int = Field(5, ge=0, le=100)
    # spec 002 §8.2
    enabled: bool = True
    max_similar: Optional[int] = Field(None, ge=0, le=100)
    corpus_path: Optional[str] = None
    similarity_threshold: float = Field(0.0, ge=0, le=1)

    @model_validator(mode="after")
    def _aliases(self) -> "ExperienceSection":
        if self.max_similar is not None:
            self.__dict__["top_k"] = self.max_similar
        if self.corpus_path:
            self.__dict__["project_root"] = self.corpus_path
        return self


class TracesSection(_Section):
    enabled: bool = True
    path: str = ".ragix/reasoning_traces"
    max_per_session: int = Field(1000, ge=1)
    # spec 002 §8.2
    output_dir: Optional[str] = None
    format: Literal["ndjson", "jsonl"] = "ndjson"
    include_prompts: bool = False

    @model_validator(mode="after")
    def _aliases(self) -> "TracesSection":
        if self.output_dir:
            self.__dict__["path"] = self.output_dir
        return self


class ReasoningConfig(_Section):
    strategy: Literal["loop_v1", "graph_v2", "graph_v30"] = "graph_v30"
    max_reflections: MaxReflections = Field(default_factory=MaxReflections)
    graph: GraphSection = Field(default_factory=GraphSection)
    reflect: ReflectSection = Field(default_factory=ReflectSection)
    experience: ExperienceSection = Field(default_factory=ExperienceSection)
    traces: TracesSection = Field(default_factory=TracesSection)

    def max_reflections_by_complexity(self) -> Dict[TaskComplexity, int]:
        return self.max_reflections.by_complexity(cap=self.graph.max_reflections)
