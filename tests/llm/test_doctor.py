"""`ragix doctor`, LLM part: what it reports, its exit codes, and the hook for other layers' checks."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ragix_core.cli import app
from ragix_core.cli import doctor_cmd


@pytest.fixture
def runner():
    return CliRunner()


def _json(result):
    return json.loads(result.stdout)


def test_json_report_lists_runtime_model_and_roles(runner, tmp_path):
    cfg = tmp_path / "ragix.yaml"
    cfg.write_text("llm:\n  tutor: {backend: replay, model: smollm2-135m-instruct}\n", encoding="utf-8")
    result = runner.invoke(app, ["doctor", "--json", "--config", str(cfg)])
    report = _json(result)
    by_name = {c["name"]: c for c in report["checks"]}
    assert report["config"] == str(cfg)
    assert by_name["llm runtime"]["runtime"] == "xllamacpp"
    assert by_name["default model"]["parts_total"] == 22
    roles = by_name["llm roles"]["roles"]
    assert roles["tutor"] == {"backend": "replay", "model": "smollm2-135m-instruct", "base_url": None, "local": True}
    assert roles["planner"]["backend"] == "embedded"
    assert by_name["llm servers"]["summary"] == "none configured"
    assert result.exit_code == (1 if any(c["ok"] is False for c in report["checks"]) else 0)


def test_unreachable_server_fails_and_names_the_endpoint(runner, tmp_path, dead_url):
    cfg = tmp_path / "ragix.yaml"
    cfg.write_text(f"llm:\n  verifier: {{backend: openai, model: m, base_url: '{dead_url}'}}\n", encoding="utf-8")
    result = runner.invoke(app, ["doctor", "--json", "--config", str(cfg)])
    servers = {c["name"]: c for c in _json(result)["checks"]}["llm servers"]
    assert result.exit_code == 1
    assert servers["ok"] is False and servers["servers"][0]["endpoint"] == dead_url
    assert servers["servers"][0]["reachable"] is False


def test_config_error_exits_2_with_the_key(runner, tmp_path):
    cfg = tmp_path / "ragix.yaml"
    cfg.write_text("llm:\n  planer: {}\n", encoding="utf-8")
    result = runner.invoke(app, ["doctor", "--config", str(cfg)])
    assert result.exit_code == 2
    assert "llm.planer" in result.output


def test_other_layers_can_register_checks_and_a_broken_one_is_reported(runner, monkeypatch):
    monkeypatch.setattr(doctor_cmd, "CHECKS", list(doctor_cmd.CHECKS))

    @doctor_cmd.register_check
    def check_sandbox(config):
        return {"name": "sandbox layers", "ok": True, "summary": "landlock, seccomp"}

    @doctor_cmd.register_check
    def check_broken(config):
        raise RuntimeError("boom")

    result = runner.invoke(app, ["doctor"])
    assert "[ok  ] sandbox layers: landlock, seccomp" in result.stdout
    assert "check_broken: check failed: RuntimeError: boom" in result.stdout
    assert result.exit_code == 1
