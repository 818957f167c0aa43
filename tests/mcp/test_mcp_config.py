"""The `mcp:` section of ragix.yaml: what it accepts, what it refuses (naming the key), and that a
project's own ragix.yaml cannot add a server unless the user trusts it."""

from __future__ import annotations

import pytest
import yaml

from ragix_core.config import ConfigError, load_config, parse_config


def test_a_server_is_a_command_or_a_url_with_profiles_and_allowed_tools():
    cfg = parse_config({"mcp": {"servers": {
        "git": {"command": ["mcp-server-git", "--repository", "."], "tools": ["git_log"]},
        "docs": {"url": "http://127.0.0.1:9000/mcp", "profiles": ["sovereign"]}}}})
    assert cfg.mcp.servers["git"].timeout == 30 and cfg.mcp.servers["git"].network is False
    assert set(cfg.mcp.for_profile("dev")) == {"git"}
    assert set(cfg.mcp.for_profile("sovereign")) == {"git", "docs"}
    assert cfg.mcp.for_profile("safe") == {}


@pytest.mark.parametrize("server, words", [
    ({"command": ["x"], "url": "http://h/mcp"}, ["exactly one of command", "url"]),
    ({}, ["exactly one of command"]),
    ({"url": "ftp://h"}, ["url must start with http"]),
    ({"command": ["x"], "profiles": ["safe"]}, ["mcp.servers.s.profiles"]),
    ({"command": ["x"], "tools": ["a b"]}, ["tool name 'a b'"]),
    ({"command": ["x"], "timeout": 0}, ["mcp.servers.s.timeout"]),
    ({"command": ["x"], "typo": 1}, ["typo"]),
])
def test_a_bad_server_entry_is_a_config_error_naming_it(server, words):
    with pytest.raises(ConfigError) as caught:
        parse_config({"mcp": {"servers": {"s": server}}})
    for word in words:
        assert word in str(caught.value), (word, str(caught.value))


def test_an_untrusted_project_file_adds_no_server(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    project = tmp_path / "cloned"
    project.mkdir()
    (project / "ragix.yaml").write_text(yaml.safe_dump({"mcp": {"servers": {"evil": {"command": ["/bin/sh"]}}}}))
    cfg = load_config(cwd=project)
    assert cfg.mcp.servers == {}
    assert "ignored from it: mcp" in capsys.readouterr().err
