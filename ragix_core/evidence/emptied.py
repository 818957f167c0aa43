"""Which stage of a pipeline that printed nothing, or counted nothing (`… | wc -l` printing 0), left no line:
what a retry is shown.

"The command printed nothing" does not say where the lines went. A person would run the pipe a stage
at a time; ragix does that for the model, read-only, and says which stage dropped every line, with the
first line that reached it. Measured on our own sets at 933f359: a `grep -rn NAME ./ | grep -v ./ |
awk '{print $2}' | uniq` printed nothing (every line of a search of `./` starts with `./`), and the
retries wrote the same `grep -v ./` again, then gave up. SWE-agent (2405.15793) found that saying
plainly what a command did is what helps a small model most.

At most ``MAX_PROBES`` prefixes run, each through the same validation and sandbox as any command
(REFLECT's read-only shell). A prefix that is refused, fails or cannot be cut cleanly ends the probe
with nothing said: the feedback never guesses.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional

from ragix_core.core.text import bounded
from ragix_core.tools.lexer import stage_texts

__all__ = ["pipe_prefixes", "emptied_stage", "MAX_PROBES"]

MAX_PROBES = 4  # prefixes run, at most (a pipe has at most 8 stages)
LINE_CHARS = 120


def pipe_prefixes(command: str) -> List[str]:
    """The command cut before each unquoted ``|``, shortest first (the whole command is not one). A `||`
    (an empty stage) chains commands: nothing to cut."""
    stages = stage_texts(command)
    if any(not stage.strip() for stage in stages):
        return []
    return ["|".join(stages[:i]).strip() for i in range(1, len(stages))]


def _lines(result: Any) -> Optional[List[str]]:
    """The lines a probe printed, or None when it did not run cleanly (refused, failed, a timeout)."""
    if result is None or getattr(result, "refused", False):
        return None
    lines = [line for line in (result.stdout or "").splitlines() if line.strip()]
    if getattr(result, "no_match", False) and not lines:
        return lines  # grep's exit 1, or 123 under xargs: a clean "found nothing"
    return lines if result.returncode == 0 or getattr(result, "answer_exit", False) else None  # diff: they differ


def emptied_stage(command: str, run: Callable[[str], Any], printed: str = "") -> Optional[str]:
    """One sentence naming the stage of ``command`` that left no line, or None. ``command`` printed nothing,
    or only ``printed``, a count of nothing (``0``): a count's stage got no line, so the stage that dropped
    them is named the same way; when every stage before the last printed lines, the last made ``printed``
    of them (an awk that counts a pattern none of them holds)."""
    prefixes = pipe_prefixes(command)
    if not prefixes:
        return None
    before: Optional[List[str]] = None
    for prefix in prefixes[:MAX_PROBES]:
        lines = _lines(run(prefix))
        if lines is None:
            return None
        if not lines:
            if before is None:
                return f"Its first stage `{bounded(prefix, 200)}` alone printed nothing."
            return _dropped(last, before, prefix)
        last, before = prefix, lines
    if len(prefixes) > MAX_PROBES:
        return None
    return _dropped(last, before, command, printed)


def _dropped(prefix: str, lines: List[str], through: str, printed: str = "") -> str:
    stage = through[len(prefix):].lstrip().lstrip("|").strip()
    first = bounded(lines[0].strip(), LINE_CHARS)
    made = f"printed only `{bounded(printed, 40)}` from them" if printed else "left none of them"
    return (f"`{bounded(prefix, 200)}` printed {len(lines)} line{'s' if len(lines) != 1 else ''} (the first: "
            f"`{first}`), and `| {bounded(stage, 200)}` {made}.")
