"""Choose and apply the OS confinement layer for one process.

Order of preference: bubblewrap, then Landlock, then none (layer 1 alone; `ragix
doctor` warns). The environment is always empty, except for a marker variable
when there is no PID namespace and the program may spawn children, so that
setsid() escapees can be found and killed after the run.
"""

from __future__ import annotations

import os
import sys
import uuid
from typing import Dict, Iterable, List, Optional

from ragix_core.tools import landlock as _ll
from ragix_core.tools.bwrap import bwrap_prefix, find_bwrap
from ragix_core.tools.limits import Limits
from ragix_core.tools.paths import PROTECTED_WRITE_PATHS
from ragix_core.tools.runner import SWEEP_VAR, RawResult, run_process

__all__ = ["Sandbox", "SANDBOX_MODES"]

SANDBOX_MODES = ("auto", "bwrap", "landlock", "none")


class Sandbox:
    def __init__(self, root: str, mode: str = "auto") -> None:
        if mode not in SANDBOX_MODES:
            raise ValueError(f"unknown sandbox {mode!r}; allowed: {', '.join(SANDBOX_MODES)}")
        self.root = root
        self.bwrap: Optional[str] = find_bwrap() if mode in ("auto", "bwrap") else None
        self.landlock_abi = _ll.landlock_abi() if mode in ("auto", "landlock") else 0
        if mode == "bwrap" and not self.bwrap:
            raise ValueError("sandbox 'bwrap' requested but bubblewrap is not usable; run scripts/setup_system.sh")
        if mode == "landlock" and not self.landlock_abi:
            raise ValueError("sandbox 'landlock' requested but this kernel has no Landlock")
        if self.bwrap:
            self.kind = "bwrap"
        elif self.landlock_abi:
            self.kind = "landlock"
        else:
            self.kind = "none"

    @property
    def confining(self) -> bool:
        return self.kind != "none"

    def layers(self) -> Dict[str, object]:
        return {
            "layer1": True,
            "bwrap": self.bwrap or False,
            "landlock": self.landlock_abi or False,
            "active": self.kind,
        }

    def run(
        self,
        argv: List[str],
        *,
        cwd: str,
        writable: bool,
        network: bool,
        limits: Limits,
        fsize: int,
        stdin_data: Optional[bytes] = None,
        out_cap: Optional[int] = None,
        may_spawn: bool = False,
        extra_ro: Iterable[str] = (),
    ) -> RawResult:
        env: Dict[str, str] = {}
        token: Optional[str] = None
        if self.kind != "bwrap" and may_spawn:
            token = uuid.uuid4().hex
            env[SWEEP_VAR] = token
        if self.kind == "bwrap":
            assert self.bwrap is not None
            protected = [os.path.join(self.root, p) for p in PROTECTED_WRITE_PATHS]
            prefix = bwrap_prefix(self.bwrap, self.root, cwd, writable=writable, network=network,
                                  protected=protected, extra_ro=extra_ro)
            return run_process(prefix + argv, cwd=cwd, env=env, limits=limits, fsize=fsize,
                               stdin_data=stdin_data, out_cap=out_cap)
        if self.kind == "landlock":
            rw = [self.root, "/dev/null"] if writable else ["/dev/null"]
            ro = [] if writable else [self.root]
            try:
                ruleset = _ll.Ruleset(_ll.system_read_exec() + list(extra_ro), ro, rw, network)
            except OSError as exc:
                return RawResult(126, b"", b"", error=f"landlock setup failed: {exc}")
            with ruleset:
                return run_process(argv, cwd=cwd, env=env, limits=limits, fsize=fsize, stdin_data=stdin_data,
                                   out_cap=out_cap, sweep_token=token, preexec_extra=ruleset.restrictor())
        return run_process(argv, cwd=cwd, env=env, limits=limits, fsize=fsize, stdin_data=stdin_data,
                           out_cap=out_cap, sweep_token=token)


def interpreter_dirs() -> List[str]:
    """Directories the python executor needs read access to (its installation)."""
    prefix = os.path.realpath(sys.base_prefix)
    return [] if prefix.startswith("/usr/") or prefix == "/usr" else [prefix]
