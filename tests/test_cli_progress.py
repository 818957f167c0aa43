"""Progress display of the CLI commands (cli/progress.follow_run): a Live view on a terminal, one plain
line per event elsewhere, events without a line skipped."""

import io

from rich.console import Console
from rich.live import Live

from ragix_core.cli.live_view import RunView, event_line
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
