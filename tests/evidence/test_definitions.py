"""List answers bound to definitions: "list the functions in a.py" names what the outputs show."""

import pytest

from ragix_core.core.types import PlanStep, StepStatus, ToolCall, ToolResult
from ragix_core.evidence.binding import bind_answer
from ragix_core.evidence.definitions import bind_definitions, definitions_in

A_PY = ('"""Module a."""\n\nimport os\n\n\ndef greet(name):\n    return name\n\n\n'
        'async def add(x, y):\n    return x + y\n\n\nclass Box:\n    def __init__(self):\n        pass\n')


def step(stdout, command):
    return PlanStep(1, "look", ToolCall("shell", {"command": command}), StepStatus.SUCCESS,
                    ToolResult("shell", 0, stdout=stdout))


def test_definitions_are_read_from_one_file_outputs_and_from_search_lines():
    assert definitions_in("def", [("cat a.py", A_PY)]) == {"a.py": ["greet", "add", "__init__"]}
    assert definitions_in("class", [("cat a.py", A_PY)]) == {"a.py": ["Box"]}
    assert definitions_in("def", [("grep -n def a.py", "6:def greet(name):\n10:async def add(x, y):\n")]) \
        == {"a.py": ["greet", "add"]}
    grep = "./b.py:3:def run(cmd):\nsrc/c.py:def stop():\nREADME.md:4:def example():\n"
    assert definitions_in("def", [("grep -rn def .", grep)]) == {"b.py": ["run"], "src/c.py": ["stop"]}
    # an output whose lines name no file, from a command naming several, is not attributed
    assert definitions_in("def", [("cat a.py b.py", A_PY)]) == {}


def test_an_answer_naming_no_definition_is_replaced_by_the_list():
    # Measured (functions-in-a, issue 12): `cat a.py` ran and the writer answered "a.py".
    b = bind_answer("List the functions defined in a.py", "a.py", [step(A_PY, "cat a.py")])
    assert b.corrected and b.reason == "definitions"
    assert b.answer.startswith("Functions defined in a.py: greet, add, __init__")


def test_an_answer_naming_some_definitions_gets_the_others_appended():
    b = bind_answer("What functions are defined in a.py?", "a.py defines greet.", [step(A_PY, "cat a.py")])
    assert b.corrected and b.reason == "definitions_added"
    assert b.answer.startswith("a.py defines greet.") and "add (a.py)" in b.answer and "greet (" not in b.answer


def test_a_complete_answer_is_kept_word_for_word():
    answer = "greet, add and Box.__init__"
    assert not bind_answer("List the functions in a.py", answer, [step(A_PY, "cat a.py")]).corrected


def test_only_the_files_the_goal_names_count():
    grep = "./a.py:6:def greet(name):\n./b.py:3:def run(cmd):\n"
    b = bind_answer("List the functions defined in a.py", "greet", [step(grep, "grep -rn def .")])
    assert not b.corrected  # run is b.py's
    assert bind_definitions("List the functions defined in c.py", "nothing", [("grep -rn def .", grep)]) is None


def test_subsets_counts_and_single_asks_are_not_checked():
    ev = [("cat a.py", A_PY)]
    assert bind_definitions("How many functions are defined in a.py?", "3", ev) is None
    assert bind_definitions("Which functions in a.py call os.listdir?", "none", ev) is None
    assert bind_definitions("Which class in a.py is a dataclass?", "none", ev) is None
    assert bind_definitions("Explain the functions in a.py and the classes", "x", ev) is None  # two kinds
    assert bind_definitions("List the classes in a.py", "Box", ev) is None


DEFS = "./src/inventory/cli.py:11:def execute(argv):\n./b.py:11:def execute(command):\n"


def test_names_asked_about_as_definitions():
    from ragix_core.evidence.definitions import asked_names

    assert asked_names("How many functions named execute are defined here?") == ["execute"]
    assert asked_names("What does the execute function do?") == ["execute"]
    assert asked_names("What does `load()` return, and the Item class?") == ["Item", "load"]
    assert asked_names("Which class in this project is declared as a dataclass?") == []
    assert asked_names("What does the same function do in b.py?") == []


