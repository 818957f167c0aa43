"""The adversarial corpus, against layer 1 alone and against each OS layer alone."""

from __future__ import annotations

import pytest

from tests.tools.conftest import TEST_LIMITS, make_box, sandboxes
from tests.tools.corpus import ATTACKS, materialise
from tests.tools.helpers import assert_harmless, take_snapshots

IDS = [f"{a.category}:{a.command[:40]!r}" for a in ATTACKS]


def _command(attack, world) -> str:
    return materialise(attack.command, str(world["secret"]), str(world["outside"]))


def test_corpus_is_large_enough():
    assert len(ATTACKS) >= 60
    categories = {a.category for a in ATTACKS}
    assert {"chaining", "reentry", "path", "exfiltration", "find", "hang", "huge", "abbrev", "control",
            "environment", "orphans"} <= categories


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_layer1_alone(attack, world):
    box = make_box(world, "none")
    before = take_snapshots(world)
    result = box.run_command(_command(attack, world))
    if attack.l1 == "refuse":
        assert result.refused, f"layer 1 let it run: {result}"
        assert result.returncode == 126
        assert result.error.startswith("refused: ") and len(result.error) > len("refused: ")
    else:
        assert not result.refused
        if attack.l1 == "neutral":
            assert result.truncated, "huge output must be capped and marked"
    assert_harmless(result, world, before, TEST_LIMITS.output_bytes, attack.marker)


@pytest.mark.parametrize("sandbox", sandboxes())
@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_layer2_alone(attack, sandbox, world):
    if attack.l2_exempt:
        pytest.skip(attack.l2_exempt)
    box = make_box(world, sandbox, validate=False)
    before = take_snapshots(world)
    result = box.run_command(_command(attack, world))
    assert_harmless(result, world, before, TEST_LIMITS.output_bytes, attack.marker)


@pytest.mark.parametrize("attack", [a for a in ATTACKS if a.l2_exempt], ids=lambda a: a.command)
def test_layer2_exemptions_are_real(attack, world):
    """Documented exemptions are checked to still need layer 1 (so the doc stays true)."""
    import os

    assert os.stat(world["proj"] / "hard_secret").st_nlink == 2
