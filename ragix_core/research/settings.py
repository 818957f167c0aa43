"""Which source a document belongs to, and the research settings of a run.

Settings come from the ``research:`` section of ragix.yaml; a ``--sources FILE`` in the
spec's shape (``sources``, ``source_tiers``, ``mode_configs`` and optionally ``reasoning``
at its top level) replaces the keys it sets. A document's source is the first ``sources``
glob that matches its path relative to the documents directory: ``*`` stays within one
folder, ``**`` crosses folders (``docs/**`` is everything under docs/).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, Optional, Pattern

import yaml
from pydantic import ValidationError

from ragix_core.config import ConfigError, RagixConfig
from ragix_core.config import format_validation_error
from ragix_core.config.research import ResearchSection, TierInfo

__all__ = ["SourceMap", "SourceInfo", "load_settings", "glob_regex", "UNKNOWN_SOURCE"]

UNKNOWN_SOURCE = "unknown"


@lru_cache(maxsize=256)
def glob_regex(pattern: str) -> Pattern[str]:
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


@dataclass(frozen=True)
class SourceInfo:
    source: str
    tier: Optional[int]  # None: the source has no tier (unknown)
    type: str


class SourceMap:
    """Document path -> source -> tier, from a ``ResearchSection``."""

    def __init__(self, settings: ResearchSection) -> None:
        self.settings = settings
        self._globs = [(glob_regex(g.strip("/")), name) for g, name in settings.sources.items()]

    def source_of(self, path: str) -> str:
        for regex, name in self._globs:
            if regex.match(path):
                return name
        return UNKNOWN_SOURCE

    def tier_of(self, source: str) -> Optional[TierInfo]:
        return self.settings.source_tiers.get(source)

    def info(self, path: str) -> SourceInfo:
        source = self.source_of(path)
        tier = self.tier_of(source)
        return SourceInfo(source, tier.tier if tier else None, tier.type if tier else "unknown")


def _read_yaml(path: Path) -> Dict[str, Any]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"--sources {path}: cannot read: {exc.strerror or exc}") from None
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise ConfigError(f"--sources {path} is not valid YAML: {exc}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"--sources {path}: the top level must be a mapping, got {type(data).__name__}")
    return data


def load_settings(config: Optional[RagixConfig] = None, sources_file: "Path | str | None" = None) -> ResearchSection:
    """The run's research settings (ConfigError naming the file and key when invalid)."""
    base = (config or RagixConfig()).research
    if sources_file is None:
        return base
    path = Path(sources_file).expanduser()
    data = _read_yaml(path)
    merged = base.model_dump()
    merged.update(data)
    try:
        return ResearchSection.model_validate(merged)
    except ValidationError as exc:
        raise ConfigError(format_validation_error(exc, ResearchSection, str(path))) from None
