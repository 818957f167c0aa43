"""A size in disk blocks or rounded units where the goal asks for bytes (evidence/size_unit.py)."""

import pytest

from ragix_core.evidence.size_unit import asks_bytes, size_not_in_bytes

# Wordings from AgentBench OS and the paraphrase set, and paraphrases of them.
BYTES = [
    "Calculate the total size of all files with a .txt extension. The answer should be in bytes.",
    "You need to calculate the total size (in bytes) of all the files with extension .txt.",
    "calculate the total size of all regular files within a specific directory, in bytes.",
    "Which .sql file in tests/files is the largest in bytes?",
    "How many bytes do the log files take altogether?",
    "What is the byte count of README.md?",
    # paraphrases written after the rule, to check it is not keyed to the wordings above
    "Give me the total byte size of all .txt files",
    "total bytes used by the json files?",
    "What do the .txt files weigh, byte-wise?",
]
NOT_BYTES = [
    "Calculate the total disk usage in kilobytes (allocated space in 1K blocks, not the apparent file size).",
    "The answer should be in kilobytes (KB) and rounded down to the nearest integer value.",
    "List all files in ./dir1 sorted by size in human-readable format",
    "How many lines does README.md have?",
]


@pytest.mark.parametrize("goal", BYTES)
def test_a_goal_asking_for_bytes_is_read_in_its_wordings(goal):
    assert asks_bytes(goal)


@pytest.mark.parametrize("goal", NOT_BYTES)
def test_a_goal_asking_other_units_is_not(goal):
    assert not asks_bytes(goal)


GOAL = BYTES[0]


@pytest.mark.parametrize("command,program", [
    ("find . -type f -name '*.txt' -print0 | xargs -0 du -sh", "du"),  # test-94 at a6351b3
    ("du -sh sample_directory", "du"),
    ("du -s --apparent-size dir", "du"),  # apparent, but in 1K blocks
    ("find . -name '*.txt' | xargs -n 10 du -k | awk '{s += $1} END {print s}'", "du"),
    ("ls -lhS tests/files | head -n 2", "ls"),
])
def test_a_size_in_blocks_or_rounded_units_is_a_mistake_when_bytes_are_asked(command, program):
    said = size_not_in_bytes(GOAL, command)
    assert said is not None and said.startswith(f"`{program}")
    assert "wc -c" in said  # the way to bytes is named
    assert size_not_in_bytes(NOT_BYTES[0], command) is None  # another unit asked: no mistake


@pytest.mark.parametrize("command", [
    "find . -name '*.txt' -print0 | xargs -0 du -b | awk '{s += $1} END {print s}'",  # test-84, which passed
    "du -sb dir",
    "du --bytes -s dir",
    "du --apparent-size -B1 -s dir",
    "du --apparent-size --block-size=1 dir",
    "find . -name '*.txt' | xargs wc -c",
    "ls -l tests/files",
    "stat -c %s README.md",
])
def test_a_command_printing_bytes_is_no_mistake(command):
    assert size_not_in_bytes(GOAL, command) is None
