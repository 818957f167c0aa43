"""The MCPServer and its tools: schemas from the signatures, structured results, progress.

Every failure a client can cause comes back as a tool error whose message names what was wrong
(``ToolError``); a bug inside ragix comes back as a one-line tool error too, never a traceback.
"""

from __future__ import annotations

import logging
from typing import Annotated, Any, Awaitable, Callable, List, Literal, Optional

import anyio
from pydantic import Field

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from ragix_core.config import ConfigError
from ragix_core.profiles import ProfileError

from . import engines, tools
from .cancel import Cancellation, RunCancelled
from .launch import Launch
from .progress import run_in_thread
from .reports import CommandReport, CorpusReport, RunReport

__all__ = ["build_server", "REASON_STRATEGIES"]

Text = Annotated[str, Field(min_length=1, max_length=4000)]
Name = Annotated[str, Field(min_length=1, max_length=200, description="A Python name (function, class, module).")]
Paths = Annotated[List[str], Field(max_length=50, description="Files or directories, relative to the project root.")]
# `reason` runs any of the reasoning engines on a goal; the others have their own tools.
REASON_STRATEGIES = ("contractive", "graph_v30", "graph_v2", "loop_v1", "s0", "s0_json")
Strategy = Literal["contractive", "graph_v30", "graph_v2", "loop_v1", "s0", "s0_json"]
SessionId = Annotated[str, Field(min_length=1, max_length=120, pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$",
                                 description="The conversation to continue (created if new).")]


def _client_error(exc: BaseException) -> ToolError:
    return ToolError(str(exc) or type(exc).__name__)


async def _engine(ctx: Context, launch: Launch, work: Callable[[Any, Cancellation], RunReport]) -> RunReport:
    cancel = Cancellation(launch.client_factory)

    async def report(n: int, message: str) -> None:
        await ctx.report_progress(n, None, message)

    try:
        return await run_in_thread(work, report, cancel)
    except RunCancelled:
        raise ToolError("the run was cancelled") from None
    except (ConfigError, ProfileError, ValueError, tools.ToolInputError) as exc:
        raise _client_error(exc) from None


async def _quick(fn: Callable[[], Any]) -> Any:
    try:
        return await anyio.to_thread.run_sync(fn)
    except (ConfigError, ProfileError, ValueError, tools.ToolInputError) as exc:
        raise _client_error(exc) from None


def build_server(launch: Launch) -> MCPServer:
    server = MCPServer("ragix", instructions=(
        f"RAGIX: bounded, traced reasoning agents over the project at {launch.root} "
        f"(profile {launch.profile.name}). Engines: run, reason, tutor, research, chat; tools: exec, "
        "defs, importers, callers, calls, lines, tree, corpus_search."))
    # The SDK logs every request at INFO on stderr, which a desktop client shows as the server's log.
    logging.getLogger("mcp").setLevel(logging.WARNING)
    _engine_tools(server, launch)
    _quick_tools(server, launch)
    return server


