"""`ragix reason QUESTION`: the ContractiveReasoner (spec 002 §4 "3.5") with a live tree.

The answer goes to stdout; the live tree, events and the summary go to stderr. Exit codes:
0 answered, 1 finished without an answer (no usable answer, budget spent, backend down, or a
clarification request: the question was ambiguous), 2 usage or configuration error.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

import typer
from rich.console import Console, Group
from rich.live import Live
from rich.text import Text
from rich.tree import Tree

from ragix_core.cli import app
from ragix_core.core.event_lines import event_line
from ragix_core.config import ConfigError, load_config
from ragix_core.core.events import Event, EventBus, EventKind

__all__ = ["reason", "TreeView", "tree_event_line"]

STATE_STYLE = {"done": "green", "pruned": "dim", "failed": "red", "solve": "yellow", "decompose": "magenta",
               "collapse": "cyan", "pre_review": "blue", "peer_review": "blue"}


def _short(text: Any, limit: int) -> str:
    s = " ".join(str(text or "").split())
    return s if len(s) <= limit else s[: limit - 1] + "…"


def tree_event_line(event: Event) -> Optional[str]:
    """One line per event for --print-events and non-terminal stderr."""
    if event.kind == EventKind.TREE_NODE:
        d = event.data
        h = "-" if d.get("entropy") is None else f"{d['entropy']:.2f}"
        return (f"[n{d.get('node_id')} d{d.get('depth')}] {d.get('state')} H={h} rel={d.get('relevance'):.2f} "
                f"tok={d.get('tokens')} · {_short(d.get('question'), 70)}"
                + (f" -> {_short(d.get('answer'), 40)}" if d.get("answer") else ""))
    return event_line(event)


class TreeView:
    """An EventBus subscriber that renders the tree as it grows (Rich)."""

    def __init__(self, question: str):
        self.question = question
        self.nodes: Dict[int, Dict[str, Any]] = {}
        self.tokens = [0, 0]
        self.calls = 0
        self.started = time.time()
        self._lock = threading.Lock()

    def __call__(self, event: Event) -> None:
        with self._lock:
            if event.kind == EventKind.TREE_NODE:
                self.nodes[int(event.data["node_id"])] = dict(event.data)
            elif event.kind == EventKind.LLM_CALL:
                self.calls += 1
                self.tokens[0] += int(event.data.get("prompt_tokens") or 0)
                self.tokens[1] += int(event.data.get("completion_tokens") or 0)

    def _label(self, d: Dict[str, Any]) -> Text:
        h = "" if d.get("entropy") is None else f" H={d['entropy']:.2f}"
        text = Text.assemble((f"{d.get('state')}", STATE_STYLE.get(d.get("state"), "")), (f"{h} ", "dim"),
                             _short(d.get("question"), 70))
        if d.get("answer"):
            text.append(f"  → {_short(d['answer'], 40)}", style="bold")
        if d.get("peer"):
            text.append(f"  peer: {d['peer']}", style="blue")
        return text

    def __rich__(self) -> Group:
        with self._lock:
            head = Text.assemble(("tree ", "dim"), _short(self.question, 70), ("   llm calls ", "dim"), str(self.calls),
                                 ("   tokens ", "dim"), f"{self.tokens[0]}+{self.tokens[1]}",
                                 ("   elapsed ", "dim"), f"{time.time() - self.started:.0f}s")
            root = self.nodes.get(0)
            if root is None:
                return Group(head)
            tree = Tree(self._label(root))
            branches = {0: tree}
            for node_id in sorted(self.nodes):
                d = self.nodes[node_id]
                parent = branches.get(d.get("parent")) if d.get("parent") is not None else None
                if parent is not None:
                    branches[node_id] = parent.add(self._label(d))
            return Group(head, tree)


def _config(config_path: Optional[Path], cwd: Path, model: Optional[str], peer_model: Optional[str]) -> Any:
    from ragix_core.config import RagixConfig
    from ragix_core.runtime.run import _apply_model_overrides  # the one implementation of --model

    config = _apply_model_overrides(load_config(config_path, cwd=cwd), model, None)
    if peer_model:
        data = config.model_dump()
        data["llm"]["peer"]["model"] = peer_model
        source = config.source
        config = RagixConfig.model_validate(data)
        config.source = source
    return config


@app.command("reason")
def reason(
    question: Optional[str] = typer.Argument(None, help="The question (omit with --chat)."),
    preset: Optional[str] = typer.Option(None, "--preset", help="factual | complex | math | exploration | fast | deep."),
    model: Optional[str] = typer.Option(None, "--model", help="Model for every role: a GGUF path or a server model name."),
    peer_model: Optional[str] = typer.Option(None, "--peer-model", help="Model of the peer reviewer (turns peer review on)."),
    peer: bool = typer.Option(False, "--peer", help="Turn peer review on with the configured peer role."),
    max_depth: Optional[int] = typer.Option(None, "--max-depth", help="Maximum tree depth (0 = never decompose)."),
    threshold: Optional[float] = typer.Option(None, "--entropy-decompose-threshold",
                                              help="Decompose a node when its entropy H is at least this (0..1)."),
    k: Optional[int] = typer.Option(None, "--k", help="Samples per node for the entropy (k_entropy_samples)."),
    clarify: bool = typer.Option(False, "--clarify", help="Ask back when the question reads two ways (S6)."),
    timeout_sec: Optional[float] = typer.Option(None, "--timeout-sec", help="Per model call timeout in seconds (120)."),
    print_events: bool = typer.Option(False, "--print-events", help="Print every event as a line on stderr."),
    export_trace: Optional[Path] = typer.Option(None, "--export-trace", help="Write the run's trace JSON here."),
    export_mermaid: Optional[Path] = typer.Option(None, "--export-mermaid", help="Write the tree as Mermaid here."),
    chat: bool = typer.Option(False, "--chat", help="Interactive session that keeps context (one question a line)."),
    cwd: Path = typer.Option(Path("."), "--cwd", help="Directory whose ragix.yaml applies."),
    config_path: Optional[Path] = typer.Option(None, "--config", help="ragix.yaml to use."),
    profile: Optional[str] = typer.Option(None, "--profile", help="safe | dev | sovereign (model rules)."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object: final_answer, tree, metrics."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the final answer."),
) -> None:
    """Answer QUESTION with entropy-driven tree decomposition (spec 002 §4)."""
    from ragix_core.core.registry import get_engine
    from ragix_core.profiles import ProfileError, get_profile
    from ragix_core.reasoning_slim import ChatSession, ContractiveReasoner, preset as make_preset
    from ragix_core.runtime.context import RunContext

    err = Console(stderr=True)

    def fail(message: str) -> None:
        err.print(f"[red]error:[/red] {message}", highlight=False)
        raise typer.Exit(2)

    if not chat and not (question or "").strip():
        fail("give a QUESTION, or --chat for an interactive session")
    if not cwd.expanduser().is_dir():
        fail(f"--cwd {cwd} is not a directory")
    try:
        overrides = dict(max_depth=max_depth, entropy_decompose_threshold=threshold, k_entropy_samples=k,
                         peer_review=True if (peer or peer_model) else None, clarify=True if clarify else None,
                         timeout_sec=timeout_sec)
        params = make_preset(preset, **overrides)
        config = _config(config_path, cwd.expanduser(), model, peer_model)
        bus = EventBus()
        ctx = RunContext.open(cwd=cwd.expanduser().resolve(), config=config,
                              profile=get_profile(profile or config.profile), engine=get_engine("contractive"),
                              events=bus)
    except (ConfigError, ProfileError, ValueError) as exc:
        fail(str(exc))
        return
    reasoner = ContractiveReasoner.from_context(ctx, params=params)
    try:
        if chat:
            code = _chat(ChatSession(reasoner), bus, err, as_json, quiet, print_events)
        else:
            result = _solve_live(lambda: reasoner.solve_sync(question or ""), question or "", bus, err,
                                 live=not (as_json or quiet), print_events=print_events)
            _show(result, err, as_json, quiet)
            _export(result, export_trace, export_mermaid, err)
            code = 0 if result.ok else 1
    except ValueError as exc:  # an empty question after normalisation
        fail(str(exc))
        return
    finally:
        ctx.close()
    raise typer.Exit(code)


def _solve_live(solve: Any, question: str, bus: EventBus, err: Console, *, live: bool, print_events: bool) -> Any:
    unsubscribe: List[Any] = []
    view: Optional[Live] = None
    if print_events or (live and not err.is_terminal):
        def plain(event: Event) -> None:
            line = tree_event_line(event)
            if line:
                print(line, file=sys.stderr, flush=True)
        unsubscribe.append(bus.subscribe(plain))
    elif live:
        tree = TreeView(question)
        unsubscribe.append(bus.subscribe(tree))
        view = Live(tree, console=err, refresh_per_second=4, transient=False)
        view.start()
    try:
        return solve()
    finally:
        if view is not None:
            view.stop()
        for u in unsubscribe:
            u()


def _show(result: Any, err: Console, as_json: bool, quiet: bool) -> None:
    if as_json:
        print(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
        return
    print(result.final_answer or "")
    if not quiet:
        err.print(Text(result.summarize().split("\n", 2)[1], style="dim"))


def _export(result: Any, trace: Optional[Path], mermaid: Optional[Path], err: Console) -> None:
    try:
        if trace:
            result.export_trace(trace)
        if mermaid:
            Path(mermaid).write_text(result.to_mermaid(), encoding="utf-8")
    except OSError as exc:
        err.print(f"[red]error:[/red] cannot write export: {exc}", highlight=False)
        raise typer.Exit(2)


def _chat(session: Any, bus: EventBus, err: Console, as_json: bool, quiet: bool, print_events: bool) -> int:
    """One question per line until EOF, "exit" or "quit"; earlier turns are the context."""
    if not quiet:
        err.print("[dim]ragix reason --chat: one question per line; 'exit' or Ctrl-D ends.[/dim]")
    last_ok = True
    for line in sys.stdin:
        q = line.strip()
        if not q:
            continue
        if q.lower() in ("exit", "quit"):
            break
        try:
            result = _solve_live(lambda: session.ask(q), q, bus, err, live=not (as_json or quiet),
                                 print_events=print_events)
        except ValueError as exc:
            err.print(f"[red]error:[/red] {exc}", highlight=False)
            continue
        if as_json:
            print(json.dumps(result.to_dict(), ensure_ascii=False), flush=True)
        else:
            _show(result, err, False, quiet)
            sys.stdout.flush()
        last_ok = result.ok
    return 0 if last_ok else 1
