"""The adversarial corpus, for every profile, against layer 1 alone and against each OS layer alone.

Read attacks (ATTACKS) run under reflect, dev and sovereign; write attacks (WRITE_ATTACKS) under
dev and sovereign. "OS layer alone" runs each command as `/bin/sh -c` with layer 1 switched off,
so the sandbox is the only thing between the attack and the secret. `python -m tests.tools.corpus_table`
prints the leak table per profile and layer.
"""

from __future__ import annotations

import os

import pytest

from ragix_core.core.types import ToolCall
from tests.tools.conftest import TEST_LIMITS, make_box, sandboxes
from tests.tools.corpus import ATTACKS, WRITE_ATTACKS, materialise, materialise_call
from tests.tools.helpers import leaks, take_all

IDS = [f"{a.category}:{a.command[:40]!r}" for a in ATTACKS]
WIDS = [f"{a.category}:{a.label[:50]!r}" for a in WRITE_ATTACKS]
PROFILES = ["reflect", "dev", "sovereign"]


def _command(attack, world) -> str:
    return materialise(attack.command, str(world["secret"]), str(world["outside"]))


def _run(box, call):
    return box.run_command(call) if isinstance(call, str) else box.run(ToolCall(call["tool"], call["args"]))


def test_corpus_is_large_enough():
    assert len(ATTACKS) >= 60 and len(WRITE_ATTACKS) >= 40
    categories = {a.category for a in ATTACKS}
    assert {"chaining", "reentry", "path", "exfiltration", "find", "hang", "huge", "abbrev", "control",
            "environment", "orphans", "vocab"} <= categories
    assert {"protected", "escape", "orphans", "operator", "vocab"} <= {a.category for a in WRITE_ATTACKS}
    # every tool of the vocabulary has attack cases
    from ragix_core.tools.policy import READ_TOOLS, WRITE_TOOLS

    words = " ".join([a.command for a in ATTACKS] + [a.label for a in WRITE_ATTACKS]).split()
    assert set(READ_TOOLS + WRITE_TOOLS) - {"pwd", "basename", "dirname", "echo"} <= set(words)


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_layer1_alone(attack, profile, world):
    box = make_box(world, "none", profile=profile, assume_yes=True)
    before = take_all(world)
    result = box.run_command(_command(attack, world))
    expected = attack.l1_write if (attack.l1_write and box.profile.writes) else attack.l1
    if expected == "refuse" or profile == "sovereign":  # sovereign starts nothing without an OS sandbox
        assert result.refused, f"layer 1 let it run: {result}"
        assert result.returncode == 126
        assert result.error.startswith("refused: ") and len(result.error) > len("refused: ")
    else:
        assert not result.refused, result
        if expected == "neutral":
            assert result.truncated, "huge output must be capped and marked"
    assert leaks(result, world, before, box.profile.writes, attack.marker) == []


@pytest.mark.parametrize("sandbox", sandboxes())
@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_layer2_alone(attack, profile, sandbox, world):
    if attack.l2_exempt:
        pytest.skip(attack.l2_exempt)
    box = make_box(world, sandbox, profile=profile, validate=False)
    before = take_all(world)
    result = box.run_command(_command(attack, world))
    # The attack really ran (as /bin/sh -c, so `;`, `$(...)` and `>` mean what they say):
    # only the OS layer stood between it and the secret.
    assert not result.refused and result.command.startswith("/bin/sh -c "), result
    assert leaks(result, world, before, box.profile.writes, attack.marker) == []


@pytest.mark.parametrize("attack", [a for a in ATTACKS if a.l2_exempt], ids=lambda a: a.command)
def test_layer2_exemptions_are_real(attack, world):
    """Documented exemptions are checked to still hold (so the doc stays true)."""
    if "NUL" in attack.l2_exempt:
        with pytest.raises(ValueError):
            os.stat("a\0b")  # no system call takes a name, or an argv word, with a NUL in it
    else:
        assert os.stat(world["proj"] / "hard_secret").st_nlink == 2


@pytest.mark.parametrize("profile", ["dev", "sovereign"])
@pytest.mark.parametrize("attack", WRITE_ATTACKS, ids=WIDS)
def test_write_attacks_layer1_alone(attack, profile, wworld):
    world = wworld
    box = make_box(world, "none", profile=profile, assume_yes=True)
    before = take_all(world)
    call = materialise_call(attack.call, str(world["secret"]), str(world["outside"]), world["tmp"].name)
    result = _run(box, call)
    process = not (isinstance(call, dict) and call["tool"] in ("write_file", "operator"))
    if attack.l1 == "refuse" or (profile == "sovereign" and process):
        assert result.refused, f"layer 1 let it run: {result}"
    assert leaks(result, world, before, True, attack.marker) == []


@pytest.mark.parametrize("sandbox", sandboxes())
@pytest.mark.parametrize("profile", ["dev", "sovereign"])
@pytest.mark.parametrize("attack", WRITE_ATTACKS, ids=WIDS)
def test_write_attacks_layer2_alone(attack, profile, sandbox, wworld):
    if attack.l2_exempt:
        pytest.skip(attack.l2_exempt)
    world = wworld
    box = make_box(world, sandbox, profile=profile, validate=False, assume_yes=True)
    before = take_all(world)
    call = materialise_call(attack.call, str(world["secret"]), str(world["outside"]), world["tmp"].name)
    result = _run(box, call)
    if isinstance(call, str) or call["tool"] == "python":
        assert not result.refused, result  # it ran: only the OS layer confined it
    assert leaks(result, world, before, True, attack.marker) == []
