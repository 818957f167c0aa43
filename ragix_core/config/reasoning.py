"""The `reasoning:` section of ragix.yaml (spec 000 §6), validated.

(Spec path: ``ragix_core.reasoning_v30.config`` re-exports it. It lives with the
config loader because every engine reads it, and the loader must not import an
engine package.)

Spec 000 §6 is the canonical shape. Spec 002 §8.2's keys are accepted where
they do not conflict, and every accepted key does something (docs/DECISIONS.md):
- ``graph.max_reflections`` (one number) caps every per-complexity budget;
- ``graph.max_plan_retries`` (loop_v1's retries), ``graph.timeout_per_step`` (wall clock of one tool call);
- ``reflect.enabled`` (false: no REFLECT, a failed step ends the run), ``reflect.use_shell``,
  ``reflect.shell_timeout`` (REFLECT's commands), ``reflect.max_commands``;
- ``experience.enabled``, ``experience.max_similar`` (= top_k), ``experience.corpus_path`` (= project_root),
  ``experience.similarity_threshold`` (least share of the query's words a shown experience must contain);
- ``traces.output_dir`` (= path), ``traces.format`` (file suffix: jsonl or ndjson, the same format),
  ``traces.include_prompts`` (LLM_CALL events carry the messages and the reply).
``graph.complexity_bypass_threshold`` is refused with the reason: CLASSIFY yields a label, not a score.
"""

from __future__ import annotations

from typing import Dict, List, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ragix_core.core.types import TaskComplexity
from ragix_core.core.registry import DEFAULT_ENGINE, engine_names
from ragix_core.tools.policy import READ_TOOLS, REFLECT_TOOLS

__all__ = [
    "ReasoningConfig",
    "MaxReflections",
    "GraphSection",
    "ReflectSection",
    "ExperienceSection",
    "TracesSection",
    "VotingSection",
]

# Keys of spec 002 §8.2 that ragix cannot honour, with the reason (refused, never silently ignored).
_UNSUPPORTED = {
    "complexity_bypass_threshold": "CLASSIFY yields a label (rules first, then the model), not a score to "
                                   "compare with a threshold; remove the key. BYPASS is a greeting or a question "
                                   "that names nothing of the project; to have the model label every other goal "
                                   "write `reasoning: {routing: classify_first, labels: model}`",
}


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

    @model_validator(mode="before")
    @classmethod
    def _refuse_unsupported(cls, data: object) -> object:
        if isinstance(data, dict):
            for key, why in _UNSUPPORTED.items():
                if key in data:
                    raise ValueError(f"{key} is not supported: {why}")
        return data


class ReflectSection(_Section):
    allowed_tools: List[str] = Field(default_factory=lambda: list(REFLECT_TOOLS))
    max_context_chars: int = Field(2000, ge=100, le=200_000)
    # spec 002 §8.2
    enabled: bool = True
    use_shell: bool = True
    shell_timeout: float = Field(30.0, gt=0, le=600)
    max_commands: int = Field(5, ge=0, le=50)
    read_only: Literal[True] = True

    @field_validator("allowed_tools")
    @classmethod
    def _read_only_tools(cls, tools: List[str]) -> List[str]:
        writers = [t for t in tools if t not in READ_TOOLS]
        if writers:
            raise ValueError(f"REFLECT only reads; not read-only tools: {', '.join(writers)} "
                             f"(read-only tools: {', '.join(READ_TOOLS)})")
        return tools


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
    format: Literal["jsonl", "ndjson"] = "jsonl"  # the file suffix; both name newline-delimited JSON
    include_prompts: bool = False

    @model_validator(mode="after")
    def _aliases(self) -> "TracesSection":
        if self.output_dir:
            self.__dict__["path"] = self.output_dir
        return self


