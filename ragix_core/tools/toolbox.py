"""ToolBox: the one entry point engines use to run tools.

``ToolBox.run(ToolCall) -> ToolResult`` never raises (but in a dry run, where the
first call raises ``DryRunStop``: tools/preview.py). Every call goes through
the same path: profile check, layer-1 validation (refusal with a reason),
approval for writes, then each process under the OS layer with limits, and one
TOOL_CALL event per process started (and one per refusal).
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
from dataclasses import replace
from typing import Any, Callable, Dict, List, Optional, Sequence

from ragix_core.core.events import EventBus, EventKind
from ragix_core.core.types import ToolCall, ToolResult
from ragix_core.tools import extra_exec
from ragix_core.tools.home import expand_home
from ragix_core.tools.limits import Limits
from ragix_core.tools.model_commands import run_model_command
from ragix_core.tools.paths import PathGuard
from ragix_core.tools.policy import MODEL_COMMANDS, WRITES_NEED_YES  # re-exported: callers import it from here
from ragix_core.tools.pipeline import run_pipeline
from ragix_core.tools.profiles import get_profile
from ragix_core.tools.refusal import Refusal
from ragix_core.tools.runner import RawResult
from ragix_core.tools.sandbox import Sandbox, interpreter_dirs
from ragix_core.tools.structured import structured_argv
from ragix_core.tools.tree_state import links_out, tree_state
from ragix_core.tools.validate import Stage, Validator
from ragix_core.tools.writes import check_write_file, write_file

__all__ = ["ToolBox", "REFUSED_RC", "WRITES_NEED_YES"]


REFUSED_RC = 126  # "found but not executable" — the shell's code for a command that cannot run
Executor = Callable[[ToolCall], ToolResult]
Approver = Callable[[str], bool]


def _ask_terminal(description: str) -> bool:
    sys.stderr.write(f"ragix: allow this write?\n  {description}\n[y/N] ")
    sys.stderr.flush()
    try:
        return sys.stdin.readline().strip().lower() in ("y", "yes")
    except (OSError, ValueError):
        return False


class ToolBox:
    def __init__(
        self,
        root: "os.PathLike[str] | str",
        profile: str = "reflect",
        events: Optional[EventBus] = None,
        session_id: str = "",
        assume_yes: bool = False,
        interactive: Optional[bool] = None,
        limits: Optional[Limits] = None,
        sandbox: str = "auto",
        approver: Optional[Approver] = None,
        validate: bool = True,
        previews: Optional[List[Any]] = None,
        home_is_root: bool = False,
    ) -> None:
        """``home_is_root``: ``~`` and ``$HOME`` in a command stand for the root (tools/home.py); off, they
        are refused."""
        self.profile = get_profile(profile)
        self.home_is_root = home_is_root
        self.guard = PathGuard(os.fspath(root))
        self.root = self.guard.root
        self.events = events
        self.session_id = session_id
        self.assume_yes = assume_yes
        self.interactive = sys.stdin.isatty() and sys.stderr.isatty() if interactive is None else interactive
        self.limits = (limits or Limits()).validate()
        self.sandbox = Sandbox(self.root, sandbox)
        self.approver = approver or _ask_terminal
        # A list: a dry run (tools/preview.py). The first call adds what it would do to the list and
        # raises DryRunStop; nothing starts.
        self.previews = previews
        # validate=False disables layer 1 (tests and benchmarks prove layer 2 alone); never in production,
        # and never with nothing else confining the commands.
        if not validate and not self.sandbox.confining:
            raise ValueError("validate=False turns layer 1 off; it needs an OS sandbox (bubblewrap or Landlock), "
                             "and none is active")
        self.layer1 = validate
        self.validator = Validator(self.guard, self.profile.tools, writes_allowed=self.profile.writes,
                                   any_command=self.profile.any_command)
        self.executors: Dict[str, Executor] = {}
        self.remote_offers: List[Any] = []  # tools of MCP servers (mcp_tools.ToolOffer), as the planner sees them
        self.remote_sets: List[Any] = []  # the McpToolSets behind them: which servers are still available
        if self.profile.starts_processes:
            self.executors["shell"] = self._run_shell
            for tool in self.profile.tools:
                self.executors[tool] = self._run_direct
            for name in self.profile.extra:
                self.executors[name] = getattr(self, f"_run_{name}")

    # ----------------------------------------------------------- public API
    @property
    def allowed_tools(self) -> List[str]:
        return list(self.executors)

    @property
    def sandbox_layers(self) -> Dict[str, Any]:
        layers = self.sandbox.layers()
        layers["layer1"] = self.layer1
        layers["profile"] = self.profile.name
        if not self.sandbox.confining:
            layers["warning"] = "no OS sandbox: tools run with layer-1 validation only (run scripts/setup_system.sh)"
        return layers

    def rooted_at(self, root: "os.PathLike[str] | str") -> "ToolBox":
        """The same box (profile, limits, sandbox, approvals, events) confined to ``root`` instead. Executors
        added by ``register``/``attach_remote`` are not carried: an MCP server works on its own view of the
        project, which is what a box rooted elsewhere (a throwaway copy) must not touch."""
        return ToolBox(root, profile=self.profile.name, events=self.events, session_id=self.session_id,
                       assume_yes=self.assume_yes, interactive=self.interactive, limits=self.limits,
                       sandbox=self.sandbox.kind, approver=self.approver, validate=self.layer1,
                       previews=self.previews, home_is_root=self.home_is_root)

    def register(self, name: str, executor: Executor) -> None:
        """Add an executor (e.g. search, mcp). It must return a ToolResult and not raise."""
        self.executors[name] = executor

    def attach_remote(self, toolset: Any) -> None:
        """Offer an MCP server's tools (an ``mcp_tools.McpToolSet``) as executors of this box; they are
        named ``mcp.<server>.<tool>`` and answer only ``ToolCall``s of that name."""
        for name, executor in toolset.executors().items():
            self.register(name, executor)
        self.remote_offers += toolset.offers()
        self.remote_sets.append(toolset)

    def publish_tool_call(self, **data: Any) -> None:
        """One TOOL_CALL event with this box's profile and sandbox (for executors that are not processes)."""
        self._publish(**data)

    def run_command(self, command: str) -> ToolResult:
        """A command line; ``mcp.S.T {JSON}`` (an attached MCP tool, then its arguments) is that tool's call."""
        name, _, rest = command.strip().partition(" ")
        if name in self.executors and any(o.name == name for o in self.remote_offers):
            try:
                args = json.loads(rest) if rest.strip() else {}
            except ValueError as exc:
                args = exc
            if not isinstance(args, dict):
                return self._refused(name, f"{name}: its arguments must be one JSON object after the name"
                                     + (f" ({args})" if isinstance(args, ValueError) else ""), command)
            return self.run(ToolCall(name, args))
        return self.run(ToolCall("shell", {"command": command}))

    def run(self, call: "ToolCall | Dict[str, Any]") -> ToolResult:
        start = time.perf_counter()
        if isinstance(call, dict):  # a planner's JSON object {"tool": ..., "args": {...}}
            try:
                call = ToolCall.from_dict(call)
            except (ValueError, TypeError) as exc:
                return self._refused(str(call.get("tool")), f"malformed tool call: {exc}", repr(call)[:500])
        tool = getattr(call, "tool", None)
        if self.previews is not None:
            from ragix_core.tools.preview import DryRunStop, preview_call

            preview = preview_call(self, call)
            self.previews.append(preview)
            raise DryRunStop(preview)
        try:
            if not isinstance(call, ToolCall) or not isinstance(tool, str):
                raise Refusal("expected a ToolCall(tool: str, args: dict)")
            if not self.profile.starts_processes:
                raise Refusal(f"profile '{self.profile.name}' runs no tools")
            executor = self.executors.get(tool)
            if executor is None:
                raise Refusal(f"unknown or disallowed tool {tool!r} in profile '{self.profile.name}' "
                              f"(allowed: {', '.join(self.allowed_tools)})")
            result = executor(call)
        except Refusal as exc:
            result = self._refused(str(tool), exc.reason, _describe(call))
        except Exception as exc:  # an internal bug must not crash the engine
            reason = f"internal error: {type(exc).__name__}: {exc}"
            self._publish(tool=str(tool), command=_describe(call), argv=[], returncode=1, refused=False, reason=reason,
                          duration=0.0, truncated=False, call_tool=str(tool))
            result = ToolResult(tool=str(tool), returncode=1, error=reason)
        result.duration = time.perf_counter() - start
        return result

    # ------------------------------------------------------------ executors
    def _run_shell(self, call: ToolCall) -> ToolResult:
        args = call.args if isinstance(call.args, dict) else {}
        command, argv = args.get("command"), args.get("argv")
        if set(args) - {"command", "argv"} or (command is None) == (argv is None):
            raise Refusal("shell takes exactly one of {command: str} or {argv: [str, ...]}")
        if isinstance(command, str) and self.home_is_root:
            command = expand_home(command)
        if not self.layer1:
            return self._run_unvalidated(call.tool, command if command is not None else shlex.join(argv))
        if command is not None:
            stages = self.validator.command(command)
        else:
            stages = [self.validator.stage(list(argv) if isinstance(argv, list) else argv)]
        return self._execute(call.tool, stages)

    def _run_direct(self, call: ToolCall) -> ToolResult:
        try:
            argv = [call.tool] + structured_argv(call.tool, call.args)
        except (TypeError, ValueError, OverflowError) as exc:  # e.g. "lines": "ten"
            raise Refusal(f"{call.tool}: bad arguments ({exc})") from None
        if not self.layer1:
            return self._run_unvalidated(call.tool, shlex.join(argv))
        return self._execute(call.tool, [self.validator.stage(argv)])

    def _run_python(self, call: ToolCall) -> ToolResult:
        code = extra_exec.python_code(call.args)
        if not self.sandbox.confining:
            raise Refusal("python needs an OS sandbox (bubblewrap or Landlock); run scripts/setup_system.sh")
        self._approve_write(f"python code ({len(code)} chars) with write access to {self.root}")
        argv = extra_exec.python_argv(code)
        t0 = time.perf_counter()
        raw = self._launch_raw(argv, writable=self.profile.writes, may_spawn=True, extra_ro=interpreter_dirs(),
                               unvalidated=True)
        self._publish_process("python", argv, raw, call.tool, time.perf_counter() - t0)
        return self._result(call.tool, raw.returncode, raw.stdout, raw.stderr, raw.truncated, raw.error, "python -c <code>")

    def _run_operator(self, call: ToolCall) -> ToolResult:
        payload = extra_exec.operator_request(call.args)
        t0 = time.perf_counter()
        raw = extra_exec.run_operator(payload, self.limits)
        self._publish_process("operator", ["operator", payload.decode()], raw, call.tool, time.perf_counter() - t0)
        return extra_exec.operator_result(call.tool, raw)

    def _run_write_file(self, call: ToolCall) -> ToolResult:
        real = check_write_file(call.args, self.guard)
        rel = os.path.relpath(real, self.root)
        self._approve_write(f"write_file {rel}")
        size = write_file(self.root, real, call.args["content"], bool(call.args.get("append")))
        raw = RawResult(0, f"wrote {size} bytes to {rel}\n".encode(), b"")
        self._publish_process("write_file", ["write_file", rel], raw, call.tool)
        return self._result(call.tool, 0, raw.stdout, b"", False, None, f"write_file {rel}")

    # -------------------------------------------------------------- helpers
    def _execute(self, tool: str, stages: List[Stage]) -> ToolResult:
        if self.profile.any_command and not self.sandbox.confining:
            raise Refusal("profile 'sovereign' needs an OS sandbox (bubblewrap or Landlock); run scripts/setup_system.sh")
        redirect = stages[-1].redirect
        writes = [s for s in stages if s.writes] or ([stages[-1]] if redirect else [])
        shown = " | ".join(shlex.join(s.words) for s in stages)
        if redirect:
            shown += f" {'>>' if redirect[1] else '>'} {shlex.quote(redirect[0])}"
        if writes and self.profile.approval:
            self._approve_write(shown)

        # One wall-clock budget for the whole pipeline, not one per stage or per xargs batch.
        deadline = time.monotonic() + self.limits.timeout

        def launch(stage: Stage, argv: List[str], data: Optional[bytes], cap: int) -> RawResult:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return RawResult(124, b"", b"", timed_out=True,
                                 error=f"timed out after {self.limits.timeout:g}s (pipeline budget)")
            if argv and argv[0] in MODEL_COMMANDS:  # ragix's own read-only command: no process
                raw = run_model_command(argv[0], argv[1:], self.guard)
                return replace(raw, stdout=raw.stdout[:cap], truncated=len(raw.stdout) > cap)
            return self._launch_raw(argv, writable=stage.writes and self.profile.writes, stdin_data=data,
                                    out_cap=cap, may_spawn=self.profile.any_command,
                                    limits=replace(self.limits, timeout=remaining),
                                    unvalidated=self.profile.any_command)

        # A redirected pipeline's output goes to the file, so it may be as large as a pipe carries.
        out_cap = self.limits.pipe_bytes if redirect else self.limits.output_bytes
        before = tree_state(str(self.root)) if writes else None
        res = run_pipeline(stages, self.validator, launch, lambda t, a, r, d: self._publish_process(t, a, r, tool, d),
                           out_cap, self.limits.pipe_bytes)
        command = " | ".join(res.commands)
        stdout, error, rc = res.stdout, res.error, res.returncode
        if redirect:
            command += f" {'>>' if redirect[1] else '>'} {shlex.quote(redirect[0])}"
            stdout, error, rc = self._redirect(redirect, res.stdout, res.truncated, error, rc)
        out = self._result(tool, rc, stdout, res.stderr, res.truncated, error, command)
        out.no_match, out.answer_exit = res.no_match, res.answer_exit
        out.piped_lines = None if redirect else res.piped_lines
        out.written = shown
        out.writes = bool(writes)
        if writes:  # a write that left the tree as it was (mkdir -p of a directory that exists) changed nothing
            after = tree_state(str(self.root))
            out.changed = before is None or after is None or before != after
            self._remove_links_out(out, links_out(str(self.root), before, after))
        return out

    def _remove_links_out(self, out: ToolResult, links: List[str]) -> None:
        """Remove the links pointing out of the project that the write made (tree_state.links_out) and
        fail the step, naming them: a link out in the project is how a later tool could be led outside."""
        removed = []
        for rel in links:
            try:
                os.unlink(os.path.join(self.root, rel))
                removed.append(rel)
            except OSError:
                pass  # gone already, or not ours to remove: the note counts it as not removed
        if links:
            out.returncode = out.returncode or 1
            note = (f"the command made {len(links)} link{'s' if len(links) != 1 else ''} pointing outside the "
                    f"project ({', '.join(links[:5])}); ragix removed {'them' if len(removed) != 1 else 'it'}"
                    + ("" if len(removed) == len(links) else f" ({len(links) - len(removed)} could not be removed)"))
            out.error = f"{out.error}; {note}" if out.error else note

    def _redirect(self, redirect, data: bytes, truncated: bool, error: Optional[str], rc: int):
        """Write the pipeline's stdout to the `>` target as bash would (even after a failing
        command), but never a cut-off part of it: then nothing is written and the error says so."""
        target, append = redirect
        if truncated:
            return b"", (f"output larger than {self.limits.pipe_bytes} bytes; nothing was written to {target}"), rc or 1
        real = self.guard.write(target)  # again: an earlier stage may have changed the tree
        size = write_file(self.root, real, data, append)
        raw = RawResult(0, b"", b"")
        self._publish_process("redirect", [">>" if append else ">", target, f"{size} bytes"], raw, "shell")
        return b"", error, rc

    def _run_unvalidated(self, tool: str, command: str) -> ToolResult:
        """Layer 2 alone, for tests and benchmarks only: the command runs as `/bin/sh -c COMMAND`
        inside the OS sandbox, so chaining, substitution and redirection really happen and the
        sandbox is what must stop them (a plain split would turn `ls; cat x` into harmless ls arguments)."""
        if not command.strip():
            raise Refusal("empty command")
        if "\0" in command:
            raise Refusal("a NUL byte cannot be passed to any process")
        argv = ["/bin/sh", "-c", command]
        t0 = time.perf_counter()
        raw = self._launch_raw(argv, writable=self.profile.writes, may_spawn=True, unvalidated=True)
        self._publish_process("sh", argv, raw, tool, time.perf_counter() - t0)
        return self._result(tool, raw.returncode, raw.stdout, raw.stderr, raw.truncated, raw.error, shlex.join(argv))

    def _launch_raw(self, argv: List[str], *, writable: bool, stdin_data: Optional[bytes] = None,
                    out_cap: Optional[int] = None, may_spawn: bool = False, extra_ro: Sequence[str] = (),
                    limits: Optional[Limits] = None, unvalidated: bool = False) -> RawResult:
        limits = limits or self.limits
        fsize = limits.file_size_bytes
        if fsize is None:
            fsize = (1 << 30) if writable else 0
        network = self.profile.network and self.limits.network
        return self.sandbox.run(argv, cwd=self.root, writable=writable, network=network, limits=limits,
                                fsize=fsize, stdin_data=stdin_data, out_cap=out_cap, may_spawn=may_spawn,
                                extra_ro=extra_ro, unvalidated=unvalidated)

    def _approve_write(self, description: str) -> None:
        if not self.profile.approval or self.assume_yes:
            return
        if not self.interactive:
            raise Refusal(WRITES_NEED_YES)
        if not self.approver(description):
            raise Refusal("write not approved by the user")

    def _result(self, tool: str, rc: int, out: bytes, err: bytes, truncated: bool, error: Optional[str],
                command: str) -> ToolResult:
        return ToolResult(tool=tool, returncode=rc, stdout=out.decode("utf-8", "replace"),
                          stderr=err.decode("utf-8", "replace"), error=error, truncated=truncated, command=command)

    def _refused(self, tool: str, reason: str, command: str) -> ToolResult:
        self._publish(tool=tool, command=command, argv=[], returncode=REFUSED_RC, refused=True, reason=reason,
                      duration=0.0, truncated=False, call_tool=tool)
        return ToolResult(tool=tool, returncode=REFUSED_RC, error=f"refused: {reason}", refused=True, command=command)

    def _publish_process(self, name: str, argv: List[str], raw: RawResult, call_tool: str, duration: float = 0.0) -> None:
        self._publish(tool=name, command=shlex.join(argv), argv=list(argv), returncode=raw.returncode, refused=False,
                      reason=raw.error, duration=duration, truncated=raw.truncated, call_tool=call_tool)

    def _publish(self, **data: Any) -> None:
        if self.events is not None:
            self.events.publish(EventKind.TOOL_CALL, self.session_id, profile=self.profile.name,
                                sandbox=self.sandbox.kind, **data)


def _describe(call: Any) -> str:
    """The command as the caller wrote it, for refusal records."""
    args = getattr(call, "args", None)
    if isinstance(args, dict):
        if isinstance(args.get("command"), str):
            return args["command"]
        if isinstance(args.get("argv"), list):
            return " ".join(map(str, args["argv"]))
    return f"{getattr(call, 'tool', '?')} {args!r}"[:500]