def test_a_count_of_named_definitions_is_the_number_of_definition_lines():
    # Measured (count-execute-defs, issue 12): `grep -rl execute .` listed four files, two of them
    # Markdown, and the writer answered "4".
    goal = "How many functions named execute are defined in this repository, and in which files?"
    ev = [step(DEFS, "grep -rnwE '(def|class) +execute' --include='*.py' ."),
          step("./b.py:def execute(command):\n", "grep -r 'def execute' .")]  # the same definition again
    b = bind_answer(goal, "There are 4 functions named execute.", ev)
    assert b.corrected and b.reason == "named_count"
    assert b.answer.startswith("2: execute is defined at src/inventory/cli.py:11, b.py:11")
    assert not bind_answer(goal, "2: in src/inventory/cli.py and b.py", ev).corrected
    partly = bind_answer(goal, "2, in cli.py.", ev)  # the right count, a file left out
    assert partly.corrected and partly.reason == "named_sites" and "b.py:11" in partly.answer
    # calls are not definitions: the count is not checked
    assert not bind_answer("How many times is execute() called?", "7 times", ev).corrected


def test_an_answer_about_a_named_function_names_every_file_defining_it():
    b = bind_answer("What does the execute function do?", "In cli.py, execute parses argv.", [step(DEFS, "grep -rn 'def execute' .")])
    assert b.corrected and b.reason == "named_sites" and "b.py:11" in b.answer
    assert b.answer.startswith("In cli.py, execute parses argv.")
    both = "cli.py's execute parses argv; b.py's runs a command."
    assert not bind_answer("What does the execute function do?", both, [step(DEFS, "grep -rn 'def execute' .")]).corrected


@pytest.mark.parametrize("command,output", [
    # measured (dataclass-name-3, a9a2574): a search with one line of context
    ("grep -rn -A1 '@dataclass' --include='*.py' .", "./src/inventory/models.py:6:@dataclass\n./src/inventory/models.py-7-class Item:\n"),
    ("cat src/inventory/models.py", "from dataclasses import dataclass\n\n\n@dataclass(frozen=True)\nclass Item:\n    sku: str\n"),
])
def test_an_answer_naming_no_decorated_definition_is_written_from_the_outputs(command, output):
    from ragix_core.evidence.definitions import bind_decorated

    goal = "Which class in this project is declared as a dataclass?"
    fixed, reason = bind_decorated(goal, "`./src/inventory/models.py`", [(command, output)])
    assert reason == "decorated" and "Item (src/inventory/models.py)" in fixed
    assert bind_decorated(goal, "The Item class is a dataclass.", [(command, output)]) is None  # it names it
    bound = bind_answer(goal, "`./src/inventory/models.py`", [step(output, command)])  # the binding asks it
    assert bound.corrected and bound.reason == "decorated"


def test_a_definition_not_under_the_asked_decorator_is_not_an_answer():
    from ragix_core.evidence.definitions import bind_decorated

    out = "models.py:3:@property\nmodels.py-4-    def total(self):\nmodels.py:9:class Warehouse:\n"
    assert bind_decorated("Which class is declared as a dataclass?", "models.py", [("grep -rn -A1 '@' .", out)]) is None
    assert bind_decorated("Is there a dataclass?", "models.py", [("grep -rn -A1 '@dataclass' .", out)]) is None


def test_a_missing_file_asked_about_is_answered_from_the_definitions_of_its_close_namesake():
    # measured (wrong-module-store, 2fef1b8): ragix read storage.py for store.py; the answer was "store.py"
    out = "def save(wh, path):\n    pass\n\n\ndef load(path):\n    pass\n"
    fixed, reason = bind_definitions("List the functions defined in src/inventory/store.py", "src/inventory/store.py",
                                     [("cat src/inventory/storage.py", out)])
    assert reason == "definitions" and "save, load" in fixed
    # a file of another name is not a stand-in: its functions are not the ones asked for
    assert bind_definitions("List the functions defined in src/inventory/store.py", "none",
                            [("cat src/inventory/models.py", out)]) is None


def test_which_function_a_file_defines_is_answered_with_every_function_it_shows():
    from ragix_core.evidence.definitions import bind_definitions
    shown = [("cat src/cli.py", "import sys\n\n\ndef execute(argv):\n    return argv\n\n\ndef main():\n    pass\n")]
    goal = "Open the cli file and tell me which function it defines."
    bound = bind_definitions(goal, "The command line entry point is defined in `src/cli.py`.", shown)
    assert bound is not None and bound[0].startswith("Functions defined in src/cli.py: execute, main")
    assert bind_definitions(goal, "It defines execute and main.", shown) is None
    # one function asked about by name, or a class "declared as": not a list of what the file defines
    assert bind_definitions("What does the execute function do?", "It returns argv.", shown) is None
    assert bind_definitions("Which class is declared as a dataclass?", "Item.", shown) is None
