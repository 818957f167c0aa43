"""The presenter family (spec 002 §6.3): audit kernel results laid out for a reader.

T0, the default, uses no model: tables and plots are a deterministic function of the kernels' JSON,
so the same tree gives the same report byte for byte. Tiers that let a model write prose (T1-T3) are
to be built on top and must cite only numbers these kernels produced.
"""

from ragix_core.kernels.presenter.t0 import Report, build_report, write_report

__all__ = ["Report", "build_report", "write_report"]
