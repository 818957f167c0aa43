"""The `ragix` command line.

Each command group lives in its own module and registers itself on `app`;
this module only assembles them and turns known errors into exit codes:
0 success, 1 a finished run that did not succeed, 2 usage or config error,
3 a command refused by the confinement layer.
"""

from __future__ import annotations

import typer

app = typer.Typer(
    name="ragix",
    help="Bounded, traced reasoning agents on local LLMs.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Command modules register on `app` when imported.
from ragix_core.cli import corpus_cmd, run_cmd, trace_cmd  # noqa: E402,F401
from ragix_core.cli import corpus_migrate_cmd  # noqa: E402,F401
from ragix_core.cli import exec_cmd  # noqa: E402,F401
from ragix_core.cli import doctor_cmd  # noqa: E402,F401
from ragix_core.cli import eval_cmd  # noqa: E402,F401
from ragix_core.cli import trust_cmd  # noqa: E402,F401
from ragix_core.cli import reason_cmd  # noqa: E402,F401
from ragix_core.cli import tutor_cmd  # noqa: E402,F401
from ragix_core.cli import chat_cmd  # noqa: E402,F401
from ragix_core.cli import research_cmd  # noqa: E402,F401
from ragix_core.cli import serve_cmd  # noqa: E402,F401
from ragix_core.cli import mcp_cmd  # noqa: E402,F401
from ragix_core.cli import audit_cmd  # noqa: E402,F401
from ragix_core.cli import ask_cmd  # noqa: E402,F401


def main() -> None:
    app()
