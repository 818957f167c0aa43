"""`ragix run --dry-run`'s report: the plan, and each command as it would be started, confined.

Plain text on stdout (no markup), so that it can be read, diffed and pasted into a review.
"""

from __future__ import annotations

import shlex
from typing import Any, Dict, List

__all__ = ["dry_run_text"]


def _process(p: Dict[str, Any], indent: str) -> List[str]:
    lines = [f"{indent}process: {shlex.join(map(str, p['argv']))}    [{p['layer']}]"]
    if p.get("confined_argv"):
        lines.append(f"{indent}  runs as: {shlex.join(map(str, p['confined_argv']))}")
    lines.append(f"{indent}  may read: {', '.join(map(str, p['reads'])) or 'nothing'}")
    lines.append(f"{indent}  may write: {', '.join(map(str, p['writes'])) or 'nothing'}")
    if p.get("read_only_inside"):
        lines.append(f"{indent}  read-only inside it: {', '.join(map(str, p['read_only_inside']))}")
    if p.get("hidden"):
        lines.append(f"{indent}  hidden (an empty directory): {', '.join(map(str, p['hidden']))}")
    lines.append(f"{indent}  network: {'yes' if p.get('network') else 'no'}")
    if p.get("approval"):
        lines.append(f"{indent}  write approval: {p['approval']}")
    return lines


def _command(preview: Dict[str, Any], indent: str) -> List[str]:
    lines = [f"{indent}$ {preview['command']}"]
    if preview.get("refused"):
        return lines + [f"{indent}  would be refused: {preview['refused']}"]
    for p in preview.get("processes") or []:
        lines += _process(p, indent + "  ")
    return lines


def dry_run_text(report: Dict[str, Any], answer: str) -> str:
    """The report of ``state.meta["dry_run"]``; ``answer`` when the run needed no command at all."""
    lines = ["Dry run: nothing was executed."]
    plan = report.get("plan") or []
    commands = report.get("commands") or []
    if plan:
        lines.append("")
        lines.append("Plan:")
        for step in plan:
            lines.append(f"  {step['num']}. {step['description']}")
            if step.get("preview"):
                lines += _command(step["preview"], "     ")
            else:
                lines.append(f"     ({step.get('note')})")
    first = [c for c in commands if not any((s.get("preview") or {}).get("command") == c["command"] for s in plan)]
    if first:
        lines.append("")
        lines.append("The run would start with:" if not plan else "Other commands it would run:")
        for preview in first:
            lines += _command(preview, "  ")
    if not plan and not commands:
        lines.append("")
        lines.append("It would run no command; the answer needs none:")
        lines.append(answer or "(no answer)")
    return "\n".join(lines)
