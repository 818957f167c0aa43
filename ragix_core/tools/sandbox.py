"""Choose and apply the OS confinement layer for one process.

Order of preference: bubblewrap, then Landlock, then none (layer 1 alone; `ragix
doctor` warns). The environment is always empty, except for a marker variable
when there is no PID namespace and the program may spawn children (the runner
also finds escapees that drop it: see runner.sweep).

Protected paths (policy.PROTECTED_WRITE_PATHS at the top, every .git below) are
read-only in writable runs: bind-mounted read-only by bubblewrap, and under
Landlock by a private mount namespace (mountns.py) where one can be made. A
protected name that did not exist before an unvalidated writer ran (ragix.yaml,
a new .git anywhere) is removed after the run, since no bind can cover it.
"""

from __future__ import annotations

import os
import shutil
import stat
import sys
import tempfile
import uuid
from typing import Callable, Dict, Iterable, List, Optional, Tuple

from ragix_core.tools import landlock as _ll
from ragix_core.tools import mountns
from ragix_core.tools.bwrap import bwrap_prefix, find_bwrap
from ragix_core.tools.limits import Limits
from ragix_core.tools.policy import HIDDEN_DIRS, PROTECTED_COMPONENTS, PROTECTED_WRITE_PATHS
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
        absent = [p for p in self._top_protected() if not os.path.lexists(p)] if guard_new else []
        nested = _git_entries(self.root) if writable else {}
        raw = self._run(argv, cwd=cwd, writable=writable, network=network, limits=limits, fsize=fsize,
                        stdin_data=stdin_data, out_cap=out_cap, may_spawn=may_spawn, extra_ro=extra_ro,
                        strict=guard_new, protected=self._existing_protected(nested))
        created = [p for p in absent if os.path.lexists(p)]
        if guard_new:
            known = set(nested.values())
            created += [p for p, ident in _git_entries(self.root).items() if ident not in known and p not in created]
        if created:
            # A read-only bind can only cover paths that exist, so a protected path
            # that did not exist (ragix.yaml, a new .git) is checked after the run instead.
            for path in created:
                _remove(path)
            names = ", ".join(os.path.relpath(p, self.root) for p in created)
            raw.error = f"created protected path(s) {names}; removed"
            if raw.returncode == 0:
                raw.returncode = 1
        return raw

    def confinement(self, argv: List[str], *, cwd: str, writable: bool, network: bool,
                    extra_ro: Iterable[str] = ()) -> Dict[str, object]:
        """What ``run`` would start for ``argv`` and what it could touch, without starting it (dry run):
        ``argv`` the exact command line (bwrap's included), ``reads``/``writes``/``hidden`` paths."""
        nested = _git_entries(self.root) if writable else {}
        protected = self._existing_protected(nested)
        hidden = [os.path.join(self.root, h) for h in HIDDEN_DIRS]
        extra = [p for p in extra_ro if os.path.exists(p)]
        out: Dict[str, object] = {"layer": self.kind, "network": network, "hidden": hidden,
                                  "read_only_inside": protected if writable else []}
        if self.kind == "bwrap":
            assert self.bwrap is not None
            out["argv"] = bwrap_prefix(self.bwrap, self.root, cwd, writable=writable, network=network,
                                       protected=protected, extra_ro=extra_ro, hidden=hidden, user_names=True) + list(argv)
            out["reads"] = [p for p in _ll.system_read_exec() if os.path.exists(p)] + extra + [self.root]
            out["writes"] = ([self.root] if writable else []) + ["/tmp (empty, discarded after the run)"]
        elif self.kind == "landlock":
            out["argv"] = list(argv)
            out["reads"] = [p for p in _ll.system_read_exec() if os.path.exists(p)] + extra + [self.root]
            out["writes"] = ["/dev/null"] + ([self.root] if writable else [])
        else:
            out["argv"] = list(argv)
            out["reads"] = ["(no OS sandbox: any file this user may read; layer 1 checked the paths it names)"]
            out["writes"] = [self.root] if writable else []
        return out

    def _top_protected(self) -> List[str]:
        return [os.path.join(self.root, p) for p in PROTECTED_WRITE_PATHS]

    def _existing_protected(self, nested: Dict[str, Tuple[int, int]]) -> List[str]:
        """Protected paths that exist now, for read-only binds (ragix's state is hidden instead)."""
        hidden = {os.path.join(self.root, h) for h in HIDDEN_DIRS}
        top = [p for p in self._top_protected() if p not in hidden and os.path.lexists(p) and not os.path.islink(p)]
        return top + sorted(p for p in nested if p not in top and not os.path.islink(p))

    def _run(self, argv: List[str], *, cwd: str, writable: bool, network: bool, limits: Limits, fsize: int,
             stdin_data: Optional[bytes], out_cap: Optional[int], may_spawn: bool, extra_ro: Iterable[str],
             strict: bool, protected: List[str]) -> RawResult:
        env: Dict[str, str] = {}
        token: Optional[str] = None
        if self.kind != "bwrap" and may_spawn:
            token = uuid.uuid4().hex
            env[SWEEP_VAR] = token
        hidden = [os.path.join(self.root, h) for h in HIDDEN_DIRS]
        if self.kind == "bwrap":
            assert self.bwrap is not None
            prefix = bwrap_prefix(self.bwrap, self.root, cwd, writable=writable, network=network,
                                  protected=protected, extra_ro=extra_ro, hidden=hidden, user_names=True)
            return run_process(prefix + argv, cwd=cwd, env=env, limits=limits, fsize=fsize,
                               stdin_data=stdin_data, out_cap=out_cap)
        if self.kind == "landlock":
            return self._run_landlock(argv, cwd=cwd, env=env, writable=writable, network=network, limits=limits,
                                      fsize=fsize, stdin_data=stdin_data, out_cap=out_cap, may_spawn=may_spawn,
                                      extra_ro=extra_ro, strict=strict, protected=protected, token=token,
                                      hidden=[h for h in hidden if os.path.isdir(h) and not os.path.islink(h)])
        return run_process(argv, cwd=cwd, env=env, limits=limits, fsize=fsize, stdin_data=stdin_data,
                           out_cap=out_cap, sweep_token=token)

    def _run_landlock(self, argv: List[str], *, cwd: str, env: Dict[str, str], writable: bool, network: bool,
                      limits: Limits, fsize: int, stdin_data: Optional[bytes], out_cap: Optional[int],
                      may_spawn: bool, extra_ro: Iterable[str], strict: bool, protected: List[str],
                      token: Optional[str], hidden: List[str]) -> RawResult:
        rw, ro = ["/dev/null"], [self.root]
        mount_hook: Optional[Callable[[], None]] = None
        private_tmp = tempfile.mkdtemp(prefix="ragix-tool-") if may_spawn else None
        if writable and mountns.available():
            # The root is writable; everything else, protected paths included, is a read-only
            # mount in the child's own mount namespace, and ragix's state is an empty tmpfs
            # there (as under bubblewrap).
            rw.append(self.root)
            keep = [self.root] + ([private_tmp] if private_tmp else [])
            mount_hook = mountns.protector(mountns.readonly_list(protected), hidden, mountns.readonly_list(keep))
        elif writable and strict:
            # No mount namespace: Landlock rules only add rights, so the protected top-level
            # names are left out of the writable set and the root itself stays read-only
            # (new top-level entries cannot be created by unvalidated writers).
            top = {p.split("/")[0] for p in PROTECTED_WRITE_PATHS} | set(PROTECTED_COMPONENTS)
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
        elif mountns.available():
            # read-only runs: every mount read-only but the private /tmp, and the state hidden
            mount_hook = mountns.protector([], hidden, mountns.readonly_list([private_tmp] if private_tmp else []))
        if private_tmp:
            # bwrap gives every run an empty /tmp; under Landlock the program gets a
            # private temporary directory instead (and TMPDIR names it).
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
                                   out_cap=out_cap, sweep_token=token,
                                   preexec_extra=_chain(mount_hook, ruleset.restrictor()))
        finally:
            if private_tmp:
                shutil.rmtree(private_tmp, ignore_errors=True)


def _chain(first: Optional[Callable[[], None]], second: Callable[[], None]) -> Callable[[], None]:
    """The mount set-up (if any) runs before Landlock restricts the child: once restricted,
    a process may not change its mounts at all."""
    if first is None:
        return second

    def both() -> None:
        first()
        second()

    return both


def _git_entries(root: str, limit: int = 200_000) -> Dict[str, Tuple[int, int]]:
    """Every .git (directory or gitlink file) under ``root``, by (device, inode); not
    entering a .git, ragix's state, or symlinks."""
    found: Dict[str, Tuple[int, int]] = {}
    stack, seen = [root], 0
    while stack and seen < limit:
        current = stack.pop()
        try:
            entries = list(os.scandir(current))
        except OSError:
            continue
        for entry in entries:
            seen += 1
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if entry.name in PROTECTED_COMPONENTS:
                found[entry.path] = (st.st_dev, st.st_ino)
            elif stat.S_ISDIR(st.st_mode) and not (current == root and entry.name in HIDDEN_DIRS):
                stack.append(entry.path)
    return found


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
