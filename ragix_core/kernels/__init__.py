"""Deterministic analysis kernels (audit/: ast_scan, metrics, churn, hotspots, risk, recommendations) and
the presenter that shows them in tiers (presenter/). Kernels sit above the confined tools (churn reads git
history through the sandbox); the Python parser they share with the model's commands is
ragix_core/python_source.py, below both.
"""
