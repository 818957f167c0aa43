"""`ragix research QUESTION --docs DIR` and `ragix research index DIR`: deep research over local documents.

    ragix research "How do I rotate the signing key?" --docs ./manuals --mode strict --sources tiers.yaml
    ragix research index ./manuals            # build or update the index alone, with progress

Exit codes: 0 a verified answer; 1 finished without a whole one (not found, unverified, a partial
answer to a question asking several things, clarification needed, an error Item); 2 usage or
configuration error.
"""

from __future__ import annotations

import datetime as _dt
import json
import sys
import threading
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

import typer
from rich.console import Console, Group
from rich.live import Live
from rich.markdown import Markdown
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text
from typer.core import TyperGroup

from ragix_core.cli import app
from ragix_core.cli.progress import follow_run
from ragix_core.config import ConfigError, load_config
from ragix_core.core.event_lines import research_line
from ragix_core.core.events import Event, EventBus, EventKind

__all__ = ["research_app", "show_research_logs"]


class _AskByDefault(TyperGroup):
    """`ragix research QUESTION ...` means `ragix research ask QUESTION ...`."""

    def parse_args(self, ctx: Any, args: List[str]) -> List[str]:
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h"):
            args = ["ask"] + list(args)
        return super().parse_args(ctx, args)


research_app = typer.Typer(cls=_AskByDefault, no_args_is_help=True,
                           help="Deep research over local documents: cited answers, source tiers, three modes. "
                                "`ragix research QUESTION --docs DIR ...` is short for `ragix research ask ...`.")
app.add_typer(research_app, name="research")


class _View:
    """The live panel: rounds as they happen, and model usage."""

    def __init__(self, question: str) -> None:
        self.question = question
        self.lines: List[str] = []
        self.calls = 0
        self.tokens = [0, 0]
        self.started = time.time()
        self._lock = threading.Lock()

    def __call__(self, event: Event) -> None:
        with self._lock:
            line = research_line(event)
            if line:
                self.lines.append(line)
            elif event.kind == EventKind.LLM_CALL:
                self.calls += 1
                self.tokens[0] += int(event.data.get("prompt_tokens") or 0)
                self.tokens[1] += int(event.data.get("completion_tokens") or 0)

    def __rich__(self) -> Panel:
        with self._lock:
            head = Text.assemble(("llm calls ", "dim"), str(self.calls), ("   tokens ", "dim"),
                                 f"{self.tokens[0]}+{self.tokens[1]}", ("   elapsed ", "dim"),
                                 f"{time.time() - self.started:.0f}s")
            body = [head] + [Text(line, style="red" if "REJECT" in line else "") for line in self.lines[-12:]]
            return Panel(Group(*body), title=self.question[:80], border_style="blue")


def _date(value: Optional[str], flag: str, err: Console) -> Optional[str]:
    if value is None:
        return None
    try:
        return _dt.date.fromisoformat(value).isoformat()
    except ValueError:
        err.print(f"[red]error:[/red] {flag} {value!r} is not a date (YYYY-MM-DD)", highlight=False)
        raise typer.Exit(2)


def _open_index(docs: Path, index_dir: Optional[Path], err: Console) -> Any:
    from ragix_core.research.index import DocumentIndex, IndexError_

    try:
        return DocumentIndex.open(docs, index_dir)
    except IndexError_ as exc:
        err.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False)
        raise typer.Exit(2)


def _update(index: Any, err: Console, show: bool) -> Any:
    if show and err.is_terminal:
        from rich.progress import Progress

        with Progress(console=err, transient=True) as progress:
            task = progress.add_task("indexing", total=None)
            stats = index.update(progress=lambda n, total, rel: progress.update(task, completed=n, total=total))
    else:
        def plain(n: int, total: int, rel: str) -> None:
            if show and (n % 200 == 0 or n == total):
                print(f"indexing: {n}/{total} files", file=sys.stderr, flush=True)

        stats = index.update(progress=plain)
    return stats


