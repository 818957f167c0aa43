"""One run's shared pieces, built once, in one place, for whichever engine runs.

``RunContext.open`` applies the profile (the model rule is checked for the
engine's roles before any client is built; tools, reflection and memory follow
the profile), builds the LLM roles, the confined tool boxes with the config's
time limits, the experience corpus and the trace writer. Every engine — the
graphs, the loop, the s0 baseline and the ones to come — is built from it, so
"only the reasoning differs" between them holds by construction.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

from ragix_core.config import RagixConfig
from ragix_core.core.events import Event, EventBus
from ragix_core.core.types import ToolResult
from ragix_core.profiles import AgentProfile, check_models
from ragix_core.core.registry import EngineSpec

__all__ = ["RunContext", "new_session_id", "usable_root", "DIAGNOSIS"]

DIAGNOSIS = "diagnosis"  # the `purpose` of tool calls made to diagnose a failure, not to answer


def new_session_id() -> str:
    return time.strftime("%Y%m%dT%H%M%S") + "-" + uuid.uuid4().hex[:8]


def usable_root(cwd: Path) -> Path:
    """``cwd``, or the per-user working area when ``cwd`` may not be a project root (a system
    directory, a home): for engines that need no project (EngineSpec.needs_project)."""
    from ragix_core.core.home import work_area
    from ragix_core.tools.paths import check_root

    try:
        check_root(str(Path(cwd).resolve()))
        return cwd
    except ValueError:
        area = work_area()
        area.mkdir(parents=True, exist_ok=True)
        return area.resolve()


@dataclass
class RunContext:
    cwd: Path
    config: RagixConfig
    profile: AgentProfile
    engine: EngineSpec
    session_id: str
    bus: EventBus
    roles: Any  # ragix_core.llm.roles.Roles
    toolbox: Any  # ragix_core.tools.ToolBox: the profile's tools, for the engine's own steps
    reflect_box: Any  # read-only ToolBox for diagnosis (REFLECT); no process under `safe`
    corpus: Any = None  # HybridExperienceCorpus, or None when memory is off
    recall: Any = None  # SessionRecall over the corpus (this run's own events left out)
    trace_path: Optional[Path] = None
    checkpoint_path: Optional[Path] = None
    mcp: Any = None  # runtime.mcp_servers.McpServers: the run's MCP servers (their tools are in toolbox)
    # A dry run: every tool box of the run stops at its first call and adds its preview here (tools/preview.py).
    previews: Optional[List[Any]] = None
    events: List[Event] = field(default_factory=list)  # every event of the run, in order
    _closers: List[Callable[[], None]] = field(default_factory=list, repr=False)

    @classmethod
    def open(cls, *, cwd: Path, config: RagixConfig, profile: AgentProfile, engine: EngineSpec,
             corpus: Any = None, events: Optional[EventBus] = None, client_factory: Any = None,
             session_id: Optional[str] = None, assume_yes: bool = False,
             checkpoint_path: Optional[Path] = None, seed: Optional[int] = None,
             dry_run: bool = False) -> "RunContext":
        """Configuration errors raise here (ProfileError, ValueError), before anything runs.
        ``dry_run``: tools are previewed, never run, and the corpus is read but not written."""
        from ragix_core.llm.roles import Roles
        from ragix_core.memory.experience import HybridExperienceCorpus
        from ragix_core.memory.recall import SessionRecall
        from ragix_core.memory.global_traces import global_trace_writer
        from ragix_core.memory.traces import trace_writer_from_config
        from ragix_core.tools import Limits, ToolBox

        check_models(profile, config.llm, list(engine.roles))
        if not engine.needs_project:
            cwd = usable_root(cwd)
        rc = config.reasoning
        sid = session_id or new_session_id()
        bus = events or EventBus()
        collected: List[Event] = []
        closers = [bus.subscribe(collected.append)]
        writer = trace_writer_from_config(rc.traces, cwd, sid)
        if writer is not None:
            closers.append(bus.subscribe(writer))
        # Spec 000 §5.1's global store, per the user's own `memory` section; nothing of a run
        # goes to the user's shared store when the profile turns memory off.
        shared = global_trace_writer(config.memory, rc.traces, sid, writer.trace_dir if writer else None) \
            if profile.memory else None
        if shared is not None:
            closers.append(bus.subscribe(shared))

        if not (profile.memory and rc.experience.enabled):
            corpus = None
        elif corpus is None:
            corpus = HybridExperienceCorpus.from_config(rc.experience, cwd, memory=config.memory)
            closers.append(corpus.close)  # opened here, closed here: a database store holds a connection pool
        recall = SessionRecall(corpus, sid, min_score=rc.experience.similarity_threshold,
                               writes=not dry_run) if corpus is not None else None
        previews: Optional[List[Any]] = [] if dry_run else None

        roles = Roles(config.llm, bus=bus, session_id=sid, client_factory=client_factory,
                      include_prompts=rc.traces.include_prompts, seed=seed)
        home_is_root = config.tools.home == "project"
        toolbox = ToolBox(cwd, profile=profile.tool_profile, events=bus, session_id=sid, assume_yes=assume_yes,
                          limits=Limits(timeout=rc.graph.timeout_per_step), previews=previews,
                          home_is_root=home_is_root)
        mcp = None
        if config.mcp.servers:
            from ragix_core.runtime.mcp_servers import open_servers

            mcp = open_servers(config, profile.name, cwd, toolbox)
            closers.append(mcp.close)
        # REFLECT's look-around is diagnosis, not an answer's command: its events say so.
        reflect_box = ToolBox(cwd, profile=profile.reflect_tool_profile, events=bus.tagged(purpose=DIAGNOSIS),
                              session_id=sid, limits=Limits(timeout=rc.reflect.shell_timeout), previews=previews,
                              home_is_root=home_is_root)
        return cls(cwd=cwd, config=config, profile=profile, engine=engine, session_id=sid, bus=bus, roles=roles,
                   toolbox=toolbox, reflect_box=reflect_box, corpus=corpus, recall=recall,
                   trace_path=writer.path if writer is not None else None, checkpoint_path=checkpoint_path,
                   mcp=mcp, events=collected, previews=previews, _closers=closers)

    # -- what engines ask of the run -------------------------------------------------

    @property
    def full_reflection(self) -> bool:
        """The profile allows diagnosis with tools and past experience (not `safe`)."""
        return self.profile.reflection == "full"

    def experience(self) -> Any:
        """Past experience for prompts, or None when memory or full reflection is off."""
        return self.recall if self.full_reflection else None

    def reflect_shell(self, command: str) -> ToolResult:
        """A read-only command for diagnosis; refused when the profile's reflection is 'simple'."""
        if not self.full_reflection:
            return ToolResult(tool=(command.split() or [""])[0], returncode=126, refused=True,
                              error="refused: reflection is 'simple' under this profile (no commands)")
        return self.reflect_box.run_command(command)

    def usage(self) -> Dict[str, int]:
        return self.roles.summary()

    def close(self) -> None:
        """Stop collecting events and writing the trace (idempotent)."""
        while self._closers:
            self._closers.pop()()
