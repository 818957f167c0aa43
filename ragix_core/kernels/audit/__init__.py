"""The code-audit kernels (spec 002 §8.2, "KOAS"): ast_scan → metrics → churn → hotspots → risk →
recommendations.

Each kernel is a pure function from a source tree (and the outputs of the kernels it builds on) to a
typed, versioned JSON document; ``run_kernel`` resolves the chain, caches each result under a hash of
what it was computed from, and is what ``ragix audit KERNEL DIR --json`` prints. Numbers come from
real analysers (Python's ``ast``, tree-sitter grammars, lizard, git), never from a model: an engine or a
report that cites them cites something that was computed.
"""

from ragix_core.kernels.audit.registry import KERNELS, KernelError, kernel_names, run_kernel, run_all
from ragix_core.kernels.audit.tree import SourceTree, TreeError, TreeLimits, scan_tree

__all__ = ["KERNELS", "KernelError", "kernel_names", "run_kernel", "run_all", "SourceTree", "TreeError",
           "TreeLimits", "scan_tree"]
