"""Interpreter-Tutor (spec 002 §3.4): a proof game that keeps slim models honest.

The player (a model, the ``worker`` role) proposes moves — ASSERT, ASK, PROPOSE,
CHALLENGE, REFORMULATE, LINK, RESPOND — as JSON constrained by a schema; the
tutor (``Tutor``, deterministic, no model call) judges each one against evidence:
observations of confined tool runs and facts that YAML rules derive from them.
Claims are provable, refutable, undecidable or ill-typed; an answer wins only
when the task's acceptance criteria are met by validated truths and every
checkable atom of it is proven. The proof graph of each session is an
append-only JSONL log, exportable as JSON and Mermaid.

    ragix tutor "How many lines does README.md have?" --accept 'line_count("README.md", ?n)'
    run_goal(goal, cwd=..., strategy="tutor", meta={"tutor": {"accept": [...], "max_turns": 8}})

Modules: claims (the claim language), rules (+ rules.yaml, the rule language),
checker (claim checking), graph (the proof graph and its log), moves (the move
schema), actions (read/write decision, execution), respond (judging answers),
tutor (the judge), hints, scoring, player (prompts), game (the loop, the engine).
See docs/TUTOR.md.
"""

from ragix_core.reasoning_tutor.claims import PREDICATES, Claim, IllTyped, Pattern, make_claim, parse_claim, parse_pattern
from ragix_core.reasoning_tutor.game import DEFAULT_MAX_TURNS, TutorEngine, parse_accept, tutor
from ragix_core.reasoning_tutor.graph import ProofGraph
from ragix_core.reasoning_tutor.moves import MOVE_SCHEMA, MoveReply
from ragix_core.reasoning_tutor.rules import RuleError, RuleSet, load_rules
from ragix_core.reasoning_tutor.tutor import Tutor, TutorSettings, Verdict

__all__ = ["PREDICATES", "Claim", "IllTyped", "Pattern", "make_claim", "parse_claim", "parse_pattern",
           "DEFAULT_MAX_TURNS", "TutorEngine", "parse_accept", "tutor", "ProofGraph", "MOVE_SCHEMA", "MoveReply",
           "RuleError", "RuleSet", "load_rules", "Tutor", "TutorSettings", "Verdict"]
