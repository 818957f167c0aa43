"""`ragix chat`: the conversational agent of spec 003, interactive or one message at a time.

    ragix chat                                   interactive session (a new one, or --session ID)
    ragix chat --session ID [--json] "message"   answer one message in that session and exit
    ragix chat --list | --show ID | --delete ID  the stored sessions

Sessions live in SQLite under $RAGIX_HOME (chat.store), so separate processes
continue one conversation. Exit codes: 0 answered, 1 finished without success
(the answer says why), 2 usage or configuration error, 130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

import typer
from rich.console import Console
from rich.live import Live
from rich.table import Table
from rich.text import Text

from ragix_core.cli import app
from ragix_core.cli.chat_view import ChatView, answer_panel, plain_line, steps_renderable
from ragix_core.cli.progress import follow_run
from ragix_core.config import ConfigError, load_config
from ragix_core.core.events import EventBus

__all__ = ["chat"]

HELP_LINE = "/new starts a new conversation · /history · /steps shows the last answer's thinking · /quit"


def _fail(err: Console, message: str, code: int = 2) -> None:
    err.print(f"[red]error:[/red] {message}", markup=True, highlight=False, soft_wrap=True)
    raise typer.Exit(code)


@app.command("chat")
def chat(
    message: Optional[str] = typer.Argument(None, help="One message to answer, then exit. Without it: an "
                                                       "interactive session."),
    session: Optional[str] = typer.Option(None, "--session", "-s", help="Session to continue (created if new)."),
    as_json: bool = typer.Option(False, "--json", help="Print the turn as JSON (session_id, thread_id, "
                                                       "final_answer, reasoning, tool_calls...)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the answer."),
    steps: bool = typer.Option(False, "--steps", help="Keep the thinking steps expanded after the answer."),
    list_sessions: bool = typer.Option(False, "--list", help="List the stored sessions."),
    show: Optional[str] = typer.Option(None, "--show", metavar="SESSION", help="Show a stored session."),
    delete: Optional[str] = typer.Option(None, "--delete", metavar="SESSION", help="Delete a stored session."),
    docs: Optional[Path] = typer.Option(None, "--docs", help="Directory of documents the search tool reads "
                                        "(Markdown, text, HTML, PDF; through the index `ragix research index` "
                                        "builds; remembered by the session)."),
    cwd: Path = typer.Option(Path("."), "--cwd", help="Directory the REPL may read (read-only)."),
    profile: Optional[str] = typer.Option(None, "--profile", help="safe | dev | sovereign (default: config)."),
    model: Optional[str] = typer.Option(None, "--model", help="Model for every role: a GGUF path or a server "
                                                              "model name."),
    max_steps: Optional[int] = typer.Option(None, "--max-steps", min=1, max=200,
                                            help="Reasoning steps per question (default: chat.max_reasoning_steps)."),
    config_path: Optional[Path] = typer.Option(None, "--config", help="ragix.yaml to use."),
) -> None:
    """Talk with the reasoning agent: it thinks in visible steps, uses repl / operator / search, then answers."""
    from ragix_core.chat.store import ChatStore, StoreError
    from ragix_core.memory.traces import validate_session_id

    err = Console(stderr=True)
    modes = [bool(list_sessions), show is not None, delete is not None]
    if sum(modes) > 1 or (any(modes) and message is not None):
        _fail(err, "--list, --show and --delete go alone (no message, not together)")
    if as_json and message is None and not (list_sessions or show):
        _fail(err, "--json needs a message (or --list / --show)")
    cwd = cwd.expanduser()
    if not cwd.is_dir():
        _fail(err, f"--cwd {cwd} is not a directory")
    if docs is not None and not docs.expanduser().is_dir():
        _fail(err, f"--docs {docs} is not a directory")
    try:
        config = load_config(config_path, cwd=cwd)
        for sid in (session, show, delete):
            if sid is not None:
                validate_session_id(sid)
        store = ChatStore(config.chat.store)
    except (ConfigError, ValueError) as exc:
        _fail(err, str(exc))
        return
    if list_sessions:
        _list(store, as_json)
        return
    if show is not None:
        _show(store, show, as_json, err)
        return
    if delete is not None:
        try:
            with store.lock(delete, timeout=5.0):
                store.delete_session(delete)
        except StoreError as exc:
            _fail(err, str(exc))
        err.print(f"deleted session {delete}")
        return

    from ragix_core.runtime.run import _apply_model_overrides
    from ragix_core.profiles import ProfileError, get_profile

    try:
        config = _apply_model_overrides(config, model, None)
        agent_profile = get_profile(profile or config.profile)
    except (ProfileError, ValueError) as exc:
        _fail(err, str(exc))
        return
    turn = _Turn(store, config, agent_profile, cwd, str(docs) if docs else None, max_steps, err)
    if message is not None:
        raise typer.Exit(turn.one_shot(session or _new_session_id(), message, as_json, quiet, steps))
    raise typer.Exit(turn.interactive(session or _new_session_id(), steps))


def _new_session_id() -> str:
    from ragix_core.runtime.context import new_session_id

    return "chat-" + new_session_id()


class _Turn:
    """Runs turns for the command: live view on a terminal, plain lines otherwise."""

    def __init__(self, store: Any, config: Any, profile: Any, cwd: Path, docs: Optional[str],
                 max_steps: Optional[int], err: Console) -> None:
        self.store, self.config, self.profile, self.cwd = store, config, profile, cwd
        self.docs, self.max_steps, self.err = docs, max_steps, err
        self.out = Console()
        self.last: Any = None

    def run(self, session_id: str, message: str, *, show_progress: bool, keep_steps: bool) -> Any:
        from ragix_core.chat.session import run_turn

        bus = EventBus()
        view = ChatView()
        live: Optional[Live] = None
        if show_progress:
            live = follow_run(bus, self.err, view, plain_line, transient=True)
        waiting = lambda: self.err.print(f"[dim]waiting: another ragix chat is answering in session "  # noqa: E731
                                         f"{session_id}[/dim]")
        try:
            if live:
                live.start()
            result = run_turn(self.store, session_id, message, cwd=self.cwd, config=self.config,
                              profile=self.profile, docs=self.docs, events=bus,
                              max_reasoning_steps=self.max_steps, on_wait=waiting)
        finally:
            if live and live.is_started:
                live.stop()
        if live:
            self.err.print(steps_renderable(view.entries) if keep_steps else view.summary())
        self.last = result
        return result

    def one_shot(self, session_id: str, message: str, as_json: bool, quiet: bool, keep_steps: bool) -> int:
        from ragix_core.chat.store import StoreError
        from ragix_core.profiles import ProfileError

        try:
            result = self.run(session_id, message, show_progress=not (as_json or quiet), keep_steps=keep_steps)
        except KeyboardInterrupt:
            self.err.print("[yellow]interrupted[/yellow] (the question is kept in the session as user_abort)")
            return 130
        except (ConfigError, ProfileError, StoreError, ValueError) as exc:
            self.err.print(f"[red]error:[/red] {exc}", highlight=False)
            return 2
        if as_json:
            print(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
        elif quiet:
            print(result.final_answer)
        else:
            view = result.to_dict()
            self.out.print(answer_panel(result.final_answer, result.stop_reason, view["citations"]))
            for note in result.notes:
                self.err.print(f"[dim]not available: {note}[/dim]", highlight=False)
            u = result.usage
            self.err.print(f"[dim]session {result.session_id} · thread {result.thread_id} · stop: {result.stop_reason} "
                           f"· llm calls: {u.get('llm_calls')} ({u.get('prompt_tokens')}+"
                           f"{u.get('completion_tokens')} tokens) · {result.wall_time:.1f}s[/dim]", highlight=False)
            self.err.print(f"[dim]continue with: ragix chat --session {result.session_id} \"...\"[/dim]",
                           highlight=False)
        return 0 if result.succeeded else 1

    def interactive(self, session_id: str, keep_steps: bool) -> int:
        from ragix_core.chat.store import StoreError
        from ragix_core.profiles import ProfileError

        self.err.print(f"[bold]ragix chat[/bold] · session {session_id}\n[dim]{HELP_LINE}[/dim]", highlight=False)
        while True:
            try:
                line = self.out.input("[bold cyan]you>[/bold cyan] ").strip()
            except EOFError:
                self.err.print()
                return 0
            except KeyboardInterrupt:  # Ctrl-C at the prompt clears the line, as in a shell
                self.err.print()
                continue
            if not line:
                continue
            if line.startswith("/"):
                command = line.split()[0].lower()
                if command in ("/quit", "/exit", "/q"):
                    return 0
                if command == "/new":
                    session_id = _new_session_id()
                    self.last = None
                    self.err.print(f"[dim]new conversation: session {session_id}[/dim]", highlight=False)
                elif command == "/history":
                    _print_threads(self.out, self.store.threads(session_id), full=False)
                elif command == "/steps":
                    if self.last is None:
                        self.err.print("[dim]no answer yet in this conversation[/dim]")
                    else:
                        _print_thread_steps(self.out, self.last.to_dict())
                else:
                    self.err.print(f"[yellow]unknown command {command}[/yellow] · {HELP_LINE}", highlight=False)
                continue
            try:
                result = self.run(session_id, line, show_progress=True, keep_steps=keep_steps)
            except KeyboardInterrupt:
                self.err.print("[yellow]interrupted[/yellow] · the conversation continues")
                continue
            except (ConfigError, ProfileError, StoreError, ValueError) as exc:
                self.err.print(f"[red]error:[/red] {exc}", highlight=False)
                if not self.store.threads(session_id):
                    return 2
                continue
            self.out.print(answer_panel(result.final_answer, result.stop_reason, result.to_dict()["citations"]))


# -- stored sessions -------------------------------------------------------------


def _when(ts: Optional[float]) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(ts)) if ts else "-"


def _list(store: Any, as_json: bool) -> None:
    sessions = store.sessions()
    if as_json:
        print(json.dumps([{"session_id": s.id, "threads": s.threads, "created": s.created, "updated": s.updated,
                           "docs": s.docs, "first_question": s.first_question} for s in sessions],
                         ensure_ascii=False, indent=2))
        return
    if not sessions:
        Console(stderr=True).print(f"no chat sessions in {store.path}")
        return
    table = Table(title=f"chat sessions ({store.path})")
    for col in ("session", "threads", "updated", "first question"):
        table.add_column(col)
    for s in sessions:
        table.add_row(s.id, str(s.threads), _when(s.updated), Text(s.first_question[:70]))
    Console().print(table)


def _thread_dict(store: Any, t: Any) -> Dict[str, Any]:
    from ragix_core.chat.session import thread_view

    return {"thread_id": t.id, "seq": t.seq, "question": t.question, "final_answer": t.final_answer,
            "stop_reason": t.stop_reason if t.finished else "unfinished", "created": t.created,
            "usage": t.usage, **thread_view(store.messages(t.id))}


def _show(store: Any, session_id: str, as_json: bool, err: Console) -> None:
    record = store.session(session_id)
    if record is None:
        _fail(err, f"no chat session {session_id!r} in {store.path}")
    threads = [_thread_dict(store, t) for t in store.threads(session_id)]
    if as_json:
        print(json.dumps({"session_id": record.id, "created": record.created, "docs": record.docs,
                          "threads": threads}, ensure_ascii=False, indent=2))
        return
    out = Console()
    out.print(f"[bold]session {record.id}[/bold] · created {_when(record.created)}"
              + (f" · docs {record.docs}" if record.docs else ""), highlight=False)
    _print_threads(out, threads, full=True)


def _print_threads(out: Console, threads: List[Any], full: bool) -> None:
    if not threads:
        out.print("[dim](no questions yet)[/dim]")
    for t in threads:
        t = t if isinstance(t, dict) else {"seq": t.seq, "question": t.question, "final_answer": t.final_answer,
                                           "stop_reason": t.stop_reason if t.finished else "unfinished"}
        out.print(Text(f"#{t['seq']} you: {t['question']}", style="bold"))
        if full:
            _print_thread_steps(out, t)
        answer = t.get("final_answer") or "(no answer)"
        out.print(Text(f"   answer ({t.get('stop_reason')}): ", style="dim") + Text(answer if full else answer[:300]))


def _print_thread_steps(out: Console, view: Dict[str, Any]) -> None:
    entries: List[Dict[str, Any]] = []
    calls = {c.get("step"): c for c in view.get("tool_calls") or []}
    for r in view.get("reasoning") or []:
        entries.append({"kind": "step", "step": r.get("step"), "thinking": r.get("thinking"),
                        "action": r.get("action"), "input": r.get("tool_input"), "error": r.get("error")})
        call = calls.get(r.get("step"))
        if call is not None:
            entries.append({"kind": "tool", "tool": call.get("tool"), "output": call.get("output"),
                            "error": call.get("error")})
    out.print(steps_renderable(entries))
