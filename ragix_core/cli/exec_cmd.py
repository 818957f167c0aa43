"""`ragix exec`: run one command through exactly the path the engines use.

    ragix exec --profile reflect --root . "find . -name '*.md' | xargs wc -l"
    ragix exec --json -- ls -la          (several words: an argv, no pipes)

Exit codes follow the CLI: 0 the command succeeded (a search that found nothing and a diff that
found the files differ answered too: "no_match" and "answer_exit" in the JSON), 1 it ran and failed,
2 usage or configuration error, 3 refused by the confinement layer (a JSON
object with "refused": true and the reason is printed either way).
Also registers the tools layer's check for `ragix doctor`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional

import typer

from ragix_core.cli import app

__all__ = ["exec_command", "check_sandbox"]


def _usage_error(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


@app.command("exec", help="Run one command (pipes allowed) confined to a project, as the engines run tools. "
                         "Exit 0 when it answered (a grep that found nothing and a diff of files that differ "
                         "answered), 1 when it failed, 2 on a usage error, 3 when the confinement refused it.")
def exec_command(
    command: List[str] = typer.Argument(..., help="One command string (pipes allowed), or an argv after --."),
    profile: str = typer.Option("reflect", "--profile", help="safe | reflect | dev | sovereign"),
    root: Path = typer.Option(Path("."), "--root", help="Project root the command is confined to."),
    json_out: bool = typer.Option(False, "--json", help="Print the ToolResult as JSON."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Approve writes (dev) without asking."),
    sandbox: str = typer.Option("auto", "--sandbox", help="auto | bwrap | landlock | none"),
    timeout: Optional[float] = typer.Option(None, "--timeout", help="Wall-clock limit in seconds."),
) -> None:
    from ragix_core.core.types import ToolCall
    from ragix_core.tools import Limits, ToolBox

    try:
        limits = Limits(timeout=timeout).validate() if timeout is not None else None
        box = ToolBox(root, profile=profile, assume_yes=yes, limits=limits, sandbox=sandbox)
    except ValueError as exc:
        _usage_error(str(exc))
        return
    if len(command) == 1:
        call = ToolCall("shell", {"command": command[0]})
    else:
        call = ToolCall("shell", {"argv": list(command)})
    result = box.run(call)
    data: Dict[str, Any] = result.to_dict()
    if result.refused:
        data["reason"] = (result.error or "").removeprefix("refused: ")
        typer.echo(json.dumps(data, ensure_ascii=False))
        raise typer.Exit(3)
    if json_out:
        typer.echo(json.dumps(data, ensure_ascii=False))
    else:
        sys.stdout.write(result.stdout)
        sys.stderr.write(result.stderr)
        if result.truncated:
            sys.stderr.write(f"ragix: output truncated at {box.limits.output_bytes} bytes\n")
        if result.error:
            sys.stderr.write(f"ragix: {result.error}\n")
    raise typer.Exit(0 if result.ok else 1)


def check_sandbox(config: Any) -> Dict[str, Any]:
    """Doctor check: which confinement layers are active for tool execution."""
    from ragix_core.tools.bwrap import find_bwrap
    from ragix_core.tools.landlock import landlock_abi

    bwrap, abi = find_bwrap(), landlock_abi()
    layers = {"layer1": True, "bwrap": bwrap or False, "landlock": abi or False}
    if bwrap:
        return {"name": "tool sandbox", "ok": True, "summary": f"layer 1 + bubblewrap ({bwrap})", **layers}
    if abi:
        return {"name": "tool sandbox", "ok": True, "summary": f"layer 1 + Landlock ABI {abi} (bubblewrap missing: "
                "run scripts/setup_system.sh for PID/network namespaces)", **layers}
    # A warning, not a failure: ragix still runs, with layer-1 validation alone.
    return {"name": "tool sandbox", "ok": None, "summary": "WARNING: layer-1 validation only, no OS sandbox; "
            "run scripts/setup_system.sh (installs bubblewrap). sovereign and python are refused.", **layers}


try:  # the doctor module is another layer's; register only if it is present
    from ragix_core.cli.doctor_cmd import register_check

    register_check(check_sandbox)
except ImportError:  # pragma: no cover
    pass
