"""ragix.yaml: lookup order, validation messages, spec 002 §8.2 aliases."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from ragix_core.config import ConfigError, load_config, parse_config
from ragix_core.core.types import TaskComplexity
from tests.files import write


def test_defaults_are_spec_000_section_6(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    cfg = load_config(cwd=tmp_path)
    assert cfg.source is None
    rc = cfg.reasoning
    assert rc.strategy == "graph_v30"
    assert rc.max_reflections_by_complexity() == {TaskComplexity.BYPASS: 0, TaskComplexity.SIMPLE: 0,
                                                  TaskComplexity.MODERATE: 1, TaskComplexity.COMPLEX: 3}
    assert rc.graph.max_iterations == 50
    assert rc.reflect.allowed_tools == ["ls", "find", "grep", "head", "tail", "wc", "cat", "pwd"]
    assert (rc.experience.global_max_age_days, rc.experience.project_max_age_days, rc.experience.top_k) == (90, 30, 5)
    assert rc.traces.path == ".ragix/reasoning_traces" and rc.traces.max_per_session == 1000


def test_lookup_order_explicit_then_cwd_then_home(tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("RAGIX_HOME", str(home))
    write(home / "ragix.yaml", "reasoning: {strategy: loop_v1}\n")
    assert load_config(cwd=tmp_path).reasoning.strategy == "loop_v1"
    write(tmp_path / "ragix.yaml", "reasoning: {strategy: graph_v2}\n")
    assert load_config(cwd=tmp_path).reasoning.strategy == "loop_v1"  # untrusted: tightening only
    from ragix_core.trust import trust

    trust(tmp_path)
    assert load_config(cwd=tmp_path).reasoning.strategy == "graph_v2"
    explicit = write(tmp_path / "other.yaml", "reasoning: {graph: {max_iterations: 7}}\n")
    cfg = load_config(explicit, cwd=tmp_path)
    assert cfg.reasoning.graph.max_iterations == 7 and cfg.reasoning.strategy == "graph_v30"
    assert cfg.source == str(explicit)


def test_unknown_key_names_path_and_allowed_keys():
    with pytest.raises(ConfigError) as info:
        parse_config({"reasoning": {"max_reflections": {"moderat": 2}}}, "x.yaml")
    msg = str(info.value)
    assert "x.yaml" in msg and "reasoning.max_reflections.moderat: unknown key" in msg
    assert "bypass, simple, moderate, complex" in msg


def test_wrong_type_and_bad_enum_name_the_key():
    with pytest.raises(ConfigError, match=r"reasoning\.graph\.max_iterations.*'many'"):
        parse_config({"reasoning": {"graph": {"max_iterations": "many"}}})
    with pytest.raises(ConfigError, match=r"reasoning\.strategy.*unknown strategy .tree.*graph_v30.*graph_v2.*loop_v1.*s0"):
        parse_config({"reasoning": {"strategy": "tree"}})
    with pytest.raises(ConfigError, match=r"profile"):
        parse_config({"profile": "root"})


def test_spec_002_keys_accepted_where_they_do_not_conflict():
    cfg = parse_config({"reasoning": {
        "graph": {"max_reflections": 2, "max_plan_retries": 2, "timeout_per_step": 30},
        "reflect": {"enabled": True, "shell_timeout": 10, "max_commands": 2},
        "experience": {"max_similar": 3, "corpus_path": "exp/"},
        "traces": {"output_dir": "traces/", "format": "ndjson", "include_prompts": False},
    }})
    rc = cfg.reasoning
    assert rc.max_reflections_by_complexity()[TaskComplexity.COMPLEX] == 2  # capped by graph.max_reflections
    assert rc.max_reflections_by_complexity()[TaskComplexity.MODERATE] == 1
    assert rc.experience.top_k == 3 and rc.experience.project_root == "exp/"
    assert rc.traces.path == "traces/"
    assert rc.graph.max_plan_retries == 2


def test_unreadable_and_invalid_files_are_clear_errors(tmp_path):
    with pytest.raises(ConfigError, match="not found"):
        load_config(tmp_path / "missing.yaml")
    bad = write(tmp_path / "bad.yaml", "reasoning: [unclosed\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_config(bad)
    top = write(tmp_path / "list.yaml", "- 1\n- 2\n")
    with pytest.raises(ConfigError, match="must be a mapping"):
        load_config(top)


def test_cli_reports_config_error_with_exit_2(tmp_path):
    from ragix_core.cli import app

    write(tmp_path / "ragix.yaml", "reasoning: {graf: {}}\n")
    result = CliRunner().invoke(app, ["run", "--cwd", str(tmp_path), "anything"])
    assert result.exit_code == 2
    assert "reasoning.graf: unknown key" in result.output
    assert "Traceback" not in result.output


SPEC_002_8_2 = """\
# reasoning_config.yaml
version: "0.30.0"

