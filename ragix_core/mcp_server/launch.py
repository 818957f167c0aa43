"""What the server was started with: the project root, the agent profile and the configuration.

Fixed once, from the command line and ragix.yaml; a client's arguments never choose them, so a
client can ask for work but not for more power or another directory.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional

from ragix_core.config import RagixConfig, load_config
from ragix_core.profiles import AgentProfile, get_profile

__all__ = ["Launch"]


@dataclass(frozen=True)
class Launch:
    root: Path
    profile: AgentProfile
    config: RagixConfig
    # Replaces the real model backends (in-process tests); a subprocess server reads ragix.yaml instead.
    client_factory: Optional[Callable[[Any], Any]] = None

    @classmethod
    def open(cls, root: Path, profile: Optional[str] = None, config_path: Optional[Path] = None,
             client_factory: Optional[Callable[[Any], Any]] = None) -> "Launch":
        """ConfigError, ProfileError or ValueError (naming what is wrong) before anything is served."""
        root = Path(root).expanduser().resolve()
        if not root.is_dir():
            raise ValueError(f"--root {root} is not a directory")
        config = load_config(config_path, cwd=root)
        return cls(root=root, profile=get_profile(profile or config.profile), config=config,
                   client_factory=client_factory)
