"""Dry run: what a tool call would start and what it could read and write, with nothing started.

A ``ToolBox`` in dry-run mode (``ragix run --dry-run``) answers its first call by raising
``DryRunStop`` carrying a ``CommandPreview``: the command checked exactly as it would be
(layer 1: the same validator, so a refusal is shown with its reason), and for each process
its confined command line (bubblewrap's own argv when bubblewrap is the layer) with the paths
it may read and write. The run ends there with ``stop_reason = "dry_run"``; nothing was executed.
``preview_command`` previews a command line without raising (a plan's later steps).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from ragix_core.core.stop import StopRun
from ragix_core.core.types import ToolCall
from ragix_core.tools import extra_exec
from ragix_core.tools.home import expand_home
from ragix_core.tools.policy import MODEL_COMMANDS, WRITES_NEED_YES
from ragix_core.tools.refusal import Refusal
from ragix_core.tools.sandbox import interpreter_dirs
from ragix_core.tools.structured import structured_argv

__all__ = ["CommandPreview", "DryRunStop", "DRY_RUN", "preview_call", "preview_command"]

DRY_RUN = "dry_run"  # the stop reason of a dry run


@dataclass
class CommandPreview:
    tool: str
    command: str  # as the caller wrote it
    processes: List[Dict[str, Any]] = field(default_factory=list)  # one per stage: argv, reads, writes, ...
    refused: Optional[str] = None  # layer 1's reason: the command would be refused, not run

    def to_dict(self) -> Dict[str, Any]:
        return {"tool": self.tool, "command": self.command, "processes": self.processes, "refused": self.refused}


class DryRunStop(StopRun):
    """A dry run reached its first tool call: the run stops here, with what that call would do."""

    def __init__(self, preview: CommandPreview):
        super().__init__(DRY_RUN, f"dry run: stopped before running `{preview.command}`")
        self.preview = preview


def _in_process(argv: List[str], root: str) -> Dict[str, Any]:
    return {"argv": list(argv), "confined_argv": None, "layer": "ragix (in-process, no process started)",
            "reads": [root], "writes": [], "hidden": [], "read_only_inside": [], "network": False}


def _process(box: Any, words: List[str], argv: List[str], writable: bool, extra_ro: List[str] = ()) -> Dict[str, Any]:
    c = box.sandbox.confinement(argv, cwd=box.root, writable=writable, network=box.profile.network and box.limits.network,
                                extra_ro=extra_ro)
    return {"argv": list(words), "confined_argv": c["argv"], "layer": c["layer"], "reads": c["reads"],
            "writes": c["writes"], "hidden": c["hidden"], "read_only_inside": c["read_only_inside"],
            "network": c["network"]}


def _stages(box: Any, stages: List[Any]) -> List[Dict[str, Any]]:
    out = []
    for stage in stages:
        words = list(stage.words or stage.argv)
        if stage.argv and stage.argv[0] in MODEL_COMMANDS:
            out.append(_in_process(words, box.root))
        else:
            out.append(_process(box, words, list(stage.argv), bool(stage.writes and box.profile.writes)))
            if stage.writes and box.profile.approval and not box.assume_yes:
                # As ToolBox._approve_write would decide it.
                out[-1]["approval"] = "you are asked first" if box.interactive else f"refused: {WRITES_NEED_YES}"
    redirect = stages[-1].redirect if stages else None
    if redirect:  # ragix itself writes the pipeline's output to the file
        target = box.guard.write(redirect[0])
        out.append({"argv": [">>" if redirect[1] else ">", redirect[0]], "confined_argv": None,
                    "layer": "ragix (in-process, path checked)", "reads": [], "writes": [target], "hidden": [],
                    "read_only_inside": [], "network": False})
    return out


def preview_call(box: Any, call: Any) -> CommandPreview:
    """What ``box.run(call)`` would do, checked by layer 1 as it would be; nothing is started."""
    tool = str(getattr(call, "tool", "?"))
    args = call.args if isinstance(getattr(call, "args", None), dict) else {}
    shown = str(args.get("command") or (shlex.join(map(str, args["argv"])) if isinstance(args.get("argv"), list)
                                        else f"{tool} {args}" if args else tool))
    preview = CommandPreview(tool, shown)
    try:
        if not box.profile.starts_processes:
            raise Refusal(f"profile '{box.profile.name}' runs no tools")
        if tool not in box.executors:
            raise Refusal(f"unknown or disallowed tool {tool!r} in profile '{box.profile.name}' "
                          f"(allowed: {', '.join(box.allowed_tools)})")
        if tool == "shell":
            stages = box.validator.command(expand_home(shown) if box.home_is_root else shown) \
                if isinstance(args.get("command"), str) \
                else [box.validator.stage(list(args.get("argv") or []))]
            preview.processes = _stages(box, stages)
        elif tool == "python":
            argv = extra_exec.python_argv(extra_exec.python_code(args))
            preview.command = "python -c <code>"
            preview.processes = [_process(box, ["python", "-c", "<code>"], argv, box.profile.writes,
                                          list(interpreter_dirs()))]
        elif tool == "operator":
            preview.processes = [_in_process(["operator", extra_exec.operator_request(args).decode()], box.root)]
            preview.processes[0]["reads"] = []
        elif tool == "write_file":
            from ragix_core.tools.writes import check_write_file

            preview.processes = [{"argv": ["write_file", str(args.get("path"))], "confined_argv": None,
                                  "layer": "ragix (in-process, path checked)", "reads": [],
                                  "writes": [check_write_file(args, box.guard)], "hidden": [],
                                  "read_only_inside": [], "network": False}]
        elif tool in box.profile.tools:
            argv = [tool] + structured_argv(tool, args)
            preview.command = shlex.join(argv)
            preview.processes = _stages(box, [box.validator.stage(argv)])
        else:  # a tool of an MCP server: it runs in that server, under the server's own confinement
            preview.processes = [{"argv": [tool], "confined_argv": None, "layer": "MCP server (its own process)",
                                  "reads": ["(the server's)"], "writes": ["(the server's)"], "hidden": [],
                                  "read_only_inside": [], "network": False}]
    except Refusal as exc:
        preview.refused = exc.reason
    except (TypeError, ValueError, OverflowError) as exc:
        preview.refused = f"{tool}: bad arguments ({exc})"
    return preview


def preview_command(box: Any, command: str) -> CommandPreview:
    """A command line's preview (a plan's later steps, which a dry run never reaches)."""
    return preview_call(box, ToolCall("shell", {"command": command}))
