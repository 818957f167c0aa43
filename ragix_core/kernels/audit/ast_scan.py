"""ast_scan: what each source file defines, imports and calls, as data.

Python is read with ``ast`` through ``ragix_core/python_source.py`` (the parser behind the model's
``defs``/``importers``/``callers`` commands, so the audit and the commands cannot disagree); the other
languages with tree-sitter grammars (``treesitter_scan``). A file that does not parse is listed with
its error and no records, never guessed from its text.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Dict, List, Tuple

from ragix_core import python_source
from ragix_core.kernels.audit import treesitter_scan
from ragix_core.kernels.audit.tree import SourceTree

__all__ = ["compute", "scan_python"]


def scan_python(text: str, path: str) -> Dict[str, List[Dict[str, Any]]]:
    tree = python_source.parse(text, path)
    return {
        "definitions": [{"line": d.line, "kind": d.kind, "name": d.name, "qualname": d.qualname}
                        for d in python_source.definitions(tree)],
        "imports": [{"line": i.line, "module": i.module, "names": i.names} for i in python_source.imports(tree)],
        "calls": [{"caller": caller, "callee": call.name, "line": call.line}
                  for caller, call in python_source.call_sites(tree)],
    }


def compute(tree: SourceTree, inputs: Dict[str, Any]) -> Tuple[Dict[str, Any], List[str]]:
    files: List[Dict[str, Any]] = []
    unscanned: Counter = Counter()
    grammars = treesitter_scan.available()
    for f in tree.files:
        entry: Dict[str, Any] = {"path": f.path, "language": f.language}
        try:
            if f.language == "python":
                entry.update(scan_python(tree.text(f.path), f.path))
            elif grammars and f.language in treesitter_scan.LANGUAGES:
                entry.update(treesitter_scan.scan(tree.text(f.path), f.language))
            else:
                unscanned[f.language] += 1
                continue
        except python_source.SourceError as exc:
            entry.update({"error": str(exc), "definitions": [], "imports": [], "calls": []})
        files.append(entry)
    notes = []
    if unscanned:
        why = "no scanner for" if grammars else "tree-sitter-language-pack is not installed (pip install 'ragix[audit]'):"
        notes.append(f"{why} " + ", ".join(f"{n} {lang} file(s)" for lang, n in sorted(unscanned.items())))
    totals = {key: sum(len(f[key]) for f in files) for key in ("definitions", "imports", "calls")}
    totals["files"] = len(files)
    totals["unparsed"] = sum(1 for f in files if "error" in f)
    return {"totals": totals, "files": files}, notes
