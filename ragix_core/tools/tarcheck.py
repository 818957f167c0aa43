"""Check a tar command line, and an archive's members before extraction.

tar reads and writes whole trees and can run programs (--to-command,
--use-compress-program, --checkpoint-action, --info-script, `-f host:file` over
rsh). Only the dash forms are accepted (`tar -czf out.tgz src`, `tar -xzf a.tgz -C
dir`, `tar -tzf a.tgz`); every program-running or name-rewriting option is refused.
Before an extraction the archive is read with Python's tarfile and refused if any
member would land outside the project or on a protected name (absolute, `..`,
.git), is a device, FIFO or hard link, links out of the project, carries
setuid/setgid bits, or would be written through a symlink already on disk.
ragix adds --force-local (a ':' in a name is never a remote host) and
--no-same-owner.
"""

from __future__ import annotations

import os
import stat
import tarfile
from typing import Any, List, Optional

from ragix_core.tools.paths import PathGuard
from ragix_core.tools.policy import protected_reason
from ragix_core.tools.refusal import Refusal

__all__ = ["check_tar", "MAX_MEMBERS"]

MAX_MEMBERS = 20_000
_MODES = {"c": "create", "x": "extract", "t": "list"}
_LONG_MODES = {"create": "c", "extract": "x", "get": "x", "list": "t"}
_FLAGS = set("zjJvkpO")  # gzip bzip2 xz verbose keep-old-files preserve-permissions to-stdout
_LONG_FLAGS = {"gzip", "gunzip", "bzip2", "xz", "verbose", "keep-old-files", "to-stdout", "skip-old-files",
               "no-same-owner", "no-same-permissions", "force-local", "numeric-owner", "totals"}
_DENIED = {
    "to-command": "runs a program per member", "use-compress-program": "runs a program", "I": "runs a program",
    "checkpoint-action": "runs a program", "info-script": "runs a program", "new-volume-script": "runs a program",
    "F": "runs a program", "rsh-command": "runs a program", "rmt-command": "runs a program",
    "strip-components": "rewrites member names past the check", "transform": "rewrites member names past the check",
    "xform": "rewrites member names past the check", "P": "keeps absolute member names",
    "absolute-names": "keeps absolute member names", "h": "follows symlinks out of the project",
    "dereference": "follows symlinks out of the project", "T": "reads member names from a file",
    "files-from": "reads member names from a file", "X": "reads a file named by the model",
    "exclude-from": "reads a file named by the model", "g": "writes a snapshot file",
    "listed-incremental": "writes a snapshot file", "overwrite": "writes through existing files",
    "unlink-first": "removes files before the check", "recursive-unlink": "removes whole trees",
    "same-owner": "restores foreign owners",
}


def _one_directory(directory: Optional[str], operands: List[str]) -> None:
    """tar applies each -C in order, from where the last one left it, to the names after it: the names are checked
    against one directory only, so a second -C, or one after a name, is refused (found by review, 2026-12-01:
    `tar -cf - -C / -C . etc/hostname` read outside the project)."""
    if directory is not None:
        raise Refusal("tar: give -C once (a second -C moves on from the first)")
    if operands:
        raise Refusal("tar: give -C before the names (it applies only to the names after it)")


