"""`ragix reason` on the embedded default model (Qwen2.5-Coder-1.5B): answers, exports a valid
Mermaid tree and a trace JSON. Slow: two or three answer-only calls (preset fast), with a long
per-call timeout because CI's machine may be shared."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ragix_core.cli import app
from ragix_core.llm.base import LLMUnavailable
from ragix_core.llm.models import DEFAULT_MODEL, models_dir, resolve_model_path
from tests.reasoning_slim.test_cli_and_registry import check_mermaid


@pytest.mark.slow
def test_reason_answers_with_the_embedded_model(tmp_path, monkeypatch):
    pytest.importorskip("xllamacpp")
    try:
        resolve_model_path(DEFAULT_MODEL)
    except LLMUnavailable as exc:
        pytest.skip(f"model not installed: {exc}")
    monkeypatch.setenv("RAGIX_MODELS", str(models_dir()))  # keep the assembled model: RAGIX_HOME moves it
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    project = tmp_path / "project"  # a project root may not contain ragix's own home
    project.mkdir()
    trace, mermaid = tmp_path / "trace.json", tmp_path / "tree.mmd"
    res = CliRunner().invoke(app, ["reason", "--cwd", str(project), "--json", "--preset", "fast", "--k", "2",
                                   "--timeout-sec", "900",
                                   "--export-trace", str(trace), "--export-mermaid", str(mermaid),
                                   "What is 17 + 25? Answer with the number."])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert "42" in out["final_answer"]
    assert out["metrics"]["total_tokens"] > 0 and out["metrics"]["nodes"] >= 1
    saved = json.loads(trace.read_text())
    assert saved["tree"][0]["samples"] and saved["models"]["worker"].startswith("embedded:")
    check_mermaid(mermaid.read_text(), out["metrics"]["nodes"])