graph:
  max_reflections: 3
  max_plan_retries: 2
  timeout_per_step: 60

reflect:
  enabled: true
  use_shell: true
  shell_timeout: 30
  max_commands: 5
  read_only: true

experience:
  enabled: true
  corpus_path: "experiences/"
  similarity_threshold: 0.7
  max_similar: 5

traces:
  enabled: true
  output_dir: "traces/"
  format: "ndjson"
  include_prompts: false
"""


def test_spec_002_reasoning_config_file_is_read_as_written(tmp_path):
    """Spec 002 §4.6 / §8.2's file (without the keys refused below) as --config: top-level
    sections land under reasoning:, version 0.30.0 is accepted."""
    cfg = load_config(write(tmp_path / "reasoning_config.yaml", SPEC_002_8_2))
    rc = cfg.reasoning
    assert rc.graph.max_reflections == 3 and rc.graph.max_plan_retries == 2 and rc.graph.timeout_per_step == 60
    assert rc.reflect.shell_timeout == 30 and rc.reflect.max_commands == 5
    assert rc.experience.project_root == "experiences/" and rc.experience.top_k == 5
    assert rc.experience.similarity_threshold == 0.7
    assert rc.traces.path == "traces/" and rc.traces.format == "ndjson"


def test_spec_002_refused_keys_say_what_to_write(tmp_path):
    profiles = SPEC_002_8_2 + "profiles:\n  developer: {max_reflections: 2, verbose: true}\n"
    with pytest.raises(ConfigError, match=r"profiles: is not supported.*profile:.*max_reflections: 2"):
        load_config(write(tmp_path / "a.yaml", profiles))
    with pytest.raises(ConfigError, match=r"complexity_bypass_threshold is not supported.*routing: classify_first"):
        load_config(write(tmp_path / "b.yaml", SPEC_002_8_2.replace(
            "  timeout_per_step: 60\n", "  timeout_per_step: 60\n  complexity_bypass_threshold: 0.9\n")))
    with pytest.raises(ConfigError, match=r"version: '0.23' is not a config shape.*0.30.0"):
        load_config(write(tmp_path / "c.yaml", SPEC_002_8_2.replace('"0.30.0"', '"0.23"')))
    with pytest.raises(ConfigError, match=r"graph: is written both at the top level.*under reasoning:"):
        parse_config({"graph": {"max_iterations": 5}, "reasoning": {"graph": {"max_iterations": 6}}})
    with pytest.raises(ConfigError, match=r"reasoning\.graph\.max_plan_retries"):
        parse_config({"graph": {"max_plan_retries": "two"}})  # moved keys are validated where they land


def test_tell_samples_defaults_on_and_a_wrong_type_names_the_key():
    assert parse_config({}).reasoning.voting.tell_samples is True
    assert parse_config({"reasoning": {"voting": {"tell_samples": False}}}).reasoning.voting.tell_samples is False
    with pytest.raises(ConfigError, match=r"reasoning\.voting\.tell_samples"):
        parse_config({"reasoning": {"voting": {"tell_samples": "sometimes"}}})


def test_cross_check_draws_default_to_none_and_a_negative_count_names_the_key():
    assert parse_config({}).reasoning.voting.cross_check_draws == 0
    assert parse_config({"reasoning": {"voting": {"cross_check_draws": 1}}}).reasoning.voting.cross_check_draws == 1
    with pytest.raises(ConfigError, match=r"reasoning\.voting\.cross_check_draws"):
        parse_config({"reasoning": {"voting": {"cross_check_draws": -1}}})
