"""Progress display of the CLI commands (cli/progress.follow_run): a Live view on a terminal, one plain
line per event elsewhere, events without a line skipped."""

import io

from rich.console import Console
from rich.live import Live

from ragix_core.cli.live_view import RunView
from ragix_core.core.event_lines import event_line
from ragix_core.cli.progress import follow_run
from ragix_core.core.events import EventBus, EventKind


def test_on_a_terminal_the_view_follows_the_bus_in_a_live_display(capsys):
    bus, view = EventBus(), RunView("goal")
    live = follow_run(bus, Console(file=io.StringIO(), force_terminal=True), view, event_line)
    assert isinstance(live, Live) and not live.is_started
    bus.publish(EventKind.NODE_ENTER, "s1", node="PLAN")
    assert view.node == "PLAN"
    assert capsys.readouterr().err == ""  # no plain lines when the live view shows the run


def test_elsewhere_each_event_is_one_plain_line_on_stderr(capsys):
    bus, view = EventBus(), RunView("goal")
    live = follow_run(bus, Console(file=io.StringIO(), force_terminal=False), view, event_line)
    assert live is None
    bus.publish(EventKind.NODE_ENTER, "s1", node="PLAN")
    bus.publish(EventKind.RUN_START, "s1", goal="goal")  # no line for this one
    bus.publish(EventKind.TOOL_CALL, "s1", command="ls -la", returncode=0)
    assert capsys.readouterr().err.splitlines() == ["→ PLAN", "$ ls -la  (rc=0)"]
    assert view.node == "START"  # the live view is not fed when nobody sees it


def test_the_view_shows_a_skipped_step_as_skipped_not_failed():
    from ragix_core.core.types import Plan, PlanStep, ReasoningState, StepStatus, ToolCall
    from ragix_core.reasoning_v30.build import make_emitter
    from ragix_core.reasoning_v30.execute import emit_step

    bus, view = EventBus(), RunView("goal")
    bus.subscribe(view)
    state = ReasoningState(goal="goal", session_id="s1")
    steps = [PlanStep(1, "search", ToolCall("grep", {"command": "grep -rl x ."}), status=StepStatus.SKIPPED),
             PlanStep(2, "read", ToolCall("cat", {"command": "cat a.py"}), status=StepStatus.FAILED)]
    state.plan = Plan(objective="o", steps=steps)
    emit = make_emitter(bus)
    bus.publish(EventKind.PLAN, "s1", event={"meta": {"steps": [{"num": s.num, "description": s.description}
                                                                for s in steps]}})
    for step in steps:
        emit_step(emit, state, step)
    assert [s["status"] for s in view.steps] == ["skipped", "failed"]
