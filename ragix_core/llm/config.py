"""The ``llm:`` section of ragix.yaml: a default backend and per-role overrides.

    llm:
      default: {backend: embedded, model: qwen2.5-coder-1.5b-instruct-q4_k_m}
      verifier: {backend: ollama, model: "qwen2.5:7b", base_url: "http://127.0.0.1:11434"}
      tutor: {backend: openai, model: gpt-4o-mini, base_url: "https://api.openai.com/v1", api_key_env: OPENAI_API_KEY}

A role's unset keys come from ``default``. Unknown keys fail, like every section.
"""

from __future__ import annotations

from typing import Dict, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .models import DEFAULT_MODEL

__all__ = ["LLMConfig", "BackendSettings", "RoleOverride", "ROLES", "BACKENDS"]

ROLES = ("planner", "worker", "verifier", "tutor", "peer")
BACKENDS = ("embedded", "ollama", "openai", "replay")
Backend = Literal["embedded", "ollama", "openai", "replay"]


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


def _check_url(value: Optional[str]) -> Optional[str]:
    if value is not None and not value.startswith(("http://", "https://")):
        raise ValueError("base_url must start with http:// or https://")
    return value


class RoleOverride(_Section):
    """Per-role settings; every key optional (None = take it from ``default``)."""

    backend: Optional[Backend] = None
    model: Optional[str] = Field(None, min_length=1, description="model name, or a GGUF path for embedded")
    base_url: Optional[str] = None
    api_key_env: Optional[str] = None
    temperature: Optional[float] = Field(None, ge=0, le=2)
    max_tokens: Optional[int] = Field(None, ge=1, le=32_768)
    timeout: Optional[float] = Field(None, gt=0, le=3600)
    n_ctx: Optional[int] = Field(None, ge=256, le=131_072)
    threads: Optional[int] = Field(None, ge=1, le=256)
    # replay backend: where the cassettes are, and what they were recorded from
    cassette_dir: Optional[str] = None
    record_backend: Optional[Literal["embedded", "ollama", "openai"]] = None

    _url = field_validator("base_url")(classmethod(lambda cls, v: _check_url(v)))


class BackendSettings(_Section):
    """Fully resolved settings for one role (also the shape of ``llm.default``)."""

    backend: Backend = "embedded"
    model: str = Field(DEFAULT_MODEL, min_length=1)
    base_url: Optional[str] = None
    api_key_env: Optional[str] = None
    temperature: float = Field(0.0, ge=0, le=2)
    max_tokens: int = Field(512, ge=1, le=32_768)
    timeout: float = Field(120.0, gt=0, le=3600)
    n_ctx: int = Field(4096, ge=256, le=131_072)
    threads: Optional[int] = Field(None, ge=1, le=256, description="None = every core we may use")
    cassette_dir: Optional[str] = None
    record_backend: Literal["embedded", "ollama", "openai"] = "embedded"

    _url = field_validator("base_url")(classmethod(lambda cls, v: _check_url(v)))

    def client_key(self) -> tuple:
        """Settings that make two roles need two different clients (sampling params do not)."""
        return (self.backend, self.model, self.base_url, self.api_key_env, self.n_ctx, self.threads,
                self.cassette_dir, self.record_backend)


class LLMConfig(_Section):
    default: BackendSettings = Field(default_factory=BackendSettings)
    planner: RoleOverride = Field(default_factory=RoleOverride)
    worker: RoleOverride = Field(default_factory=RoleOverride)
    verifier: RoleOverride = Field(default_factory=RoleOverride)
    tutor: RoleOverride = Field(default_factory=RoleOverride)
    peer: RoleOverride = Field(default_factory=RoleOverride)

    def for_role(self, role: str) -> BackendSettings:
        """The default merged with the role's overrides; ValueError for an unknown role."""
        if role == "default":
            return self.default
        if role not in ROLES:
            raise ValueError(f"unknown LLM role {role!r}; roles are: {', '.join(ROLES)}")
        override = getattr(self, role).model_dump(exclude_none=True)
        return BackendSettings.model_validate({**self.default.model_dump(), **override})

    def resolved(self) -> Dict[str, BackendSettings]:
        return {role: self.for_role(role) for role in ROLES}