def check_tar(args: List[str], guard: PathGuard, writes_allowed: bool, report: Any) -> List[str]:
    """Validate; return the argv to run (with ragix's own options). Sets report.writes."""
    mode: Optional[str] = None
    archive: Optional[str] = None
    directory: Optional[str] = None
    operands: List[str] = []
    seen = set()
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            operands += args[i + 1:]
            break
        if a.startswith("--"):
            name, eq, value = a[2:].partition("=")
            if name in _DENIED:
                raise Refusal(f"tar: --{name} is not allowed ({_DENIED[name]})")
            if name in _LONG_MODES:
                mode = _set_mode(mode, _LONG_MODES[name])
            elif name in ("file", "directory"):
                if not eq:
                    if i + 1 >= len(args):
                        raise Refusal(f"tar: --{name} needs a value")
                    i += 1
                    value = args[i]
                if name == "directory":
                    _one_directory(directory, operands)
                archive, directory = (value, directory) if name == "file" else (archive, value)
            elif name == "exclude" and eq:
                pass
            elif name in _LONG_FLAGS and not eq:
                seen.add(name)
            else:
                raise Refusal(f"tar: option --{name} is not allowed (modes -c -x -t; -f FILE -C DIR -z -j -J -v -O "
                              "--exclude=PATTERN)")
        elif a.startswith("-") and len(a) > 1:
            j = 1
            while j < len(a):
                ch = a[j]
                if ch in _DENIED:
                    raise Refusal(f"tar: -{ch} is not allowed ({_DENIED[ch]})")
                if ch in _MODES:
                    mode = _set_mode(mode, ch)
                elif ch in _FLAGS:
                    seen.add(ch)
                elif ch in "fC":
                    value = a[j + 1:]
                    if not value:
                        if i + 1 >= len(args):
                            raise Refusal(f"tar: -{ch} needs a value")
                        i += 1
                        value = args[i]
                    if ch == "C":
                        _one_directory(directory, operands)
                    archive, directory = (value, directory) if ch == "f" else (archive, value)
                    break
                else:
                    raise Refusal(f"tar: option -{ch} is not allowed (use -c, -x or -t with -f FILE, -C DIR, -z/-j/-J, -v)")
                j += 1
        else:
            operands.append(a)
        i += 1
    if mode is None:
        raise Refusal("tar: say what to do: -c (create), -x (extract) or -t (list), in the dash form (tar -xzf a.tgz)")
    if archive is None:
        raise Refusal("tar: name the archive with -f FILE (or -f - for a pipe)")
    base = directory or "."
    if directory is not None:
        guard.read(directory, must_exist=True)
    if mode == "c":
        if not operands:
            raise Refusal("tar -c: name what to archive")
        for p in operands:
            guard.tree(os.path.join(base, p))  # hard links would put their other name's content in the archive
        if archive != "-":
            guard.write(archive)
            report.writes = True
    else:
        if archive != "-":
            guard.read(archive, must_exist=True)
        for p in operands:
            if os.path.isabs(p) or ".." in p.split("/"):
                raise Refusal(f"tar: member name {p!r} must be relative, without '..'")
        if mode == "x" and "O" not in seen and "to-stdout" not in seen:
            if archive == "-":
                raise Refusal("tar -x: extract from a named archive (its members are checked before extraction)")
            report.writes = True
            _check_members(guard, archive, base)
    if report.writes and not writes_allowed:
        raise Refusal("tar: this command writes files; this profile is read-only")
    return ["--force-local", "--no-same-owner"] + list(args)


def _set_mode(mode: Optional[str], new: str) -> str:
    if mode is not None and mode != new:
        raise Refusal("tar: use one of -c, -x, -t")
    return new


def _check_members(guard: PathGuard, archive: str, base: str) -> None:
    path = guard.read(archive, must_exist=True)
    dest = guard.read(base, must_exist=True)
    links = set()
    try:
        with tarfile.open(path) as tar:
            for count, m in enumerate(tar):
                if count >= MAX_MEMBERS:
                    raise Refusal(f"tar: the archive holds more than {MAX_MEMBERS} members")
                _check_member(guard, dest, m, links)
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise Refusal(f"tar: cannot read {archive!r} to check its members ({exc})") from None


def _check_member(guard: PathGuard, dest: str, m: tarfile.TarInfo, links: set) -> None:
    name = m.name
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if name.startswith("/") or ".." in parts:
        raise Refusal(f"tar: member {name!r} is absolute or contains '..'")
    target = os.path.join(dest, *parts) if parts else dest
    rel = os.path.relpath(target, guard.root)
    why = protected_reason(rel)
    if why:
        raise Refusal(f"tar: member {name!r} would write {rel!r}: {why}")
    if not (m.isreg() or m.isdir() or m.issym()):
        raise Refusal(f"tar: member {name!r} is a hard link, device or FIFO")
    if m.mode & (stat.S_ISUID | stat.S_ISGID):
        raise Refusal(f"tar: member {name!r} has setuid/setgid bits")
    for k in range(1, len(parts)):
        prefix = "/".join(parts[:k])
        if prefix in links:
            raise Refusal(f"tar: member {name!r} lies under the archive's own symlink {prefix!r}")
        on_disk = os.path.join(dest, *parts[:k])
        if os.path.islink(on_disk):
            raise Refusal(f"tar: member {name!r} would be written through the symlink {os.path.relpath(on_disk, guard.root)!r}")
    if m.issym():
        if os.path.isabs(m.linkname):
            raise Refusal(f"tar: symlink member {name!r} points to an absolute path")
        resolved = os.path.normpath(os.path.join(os.path.dirname(target), m.linkname))
        if not guard.inside(resolved):
            raise Refusal(f"tar: symlink member {name!r} points outside the project")
        links.add("/".join(parts))
