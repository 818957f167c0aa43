"""Map structured tool arguments (from an LLM planner) to an argv.

Accepted shapes for a direct tool call ``ToolCall(<tool>, args)``:
  {"args": ["-l", "README.md"]}            the argv after the tool name (also "argv")
  {"path": "src"} / {"paths": ["a", "b"]}  operands
  {"flags": ["-n", "-i"]}                  options placed before the operands
  grep: {"pattern": "def ", "path": "."}   pattern passed with -e (never read as an option)
  find: {"path": ".", "name": "*.py", "type": "f", "maxdepth": 2}
  head/tail: {"lines": 20, "path": "f"}
Unknown keys are refused rather than ignored, so a planner's mistake is visible.
"""

from __future__ import annotations

from typing import Any, Dict, List

from ragix_core.tools.refusal import Refusal

__all__ = ["structured_argv"]

_COMMON = {"args", "argv", "path", "paths", "flags"}
_EXTRA = {
    "grep": {"pattern", "recursive", "ignore_case"},
    "find": {"name", "type", "maxdepth"},
    "head": {"lines"},
    "tail": {"lines"},
}


def _strings(value: Any, key: str) -> List[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    raise Refusal(f"argument {key!r} must be a string or a list of strings")


def structured_argv(tool: str, args: Dict[str, Any]) -> List[str]:
    if not isinstance(args, dict):
        raise Refusal("tool arguments must be an object")
    unknown = set(args) - _COMMON - _EXTRA.get(tool, set())
    if unknown:
        raise Refusal(f"{tool}: unknown argument(s) {', '.join(sorted(map(str, unknown)))}")
    raw = args.get("args", args.get("argv"))
    if raw is not None:
        if set(args) - {"args", "argv"}:
            raise Refusal(f"{tool}: give either 'args' or structured arguments, not both")
        return _strings(raw, "args")
    flags = _strings(args["flags"], "flags") if "flags" in args else []
    paths: List[str] = []
    if "path" in args:
        paths += _strings(args["path"], "path")
    if "paths" in args:
        paths += _strings(args["paths"], "paths")
    if tool == "grep":
        if "pattern" not in args or not isinstance(args["pattern"], str):
            raise Refusal("grep: 'pattern' (a string) is required")
        if args.get("recursive"):
            flags.append("-r")
        if args.get("ignore_case"):
            flags.append("-i")
        return flags + ["-e", args["pattern"]] + paths
    if tool == "find":
        expr: List[str] = []
        if "maxdepth" in args:
            expr += ["-maxdepth", str(int(args["maxdepth"]))]
        if "name" in args:
            expr += ["-name", _strings(args["name"], "name")[0]]
        if "type" in args:
            expr += ["-type", _strings(args["type"], "type")[0]]
        return flags + (paths or ["."]) + expr
    if tool in ("head", "tail") and "lines" in args:
        flags += ["-n", str(int(args["lines"]))]
    return flags + paths
