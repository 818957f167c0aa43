"""How a finished run is told on the terminal, and the exit code its stop maps to: one place for
`ragix run` and `ragix ask`, so an answer's caveat and a Ctrl-C's 130 are never lost on one of them."""

from __future__ import annotations

from typing import Any, Optional

from rich.console import Console
from rich.markdown import Markdown
from rich.panel import Panel

__all__ = ["EXIT_ABORTED", "exit_code", "print_run"]

EXIT_ABORTED = 130  # the shell's code for a program ended by SIGINT


def exit_code(stop_reason: Optional[str]) -> int:
    """0 success (or a dry run shown), 130 stopped with Ctrl-C, 1 any other stop."""
    if stop_reason == "user_abort":
        return EXIT_ABORTED
    return 0 if stop_reason in ("success", "dry_run") else 1


def print_run(result: Any, err: Console, quiet: bool = False) -> None:
    """The answer (a panel, or the bare text with ``quiet``), its caveat (a disputed or unconfirmed
    answer says so under it), and on stderr the run's figures and last error."""
    state = result.state
    if quiet:
        print(state.final_answer or "")
        return
    out = Console()
    style = "green" if state.stop_reason == "success" else "yellow"
    out.print(Panel(Markdown(state.final_answer or "(no answer)"), title="answer", border_style=style))
    if state.meta.get("caveat"):
        out.print(f"ragix: {state.meta['caveat']}", style="yellow", highlight=False, markup=False)
    u = result.usage
    err.print(f"[dim]stop: {state.stop_reason} · complexity: {state.complexity.value} · steps: "
              f"{len(state.executed_steps)} · reflections: {state.reflection_count} · llm calls: {u['llm_calls']} "
              f"({u['prompt_tokens']}+{u['completion_tokens']} tokens) · {result.wall_time:.1f}s · "
              f"session {result.session_id}[/dim]")
    if state.stop_reason != "success" and state.last_error:
        err.print("last error: " + state.last_error, style="yellow", highlight=False, markup=False)
