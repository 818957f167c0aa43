"""`ragix tutor GOAL`: the proof game (spec 002 §3.4) — the model moves, a deterministic tutor judges.

    ragix tutor "How many ERROR lines are in logs/app.log?" --accept 'match_count("logs/app.log", "ERROR", ?n)'
    ragix tutor "Which file defines main?" --json --export-mermaid proof.mmd

Exit codes: 0 the tutor accepted the answer (won), 1 the game ended without a proven answer, 2 usage or
configuration error (a bad --accept pattern, a bad rule file, a missing directory).
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

import typer
from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ragix_core.cli import app
from ragix_core.core.event_lines import event_line
from ragix_core.cli.progress import follow_run
from ragix_core.core.events import Event, EventKind

__all__ = ["tutor_command", "TutorView", "tutor_line"]

STATUS_STYLE = {"accepted": "green", "won": "bold green", "held": "yellow", "rejected": "red"}


def _short(text: Any, limit: int) -> str:
    s = " ".join(str(text or "").split())
    return s if len(s) <= limit else s[: limit - 1] + "…"


def tutor_line(event: Event) -> Optional[str]:
    """One plain line per event worth a line (stderr off a terminal): moves and verdicts as `ragix trace show`
    prints them, commands indented under their move."""
    d = event.data
    if event.kind == EventKind.TOOL_CALL:
        flag = "REFUSED " if d.get("refused") else ""
        return f"  $ {flag}{_short(d.get('command'), 140)}  (rc={d.get('returncode')})"
    if event.kind == EventKind.LLM_CALL:
        return None if d.get("ok", True) else f"  llm error: {_short(d.get('error'), 200)}"
    return event_line(event)


class TutorView:
    """Moves, verdicts and score as they happen (Rich, on a terminal)."""

    def __init__(self, goal: str, max_turns: int) -> None:
        self.goal, self.max_turns = goal, max_turns
        self.rows: List[Dict[str, Any]] = []
        self.pending: Optional[str] = None
        self.score = 0
        self.tokens = [0, 0]
        self.started = time.time()
        self._lock = threading.Lock()

    def __call__(self, event: Event) -> None:
        with self._lock:
            d = event.data
            if event.kind == EventKind.MOVE:
                self.pending = f"turn {d.get('turn')}: {d.get('text')}"
            elif event.kind == EventKind.VERDICT:
                v = d.get("verdict") or {}
                self.rows.append(v)
                self.score = v.get("score", self.score)
                self.pending = None
            elif event.kind == EventKind.LLM_CALL:
                self.tokens[0] += int(d.get("prompt_tokens") or 0)
                self.tokens[1] += int(d.get("completion_tokens") or 0)

    def __rich__(self) -> Panel:
        with self._lock:
            head = Text.assemble(("turn ", "dim"), f"{len(self.rows)}/{self.max_turns}", ("   score ", "dim"),
                                 (str(self.score), "bold"), ("   tokens ", "dim"), f"{self.tokens[0]}+{self.tokens[1]}",
                                 ("   elapsed ", "dim"), f"{time.time() - self.started:.0f}s")
            table = Table(show_header=True, box=None, padding=(0, 1), header_style="dim")
            for col in ("#", "move", "verdict", "pts", "reason"):
                table.add_column(col)
            for v in self.rows[-12:]:
                table.add_row(str(v.get("turn")), _short(v.get("text"), 60),
                              Text(f"{v.get('status')} ({v.get('kind')})", style=STATUS_STYLE.get(v.get("status"), "")),
                              f"{v.get('points'):+d}", _short(v.get("reason"), 90))
            parts: List[Any] = [head, table]
            if self.pending:
                parts.append(Text(f"{_short(self.pending, 100)} … the tutor is checking", style="cyan"))
            return Panel(Group(*parts), title=_short(self.goal, 80), border_style="blue")


def _fail(err: Console, message: str) -> None:
    err.print(f"[red]error:[/red] {escape(message)}", highlight=False)
    raise typer.Exit(2)


def _export(report: Dict[str, Any], json_path: Optional[Path], mermaid_path: Optional[Path], err: Console) -> None:
    from ragix_core.reasoning_tutor.graph import ProofGraph

    if not (json_path or mermaid_path) or not report.get("graph"):
        return
    graph = ProofGraph.from_json(report["graph"])
    if json_path:
        data = {**graph.to_json(), "moves": report.get("moves", []), "log": report.get("graph_log")}
        json_path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        err.print(f"proof graph (JSON): {json_path}", highlight=False, markup=False)
    if mermaid_path:
        mermaid_path.write_text(graph.to_mermaid(), encoding="utf-8")
        err.print(f"proof graph (Mermaid): {mermaid_path}", highlight=False, markup=False)


@app.command("tutor")
def tutor_command(
    goal: str = typer.Argument(..., help="The question or task, in plain words."),
    cwd: Path = typer.Option(Path("."), "--cwd", help="Project directory the actions run in (confined to it)."),
    model: Optional[str] = typer.Option(None, "--model", help="Model for the player: a GGUF path or a server model."),
    max_turns: int = typer.Option(8, "--max-turns", min=1, max=100, help="Moves the player may make."),
    accept: List[str] = typer.Option([], "--accept", help="Acceptance criterion: a claim pattern the proof must "
                                     "meet, e.g. 'line_count(\"README.md\", ?n)' (repeatable; ?name values must "
                                     "be stated by the answer). Default: one validated truth."),
    rules: List[Path] = typer.Option([], "--rules", help="Extra rule file (YAML, see docs/TUTOR.md); repeatable."),
    truths_before_write: int = typer.Option(2, "--truths-before-write", min=0,
                                            help="Validated truths needed before a write action is allowed."),
    profile: Optional[str] = typer.Option(None, "--profile", help="safe | dev | sovereign (default: config, else dev)."),
    config_path: Optional[Path] = typer.Option(None, "--config", help="ragix.yaml to use."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Let the tutor allow write actions (dev profile); without "
                             "it every write is refused."),
    as_json: bool = typer.Option(False, "--json", help="Print the game as JSON on stdout."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the final answer."),
    export_json: Optional[Path] = typer.Option(None, "--export-json", help="Write the proof graph as JSON here."),
    export_mermaid: Optional[Path] = typer.Option(None, "--export-mermaid", help="Write the proof graph as Mermaid."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Number the game's sampled model calls from this seed: "
                                       "the same game twice draws the same moves (where the backend takes seeds)."),
) -> None:
    """Play the proof game on GOAL: every claim needs evidence from a confined command, and the answer may
    state only what the tutor validated."""
    from ragix_core.config import ConfigError, load_config
    from ragix_core.core.events import EventBus
    from ragix_core.profiles import ProfileError
    from ragix_core.reasoning_tutor.game import OptionsError, parse_accept
    from ragix_core.reasoning_tutor.rules import RuleError, load_rules
    from ragix_core.runtime.run import run_goal

    err = Console(stderr=True)
    cwd = cwd.expanduser()
    if not cwd.is_dir():
        _fail(err, f"--cwd {cwd} is not a directory")
    try:
        parse_accept(accept)
        load_rules(rules)
        config = load_config(config_path, cwd=cwd)
    except (OptionsError, RuleError, ConfigError) as exc:
        _fail(err, str(exc))
    for path in (export_json, export_mermaid):
        if path is not None and not path.expanduser().resolve().parent.is_dir():
            _fail(err, f"cannot write {path}: its directory does not exist")

    bus = EventBus()
    live = None
    if not (as_json or quiet):
        live = follow_run(bus, err, TutorView(goal, max_turns), tutor_line)
    meta = {"tutor": {"accept": list(accept), "max_turns": max_turns, "truths_before_write": truths_before_write,
                      "rules": [str(p) for p in rules]}}
    try:
        if live:
            live.start()
        result = run_goal(goal, cwd=cwd, config=config, strategy="tutor", model=model, events=bus, profile=profile,
                          assume_yes=yes, meta=meta, seed=seed)
    except (ConfigError, ProfileError, ValueError) as exc:
        if live:
            live.stop()
        _fail(err, str(exc))
    finally:
        if live and live.is_started:
            live.stop()

    state = result.state
    report = state.meta.get("tutor") or {}
    won = bool(report.get("won"))
    _export(report, export_json, export_mermaid, err)
    if as_json:
        truths = [t for t in (report.get("graph") or {}).get("truths", [])]
        print(json.dumps({
            "final_answer": state.final_answer, "won": won, "score": report.get("score"), "turns": report.get("turns"),
            "stop_reason": state.stop_reason, "moves": report.get("moves", []),
            "truths": [{"id": t["id"], "claim": t["claim"], "grounded": t["grounded"]} for t in truths],
            "accept": report.get("accept", []), "tally": report.get("tally"), "usage": result.usage,
            "session_id": result.session_id, "wall_time": round(result.wall_time, 3),
            "graph_log": report.get("graph_log"), "error": state.last_error,
        }, ensure_ascii=False, indent=2))
    elif quiet:
        print(state.final_answer or "")
    else:
        Console().print(Panel(state.final_answer or "(no answer)", title="proven answer" if won else "not proven",
                              border_style="green" if won else "yellow"))
        u = result.usage
        err.print(f"[dim]stop: {state.stop_reason} · score {report.get('score')} · turns {report.get('turns')} · "
                  f"llm calls {u['llm_calls']} ({u['prompt_tokens']}+{u['completion_tokens']} tokens) · "
                  f"{result.wall_time:.1f}s · proof graph {report.get('graph_log')}[/dim]", highlight=False)
    raise typer.Exit(0 if won else 1)
