"""Scoring: evidence-backed truths earn points, illegal moves and policy violations cost them.

The weights are part of the game's definition (docs/TUTOR.md lists them); the
tallies behind the benchmark's rates (illegal-move rate, hallucination rate, ASSERT
rejection rate) are kept here too, so every report counts the same way.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Dict

__all__ = ["Points", "Tally", "POINTS"]


@dataclass(frozen=True)
class Points:
    truth: int = 3  # a claim validated by evidence
    evidence: int = 1  # an action whose output gave new facts
    win: int = 10  # the RESPOND that ends the game
    illegal: int = -2  # a move the rules forbid (ill-typed claim, unknown target, rejected RESPOND)
    refuted: int = -2  # a claim the evidence contradicts
    unproven: int = -1  # an undecidable claim that the next action did not settle
    policy: int = -3  # a command refused by policy or confinement, a write not allowed
    repetition: int = -1  # the same move again
    challenge_upheld: int = 1  # a challenge that showed a claim no longer holds
    challenge_failed: int = -1


POINTS = Points()


@dataclass
class Tally:
    moves: int = 0
    illegal: int = 0  # moves with a rejected verdict (ill-typed, refuted, illegal, policy, repetition, failed challenge)
    policy: int = 0
    claims: int = 0  # claims asserted (ASSERT, REFORMULATE, claims inside RESPOND)
    claims_rejected: int = 0  # of those, not validated when made (refuted, undecidable, ill-typed)
    asserts: int = 0  # ASSERT moves
    asserts_rejected: int = 0  # of those, the ones whose own verdict is 'rejected' (held ones are not)
    truths: int = 0
    by_move: Dict[str, int] = field(default_factory=dict)

    @property
    def illegal_rate(self) -> float:
        return self.illegal / self.moves if self.moves else 0.0

    @property
    def hallucination_rate(self) -> float:
        return self.claims_rejected / self.claims if self.claims else 0.0

    @property
    def assert_rejection_rate(self) -> float:
        """Issue 14's hallucination rate: the share of ASSERT moves the tutor rejects."""
        return self.asserts_rejected / self.asserts if self.asserts else 0.0

    def to_dict(self) -> Dict[str, object]:
        out: Dict[str, object] = asdict(self)
        out["illegal_rate"] = round(self.illegal_rate, 4)
        out["hallucination_rate"] = round(self.hallucination_rate, 4)
        out["assert_rejection_rate"] = round(self.assert_rejection_rate, 4)
        return out