def _stats_line(stats: Any) -> str:
    skipped = ", ".join(f"{n} {why}" for why, n in sorted(stats.skipped.items())) or "none"
    return (f"{stats.documents} documents, {stats.chunks} chunks ({stats.indexed} indexed now, {stats.unchanged} "
            f"unchanged, {stats.removed} removed; skipped: {skipped}) in {stats.seconds:.1f}s")


@research_app.command("index")
def index_cmd(
    docs: Path = typer.Argument(..., help="Directory of Markdown, text, HTML and PDF documents."),
    index_dir: Optional[Path] = typer.Option(None, "--index", help="Where to keep the index (default: DIR/.ragix, "
                                             "or a per-user cache when DIR is read-only)."),
    as_json: bool = typer.Option(False, "--json", help="Print the index statistics as JSON."),
) -> None:
    """Build or update the index of DIR alone (incremental: only new or changed files are read)."""
    err = Console(stderr=True)
    index = _open_index(docs, index_dir, err)
    try:
        stats = _update(index, err, show=not as_json)
    finally:
        index.close()
    if as_json:
        print(json.dumps({**stats.to_dict(), "index": str(index.db_path)}, indent=2))
    else:
        print(f"{_stats_line(stats)}\nindex: {index.db_path}")
        for example in stats.skipped_examples[:10]:
            print(f"  skipped {example}")
    raise typer.Exit(0 if stats.documents else 1)


