"""The player's moves: one JSON object per turn, constrained by a schema so it always parses.

The schema (``MOVE_SCHEMA``) is what the backend decodes against: an ``anyOf``
of one object per move, ``move`` first, predicates from the claim language's
table. The pydantic models validate the reply again (``ask_json``); what the
schema cannot express — arity, argument types, whether a target exists — is the
tutor's to judge, as a verdict, not a parse failure.
"""

from __future__ import annotations

from typing import Annotated, Any, Dict, List, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, RootModel

from ragix_core.reasoning_tutor.claims import PREDICATES

__all__ = ["MOVES", "ClaimIn", "Assert", "Ask", "Propose", "Challenge", "Reformulate", "Link", "Respond",
           "Move", "MoveReply", "MOVE_SCHEMA", "move_text"]

MOVES = ("ASSERT", "ASK", "PROPOSE", "CHALLENGE", "REFORMULATE", "LINK", "RESPOND")
MAX_ARG = 400
MAX_ANSWER = 1200
MAX_RESPOND_CLAIMS = 4


class _Move(BaseModel):
    model_config = ConfigDict(extra="ignore")


class ClaimIn(_Move):
    """A claim as the player wrote it (typed and normalised by the tutor, not here)."""

    predicate: str = Field(max_length=40)
    args: List[str] = Field(min_length=1, max_length=3)

    def text(self) -> str:
        return f"{self.predicate}({', '.join(repr(a) for a in self.args)})"


class Assert(_Move):
    move: Literal["ASSERT"]
    claim: ClaimIn


class Ask(_Move):
    move: Literal["ASK"]
    question: ClaimIn  # "?" or "?name" arguments are unknowns


class Propose(_Move):
    move: Literal["PROPOSE"]
    intent: str = Field(max_length=300)
    command: str = Field(min_length=1, max_length=MAX_ARG)
    mode: Literal["read", "write"] = "read"  # the player's declaration; the tutor decides


class Challenge(_Move):
    move: Literal["CHALLENGE"]
    target: str = Field(max_length=20)
    reason: str = Field("", max_length=300)


class Reformulate(_Move):
    move: Literal["REFORMULATE"]
    target: str = Field(max_length=20)
    claim: ClaimIn


class Link(_Move):
    move: Literal["LINK"]
    claim: str = Field(max_length=20)
    question: str = Field(max_length=20)


class Respond(_Move):
    move: Literal["RESPOND"]
    answer: str = Field(max_length=MAX_ANSWER)
    claims: List[ClaimIn] = Field(default_factory=list, max_length=MAX_RESPOND_CLAIMS)


Move = Annotated[Union[Assert, Ask, Propose, Challenge, Reformulate, Link, Respond], Field(discriminator="move")]


class MoveReply(RootModel[Move]):
    pass


def _claim_schema() -> Dict[str, Any]:
    return {"type": "object", "properties": {
        "predicate": {"type": "string", "enum": list(PREDICATES)},
        "args": {"type": "array", "items": {"type": "string", "maxLength": MAX_ARG}, "minItems": 1, "maxItems": 3}},
        "required": ["predicate", "args"], "additionalProperties": False}


def _move(name: str, **props: Any) -> Dict[str, Any]:
    return {"type": "object", "properties": {"move": {"const": name}, **props},
            "required": ["move", *props], "additionalProperties": False}


def _text(limit: int) -> Dict[str, Any]:
    return {"type": "string", "maxLength": limit}


MOVE_SCHEMA: Dict[str, Any] = {"anyOf": [
    _move("ASSERT", claim=_claim_schema()),
    _move("ASK", question=_claim_schema()),
    _move("PROPOSE", intent=_text(300), command={"type": "string", "minLength": 1, "maxLength": MAX_ARG},
          mode={"type": "string", "enum": ["read", "write"]}),
    _move("CHALLENGE", target=_text(20), reason=_text(300)),
    _move("REFORMULATE", target=_text(20), claim=_claim_schema()),
    _move("LINK", claim=_text(20), question=_text(20)),
    _move("RESPOND", answer=_text(MAX_ANSWER),
          claims={"type": "array", "items": _claim_schema(), "maxItems": MAX_RESPOND_CLAIMS}),
]}


def move_text(move: Any) -> str:
    """One line describing a move, for views and logs."""
    kind = move.move
    if isinstance(move, Assert):
        return f"ASSERT {move.claim.text()}"
    if isinstance(move, Ask):
        return f"ASK {move.question.text()}"
    if isinstance(move, Propose):
        return f"PROPOSE [{move.mode}] {move.command}"
    if isinstance(move, Challenge):
        return f"CHALLENGE {move.target}"
    if isinstance(move, Reformulate):
        return f"REFORMULATE {move.target} as {move.claim.text()}"
    if isinstance(move, Link):
        return f"LINK {move.claim} -> {move.question}"
    if isinstance(move, Respond):
        return f"RESPOND {move.answer!r}" + (f" with {len(move.claims)} claim(s)" if move.claims else "")
    return kind  # pragma: no cover - the union is closed
