"""The tree's model-backed operators: sample answers, decompose, collapse, peer-review.

Every reply is asked for through ``llm.structured.ask_json`` (schema-constrained, validated,
one repair) and bounded; prompts are the ``prompts/slim_*.md`` files. A reply that stays
invalid costs its draw and is dropped (a sample) or degrades the step (a decomposition that
fails leaves the node's direct answer); only an unreachable backend ends the run.
"""

from __future__ import annotations

from typing import Annotated, Any, Dict, List, Optional, Sequence, Union

from pydantic import BaseModel, Field, field_validator

from ragix_core import prompts
from ragix_core.core.stop import StopRun
from ragix_core.core.text import bounded
from ragix_core.llm.structured import ask_json
from ragix_core.reasoning_slim.budget import BudgetExhausted
from ragix_core.reasoning_slim.params import ContractiveParams
from ragix_core.reasoning_slim.review import PeerReply
from ragix_core.sampling import (Cluster, SampleRun, StopSampling, adaptive_sample, cluster_by_similarity,
                                 normalize_answer, sequence_similarity, similarity)

__all__ = ["SolveReply", "ReadingReply", "DecomposeReply", "sample_answers", "decompose", "peer_review",
           "context_block", "cluster_answers", "FATAL_STOPS"]

QUESTION_CHARS = 4000
FACT_CHARS = 400
FATAL_STOPS = ("llm_unavailable",)
RESTATEMENT = 0.85  # sequence similarity to the node's question at which a sub-question is a restatement  # the backend is gone: no later call can succeed either


# No maxLength in these schemas: llama.cpp expands a length bound into a grammar that slowed
# decoding by ~40% here (1.8 → 1.0 tokens/s on the same reply under load). Lengths are bounded
# by max_tokens and cut in code instead (REASONING_CHARS, ANSWER_CHARS).
REASONING_CHARS = 1500
ANSWER_CHARS = 300
READING_CHARS = 300


# A number is a valid answer: forced into a JSON string, the 1.5B model answered
# "What is 17 + 25?" with {"answer": "]"} (free text and {"answer": 42} both say 42).
Answer = Union[Annotated[str, Field(min_length=1)], int, float]


def answer_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return " ".join(str(value).split())


class SolveReply(BaseModel):
    reasoning: str = Field(min_length=1)
    answer: Answer


class ReadingReply(BaseModel):
    reading: str = Field(min_length=1)
    reasoning: str = Field(min_length=1)
    answer: Answer


class AnswerReply(BaseModel):
    answer: Answer


class ReadingAnswerReply(BaseModel):
    reading: str = Field(min_length=1)
    answer: Answer


_REPLIES = {(False, True): SolveReply, (True, True): ReadingReply, (False, False): AnswerReply,
            (True, False): ReadingAnswerReply}  # (reading, reasoning) -> reply model


class DecomposeReply(BaseModel):
    subquestions: List[str] = Field(min_length=1, max_length=6)

    @field_validator("subquestions")
    @classmethod
    def _clean(cls, value: List[str]) -> List[str]:
        out = []
        for q in value:
            q = " ".join(str(q).split())
            if 3 <= len(q) <= 400 and q not in out:  # a longer "sub-question" is not a sub-question
                out.append(q)
        if not out:
            raise ValueError("no usable sub-question (each must be 3..400 characters)")
        return out


def context_block(context: Optional[str]) -> str:
    if not context or not context.strip():
        return ""
    return "\nConversation so far (for reference):\n" + bounded(context.strip(), 2000) + "\n"


def cluster_answers(samples: Sequence[Dict[str, str]], params: ContractiveParams) -> List[Cluster]:
    """Answer clusters under the configured similarity (exact = equal normalised answers)."""
    if params.similarity == "exact":
        from ragix_core.sampling import cluster

        return cluster(samples, lambda s: normalize_answer(s["answer"]))
    return cluster_by_similarity(samples, lambda s: s["answer"], similarity(params.similarity),
                                 params.similarity_threshold)


def _call_failed(exc: StopRun) -> None:
    if exc.reason in FATAL_STOPS:
        raise exc