@research_app.command("ask")
def ask(
    question: str = typer.Argument(..., help="What you want to know, in plain words."),
    docs: Path = typer.Option(..., "--docs", help="Directory of the documents to research."),
    mode: Optional[str] = typer.Option(None, "--mode", help="strict | discovery | monitor (default: what the question "
                                       "asks for, e.g. 'only from official docs', else research.default_mode)."),
    sources: Optional[Path] = typer.Option(None, "--sources", help="YAML mapping document globs to sources and tiers."),
    as_json: bool = typer.Option(False, "--json", help="Print the result (a list of NLWeb Items) as JSON."),
    max_iterations: Optional[int] = typer.Option(None, "--max-iterations", min=1, max=10, help="Analyst rounds at most."),
    since: Optional[str] = typer.Option(None, "--since", help="Only documents dated on or after DATE (YYYY-MM-DD); "
                                        "without --since/--until, a range the question states ('since 2023')."),
    until: Optional[str] = typer.Option(None, "--until", help="Only documents dated on or before DATE (YYYY-MM-DD)."),
    index_dir: Optional[Path] = typer.Option(None, "--index", help="Where the index is kept (see `research index`)."),
    config_path: Optional[Path] = typer.Option(None, "--config", help="ragix.yaml to use (default: DIR/ragix.yaml, then $RAGIX_HOME)."),
    model: Optional[str] = typer.Option(None, "--model", help="Model for every agent: a GGUF path or a server model name."),
    choose: Optional[int] = typer.Option(None, "--choose", min=1, help="When the question is ambiguous, research "
                                         "its N-th reading at once (default: asked at a terminal, else listed)."),
) -> None:
    """Answer QUESTION from the documents under --docs, citing them (exit 0 only for a verified answer).

    A question the documents answer several ways (two documents "Name (qualifier)", changes with no
    start) gets its readings numbered: at a terminal ragix asks which one and researches it; otherwise
    they are listed and `--choose N` researches the N-th."""
    from ragix_core.core.registry import get_engine
    from ragix_core.profiles import ProfileError, get_profile
    from ragix_core.research.orchestrator import DeepResearchOrchestrator
    from ragix_core.research.settings import load_settings
    from ragix_core.runtime.context import RunContext

    err = Console(stderr=True)
    docs = docs.expanduser()
    if not docs.is_dir():
        err.print(f"[red]error:[/red] --docs {docs} is not a directory", highlight=False)
        raise typer.Exit(2)
    if mode is not None and mode not in ("strict", "discovery", "monitor"):
        err.print(f"[red]error:[/red] --mode {mode!r}: modes are strict, discovery, monitor", highlight=False)
        raise typer.Exit(2)
    temporal = {k: v for k, v in (("since", _date(since, "--since", err)), ("until", _date(until, "--until", err))) if v}
    try:
        config = load_config(config_path, cwd=docs)
        settings = load_settings(config, sources)
    except ConfigError as exc:
        err.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False)
        raise typer.Exit(2)
    if max_iterations is not None:
        settings.reasoning.max_iterations = max_iterations
    index = _open_index(docs, index_dir, err)
    stats = _update(index, err, show=not as_json)
    if not as_json:
        err.print(f"[dim]index: {_stats_line(stats)}[/dim]", highlight=False)
    data = config.model_dump()
    data["research"] = settings.model_dump()
    data["reasoning"]["experience"]["enabled"] = False  # a research run is not a shell-goal experience
    data["reasoning"]["traces"]["path"] = str(Path(index.location).resolve() / "reasoning_traces")
    if model:
        data["llm"]["default"]["model"] = model
        for role, override in data["llm"].items():
            if role != "default" and isinstance(override, dict):
                override["model"] = None
    run_config = type(config).model_validate(data)

    bus = EventBus()
    view = _View(question)
    live: Optional[Live] = None
    if not as_json:
        live = follow_run(bus, err, view, research_line)
    try:
        # The run's own folder is the index's: research reads the collection through the index and runs no
        # tool in it, and a collection may sit where no project may (/usr/share/doc/git-doc).
        ctx = RunContext.open(cwd=Path(index.location).resolve(), config=run_config,
                              profile=get_profile(run_config.profile), engine=get_engine("research"), events=bus)
    except (ConfigError, ProfileError, ValueError) as exc:
        err.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False)
        index.close()
        raise typer.Exit(2)
    try:
        if live:
            live.start()
        orch = DeepResearchOrchestrator.from_context(ctx, index, settings)
        items = orch.run_research(question, mode, temporal_context=temporal or None)
        options = items[0]["schema_object"].get("options") or []
        if options and (choose is not None or (not as_json and _at_a_terminal())):
            if live and live.is_started:
                live.stop()
            picked = _pick(items[0]["schema_object"], choose, err)
            if picked is not None:
                err.print(f"[dim]researching: {escape(picked['query'])}[/dim]", highlight=False)
                items = orch.run_research(picked["query"], mode, temporal_context=temporal or None)
        elif choose is not None:
            err.print(f"[dim]--choose {choose} ignored: the question was not ambiguous[/dim]",
                      highlight=False)
    finally:
        if live and live.is_started:
            live.stop()
        ctx.close()
        index.close()
    item = items[0]
    schema = item["schema_object"]
    if as_json:
        print(json.dumps(items, ensure_ascii=False, indent=2))
    else:
        style = {"ANSWERED": "green", "ERROR": "red"}.get(schema.get("status"), "yellow")
        Console().print(Panel(Markdown(item["description"] or "(empty)"), title=item["name"], border_style=style))
        u = ctx.usage()
        err.print(f"[dim]status: {schema.get('status')} · mode: {schema.get('mode')} · confidence: "
                  f"{schema.get('confidence', '-')} · rounds: {schema.get('iterations')} · llm calls: {u['llm_calls']} "
                  f"({u['prompt_tokens']}+{u['completion_tokens']} tokens) · {orch.last_run.get('seconds', 0):.1f}s · "
                  f"logs: {orch.last_run.get('log_dir')}[/dim]", highlight=False)
        err.print(escape(_choices_line(orch.last_run)), highlight=False)
    raise typer.Exit(0 if schema.get("status") == "ANSWERED" else 1)


def _at_a_terminal() -> bool:
    return sys.stdin.isatty() and sys.stderr.isatty()


