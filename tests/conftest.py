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


# Tests that look for leftover processes by a marker on any command line of the machine (tests/tools/helpers.py
# survivors): two of them at once in different workers would each see the other's processes.
PROCESS_SCANNING = {"test_adversarial.py", "test_limits.py", "test_gaps.py"}


def _on_ray(item) -> bool:
    """Whether the test runs on the throwaway Ray cluster: it asks for it, or for an executor made "ray"."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    return "ray_session" in getattr(item, "fixturenames", ()) or "ray" in params.values()


@pytest.hookimpl(tryfirst=True)  # before `-m` selects on the markers set here
def pytest_collection_modifyitems(config, items):
    """Real-model tests are marked ``real_model``: scripts/test.sh runs them after the others, alone, one after
    another, because the model uses every core and beside anything else it slows past its call timeouts
    (llama.cpp's threads wait for each other: 200 tokens took 86 s on 2 threads beside one busy core, 54 s
    on 1 thread, 42 s on 2 threads alone). The tests on the throwaway Ray cluster go with them: Ray runs its
    tasks at a lower priority, and beside a model they waited minutes for each run. Under pytest-xdist
    (`-n logical --dist loadgroup`) the same tests also form one group, so a single run with workers keeps
    them in one worker; the tests that scan the machine's processes go to one worker of their own."""
    for item in items:
        if item.get_closest_marker("slow") is not None or _on_ray(item):
            item.add_marker(pytest.mark.real_model)
            item.add_marker(pytest.mark.xdist_group("real_model"))
        elif item.path.parent.name == "tools" and item.path.name in PROCESS_SCANNING:
            item.add_marker(pytest.mark.xdist_group("process_scanning"))
