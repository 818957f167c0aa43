"""The import graph: engines stand on one runtime; nothing below imports up into an engine.

Read from the source with ``ast`` (every ``import`` and ``from ... import``, at any depth,
lazy ones inside functions included), so a new upward import fails here, not in review.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, Set

import pytest

ROOT = Path(__file__).resolve().parents[1] / "ragix_core"

# Lowest first. A layer may import its own and lower layers only.
LAYERS = [
    ("core", {"core"}),
    ("base", {"prompts", "llm", "tools", "memory", "evidence", "sampling", "kernels", "python_source"}),
    ("config", {"config", "profiles", "trust"}),
    ("runtime", {"runtime"}),
    ("engines", {"reasoning_v30", "reasoning", "baseline_s0", "reasoning_slim", "reasoning_tutor",
                 "chat", "research", "collective"}),
    ("front", {"eval", "cli", "serve", "mcp_server"}),
]
# Spec module paths that only re-export a lower layer's objects (spec 000 names them).
SPEC_REEXPORTS = {"reasoning_v30/types.py", "reasoning_v30/experience.py", "reasoning_v30/config.py"}


def _top(path: Path) -> str:
    rel = path.relative_to(ROOT)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def _layer_of(top: str) -> int:
    for i, (_, members) in enumerate(LAYERS):
        if top in members:
            return i
    raise AssertionError(f"ragix_core/{top} belongs to no layer: add it to LAYERS in {__file__}")


def _imports(path: Path) -> Set[str]:
    """Top-level ragix_core packages/modules that ``path`` imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: Set[str] = set()
    package = path.relative_to(ROOT).parts[:-1]
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against the file's package
                base = list(package[: len(package) - node.level + 1])
                names = [".".join(["ragix_core"] + base + ([node.module] if node.module else []))]
            else:
                names = [node.module or ""]
                if node.module == "ragix_core":
                    names = [f"ragix_core.{a.name}" for a in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "ragix_core" and len(parts) > 1:
                out.add(parts[1])
    return out


def _modules() -> Dict[str, Path]:
    return {str(p.relative_to(ROOT)): p for p in ROOT.rglob("*.py")}


@pytest.mark.parametrize("rel", sorted(_modules()))
def test_no_import_runs_up_a_layer(rel):
    path = ROOT / rel
    if rel in SPEC_REEXPORTS or rel == "__init__.py":
        return
    mine = _layer_of(_top(path))
    for imported in _imports(path):
        theirs = _layer_of(imported)
        assert theirs <= mine, (f"ragix_core/{rel} (layer {LAYERS[mine][0]}) imports ragix_core.{imported} "
                                f"(layer {LAYERS[theirs][0]})")


def test_engines_do_not_import_each_other_except_the_graph_family():
    """New engines build on the runtime, not on another engine's package; loop_v1 and s0 are the
    graph's own variants (same nodes) and may use reasoning_v30."""
    for rel, path in _modules().items():
        if rel == "__init__.py" or _top(path) in ("reasoning_v30", "reasoning", "baseline_s0"):
            continue
        if _layer_of(_top(path)) == 4:  # a future engine package
            assert not (_imports(path) & {"reasoning_v30", "reasoning", "baseline_s0"}), rel


def test_the_runtime_names_engines_only_through_the_registry():
    for path in (ROOT / "runtime").glob("*.py"):
        assert not (_imports(path) & LAYERS[4][1]), f"{path.name} imports an engine directly"
