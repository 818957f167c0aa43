"""Spec 002's ``reasoning_config.yaml`` (§4.6, §8.2) read as ragix.yaml.

That file puts ``graph``, ``reflect``, ``experience`` and ``traces`` at the top level and adds
``version`` and ``profiles``. ragix.yaml keeps those four sections under ``reasoning:`` (spec 000
§6, the canonical shape), so here:
- the four top-level sections are moved under ``reasoning:`` (their keys are validated there;
  the same section written in both places is an error naming both);
- ``version`` is the config shape's version: "0.30.0" (or "0.30") is accepted and dropped,
  anything else is refused;
- ``profiles`` is refused with what to write instead: ragix's profiles are security profiles
  (safe / dev / sovereign, chosen with ``profile:``), not named overlays, and the spec does not
  say how one of its overlays would be chosen.
"""

from __future__ import annotations

from typing import Any, Dict

__all__ = ["SPEC002_SECTIONS", "fold_spec002_shape"]

SPEC002_SECTIONS = ("graph", "reflect", "experience", "traces")
_VERSIONS = ("0.30.0", "0.30")

PROFILES_INSTEAD = (
    "profiles: is not supported: ragix's profiles are the security profiles safe | dev | sovereign, chosen "
    "with `profile:` or --profile, not named overlays. Write the overlay's settings directly instead: "
    "`reasoning: {graph: {max_reflections: 2}}` for developer's max_reflections (1 for production), and "
    "leave out `verbose` (ragix run shows the steps live; --quiet prints only the answer)")


def fold_spec002_shape(data: Dict[str, Any]) -> Dict[str, Any]:
    """``data`` in ragix.yaml's shape; raises ValueError saying what to write instead."""
    present = [key for key in (*SPEC002_SECTIONS, "version", "profiles") if key in data]
    reasoning = data.get("reasoning")
    nested = [key for key in ("version", "profiles") if isinstance(reasoning, dict) and key in reasoning]
    if not present and not nested:
        return data
    if "profiles" in data or "profiles" in nested:
        raise ValueError(PROFILES_INSTEAD)
    out = dict(data)
    if "version" in out or "version" in nested:
        version = out.pop("version", None) if "version" in out else reasoning.get("version")
        if str(version) not in _VERSIONS:
            raise ValueError(f"version: {version!r} is not a config shape ragix reads; ragix reads spec 002's "
                             f"0.30 shape (write version: \"0.30.0\", or leave the key out)")
        if "version" in nested:
            reasoning = {k: v for k, v in reasoning.items() if k != "version"}
            out["reasoning"] = reasoning
    moved = {key: out.pop(key) for key in SPEC002_SECTIONS if key in out}
    if moved:
        if reasoning is not None and not isinstance(reasoning, dict):
            return out  # the reasoning section's own type error is reported by validation
        merged = dict(reasoning or {})
        for key, section in moved.items():
            if key in merged:
                raise ValueError(f"{key}: is written both at the top level (spec 002's reasoning_config.yaml) "
                                 f"and under reasoning:; write it once, under reasoning: ({key}: ...)")
            merged[key] = section
        out["reasoning"] = merged
    return out
