"""Print the adversarial corpus's outcome per profile and layer (issue 11 item 5).

    PYTHONPATH=. python -m tests.tools.corpus_table

Each case runs in a fresh hostile world (tests/tools/conftest.py). "leaks" counts cases
where anything escaped (tests/tools/helpers.leaks); the pytest suite asserts it is 0.
Cases an OS layer cannot stop by design (a hard link to the secret) count as exempt.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

from ragix_core.core.types import ToolCall
from tests.tools.conftest import ENV_TOKEN, HAS_BWRAP, HAS_LANDLOCK, TEST_LIMITS, add_write_targets, build_world
from tests.tools.corpus import ATTACKS, WRITE_ATTACKS, materialise, materialise_call
from tests.tools.helpers import leaks, take_all
from ragix_core.tools import ToolBox


def _cases(profile):
    for a in ATTACKS:
        yield a.command, a.l2_exempt, a.marker, False
    if profile != "reflect":
        for w in WRITE_ATTACKS:
            yield w.call, w.l2_exempt, w.marker, True


def main() -> int:
    os.environ["RAGIX_TEST_SECRET"] = ENV_TOKEN
    layers = ["layer1"] + (["bwrap"] if HAS_BWRAP else []) + (["landlock"] if HAS_LANDLOCK else [])
    rows = []
    for profile in ("reflect", "dev", "sovereign"):
        for layer in layers:
            count, details = Counter(), []
            for call, exempt, marker, write_case in _cases(profile):
                if layer != "layer1" and exempt:
                    count["exempt"] += 1
                    continue
                with tempfile.TemporaryDirectory() as tmp:
                    world = build_world(Path(tmp))
                    if write_case:
                        add_write_targets(world)
                    box = ToolBox(world["proj"], profile=profile, sandbox="none" if layer == "layer1" else layer,
                                  validate=layer == "layer1", assume_yes=True, limits=TEST_LIMITS)
                    before = take_all(world)
                    c = materialise_call(call, str(world["secret"]), str(world["outside"]), world["tmp"].name)
                    result = box.run_command(c) if isinstance(c, str) else box.run(ToolCall(c["tool"], c["args"]))
                    found = leaks(result, world, before, box.profile.writes, marker)
                count["cases"] += 1
                count["refused" if result.refused else "ran"] += 1
                if found:
                    count["leaks"] += 1
                    details.append(f"    LEAK {call!r}: {found}")
            rows.append((profile, layer, count))
            print(f"{profile:9} {layer:8} cases={count['cases']:3} refused={count['refused']:3} "
                  f"ran={count['ran']:3} exempt={count['exempt']:2} leaks={count['leaks']}", flush=True)
            for line in details:
                print(line, flush=True)
    print("\n| profile | layer | cases | refused | ran (contained) | exempt | leaks |")
    print("|---|---|---|---|---|---|---|")
    for profile, layer, c in rows:
        print(f"| {profile} | {layer} | {c['cases']} | {c['refused']} | {c['ran']} | {c['exempt']} | {c['leaks']} |")
    return 1 if any(c["leaks"] for _, _, c in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
