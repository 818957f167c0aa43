"""What runs inside the sandbox for one REPL call: the thread's earlier cells, then the new one.

The python executor starts a fresh, confined interpreter per call, so the REPL's
state is rebuilt by running the thread's earlier cells again with their output
discarded (errors in them too: a cell that failed half-way left its first
variables, as in an interactive session). Only the last cell's output is shown;
if it ends with an expression, its value is printed, as an interactive prompt does.

Standard library only: the interpreter runs isolated (-I -S), and this file is
sent as source text (``program``), never imported inside the sandbox.
"""

import ast
import contextlib
import io
import sys

CELL = "<cell>"


def _run(source, namespace, show_last):
    tree = ast.parse(source, CELL, "exec")
    last = None
    if show_last and tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    exec(compile(tree, CELL, "exec"), namespace)
    if last is not None:
        value = eval(compile(last, CELL, "eval"), namespace)
        if value is not None:
            print(repr(value))


def _cell_error(exc):
    line = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == CELL:
            line = tb.tb_lineno
        tb = tb.tb_next
    if isinstance(exc, SyntaxError) and exc.filename == CELL:
        line = exc.lineno
    where = f" (line {line})" if line else ""
    return f"{type(exc).__name__}{where}: {exc}"


def main(cells):
    namespace = {"__name__": "__main__"}
    for source in cells[:-1]:
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                _run(source, namespace, False)
        except BaseException:  # noqa: B036 - replay: whatever the cell did before failing is kept
            pass
    try:
        _run(cells[-1], namespace, True)
    except SystemExit as exc:
        sys.stdout.flush()
        raise SystemExit(exc.code)
    except BaseException as exc:  # noqa: B036 - reported to the model as the cell's error
        sys.stdout.flush()
        sys.stderr.write(_cell_error(exc) + "\n")
        raise SystemExit(1)
