"""The audit kernels by name, and the one function that runs any of them with what it builds on.

A kernel is ``compute(tree, inputs) -> (data, notes)``: ``inputs`` maps each kernel it ``needs`` to
that kernel's ``data``; ``data`` is plain JSON built from the kernel's dataclasses, so a result read
from the cache and a fresh one are the same document. Each document is wrapped in an envelope naming
the kernel, its version, the tree and the cache key, with the tree's notes (limits that cut the walk)
and the kernel's own.

Adding a kernel: write ``compute`` in its module and add one ``KernelSpec`` below.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from ragix_core.kernels.audit.cache import KernelCache, cache_key, default_cache_dir
from ragix_core.kernels.audit.errors import KernelError
from ragix_core.kernels.audit.tree import SourceTree, TreeLimits, scan_tree

__all__ = ["KernelSpec", "KernelError", "KERNELS", "kernel_names", "run_kernel", "run_all", "DEFAULT_CACHE"]

DEFAULT_CACHE = object()  # run_kernel's cache_dir default: ragix's home cache


@dataclass(frozen=True)
class KernelSpec:
    name: str
    version: int  # raised whenever the document's shape or meaning changes: old cache entries stop matching
    target: str  # "module:function" computing (data, notes)
    needs: Tuple[str, ...]
    summary: str
    # "module:function" giving a string for what the kernel reads besides the files (git's HEAD)
    extra_key: Optional[str] = None


_PKG = "ragix_core.kernels.audit"
KERNELS: Dict[str, KernelSpec] = {spec.name: spec for spec in (
    KernelSpec("ast_scan", 1, f"{_PKG}.ast_scan:compute", (),
               "definitions, imports and call edges per file (Python by ast, others by tree-sitter)"),
    KernelSpec("metrics", 1, f"{_PKG}.metrics:compute", (),
               "lines, cyclomatic complexity and length per function and per file (lizard)"),
    KernelSpec("churn", 1, f"{_PKG}.churn:compute", (),
               "commits, authors and lines changed per file (git log, confined)", f"{_PKG}.churn:history_key"),
    KernelSpec("hotspots", 1, f"{_PKG}.hotspots:compute", ("metrics", "churn"),
               "complexity × churn per file (code-maat's hotspot method)"),
    KernelSpec("risk", 1, f"{_PKG}.risk:compute", ("hotspots", "metrics", "ast_scan"),
               "a 0-100 score per file and per directory from hotspots, complexity, size, tests, TODOs"),
    KernelSpec("recommendations", 1, f"{_PKG}.recommendations:compute", ("risk", "metrics", "hotspots"),
               "rules over the risk table, each citing the numbers it rests on"),
)}


def kernel_names() -> List[str]:
    return list(KERNELS)


def _load(target: str) -> Callable[..., Any]:
    module, _, function = target.partition(":")
    return getattr(importlib.import_module(module), function)


def _spec(name: str) -> KernelSpec:
    if name not in KERNELS:
        raise KernelError(f"unknown kernel {name!r}; known: {', '.join(KERNELS)}")
    return KERNELS[name]


def _run(name: str, tree: SourceTree, cache: KernelCache, done: Dict[str, Dict[str, Any]]) -> Dict[str, Any]:
    if name in done:
        return done[name]
    spec = _spec(name)
    inputs = {need: _run(need, tree, cache, done) for need in spec.needs}
    parts = [tree.digest] + [inputs[need]["key"] for need in spec.needs]
    if spec.extra_key:
        parts.append(_load(spec.extra_key)(tree))
    key = cache_key(spec.name, spec.version, parts)
    doc = cache.get(spec.name, key)
    if doc is None:
        data, notes = _load(spec.target)(tree, {need: inputs[need]["data"] for need in spec.needs})
        doc = {"kernel": spec.name, "version": spec.version, "key": key, "tree_digest": tree.digest,
               "files": len(tree.files), "notes": list(tree.notes) + list(notes), "data": data}
        cache.put(spec.name, key, doc)
    doc = dict(doc, root=tree.root)  # the root is where it was run, not part of what was computed
    done[name] = doc
    return doc


def _cache(cache_dir: Any) -> KernelCache:
    return KernelCache(default_cache_dir() if cache_dir is DEFAULT_CACHE else
                       Path(cache_dir) if cache_dir is not None else None)


def run_kernel(name: str, path: Union[str, SourceTree], *, limits: Optional[TreeLimits] = None,
               cache_dir: Any = DEFAULT_CACHE) -> Dict[str, Any]:
    """The envelope of kernel ``name`` over the directory ``path`` (or an already scanned tree),
    computing the kernels it needs first. ``cache_dir=None`` computes everything afresh."""
    _spec(name)
    tree = path if isinstance(path, SourceTree) else scan_tree(path, limits)
    return _run(name, tree, _cache(cache_dir), {})


def run_all(path: Union[str, SourceTree], *, limits: Optional[TreeLimits] = None,
            cache_dir: Any = DEFAULT_CACHE) -> Dict[str, Dict[str, Any]]:
    """Every kernel's envelope, by name in chain order, over one scan of the tree."""
    tree = path if isinstance(path, SourceTree) else scan_tree(path, limits)
    done: Dict[str, Dict[str, Any]] = {}
    cache = _cache(cache_dir)
    for name in KERNELS:
        _run(name, tree, cache, done)
    return {name: done[name] for name in KERNELS}
