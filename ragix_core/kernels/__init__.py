"""Deterministic analysis kernels: pure functions from source text to typed records.

No model, no I/O of their own: the caller reads the files (tools/model_commands.py reads them
through the confined path guard) and decides how the records are shown. The same kernel serves
a command designed for the model and, later, an audit report or an MCP tool.
"""