class VotingSection(_Section):
    """The main path's draws (reasoning_v30/attempt.py, docs/SAMPLING.md): one greedy command, then
    ``samples`` drawn at ``temperature`` and voted on when it failed, found nothing or printed a short
    output to confirm, then at most ``retries`` commands written after reading the failure."""

    samples: int = Field(3, ge=0, le=10)  # drawn after a greedy command that failed or found nothing; 0 = no vote
    quorum: int = Field(2, ge=1, le=10)  # the vote stops as soon as this many outputs agree
    retries: int = Field(2, ge=0, le=5)  # commands written after reading the failure (exit code, stderr, listing)
    temperature: float = Field(0.7, ge=0, le=2)  # for every sampled draw (the first command is greedy)
    # A greedy output of at most this many lines (a count, a name) is confirmed by samples before it is
    # the answer: a wrong pipe still prints a plausible number. 0 = a greedy output that found something stands.
    confirm_lines: int = Field(3, ge=0, le=50)
    # Other commands that must print something to confirm or dispute such an output (within ``samples``
    # draws). They never replace it, so each one more costs a call and changes only the stop reason.
    cross_checks: int = Field(1, ge=0, le=10)
    # Cross-check draws at most (within ``samples``): a draw that failed, found nothing or repeated a command
    # does not count as a check, so without this cap an unreproducible output cost every sample. None by
    # default: a short output from one command ends `unconfirmed`; a cross-check changes only the stop reason
    # and measured a weak signal for 40 % of a typical run's time (docs/DECISIONS.md). 1 restores one.
    cross_check_draws: int = Field(0, ge=0, le=10)
    # A disputed short output is read beside each rival's command in both orders (one or two short calls
    # each, reasoning_v30/judge.py); the rival is the answer's basis only when both readings pick it. The run
    # still ends `disputed`. Off by default: measured, it fixed 4 answers and broke 1 (docs/SAMPLING.md).
    judge_disputes: bool = False
    # A number the writer worked out from an output longer than confirm_lines (a count, a total) is computed
    # by one more command, which replaces it when they differ (reasoning_v30/computed.py).
    compute_derived: bool = True
    # Samples drawn after a greedy command that failed or found nothing are told what its run showed (the
    # retry's text). False draws them blind, from the plain request, as MBR-exec samples (docs/DECISIONS.md).
    tell_samples: bool = True
    seed: Optional[int] = None  # draw i uses seed + i: repeatable votes where the backend supports seeds
    # Before the main path, k_max counted every draw, the greedy one included: kept as samples = k_max - 1.
    k_max: Optional[int] = Field(None, ge=1, le=11)

    @model_validator(mode="after")
    def _k_max_alias(self) -> "VotingSection":
        if self.k_max is not None:
            self.__dict__["samples"] = self.k_max - 1
        return self


class ReasoningConfig(_Section):
    strategy: str = DEFAULT_ENGINE  # a name from the engine registry
    # try_first: the main path. A greeting or a question that names nothing in the project is answered
    # without tools; a goal that asks several things plans; every other goal tries one command (sampled,
    # voted and retried on its real error: reasoning_v30/attempt.py) and plans only when that found
    # nothing (ADaPT, arXiv 2311.05772). classify_first: spec 000's routing (the model labels the goal;
    # SIMPLE answers with the same main path, the rest plans first).
    routing: Literal["classify_first", "try_first"] = "try_first"
    # try_first only: when every command of the main path failed or found nothing, hand the goal to PLAN
    # (ADaPT's decomposition after failure) instead of ending `no_evidence` with what was tried. Off by
    # default: measured on work nobody here wrote (docs/DECISIONS.md), those plans passed 2 of 25 runs, ended
    # 14 of them `success` on a wrong answer, and took 57 to 72 % of the tokens on NL2Bash and AgentBench OS.
    # A goal whose command writes in a read-only run still plans (its reads run; the writes are named).
    plan_after_failure: bool = False
    # Who labels a goal's complexity under classify_first. model: spec 000's CLASSIFY, the model labels
    # every goal the rules do not bypass. rules_first: a goal the rules tie to the project plans as
    # MODERATE, or COMPLEX when it asks several things, without a model call.
    labels: Literal["model", "rules_first"] = "model"
    # How the model writes a plan. json: spec 000's schema (objective, steps with num, description,
    # tool, args; validation, confidence), decoded under it. text: the commands in a ```sh code block, a
    # comment each (prompts/plan_text.md), ~1/5 of the generated tokens (docs/DECISIONS.md "Plans as text").
    plan_format: Literal["json", "text"] = "json"
    voting: VotingSection = Field(default_factory=VotingSection)
    max_reflections: MaxReflections = Field(default_factory=MaxReflections)
    graph: GraphSection = Field(default_factory=GraphSection)
    reflect: ReflectSection = Field(default_factory=ReflectSection)
    experience: ExperienceSection = Field(default_factory=ExperienceSection)
    traces: TracesSection = Field(default_factory=TracesSection)

    @field_validator("strategy")
    @classmethod
    def _known_strategy(cls, name: str) -> str:
        if name not in engine_names():
            raise ValueError(f"unknown strategy {name!r}; allowed: {', '.join(engine_names())}")
        return name

    def max_reflections_by_complexity(self) -> Dict[TaskComplexity, int]:
        """REFLECT's budget per complexity; all zero when ``reflect.enabled`` is false."""
        return self.max_reflections.by_complexity(cap=self.graph.max_reflections if self.reflect.enabled else 0)
