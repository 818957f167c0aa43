import pytest

from ragix_core.eval.scenario import ScenarioError, load_scenario_file, load_scenarios

SPEC_EXAMPLE = """
- id: largest-md-file
  description: Find largest markdown file by line count
  input: "Find the largest markdown file in this repo by line count"
  expected_patterns: ["largest", ".md", "lines"]
  must_run_commands: ["find", "wc"]
  max_steps: 5
  complexity: MODERATE
  owner: someone   # unknown keys are ignored
- id: conceptual-question
  input: "Explain the difference between cyclomatic complexity and cognitive complexity."
  expected_patterns: ["cyclomatic"]
  must_run_commands: []
  max_steps: 1
  complexity: bypass
"""


def write(tmp_path, text, name="s.yaml"):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_spec_format_loads(tmp_path):
    s = load_scenario_file(write(tmp_path, SPEC_EXAMPLE))
    assert [x.id for x in s] == ["largest-md-file", "conceptual-question"]
    assert s[0].must_run_commands == ["find", "wc"] and s[0].max_steps == 5
    assert s[1].complexity == "BYPASS" and s[1].category == "s"


@pytest.mark.parametrize("text, fragment", [
    ("- id: x\n  input: go\n  max_steps: five\n", "'max_steps' must be a positive integer"),
    ("- id: x\n  input: go\n  max_steps: 0\n", "'max_steps' must be a positive integer"),
    ("- id: x\n  input: go\n  complexity: HARD\n", "allowed: BYPASS, SIMPLE, MODERATE, COMPLEX"),
    ("- id: x\n", "missing or empty 'input'"),
    ("- input: go\n", "missing or empty 'id'"),
    ("- id: x\n  input: go\n  expected_patterns: {a: 1}\n", "'expected_patterns' must be a list"),
    ("- id: x\n  input: go\n  must_run_commands: [grep, {a: 1}]\n", "'must_run_commands'[1] must be a string"),
    ("id: x\ninput: go\n", "top level must be a list"),
    ("", "empty"),
    ("- id: x\n  input: [unclosed\n", "invalid YAML at line"),
    ("- id: x\n  input: go\n- id: x\n  input: again\n", "duplicate scenario id 'x'"),
    ("- 42\n", "scenario #1: expected a mapping"),
    ("- id: x\n  input: go\n  expected_patterns: ['re:(unclosed']\n", "'expected_patterns'[0] 're:(unclosed': invalid regular"),
    ("- id: x\n  input: go\n  forbidden_patterns: [ok, 're:']\n", "'forbidden_patterns'[1] 're:': empty regular"),
    ("- id: x\n  input: go\n  forbidden_patterns: {a: 1}\n", "'forbidden_patterns' must be a list"),
])
def test_bad_files_name_file_and_problem(tmp_path, text, fragment):
    p = write(tmp_path, text)
    with pytest.raises(ScenarioError) as err:
        load_scenario_file(p)
    assert str(p) in str(err.value)
    assert fragment in str(err.value)


def test_forbidden_patterns_load(tmp_path):
    p = write(tmp_path, "- id: x\n  input: go\n  expected_patterns: ['re:\\bload\\b']\n  forbidden_patterns: [a.py, 7]\n")
    (s,) = load_scenario_file(p)
    assert s.expected_patterns == ["re:\\bload\\b"] and s.forbidden_patterns == ["a.py", "7"]
    assert load_scenario_file(write(tmp_path, "- id: y\n  input: go\n", "y.yaml"))[0].forbidden_patterns == []


def test_missing_file(tmp_path):
    with pytest.raises(ScenarioError, match="scenario file not found"):
        load_scenarios([tmp_path / "nope.yaml"])


def test_duplicate_ids_across_files(tmp_path):
    a = write(tmp_path, "- id: x\n  input: go\n", "a.yaml")
    b = write(tmp_path, "- id: x\n  input: go\n", "b.yaml")
    with pytest.raises(ScenarioError, match="duplicate scenario id 'x'"):
        load_scenarios([a, b])