def _engine_tools(server: MCPServer, launch: Launch) -> None:
    @server.tool(description="Answer a goal about the project with the configured reasoning engine (plan, "
                             "confined commands, reflection). Progress: one notification per node and step.")
    async def run(goal: Text, ctx: Context) -> RunReport:
        return await _engine(ctx, launch, lambda bus, c: engines.run_engine(launch, goal, None, bus, c))

    @server.tool(description="Answer a question with a chosen reasoning strategy (default: contractive, the "
                             "entropy-driven tree of `ragix reason`).")
    async def reason(question: Text, ctx: Context, strategy: Strategy = "contractive") -> RunReport:
        return await _engine(ctx, launch, lambda bus, c: engines.run_engine(launch, question, strategy, bus, c))

    @server.tool(description="Play the proof game (`ragix tutor`): every claim needs evidence from a confined "
                             "command; the answer states only what the tutor validated.")
    async def tutor(goal: Text, ctx: Context,
                    accept: Annotated[List[Text], Field(max_length=10, description="Claim patterns the proof must "
                                                        "meet, e.g. line_count(\"README.md\", ?n).")] = [],  # noqa: B006
                    max_turns: Annotated[int, Field(ge=1, le=100)] = 8) -> RunReport:
        from ragix_core.reasoning_tutor.game import parse_accept

        try:
            parse_accept(list(accept))
        except ValueError as exc:  # OptionsError names the bad pattern
            raise _client_error(exc) from None
        meta = {"tutor": {"accept": list(accept), "max_turns": max_turns}}
        return await _engine(ctx, launch, lambda bus, c: engines.run_engine(launch, goal, "tutor", bus, c, meta))

    @server.tool(description="Research a question over the documents under the project root (analyst, critic, "
                             "writer), answering with citations.")
    async def research(question: Text, ctx: Context) -> RunReport:
        return await _engine(ctx, launch, lambda bus, c: engines.run_engine(launch, question, "research", bus, c))

    @server.tool(description="One message in a conversation that keeps its context (`ragix chat --session`).")
    async def chat(message: Text, session_id: SessionId, ctx: Context) -> RunReport:
        return await _engine(ctx, launch, lambda bus, c: engines.chat_turn(launch, message, session_id, bus, c))


def _quick_tools(server: MCPServer, launch: Launch) -> None:
    def model(argv: Callable[[], List[str]]) -> Awaitable[CommandReport]:
        return _quick(lambda: tools.model_command(launch, argv()))

    @server.tool(name="exec", description="Run one command (pipes allowed) confined to the project, exactly as "
                                          "the engines run theirs; a refusal says why.")
    async def exec_(command: Text) -> CommandReport:
        return await _quick(lambda: tools.exec_command(launch, command))

    @server.tool(description="Classes and functions of Python files with line numbers; with name, where NAME "
                             "is defined.")
    async def defs(paths: Paths = ["."], name: Optional[Name] = None) -> CommandReport:  # noqa: B006
        return await model(lambda: tools.model_argv("defs", paths=paths, option=["-n", name] if name else None))

    @server.tool(description="The files that import MODULE, with the import line.")
    async def importers(module: Name, paths: Paths = ["."]) -> CommandReport:  # noqa: B006
        return await model(lambda: tools.model_argv("importers", subject=module, paths=paths))

    @server.tool(description="Where NAME is called, and in which function.")
    async def callers(name: Name, paths: Paths = ["."]) -> CommandReport:  # noqa: B006
        return await model(lambda: tools.model_argv("callers", subject=name, paths=paths))

    @server.tool(description="What the function NAME calls, and where each callee is defined.")
    async def calls(name: Name, paths: Paths = ["."]) -> CommandReport:  # noqa: B006
        return await model(lambda: tools.model_argv("calls", subject=name, paths=paths))

    @server.tool(description="Files ranked by line count, largest first (smallest first with smallest_first).")
    async def lines(paths: Paths = ["."], glob: Optional[Annotated[str, Field(min_length=1, max_length=100)]] = None,
                    smallest_first: bool = False) -> CommandReport:  # noqa: B006
        option = (["-r"] if smallest_first else []) + (["-g", glob] if glob else [])
        return await model(lambda: tools.model_argv("lines", paths=paths, option=option))

    @server.tool(description="The directory tree, bounded.")
    async def tree(directory: str = ".", depth: Annotated[int, Field(ge=1, le=10)] = 3) -> CommandReport:
        return await model(lambda: tools.model_argv("tree", paths=[directory], option=["-L", str(depth)]))

    @server.tool(description="Past runs' events relevant to QUERY from the experience corpus "
                             "(BM25 x recency x outcome).")
    async def corpus_search(query: Text, top_k: Annotated[int, Field(ge=1, le=50)] = 5) -> CorpusReport:
        return await _quick(lambda: tools.corpus_search(launch, query, top_k))