def _pick(clarification: Dict[str, Any], choose: Optional[int], err: Console) -> Optional[Dict[str, Any]]:
    """The reading to research: the --choose'th, else the one the user types at the terminal (None: stop
    with the readings listed, exit 1). A number out of range is a usage error (exit 2)."""
    options = clarification["options"]
    if choose is not None:
        if choose > len(options):
            err.print(f"[red]error:[/red] --choose {choose}: the question has {len(options)} readings "
                      f"(1 to {len(options)}): " + "; ".join(escape(o["label"]) for o in options), highlight=False)
            raise typer.Exit(2)
        return options[choose - 1]
    err.print(escape(clarification.get("question") or "Which one do you mean?"), highlight=False)
    for n, o in enumerate(options, 1):
        err.print(f"  {n}. {escape(o['label'])}", highlight=False)
    while True:
        reply = typer.prompt(f"Research which one (1-{len(options)}, Enter to stop)", default="",
                             show_default=False, err=True).strip()
        if not reply:
            return None
        if reply.isdigit() and 1 <= int(reply) <= len(options):
            return options[int(reply) - 1]
        err.print(f"type a number from 1 to {len(options)}, or Enter to stop", highlight=False)


def _choices_line(last_run: Dict[str, Any]) -> str:
    """Which mode and dates the run used, and why (flag, the question's words, or the config)."""
    choice = last_run.get("mode_choice") or {}
    dates = last_run.get("time_range") or {}
    return f"mode {choice.get('mode')}: {choice.get('reason')}. Dates: {dates.get('reason')}."


def show_research_logs(folder: Path, as_json: bool = False) -> None:
    """Render one query's iteration logs (used by `ragix trace show FOLDER`)."""
    from ragix_core.research.utils.iteration_logger import read_iteration_logs

    logs = read_iteration_logs(folder)
    if as_json:
        print(json.dumps(logs, ensure_ascii=False, indent=2, default=str))
        return
    table = Table(title=f"research {folder.name}", show_lines=False)
    table.add_column("round", justify="right", style="dim")
    table.add_column("agent")
    table.add_column("what")
    for turn in logs["turns"]:
        if "error" in turn and "agent" not in turn:
            table.add_row("", "?", f"(unreadable {turn['file']}: {turn['error']})")
            continue
        table.add_row(str(turn.get("iteration")), str(turn.get("agent")), _turn_summary(turn))
    Console().print(table)
    s = logs["summary"]
    if s:
        meta = s.get("metadata") or {}
        Console().print(f"final: {s.get('final_status')} · mode {s.get('mode')} · rounds {s.get('total_iterations')} · "
                        f"answer: {meta.get('answer')!r} · citations: "
                        + ", ".join(c.get("chunk", "?") for c in meta.get("citations") or []), highlight=False)


def _turn_summary(turn: Dict[str, Any]) -> str:
    out = turn.get("output_response")
    if not isinstance(out, dict):
        return str(out)[:200]
    agent = turn.get("agent")
    if agent == "search":
        if "ran" in out:
            return "; ".join(f"{r['query']!r}: {len(r['hits'])} hits, {len(r['added'])} new" for r in out["ran"]) or "nothing run"
        return f"{len(out.get('chunks', []))} chunks: " + ", ".join(out.get("chunks", [])[:6])
    if agent == "analyst":
        draft = out.get("draft_markdown", "")
        return f"{out.get('status')} {out.get('new_queries') or ''} {draft[:160]}".strip()
    if agent == "critic":
        return f"{out.get('status')} ({out.get('by')}): {str(out.get('critique'))[:200]}"
    if agent == "writer":
        return f"{out.get('status')} confidence {out.get('confidence_level')}: {len(out.get('citations') or [])} citation(s)"
    if agent == "clarification":
        return f"{out.get('question')} options: " + ", ".join(o.get("label", "") for o in out.get("options", []))
    return json.dumps(out)[:200]
