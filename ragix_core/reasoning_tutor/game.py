"""The game loop: the player (a model) moves, the tutor judges, until a win, a stall or the turn budget.

``tutor(ctx)`` is the engine registry's entry (strategy ``tutor``): the player
is the run's ``worker`` role (a JSON move a turn; its command as free text on the
turns command_turn.py names), read actions run in a read-only tool box of the
run, writes in the run's own tool box only when the profile writes and the user
approved writes (``--yes``). Options come from the starting state's
``meta["tutor"]`` (``run_goal(..., meta=...)``): ``accept`` (claim patterns, the
task's acceptance criteria), ``max_turns``, ``truths_before_write``, ``rules``
(extra rule files).

The run ends with ``stop_reason`` ``success`` only when the tutor accepted a
RESPOND (``won``); otherwise ``max_turns``, ``stalled`` or the model's named
stop. The final answer is then the tutor's own summary of what was proven, and last the short output
a command printed (two commands' that agree, else the first command's), marked unproven.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from ragix_core.core.events import RUN_END_ANSWER_CHARS, EventBus, EventKind
from ragix_core.core.stop import StopRun
from ragix_core.core.text import bounded, one_line
from ragix_core.core.types import PlanStep, ReasoningState, StepStatus, ToolResult
from ragix_core.evidence.command_checks import check_command
from ragix_core.llm.structured import ask_json
from ragix_core.reasoning_tutor.actions import Action, Executor
from ragix_core.reasoning_tutor.claims import ClaimSyntaxError, IllTyped, Pattern, parse_pattern
from ragix_core.reasoning_tutor.command_turn import CommandTurns
from ragix_core.reasoning_tutor.graph import ProofGraph
from ragix_core.reasoning_tutor.moves import MOVE_SCHEMA, MoveReply, move_text
from ragix_core.reasoning_tutor.player import messages
from ragix_core.reasoning_tutor.rules import load_rules
from ragix_core.reasoning_tutor.suggest import suggest, unproven_output
from ragix_core.reasoning_tutor.tutor import REJECTED, Tutor, TutorSettings
from ragix_core.tools.policy import RAGIX_STATE_DIR, READ_TOOLS

__all__ = ["TutorEngine", "tutor", "parse_accept", "GRAPH_DIR", "DEFAULT_MAX_TURNS", "OptionsError"]

GRAPH_DIR = f"{RAGIX_STATE_DIR}/tutor"  # per-session proof graph logs, inside the project's hidden state dir
DEFAULT_MAX_TURNS = 8
MOVE_TOKENS = 320
RETRY_TEMPERATURE = 0.6  # after a repeated or rejected move, sample instead of repeating the greedy choice


class OptionsError(ValueError):
    """Bad tutor options (an acceptance pattern that does not parse, a turn budget out of range)."""


def parse_accept(patterns: Any) -> List[Pattern]:
    if patterns is None:
        return []
    if isinstance(patterns, str):
        patterns = [patterns]
    out = []
    for text in patterns:
        try:
            out.append(parse_pattern(str(text)))
        except (ClaimSyntaxError, IllTyped) as exc:
            raise OptionsError(f"acceptance criterion {text!r}: {exc}") from None
    return out


class TutorEngine:
    def __init__(self, *, player: Any, executor: Executor, bus: EventBus, graph_dir: Path,
                 max_turns: int = DEFAULT_MAX_TURNS, tools: Any = READ_TOOLS,
                 commands: Optional[CommandTurns] = None) -> None:
        self.player = player
        self.commands = commands  # the free-text command turns (command_turn.py); None: every move is JSON
        self.executor = executor
        self.bus = bus
        self.graph_dir = Path(graph_dir)
        self.max_turns = max_turns
        self.tools = list(tools)
        self.trace: List[str] = []

    def _settings(self, opts: Dict[str, Any]) -> TutorSettings:
        before = opts.get("truths_before_write", 2)
        if isinstance(before, bool) or not isinstance(before, int) or before < 0:
            raise OptionsError(f"truths_before_write must be a whole number >= 0, got {before!r}")
        return TutorSettings(accept=parse_accept(opts.get("accept")), truths_before_write=before,
                             writes_allowed=self.executor.writes_possible, rules=load_rules(opts.get("rules") or ()))

    def run(self, state: ReasoningState) -> ReasoningState:
        opts = dict(state.meta.get("tutor") or {})
        max_turns = opts.get("max_turns", self.max_turns)
        try:
            if isinstance(max_turns, bool) or not isinstance(max_turns, int) or not 1 <= max_turns <= 100:
                raise OptionsError(f"max_turns must be between 1 and 100, got {max_turns!r}")
            settings = self._settings(opts)
        except (OptionsError, ValueError) as exc:
            state.stop_reason, state.last_error = "bad_options", str(exc)
            state.final_answer = f"The game did not start: {exc}"
            return state
        graph = ProofGraph(self.graph_dir / f"{state.session_id}.jsonl")
        steps: List[PlanStep] = []

        def execute(action: Action) -> ToolResult:
            result = self.executor.run(action)
            if result.ok and not result.refused:
                # the main path's checks of what the command computes, with the files at hand (plan_steps._run),
                # and its mend of a count of names where the goal counts lines
                root = self.executor.read_box.root
                result.doubt, result.mistake = check_command(state.goal, result.written or action.command, root)
                mended = self.executor.as_line_count(state.goal, action, result) if (
                    result.doubt or result.mistake) else None
                if mended is not None:
                    result = mended
                    result.doubt, result.mistake = check_command(state.goal, result.written, root)
            if not result.refused:
                steps.append(PlanStep(num=len(steps) + 1, description=action.command, tool_call=action.call,
                                      status=StepStatus.SUCCESS if result.ok else StepStatus.FAILED, result=result))
            return result

        game = Tutor(state.goal, graph, execute, settings)
        drawn = [0]

        def graph_changes() -> List[Dict[str, Any]]:
            """What the graph gained since the last event said, for the next event to carry (a trace read back
            redraws the graph from them)."""
            changes, drawn[0] = graph.drawn_since(drawn[0]), len(graph.records)
            return changes

        self.bus.publish(EventKind.RUN_START, state.session_id, engine="tutor", goal=state.goal,
                         accept=[p.text() for p in settings.accept], max_turns=max_turns, graph=graph_changes())
        stop = "max_turns"
        temperature: Optional[float] = None
        raw_moves: List[Dict[str, Any]] = []
        drafted = False  # the winning answer is one the tutor drafted from the facts (copied, not written)
        for _ in range(max_turns):
            self.trace.append(f"TURN{game.turn + 1}")
            suggestion = suggest(game)
            channel = self.commands.reason(game, suggestion) if self.commands else None
            try:
                if channel:
                    move = self.commands.propose(game, steps, temperature, channel)
                else:
                    reply, _ = ask_json(self.player, messages(game, max_turns, self.tools, suggestion), MoveReply,
                                        stop_reason="move_generation_failed", schema=MOVE_SCHEMA,
                                        max_tokens=MOVE_TOKENS, temperature=temperature)
                    move = reply.root
            except StopRun as exc:
                stop, state.last_error = exc.reason, exc.message
                break
            raw_moves.append({**move.model_dump(), **({"command_turn": channel} if channel else {})})
            self.bus.publish(EventKind.MOVE, state.session_id, turn=game.turn + 1, move=move.model_dump(),
                             text=move_text(move), command_turn=channel)
            verdict = game.judge(move)
            self.bus.publish(EventKind.VERDICT, state.session_id, verdict=verdict.to_dict(), graph=graph_changes())
            temperature = RETRY_TEMPERATURE if verdict.status == REJECTED else None
            if game.won:
                stop = "success"
                drafted = game.answer in [a.strip() for a in suggestion.answers()]
                break
            if game.stalled:
                stop = "stalled"
                break
        game.finish()
        state.executed_steps.extend(steps)
        state.stop_reason = stop
        unproven = None if game.won else unproven_output(game)
        state.final_answer = game.answer if game.won else _summary(game, stop, unproven)
        if not game.won and game.last_rejected_respond:
            state.last_error = "last RESPOND rejected: " + game.last_rejected_respond
        state.meta["tutor"] = {**opts, **_report(game, graph, max_turns, raw_moves), "answer_drafted": drafted}
        if unproven is not None:
            state.meta["tutor"]["unproven"] = dict(zip(("command", "output", "agreed"), unproven))
        self.bus.publish(EventKind.RUN_END, state.session_id, stop_reason=stop, won=game.won, score=game.score,
                         answer=bounded(str(state.final_answer or ""), RUN_END_ANSWER_CHARS), graph=graph_changes())
        return state


def _summary(game: Tutor, stop: str, unproven: Optional[Tuple[str, str, bool]] = None) -> str:
    """What the user gets when no answer was proven: the truths that were, why it stopped, and
    ``unproven`` (suggest.unproven_output), the short output a command printed."""
    lines = [f"No answer was proven (stopped: {stop} after {game.turn} turn(s))."]
    truths = game.truths()
    if truths:
        lines.append("Validated truths:")
        lines += [f"- {n} {c.text()}" for n, c in truths]
    else:
        lines.append("No claim was validated.")
    if game.last_rejected_respond:
        lines.append("Last answer rejected: " + one_line(game.last_rejected_respond, 400))
    # What a command printed is still the best evidence the game holds: said last (a reader or a script
    # taking the answer's last number takes it), marked unproven, never a success (docs/DECISIONS.md).
    if unproven is not None:
        command, text, agreed = unproven
        by = "and by another command" if agreed else "alone (no other command printed the same)"
        lines.append(f"Unproven answer, printed by `{one_line(command, 200)}` {by}: {text}")
    return "\n".join(lines)


def _report(game: Tutor, graph: ProofGraph, max_turns: int, raw_moves: List[Dict[str, Any]]) -> Dict[str, Any]:
    return {
        "won": game.won,
        "score": game.score,
        "turns": game.turn,
        "max_turns": max_turns,
        "accept": [p.text() for p in game.settings.accept],
        "moves": [{**v.to_dict(), "move": raw} for raw, v in zip(raw_moves, game.verdicts)],  # move: the JSON as sent
        "tally": game.tally.to_dict(),
        "graph_log": str(graph.log_path) if graph.log_path else None,
        "graph_log_error": graph.write_error,
        "graph": graph.to_json(),
    }


def tutor(ctx: Any) -> TutorEngine:
    """The registry's entry for ``tutor``: the worker role plays; the run's confined tool boxes act."""
    from ragix_core.tools import Limits, ToolBox

    rc = ctx.config.reasoning
    read_box = ToolBox(ctx.cwd, profile=ctx.profile.reflect_tool_profile, events=ctx.bus, session_id=ctx.session_id,
                       limits=Limits(timeout=rc.graph.timeout_per_step), home_is_root=ctx.toolbox.home_is_root)
    box = ctx.toolbox
    write_box = box if box.profile.writes and box.assume_yes else None
    tools = [t for t in READ_TOOLS if t in read_box.allowed_tools]
    worker = ctx.roles.get("worker")
    return TutorEngine(player=worker, executor=Executor(read_box, write_box), bus=ctx.bus,
                       graph_dir=Path(ctx.cwd) / GRAPH_DIR, tools=tools,
                       commands=CommandTurns(worker, tools, read_box.root, rc.reflect.max_context_chars,
                                             probe=ctx.reflect_shell if ctx.full_reflection else None,
                                             home_is_root=read_box.home_is_root))
