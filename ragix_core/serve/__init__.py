"""`ragix serve`: the engines behind a local web API and page.

One concept per module: ``settings`` (what the operator allows), ``paths`` (requests resolved beneath
a root), ``stream`` (one run's events fanned out to its watchers), ``runs`` (the bounded queue of
runs), ``history`` (past runs from their trace files), ``views`` (what a page shows of a run's
events), ``mermaid`` (a graph run as a diagram), ``guard`` (token, origin and size checks),
``api`` and ``pages`` (the routes), ``app`` (assembly). Nothing here runs an engine another way than
the CLI does: every run goes through ``ragix_core.runtime.run.run_goal``.
"""