def sample_answers(client: Any, template: str, params: ContractiveParams, *, k: Optional[int] = None,
                   reading: bool = False, **values: Any) -> SampleRun:
    """Up to k answers to one prompt (the first greedy, the rest at ``sample_temperature``),
    stopping once ``quorum`` agree; failed draws count as draws and join no cluster. With
    ``params.reasoning`` each reply reasons briefly before its answer; without, it is the answer
    alone (about a tenth of the tokens: the tree is then the only reasoning)."""
    model = _REPLIES[(reading, params.reasoning)]
    fmt = prompts.load("slim_format_reasoning" if params.reasoning else "slim_format_answer").strip()
    messages = [{"role": "user", "content": prompts.render(template, format=fmt, **values)}]

    def draw(i: int) -> Optional[Dict[str, str]]:
        temperature = 0.0 if i == 0 else params.sample_temperature
        try:
            reply, _ = ask_json(client, messages, model, stop_reason="answer_invalid",
                                max_tokens=params.answer_max_tokens, temperature=temperature)
        except BudgetExhausted:
            raise StopSampling from None
        except StopRun as exc:
            _call_failed(exc)
            return None
        answer = bounded(answer_text(reply.answer), ANSWER_CHARS, marker=False)
        if not answer:
            return None
        out = {"answer": answer, "reasoning": bounded(getattr(reply, "reasoning", "").strip(), REASONING_CHARS)}
        if reading:
            out["reading"] = bounded(" ".join(reply.reading.split()), READING_CHARS,  # type: ignore[attr-defined]
                                     marker=False)
        return out

    k = k or params.k_entropy_samples
    return adaptive_sample(draw, lambda s: normalize_answer(s["answer"]), k_max=k,
                           quorum=min(params.quorum, k), group=lambda xs: cluster_answers(xs, params))


def decompose(client: Any, question: str, params: ContractiveParams, *, avoid: Sequence[str] = (),
              context: str = "", attempt: int = 0) -> List[str]:
    """2..max_children sub-questions; [] when the model's reply stays unusable or the budget is spent."""
    avoid_text = ""
    if avoid:
        avoid_text = ("A previous split did not help; propose different sub-questions than these:\n"
                      + "\n".join(f"- {bounded(a, 200, marker=False)}" for a in avoid) + "\n")
    text = prompts.render("slim_decompose", question=bounded(question, QUESTION_CHARS),
                          max_children=params.max_children, avoid=avoid_text, context=context_block(context))
    schema = DecomposeReply.model_json_schema()
    schema["properties"]["subquestions"]["minItems"] = 2
    schema["properties"]["subquestions"]["maxItems"] = params.max_children
    schema["properties"]["subquestions"]["items"] = {"type": "string", "minLength": 3}
    try:
        reply, _ = ask_json(client, [{"role": "user", "content": text}], DecomposeReply,
                            stop_reason="decompose_failed", schema=schema, max_tokens=300,
                            temperature=0.0 if attempt == 0 else params.sample_temperature)
    except BudgetExhausted:
        return []
    except StopRun as exc:
        _call_failed(exc)
        return []
    # A "sub-question" that restates the question is not smaller: solving it would just repeat the node.
    return [q for q in reply.subquestions if sequence_similarity(q, question) < RESTATEMENT][: params.max_children]


def facts_block(children: Sequence[Any]) -> str:
    return "\n".join(f"{i}. {bounded(c.question, FACT_CHARS, marker=False)} -> "
                     f"{bounded(c.answer, FACT_CHARS, marker=False)}"
                     + (f" (reviewer: {bounded(c.peer['suggestion'], 160, marker=False)})"
                        if c.peer and c.peer.get("suggestion") and c.peer.get("verdict") != "approved" else "")
                     for i, c in enumerate(children, 1))


def peer_review(client: Any, root: str, node: Any, params: ContractiveParams) -> Optional[PeerReply]:
    """The peer's reply for one child, or None when it stays unusable or the budget is spent."""
    text = prompts.render("slim_peer", root=bounded(root, 1500), question=bounded(node.question, FACT_CHARS),
                          answer=bounded(node.answer, FACT_CHARS), reasoning=bounded(node.reasoning, 800))
    try:
        reply, _ = ask_json(client, [{"role": "user", "content": text}], PeerReply,
                            stop_reason="peer_review_failed", max_tokens=params.peer_max_tokens, temperature=0.0)
    except BudgetExhausted:
        return None
    except StopRun as exc:
        _call_failed(exc)
        return None
    return reply
