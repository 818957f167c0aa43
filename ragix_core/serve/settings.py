"""What the operator of `ragix serve` allows: the roots a run may work in, the most permissive
profile, how many runs at once, how big a request, and who may change anything.

Checked once, when the server starts, so a bad setting is an error at the command line, never a
surprise in a request.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, Optional, Tuple

__all__ = ["ServeSettings", "SettingsError", "allowed_profiles", "is_loopback", "parse_root"]


class SettingsError(ValueError):
    """A server setting that cannot be honoured; the message says which and why."""


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def allowed_profiles(max_profile: str) -> Tuple[str, ...]:
    """The profiles a request may ask for under ``max_profile``: that one and `safe`.

    dev and sovereign are not ordered (dev allows remote models, sovereign any command), so
    neither is 'at most' the other; `safe` runs no process and is at most either."""
    return ("safe",) if max_profile == "safe" else ("safe", max_profile)


def parse_root(spec: str) -> Tuple[str, Path]:
    """``NAME=DIR`` or just ``DIR`` (named by its last component)."""
    name, sep, directory = spec.partition("=")
    if not sep:
        name, directory = "", spec
    path = Path(directory).expanduser()
    name = name or path.resolve().name or "root"
    return name, path


@dataclass
class ServeSettings:
    roots: Dict[str, Path]
    max_profile: str = "dev"
    host: str = "127.0.0.1"
    port: int = 8765
    token: Optional[str] = None  # required off loopback; state-changing requests then need it
    max_active: int = 1  # runs executing at once (a small model on a laptop: one is plenty)
    max_queued: int = 8  # runs waiting beyond those; more is refused with 429
    max_body_bytes: int = 64 * 1024
    max_goal_chars: int = 4000
    config: Any = None  # a RagixConfig for every run; None: each root's own ragix.yaml, as the CLI reads it
    client_factory: Optional[Callable[[Any], Any]] = None  # the model behind every role; None: the real backends
    finished_kept: int = 200  # finished runs kept in memory (their traces stay on disk)

    def __post_init__(self) -> None:
        from ragix_core.profiles import PROFILES

        if not self.roots:
            raise SettingsError("give at least one --root DIR: runs may only work inside the server's roots")
        resolved: Dict[str, Path] = {}
        for name, path in self.roots.items():
            if not name or "/" in name or name.startswith("."):
                raise SettingsError(f"root name {name!r} must be a plain word (no '/', not starting with '.')")
            if not Path(path).is_dir():
                raise SettingsError(f"root {name}={path} is not a directory")
            resolved[name] = Path(path).resolve()
        self.roots = resolved
        if self.max_profile not in PROFILES:
            raise SettingsError(f"unknown profile {self.max_profile!r}; allowed: {', '.join(PROFILES)}")
        if not is_loopback(self.host) and not self.token:
            raise SettingsError(f"binding {self.host} (not loopback) needs --token: anyone who can reach the port "
                                "could otherwise start runs")
        for label, value in (("max_active", self.max_active), ("max_queued", self.max_queued),
                             ("max_body_bytes", self.max_body_bytes)):
            if value < (0 if label == "max_queued" else 1):
                raise SettingsError(f"{label} must be at least {0 if label == 'max_queued' else 1}, got {value}")

    @property
    def profiles(self) -> Tuple[str, ...]:
        return allowed_profiles(self.max_profile)
