"""metrics: lines, cyclomatic complexity and length per function and per file, measured by lizard.

lizard (a maintained analyser for some twenty languages) does the counting; this kernel only reads its
figures into the audit's shape, so they are lizard's numbers, comparable with its own CLI. Per file it
adds the physical line count and the TODO/FIXME/XXX markers (``risk`` reads their density).

Per function: ``nloc`` (lines of code without comments and blanks), ``ccn`` (McCabe's cyclomatic
complexity: 1 + decision points), ``length`` (last line − first line + 1), ``params``, ``tokens``.
Per file: ``lines``, ``nloc``, ``functions``, ``ccn_total`` (sum over its functions), ``ccn_max``,
``todo``.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Tuple

from ragix_core.kernels.audit.errors import MissingDependency
from ragix_core.kernels.audit.tree import SourceTree

__all__ = ["FunctionMetrics", "FileMetrics", "compute", "measure", "TODO_MARKER"]

# whole words only, so "todos" or "TODO_LIST" in an identifier does not count
TODO_MARKER = re.compile(r"\b(?:TODO|FIXME|XXX)\b")


@dataclass
class FunctionMetrics:
    name: str
    long_name: str  # with its parameters, as lizard writes it
    start: int
    end: int
    nloc: int
    ccn: int
    length: int
    params: int
    tokens: int


@dataclass
class FileMetrics:
    path: str
    language: str
    lines: int
    nloc: int
    functions: int
    ccn_total: int
    ccn_max: int
    todo: int
    function_list: List[FunctionMetrics] = field(default_factory=list)


def _physical_lines(text: str) -> int:
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


def measure(path: str, language: str, text: str) -> FileMetrics:
    from lizard import analyze_file  # the audit extra's dependency: imported only when a kernel runs

    info = analyze_file.analyze_source_code(path, text)
    functions = [FunctionMetrics(f.name, f.long_name, f.start_line, f.end_line, f.nloc, f.cyclomatic_complexity,
                                 f.length, f.parameter_count, f.token_count) for f in info.function_list]
    return FileMetrics(path, language, _physical_lines(text), info.nloc, len(functions),
                       sum(f.ccn for f in functions), max((f.ccn for f in functions), default=0),
                       len(TODO_MARKER.findall(text)), functions)


def compute(tree: SourceTree, inputs: Dict[str, Any]) -> Tuple[Dict[str, Any], List[str]]:
    try:
        import lizard  # noqa: F401
    except ImportError:
        raise MissingDependency("the metrics kernel needs lizard: pip install 'ragix[audit]'") from None
    files = [measure(f.path, f.language, tree.text(f.path)) for f in tree.files]
    totals = {"files": len(files), "lines": sum(f.lines for f in files), "nloc": sum(f.nloc for f in files),
              "functions": sum(f.functions for f in files), "ccn_total": sum(f.ccn_total for f in files),
              "todo": sum(f.todo for f in files)}
    totals["ccn_mean"] = round(totals["ccn_total"] / totals["functions"], 2) if totals["functions"] else 0.0
    return {"totals": totals, "files": [asdict(f) for f in files]}, []
