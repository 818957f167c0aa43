"""The checks of a command that ran, shared by every engine that runs the model's commands.

Each reads the command (and the files, and the goal only for its unit): a doubt when its shape answers another
question than the likely one (path_as_text.py), a mistake when its shape cannot compute what it was written for
(pipe_mistakes.py), or counts or measures in another unit than the goal's (size_unit.py, count_unit.py), or
counts the empty lines the goal leaves out (blank_lines.py). A search for a path's text (the doubt) is the more
precise reason when it and a count-unit mistake both apply.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional, Tuple

from .blank_lines import blank_lines_counted
from .count_unit import count_unit_mistake
from .path_as_text import path_searched_as_text
from .pipe_mistakes import pipe_mistake
from .size_unit import size_not_in_bytes

__all__ = ["check_command"]


def check_command(goal: str, command: str, root: Path) -> Tuple[Optional[str], Optional[str]]:
    """``(doubt, mistake)`` of ``command``, run in ``root`` for ``goal``; None for each that does not apply."""
    doubt = path_searched_as_text(command, root)
    mistake = pipe_mistake(command, root) or size_not_in_bytes(goal, command) or (
        None if doubt else count_unit_mistake(goal, command) or blank_lines_counted(goal, command))
    return doubt, mistake
