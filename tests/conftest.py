"""Suite-wide settings."""

import os

import platformdirs

# Tests isolate RAGIX_HOME in temporary directories; the assembled default model
# (1.1 GB, verified by sha256) must stay in one shared cache instead of being
# rebuilt under every temporary home.
os.environ.setdefault("RAGIX_MODELS", os.path.join(platformdirs.user_cache_dir("ragix"), "models"))


import shutil  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

MOCK_REPO = Path(__file__).parent / "reasoning_v30" / "fixtures" / "mock_repo"


@pytest.fixture()
def repo(tmp_path, monkeypatch):
    """A copy of the mock repository to run real tools in, with RAGIX_HOME isolated."""
    dst = tmp_path / "repo"
    shutil.copytree(MOCK_REPO, dst)
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    return dst


@pytest.fixture()
def home(tmp_path, monkeypatch):
    """A fresh, empty $RAGIX_HOME (the user's config, trust list, runs, corpus) under tmp_path."""
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    return tmp_path / "home"
