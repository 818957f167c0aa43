"""The presenter family (spec 002 §6.3): audit kernel results laid out for a reader.

T0, the default, uses no model: tables and plots are a deterministic function of the kernels' JSON,
so the same tree gives the same report byte for byte. T1-T3 (``tiers``) add a model's summaries,
every number and file name of which is checked against the kernels' output (``claims``).
"""

from ragix_core.kernels.presenter.t0 import Report, build_report, write_report

__all__ = ["Report", "build_report", "write_report"]
