"""Choose and apply the OS confinement layer for one process.

Order of preference: bubblewrap, then Landlock, then none (layer 1 alone; `ragix
doctor` warns). The environment is always empty, except for a marker variable
when there is no PID namespace and the program may spawn children, so that
setsid() escapees can be found and killed after the run.
"""

from __future__ import annotations

import os
import shutil
import stat
import sys
import tempfile
import uuid
from typing import Dict, Iterable, List, Optional

from ragix_core.tools import landlock as _ll
from ragix_core.tools.bwrap import bwrap_prefix, find_bwrap
from ragix_core.tools.limits import Limits
from ragix_core.tools.policy import HIDDEN_DIRS, PROTECTED_WRITE_PATHS
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
        unvalidated: bool = False,
    ) -> RawResult:
        """Run ``argv`` confined. ``unvalidated`` marks a writer layer 1 could not
        check (python code, sovereign commands): protected paths get extra care."""
        guard_new = writable and unvalidated
        absent = [p for p in self._protected() if not os.path.lexists(p)] if guard_new else []
        raw = self._run(argv, cwd=cwd, writable=writable, network=network, limits=limits, fsize=fsize,
                        stdin_data=stdin_data, out_cap=out_cap, may_spawn=may_spawn, extra_ro=extra_ro,
                        strict=guard_new)
        created = [p for p in absent if os.path.lexists(p)]
        if created:
            # A read-only bind can only cover paths that exist, so a protected path
            # that did not exist (ragix.yaml usually) is checked after the run instead.
            for path in created:
                _remove(path)
            names = ", ".join(os.path.relpath(p, self.root) for p in created)
            raw.error = f"created protected path(s) {names}; removed"
            if raw.returncode == 0:
                raw.returncode = 1
        return raw

    def _protected(self) -> List[str]:
        return [os.path.join(self.root, p) for p in PROTECTED_WRITE_PATHS]

    def _run(self, argv: List[str], *, cwd: str, writable: bool, network: bool, limits: Limits, fsize: int,
             stdin_data: Optional[bytes], out_cap: Optional[int], may_spawn: bool, extra_ro: Iterable[str],
             strict: bool) -> RawResult:
        env: Dict[str, str] = {}
        token: Optional[str] = None
        if self.kind != "bwrap" and may_spawn:
            token = uuid.uuid4().hex
            env[SWEEP_VAR] = token
        if self.kind == "bwrap":
            assert self.bwrap is not None
            prefix = bwrap_prefix(self.bwrap, self.root, cwd, writable=writable, network=network,
                                  protected=self._protected(), extra_ro=extra_ro,
                                  hidden=[os.path.join(self.root, h) for h in HIDDEN_DIRS])
            return run_process(prefix + argv, cwd=cwd, env=env, limits=limits, fsize=fsize,
                               stdin_data=stdin_data, out_cap=out_cap)
        if self.kind == "landlock":
            rw, ro = ["/dev/null"], [self.root]
            if writable and strict:
                # Landlock rules only add rights, so the protected top-level names are
                # left out of the writable set; the root itself stays read-only (new
                # top-level entries cannot be created by unvalidated writers).
                top = {p.split("/")[0] for p in PROTECTED_WRITE_PATHS}
                for entry in sorted(os.scandir(self.root), key=lambda e: e.name):
                    # Never a symlink (the rule would follow it to its target) nor a
                    # multiply-linked file (rules attach to inodes: the grant would
                    # hold for the file's other name, outside the root too).
                    if entry.name in top:
                        continue
                    st = entry.stat(follow_symlinks=False)
                    if stat.S_ISDIR(st.st_mode) or (stat.S_ISREG(st.st_mode) and st.st_nlink == 1):
                        rw.append(entry.path)
            elif writable:
                rw.append(self.root)  # layer 1 has checked every write target
            private_tmp = None
            if may_spawn:
                # bwrap gives every run an empty /tmp; under Landlock the program gets a
                # private temporary directory instead (and TMPDIR names it).
                private_tmp = tempfile.mkdtemp(prefix="ragix-tool-")
                rw.append(private_tmp)
                env["TMPDIR"] = private_tmp
            try:
                ruleset = _ll.Ruleset(_ll.system_read_exec() + list(extra_ro), ro, rw, network)
            except OSError as exc:
                if private_tmp:
                    shutil.rmtree(private_tmp, ignore_errors=True)
                return RawResult(126, b"", b"", error=f"landlock setup failed: {exc}")
            try:
                with ruleset:
                    return run_process(argv, cwd=cwd, env=env, limits=limits, fsize=fsize, stdin_data=stdin_data,
                                       out_cap=out_cap, sweep_token=token, preexec_extra=ruleset.restrictor())
            finally:
                if private_tmp:
                    shutil.rmtree(private_tmp, ignore_errors=True)
        return run_process(argv, cwd=cwd, env=env, limits=limits, fsize=fsize, stdin_data=stdin_data,
                           out_cap=out_cap, sweep_token=token)


def _remove(path: str) -> None:
    try:
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        else:
            os.unlink(path)
    except OSError:
        pass


def interpreter_dirs() -> List[str]:
    """Directories the python executor needs read access to (its installation)."""
    prefix = os.path.realpath(sys.base_prefix)
    return [] if prefix.startswith("/usr/") or prefix == "/usr" else [prefix]
