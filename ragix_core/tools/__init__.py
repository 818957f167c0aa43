"""Confined tool execution (issue 4).

    from ragix_core.tools import ToolBox
    tb = ToolBox(root, profile="reflect")
    tb.run(ToolCall("shell", {"command": "find . -name '*.md' | xargs wc -l | sort -n"}))

Layer 1 (validation: lexer, validate, argcheck, findcheck, paths) decides
whether a command may run; layer 2 (sandbox: bwrap, landlock) confines the
process that runs; runner applies limits. See docs in each module.
"""

from ragix_core.tools.limits import Limits
from ragix_core.tools.profiles import PROFILES, Profile, get_profile
from ragix_core.tools.refusal import Refusal
from ragix_core.tools.toolbox import REFUSED_RC, ToolBox

__all__ = [
    "ToolBox",
    "Limits",
    "Refusal",
    "REFUSED_RC",
    "Profile",
    "PROFILES",
    "get_profile",
]
