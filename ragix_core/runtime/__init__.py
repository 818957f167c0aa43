"""The runtime every engine stands on: one RunContext per run (config, profile,
roles, tool boxes, memory, traces) and ``run_goal``, which builds the engine a
strategy names from the registry (``ragix_core.core.registry``: a leaf, so the
config layer and the CLI read the names without loading any engine).
"""
