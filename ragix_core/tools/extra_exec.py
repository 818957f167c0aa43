"""Helpers for the `python` and `operator` executors.

python: the code runs in the base interpreter in isolated mode (-I: no
environment variables, no user site; -S: no site imports; -B: no .pyc writes)
under the same OS sandbox and limits as shell tools — ToolBox refuses it when
no OS sandbox is available, since layer 1 cannot validate arbitrary code.

operator: a JSON request handled by operator_worker in a child process with
an empty environment, rlimits and the timeout. It needs no OS sandbox because
it never executes caller-supplied code (expressions go through an AST allowlist).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Dict, List

from ragix_core.core.types import ToolResult
from ragix_core.tools.lexer import check_text
from ragix_core.tools.limits import Limits
from ragix_core.tools.refusal import Refusal
from ragix_core.tools.runner import RawResult, run_process

__all__ = ["python_code", "python_argv", "operator_request", "run_operator", "operator_result", "MAX_CODE_CHARS"]

MAX_CODE_CHARS = 64 * 1024
_PKG_PARENT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def python_code(args: Any) -> str:
    if not isinstance(args, dict) or set(args) != {"code"} or not isinstance(args["code"], str):
        raise Refusal("python takes {code: str}")
    code = args["code"]
    if len(code) > MAX_CODE_CHARS:
        raise Refusal(f"python code longer than {MAX_CODE_CHARS} characters")
    if "\0" in code:
        raise Refusal("NUL character in python code")
    return code


def python_argv(code: str) -> List[str]:
    interpreter = os.path.realpath(getattr(sys, "_base_executable", sys.executable))
    return [interpreter, "-I", "-S", "-B", "-c", code]


def operator_request(args: Any) -> bytes:
    if not isinstance(args, dict) or not isinstance(args.get("op"), str):
        raise Refusal("operator takes {op: str, ...} (ops: evaluate simplify expand factor solve diff integrate "
                      "limit logic_simplify satisfiable convert)")
    for key, value in args.items():
        if not isinstance(key, str) or not isinstance(value, (str, int, float)) or isinstance(value, bool):
            raise Refusal(f"operator: argument {key!r} must be a string or a number")
        if isinstance(value, str):
            check_text(value, "operator argument")
    payload = json.dumps(args).encode()
    if len(payload) > 8192:
        raise Refusal("operator request too large")
    return payload


def run_operator(payload: bytes, limits: Limits) -> RawResult:
    bootstrap = (
        "import sys; sys.path.insert(0, %r); "
        "from ragix_core.tools.operator_worker import main; main()" % _PKG_PARENT
    )
    argv = [sys.executable, "-I", "-B", "-c", bootstrap]
    return run_process(argv, cwd=_PKG_PARENT, env={}, limits=limits, fsize=0, stdin_data=payload)


def operator_result(tool: str, raw: RawResult) -> ToolResult:
    if raw.error or raw.returncode != 0:
        err = raw.stderr.decode("utf-8", "replace")[-2000:]
        return ToolResult(tool=tool, returncode=raw.returncode or 1, stderr=err,
                          error=raw.error or "operator worker failed", command="operator")
    try:
        answer: Dict[str, Any] = json.loads(raw.stdout.decode("utf-8"))
    except ValueError:
        return ToolResult(tool=tool, returncode=1, error="operator returned invalid output", command="operator")
    if "error" in answer:
        return ToolResult(tool=tool, returncode=1, stderr=answer["error"], error=answer["error"], command="operator")
    return ToolResult(tool=tool, returncode=0, stdout=str(answer.get("result", "")) + "\n", command="operator")
