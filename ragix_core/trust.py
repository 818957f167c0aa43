"""Which project ragix.yaml files the user trusts, and what an untrusted one may still set.

A `ragix.yaml` found in the working directory comes with the project, and a
project can be cloned from anyone. Unless the user ran `ragix trust DIR` (stored in
``$RAGIX_HOME/trusted_projects.json``, keyed by the directory's real path and the
file's sha256, so an edit after the decision lapses it), the project file may only
*tighten* the user's own configuration ($RAGIX_HOME/ragix.yaml or the defaults):

- ``profile``: only a profile whose tools and models are both within the user's
  (see PROFILE_WITHIN); never one that allows more.
- ``llm``: ignored whole: an endpoint, an API-key variable or a backend would send
  every prompt (file contents included) where the project says.
- ``reasoning``: only the keys of TIGHTENING, and only in the tightening direction
  (fewer REFLECT tools, fewer iterations, switches turned off). Everything else —
  paths where traces and experience are written included — is ignored.

What was ignored is said in one line on stderr, with the command that trusts the file.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

from ragix_core.core.home import ragix_home

__all__ = ["TRUST_FILE", "TrustError", "trust", "revoke", "trusted", "status", "restrict", "PROFILE_WITHIN"]

TRUST_FILE = "trusted_projects.json"

# (project profile, user profile) pairs where the project's profile allows nothing the user's does not.
# A profile is a pair (tools, models): safe = (none, remote), dev = (allowlist, any), sovereign = (any
# command, local only). safe is within dev; sovereign is within neither (any command) and neither is
# within sovereign (dev and safe allow models sovereign forbids), so only safe under dev tightens.
PROFILE_WITHIN = {("safe", "dev")}


class TrustError(ValueError):
    """The trust store or a trust request is invalid; the message says which and why."""


def _store() -> Path:
    return ragix_home() / TRUST_FILE


def _key(directory: "os.PathLike[str] | str") -> str:
    return os.path.realpath(os.fspath(directory))


def file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _load() -> Dict[str, Dict[str, Any]]:
    path = _store()
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        projects = data["projects"]
        if not isinstance(projects, dict) or not all(isinstance(v, dict) and "sha256" in v for v in projects.values()):
            raise ValueError("'projects' must map directories to {sha256, trusted_at}")
        return projects
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise TrustError(f"trust list {path} is unreadable or invalid ({exc}); fix or delete it") from None


def _save(projects: Dict[str, Dict[str, Any]]) -> None:
    path = _store()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".trusted-", dir=str(path.parent))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({"version": 1, "projects": projects}, fh, indent=2, sort_keys=True)
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)  # readers see the old list or the new one, never half of one
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def trust(directory: "os.PathLike[str] | str", filename: str = "ragix.yaml") -> Dict[str, Any]:
    """Record the current content of DIRECTORY/ragix.yaml as trusted; return the entry."""
    key = _key(directory)
    config = Path(key) / filename
    if not config.is_file():
        raise TrustError(f"{config} does not exist: there is nothing to trust in {key}")
    projects = _load()
    entry = {"sha256": file_hash(config), "trusted_at": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    projects[key] = entry
    _save(projects)
    return {"path": key, **entry}


def revoke(directory: "os.PathLike[str] | str") -> bool:
    """Forget DIRECTORY; False when it was not trusted."""
    key = _key(directory)
    projects = _load()
    if key not in projects:
        return False
    del projects[key]
    _save(projects)
    return True


def trusted() -> List[Dict[str, Any]]:
    return [{"path": k, **v} for k, v in sorted(_load().items())]


def status(config: Path) -> Tuple[bool, str]:
    """(trusted?, why) for a project config file."""
    entry = _load().get(_key(config.parent))
    if entry is None:
        return False, "not trusted"
    if entry.get("sha256") != file_hash(config):
        return False, "changed since it was trusted"
    return True, "trusted"


# --- what an untrusted file may set ------------------------------------------------------
def _subset(new: Any, old: Any) -> bool:
    return isinstance(new, list) and isinstance(old, list) and set(new) <= set(old)


def _at_most(new: Any, old: Any) -> bool:
    return isinstance(new, (int, float)) and not isinstance(new, bool) and new <= old


def _off(new: Any, old: Any) -> bool:
    return new is False


# reasoning.<section>.<key> -> does the project's value tighten the user's?
TIGHTENING: Dict[Tuple[str, str], Callable[[Any, Any], bool]] = {
    ("reflect", "allowed_tools"): _subset,
    ("reflect", "max_commands"): _at_most,
    ("reflect", "enabled"): _off,
    ("reflect", "use_shell"): _off,
    ("graph", "max_iterations"): _at_most,
    ("experience", "enabled"): _off,
    ("traces", "include_prompts"): _off,
}


def restrict(project: Dict[str, Any], base: Dict[str, Any], effective_base: Any) -> Tuple[Dict[str, Any], List[str]]:
    """The user's config data ``base`` with what the untrusted ``project`` data may tighten
    applied; and the project keys that were ignored, each with why.
    ``effective_base`` is ``base`` validated (defaults filled in), to compare against."""
    merged: Dict[str, Any] = json.loads(json.dumps(base))  # a deep copy of plain YAML data
    ignored: List[str] = []
    for key, value in project.items():
        if key == "profile":
            mine = effective_base.profile
            if value == mine or (value, mine) in PROFILE_WITHIN:
                merged["profile"] = value
            else:
                ignored.append(f"profile: {value} (would widen your {mine})")
        elif key == "llm":
            ignored.append("llm (endpoints, backends and API-key variables come from your own config only)")
        elif key == "reasoning" and isinstance(value, dict):
            ignored += _reasoning(value, merged, effective_base.reasoning)
        else:
            ignored.append(f"{key}")
    return merged, ignored


def _reasoning(section: Dict[str, Any], merged: Dict[str, Any], current: Any) -> List[str]:
    ignored = []
    for name, sub in section.items():
        if not isinstance(sub, dict):
            ignored.append(f"reasoning.{name}")
            continue
        for key, value in sub.items():
            check = TIGHTENING.get((name, key))
            mine = getattr(getattr(current, name, None), key, None)
            if check is not None and check(value, mine):
                merged.setdefault("reasoning", {}).setdefault(name, {})[key] = value
            else:
                ignored.append(f"reasoning.{name}.{key}")
    return ignored


def notice(config: Path, why: str, ignored: List[str]) -> Optional[str]:
    if not ignored:
        return None
    return (f"ragix: {config} is {why}; ignored from it: {'; '.join(ignored)}. "
            f"If you trust this project, run: ragix trust {config.parent}")
