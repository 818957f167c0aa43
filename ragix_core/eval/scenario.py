"""Evaluation scenarios: the YAML format of spec 000 §8.2, validated.

A scenario file is a YAML list of mappings with the keys ``id``,
``description``, ``input``, ``expected_patterns``, ``must_run_commands``,
``max_steps`` and ``complexity``, and optionally ``forbidden_patterns``
(patterns a right answer cannot contain: the answer fails if any is found).
Patterns follow eval/matching.py (numbers match whole numbers, ``re:`` marks
a regular expression). Unknown keys are ignored (the spec says so, and it
lets scenario files carry notes). Every problem is reported as a
``ScenarioError`` that names the file, the scenario and the field, so a typo
in a hand-written file never surfaces as a traceback.

Benchmark adapters build the same ``Scenario`` objects in code; they add a
``setup`` (prepare the working copy) and a ``checker`` (decide the answer),
which YAML scenarios do not have.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence

import yaml

from ragix_core.eval.matching import pattern_problem

__all__ = ["Scenario", "ScenarioError", "load_scenarios", "load_scenario_file", "COMPLEXITY_NAMES",
           "checker_takes_outputs"]

COMPLEXITY_NAMES = ("BYPASS", "SIMPLE", "MODERATE", "COMPLEX")
DEFAULT_MAX_STEPS = 10


class ScenarioError(ValueError):
    """A scenario file is missing, unreadable or invalid; the message says where and why."""


# A checker decides whether the final answer is right: (answer, workdir) -> (passed, detail).
# One that also declares a parameter named ``outputs`` is called with the stdout of the run's
# executed steps as well (a benchmark that accepts what the agent's commands printed).
Checker = Callable[..., "tuple[bool, str]"]
Setup = Callable[[Path], None]


def checker_takes_outputs(checker: Checker) -> bool:
    """Whether ``checker`` declares an ``outputs`` parameter (the older two-argument ones do not)."""
    try:
        return "outputs" in inspect.signature(checker).parameters
    except (TypeError, ValueError):  # a callable without a signature (a builtin) cannot take it
        return False


@dataclass
class Scenario:
    id: str
    input: str
    description: str = ""
    expected_patterns: List[str] = field(default_factory=list)
    forbidden_patterns: List[str] = field(default_factory=list)  # the answer fails if one is found
    must_run_commands: List[str] = field(default_factory=list)
    max_steps: int = DEFAULT_MAX_STEPS
    complexity: Optional[str] = None  # one of COMPLEXITY_NAMES, or None when unlabelled
    source: str = ""  # file (or adapter) it came from
    category: str = ""  # file stem or benchmark name; groups the report
    # Working directory to copy for this scenario; None = the harness default.
    cwd: Optional[Path] = None
    empty_workdir: bool = False  # start from an empty directory (benchmarks build their own files)
    # The working copy stands for a home directory: `~` and `$HOME` in commands are read as it (tools.home).
    home_is_workdir: bool = False
    setup: Optional[Setup] = None
    checker: Optional[Checker] = None


def _fail(source: str, where: str, problem: str) -> ScenarioError:
    return ScenarioError(f"{source}: {where}: {problem}")


def _str_list(value: Any, source: str, where: str, key: str) -> List[str]:
    if value is None:
        return []
    if isinstance(value, str):  # a lone string is a common slip for a one-item list
        value = [value]
    if not isinstance(value, list):
        raise _fail(source, where, f"'{key}' must be a list of strings, got {type(value).__name__}")
    out = []
    for i, item in enumerate(value):
        if isinstance(item, bool) or not isinstance(item, (str, int, float)):
            raise _fail(source, where, f"'{key}'[{i}] must be a string, got {type(item).__name__}")
        text = str(item).strip()
        if not text:
            raise _fail(source, where, f"'{key}'[{i}] is empty")
        out.append(text)
    return out


def _patterns(value: Any, source: str, where: str, key: str) -> List[str]:
    out = _str_list(value, source, where, key)
    for i, pattern in enumerate(out):
        problem = pattern_problem(pattern)
        if problem:
            raise _fail(source, where, f"'{key}'[{i}] {pattern!r}: {problem}")
    return out


def _parse_one(raw: Any, index: int, source: str, category: str) -> Scenario:
    where = f"scenario #{index + 1}"
    if not isinstance(raw, dict):
        raise _fail(source, where, f"expected a mapping, got {type(raw).__name__}")
    sid = raw.get("id")
    if isinstance(sid, bool) or not isinstance(sid, (str, int)) or not str(sid).strip():
        raise _fail(source, where, "missing or empty 'id'")
    sid = str(sid).strip()
    where = f"scenario #{index + 1} ({sid})"
    text = raw.get("input")
    if not isinstance(text, str) or not text.strip():
        raise _fail(source, where, "missing or empty 'input' (the goal given to the agent)")
    max_steps = raw.get("max_steps", DEFAULT_MAX_STEPS)
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
        raise _fail(source, where, f"'max_steps' must be a positive integer, got {max_steps!r}")
    complexity = raw.get("complexity")
    if complexity is not None:
        name = str(complexity).strip().upper()
        if name not in COMPLEXITY_NAMES:
            raise _fail(source, where, f"'complexity' is {complexity!r}; allowed: {', '.join(COMPLEXITY_NAMES)}")
        complexity = name
    description = raw.get("description") or ""
    if not isinstance(description, str):
        raise _fail(source, where, "'description' must be a string")
    return Scenario(
        id=sid,
        input=text.strip(),
        description=description.strip(),
        expected_patterns=_patterns(raw.get("expected_patterns"), source, where, "expected_patterns"),
        forbidden_patterns=_patterns(raw.get("forbidden_patterns"), source, where, "forbidden_patterns"),
        must_run_commands=_str_list(raw.get("must_run_commands"), source, where, "must_run_commands"),
        max_steps=max_steps,
        complexity=complexity,
        source=source,
        category=category,
    )


def load_scenario_file(path: Path) -> List[Scenario]:
    path = Path(path)
    source = str(path)
    if not path.exists():
        raise ScenarioError(f"{source}: scenario file not found")
    if not path.is_file():
        raise ScenarioError(f"{source}: not a regular file")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"{source}: cannot read: {exc}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise ScenarioError(f"{source}: invalid YAML{at}: {problem}") from None
    if data is None:
        raise ScenarioError(f"{source}: the file is empty; expected a list of scenarios")
    if not isinstance(data, list):
        raise ScenarioError(f"{source}: the top level must be a list of scenarios, got {type(data).__name__}")
    scenarios = [_parse_one(raw, i, source, path.stem) for i, raw in enumerate(data)]
    _check_unique(scenarios)
    return scenarios


def _check_unique(scenarios: Sequence[Scenario]) -> None:
    seen: Dict[str, str] = {}
    for s in scenarios:
        if s.id in seen:
            raise ScenarioError(f"{s.source}: duplicate scenario id {s.id!r} (also in {seen[s.id]})")
        seen[s.id] = s.source


def load_scenarios(paths: Iterable[Path]) -> List[Scenario]:
    """Load several files; ids must be unique across all of them (reports key on them)."""
    out: List[Scenario] = []
    for p in paths:
        out.extend(load_scenario_file(Path(p)))
    _check_unique(out)
    return out
