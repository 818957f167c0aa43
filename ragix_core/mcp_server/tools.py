"""The quick tools: one confined command (``exec``), the read-only commands made for the model
(defs, importers, callers, calls, lines, tree) and the experience corpus search. Each goes through
the same ToolBox as ``ragix exec`` and the engines, under the launch's profile."""

from __future__ import annotations

from typing import List, Optional

from ragix_core.core.types import ToolCall

from .launch import Launch
from .reports import CommandReport, CorpusHit, CorpusReport, command_record

__all__ = ["ToolInputError", "exec_command", "model_command", "corpus_search", "model_argv"]


class ToolInputError(ValueError):
    """The client's arguments cannot make a command; the message says which and why."""


def _box(launch: Launch, read_only: bool):
    from ragix_core.tools import Limits, ToolBox

    profile = launch.profile.reflect_tool_profile if read_only else launch.profile.tool_profile
    return ToolBox(launch.root, profile=profile, interactive=False,
                   limits=Limits(timeout=launch.config.reasoning.graph.timeout_per_step))


def exec_command(launch: Launch, command: str) -> CommandReport:
    result = _box(launch, read_only=False).run(ToolCall("shell", {"command": command}))
    return CommandReport(ok=result.ok, result=command_record(result, command))


def _operands(values: List[str], what: str) -> List[str]:
    for value in values:
        if not value or value.startswith("-"):
            raise ToolInputError(f"{what}: {value!r} is not a path (empty, or starts with '-')")
    return values


def model_argv(name: str, *, paths: Optional[List[str]] = None, subject: Optional[str] = None,
               option: Optional[List[str]] = None) -> List[str]:
    """The argv of a model command: ``NAME [OPTIONS] [SUBJECT] [PATHS]``; a subject or path that
    would read as an option is refused here, with its name."""
    argv = [name] + list(option or [])
    if subject is not None:
        if not subject.strip() or subject.startswith("-"):
            raise ToolInputError(f"{name}: {subject!r} is not a name (empty, or starts with '-')")
        argv.append(subject)
    return argv + _operands(list(paths or []), f"{name} paths")


def model_command(launch: Launch, argv: List[str]) -> CommandReport:
    result = _box(launch, read_only=True).run(ToolCall("shell", {"argv": argv}))
    return CommandReport(ok=result.ok, result=command_record(result, " ".join(argv)))


def corpus_search(launch: Launch, query: str, top_k: int) -> CorpusReport:
    """Past events relevant to ``query`` (as ``ragix corpus search``); memory off under the profile
    or the configuration is a refusal the client reads."""
    from ragix_core.memory.experience import HybridExperienceCorpus

    section = launch.config.reasoning.experience
    if not (launch.profile.memory and section.enabled):
        raise ToolInputError(f"the experience corpus is off (profile {launch.profile.name!r} or "
                             "reasoning.experience.enabled)")
    hybrid = HybridExperienceCorpus.from_config(section, launch.root, create=False, memory=launch.config.memory)
    keys = ("timestamp", "session_id", "event_type", "outcome_status", "goal", "step_description", "tool_input",
            "error", "llm_critique")
    hits = [CorpusHit(source=h.source, score=round(h.score, 4), event={k: h.event.get(k) for k in keys})
            for corpus in hybrid.corpora() for h in corpus.search_events(query, top_k=top_k)]
    return CorpusReport(query=query, hits=hits)
