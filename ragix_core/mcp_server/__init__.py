"""`ragix mcp serve`: ragix's engines and confined tools offered to any MCP client (spec 002 §8.1).

The server is a front end like the CLI: every tool goes through the runtime entry points the
commands use (``run_goal``, ``run_turn``, ``ToolBox``), with the profile and project root fixed
when the server starts, never by a client's arguments.
"""
