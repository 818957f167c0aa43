"""Prompt templates: files, loud on a missing value, overridable, and ordered for the prefix cache."""

import re

import pytest

from ragix_core import prompts

# Placeholders fixed by the configuration (the profile's tools, the complexity's step rule): part of the
# cached prefix across runs with the same settings.
FIXED = {"tools", "step_rule", "mode", "forbidden", "commands"}
# Placeholders whose value changes from one call to the next within a run.
PER_CALL = {"reflection_context", "previous_attempts", "error", "evidence", "failed_commands", "earlier_outputs",
            "step_num", "step_description", "tool", "args", "plan_and_steps", "current_answer",
            "failed_step_num", "failed_step_description"}


def test_missing_value_is_an_error_naming_it():
    with pytest.raises(prompts.PromptError, match="goal"):
        prompts.render("classify")


def test_override_directory_replaces_only_the_templates_it_has(tmp_path, monkeypatch):
    (tmp_path / "classify.md").write_text("custom {{goal}}")
    monkeypatch.setenv(prompts.OVERRIDE_ENV, str(tmp_path))
    assert prompts.render("classify", goal="g") == "custom g"
    assert "Files in the project" in prompts.render("plan", goal="g", file_context="f", experience_context="",
                                                    reflection_context="", step_rule="r", tools="ls")


@pytest.mark.parametrize("name", ["plan", "reflect", "verify", "worker_step", "command",
                                  "compose_answer", "direct_answer", "classify"])
def test_the_fixed_text_comes_before_every_placeholder(name):
    """llama.cpp reuses a cached prompt prefix: anything variable before the instructions would make
    every call re-process them (a 900-token plan prompt cost ~20 s on 2 cores)."""
    text = prompts.load(name)
    first = next((m for m in re.finditer(r"\{\{\s*(\w+)\s*\}\}", text) if m.group(1) not in FIXED), None)
    static = text[: first.start()] if first else text
    assert len(static) >= 0.5 * len(re.sub(r"\{\{\s*\w+\s*\}\}", "", text)), name
    names = re.findall(r"\{\{\s*(\w+)\s*\}\}", text)
    last_per_run = max((i for i, n in enumerate(names) if n not in PER_CALL | FIXED), default=-1)
    first_per_call = min((i for i, n in enumerate(names) if n in PER_CALL), default=len(names))
    assert last_per_run < first_per_call, f"{name}: a per-call value comes before a per-run one: {names}"


def test_a_file_of_several_parts_gives_each_part_without_its_surrounding_newlines(tmp_path, monkeypatch):
    (tmp_path / "parts.md").write_text("What this file is (never sent).\n\n## first\nHello {{name}}.\n\n"
                                       "## second_one  \n  two lines,\nkept as written  \n\n\n")
    monkeypatch.setenv(prompts.OVERRIDE_ENV, str(tmp_path))
    assert prompts.sections("parts") == {"first": "Hello {{name}}.", "second_one": "  two lines,\nkept as written  "}
    # A placeholder may be called name or key: the file and the part are positional-only.
    assert prompts.section("parts", "first", name="you", key="k") == "Hello you."
    with pytest.raises(prompts.PromptError, match="third"):
        prompts.section("parts", "third")
    with pytest.raises(prompts.PromptError, match="name"):
        prompts.section("parts", "first")


def test_a_part_named_twice_or_a_file_without_parts_is_an_error(tmp_path, monkeypatch):
    (tmp_path / "twice.md").write_text("## a\nx\n## a\ny\n")
    (tmp_path / "none.md").write_text("no parts here\n")
    monkeypatch.setenv(prompts.OVERRIDE_ENV, str(tmp_path))
    with pytest.raises(prompts.PromptError, match="two parts named 'a'"):
        prompts.sections("twice")
    with pytest.raises(prompts.PromptError, match="no '## key' parts"):
        prompts.sections("none")
