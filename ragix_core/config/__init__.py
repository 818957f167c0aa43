"""ragix.yaml: finding it, reading it, validating it.

Lookup order: an explicit path → ``./ragix.yaml`` → ``$RAGIX_HOME/ragix.yaml``
(``~/.ragix/ragix.yaml`` by default) → built-in defaults. The first file found
is used whole; files are not merged (a partial file is completed by defaults).
Spec 002's ``reasoning_config.yaml`` shape is read too (config/spec002_file.py).

Every section forbids unknown keys: a typo fails with the key's full path and,
where the set is closed, the allowed values — never a silently ignored setting.

A ``./ragix.yaml`` comes with the project: unless the user trusted it (`ragix
trust DIR`, see ragix_core/trust.py), it may only tighten the user's own config,
and what it tried to set otherwise is named on stderr. The ``memory`` section
(where the experience corpus is stored, a database DSN) is the user's alone: it
always comes from $RAGIX_HOME/ragix.yaml, and a project file that sets it, even
a trusted one, is refused for that key with a message on stderr. That includes
``memory.global_traces``: whether runs write into the user's home is the user's decision.
So is ``chat.search.web``: whether questions leave the machine, and with which key.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Iterable, Literal, Optional

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ragix_core.core.home import ragix_home
from ragix_core.llm.config import LLMConfig
from ragix_core.config.reasoning import ReasoningConfig
from ragix_core.config.chat import ChatSection
from ragix_core.config.mcp import McpSection
from ragix_core.config.memory import MemorySection
from ragix_core.config.research import ResearchSection
from ragix_core.config.spec002_file import fold_spec002_shape
from ragix_core.config.tools import ToolsSection

__all__ = ["RagixConfig", "ConfigError", "load_config", "ragix_home", "CONFIG_FILENAME"]

CONFIG_FILENAME = "ragix.yaml"


class ConfigError(ValueError):
    """A configuration file is missing, unreadable or invalid. The message says where and why."""


class RagixConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    profile: Literal["safe", "dev", "sovereign"] = "dev"
    reasoning: ReasoningConfig = Field(default_factory=ReasoningConfig)
    llm: LLMConfig = Field(default_factory=LLMConfig)
    chat: ChatSection = Field(default_factory=ChatSection)
    research: ResearchSection = Field(default_factory=ResearchSection)  # spec 004, `ragix research`
    mcp: McpSection = Field(default_factory=McpSection)  # MCP servers whose tools runs may call (spec 002 §8)
    memory: MemorySection = Field(default_factory=MemorySection)  # corpus backend: user config only
    tools: ToolsSection = Field(default_factory=ToolsSection)  # how the confined shell reads `~`
    # The file this config was read from (None for defaults); not a YAML key.
    source: Optional[str] = Field(default=None, exclude=True)


def _allowed_values(model: type[BaseModel], loc: Iterable[Any]) -> Optional[str]:
    """Names of the keys allowed at the parent of ``loc`` (for unknown-key errors)."""
    current: Any = model
    for part in list(loc)[:-1]:
        fields = getattr(current, "model_fields", None)
        if not fields or part not in fields:
            return None
        current = fields[part].annotation
    fields = getattr(current, "model_fields", None)
    if not fields:
        return None
    return ", ".join(name for name, f in fields.items() if not f.exclude)


def format_validation_error(exc: ValidationError, model: type[BaseModel], source: str) -> str:
    lines = [f"invalid configuration in {source}:"]
    for err in exc.errors():
        path = ".".join(str(p) for p in err["loc"]) or "(top level)"
        if err["type"] == "extra_forbidden":
            allowed = _allowed_values(model, err["loc"])
            hint = f"; allowed keys here: {allowed}" if allowed else ""
            lines.append(f"  {path}: unknown key{hint}")
        else:
            got = err.get("input")
            got_text = f" (got {got!r})" if not isinstance(got, (dict, list)) else ""
            lines.append(f"  {path}: {err['msg']}{got_text}")
    return "\n".join(lines)


def parse_config(data: Any, source: str = "<dict>") -> RagixConfig:
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"invalid configuration in {source}: the top level must be a mapping, got {type(data).__name__}")
    try:
        data = fold_spec002_shape(data)  # spec 002's reasoning_config.yaml shape, where it maps
    except ValueError as exc:
        raise ConfigError(f"invalid configuration in {source}:\n  {exc}") from None
    try:
        cfg = RagixConfig.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(format_validation_error(exc, RagixConfig, source)) from None
    cfg.source = source
    return cfg


def find_config(explicit: Optional[os.PathLike | str] = None, cwd: Optional[Path] = None) -> Optional[Path]:
    if explicit is not None:
        path = Path(explicit).expanduser()
        if not path.is_file():
            raise ConfigError(f"config file not found: {path}")
        return path
    for candidate in ((cwd or Path.cwd()) / CONFIG_FILENAME, ragix_home() / CONFIG_FILENAME):
        if candidate.is_file():
            return candidate
    return None


def _read_yaml(found: Path) -> Any:
    try:
        text = found.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read config file {found}: {exc}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ConfigError(f"config file {found} is not valid YAML: {exc}") from None
    if isinstance(data, dict):  # before trust's tightening compares sections: the same shape everywhere
        try:
            data = fold_spec002_shape(data)
        except ValueError as exc:
            raise ConfigError(f"invalid configuration in {found}:\n  {exc}") from None
    return data


def load_config(path: Optional[os.PathLike | str] = None, cwd: Optional[Path] = None) -> RagixConfig:
    """Load and validate the configuration (see the module docstring for the lookup order)."""
    found = find_config(path, cwd)
    if found is None:
        return RagixConfig()
    data = _read_yaml(found)
    home_file = ragix_home() / CONFIG_FILENAME
    if path is not None or (home_file.is_file() and os.path.samefile(found, home_file)):
        return parse_config(data, str(found))
    data = _without_user_only(found, data)
    cfg = parse_config(data, str(found))
    cfg = _untrusted_project(found, data, home_file) or cfg
    mine = _user_config(home_file)
    cfg.memory = mine.memory
    cfg.chat.search.web = mine.chat.search.web
    return cfg


MEMORY_REFUSED = ("memory (the corpus backend and its DSN come from your own config only, "
                  "$RAGIX_HOME/ragix.yaml)")
GLOBAL_TRACES_REFUSED = ("memory.global_traces (whether runs write their traces into your "
                         "$RAGIX_HOME/experience/traces, and how many it keeps, comes from your own config only, "
                         "$RAGIX_HOME/ragix.yaml)")


def _memory_refused(section: Any) -> str:
    """What a project file tried to set in ``memory``, and why it may not (for the stderr line)."""
    if isinstance(section, dict) and "global_traces" in section:
        others = [k for k in section if k != "global_traces"]
        return GLOBAL_TRACES_REFUSED + (f" and {MEMORY_REFUSED}" if others else "")
    return MEMORY_REFUSED


WEB_REFUSED = ("chat.search.web (a web search, its key and what leaves this machine come from your own config "
               "only, $RAGIX_HOME/ragix.yaml)")


def _without_user_only(found: Path, data: Any) -> Any:
    """A project file's data without the sections only the user's own file sets, each refusal on stderr."""
    if not isinstance(data, dict):
        return data
    if "memory" in data:
        sys.stderr.write(f"ragix: {found} sets {_memory_refused(data['memory'])}; refused, using yours.\n")
        data = {k: v for k, v in data.items() if k != "memory"}
    chat = data.get("chat")
    search = chat.get("search") if isinstance(chat, dict) else None
    if isinstance(search, dict) and "web" in search:
        sys.stderr.write(f"ragix: {found} sets {WEB_REFUSED}; refused, using yours.\n")
        search = {k: v for k, v in search.items() if k != "web"}
        data = {**data, "chat": {**chat, "search": search}}
    return data


def _user_config(home_file: Path) -> RagixConfig:
    """The user's own file, for the sections a project file never sets (``memory``, ``chat.search.web``)."""
    if not home_file.is_file():
        return RagixConfig()
    return parse_config(_read_yaml(home_file), str(home_file))


def _untrusted_project(found: Path, data: Any, home_file: Path) -> Optional[RagixConfig]:
    """None when the project file is trusted; else the user's config tightened by it."""
    from ragix_core import trust

    try:
        ok, why = trust.status(found)
    except trust.TrustError as exc:
        raise ConfigError(str(exc)) from None
    if ok:
        return None
    base = _read_yaml(home_file) if home_file.is_file() else {}
    base_cfg = parse_config(base, str(home_file))
    merged, ignored = trust.restrict(data or {}, base or {}, base_cfg)
    cfg = parse_config(merged, f"{found} (untrusted: tightening only) over {home_file if base else 'defaults'}")
    cfg.source = str(found)
    message = trust.notice(found, why, ignored)
    if message:
        sys.stderr.write(message + "\n")
    return cfg
