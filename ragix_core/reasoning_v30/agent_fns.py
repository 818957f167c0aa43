"""The LLM-backed node functions of spec 000 §4, over real tools.

One ``AgentFunctions`` object per run holds the role clients, the tool box
and the experience corpus; its bound methods are what ``build_graph`` injects
into the spec's nodes. Model output is untrusted: every JSON reply is schema-
constrained and validated (``structured.ask_json``); text is bounded before it
goes back into a prompt; commands go through the confined tool box, which
refuses what it cannot validate.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any, Dict, List, Literal, Optional, Tuple

from pydantic import BaseModel, Field

from ragix_core import prompts
from ragix_core.llm.base import LLMClient

from .classify_rules import needs_tools, rule_based_complexity
from .excerpt import excerpt
from .grounding import ground_answer
from .path_hints import diagnose
from .respond import step_output
from .structured import ask_json, ask_text, bounded
from .types import Plan, PlanStep, ReasoningState, StepStatus, TaskComplexity, ToolCall, ToolResult

__all__ = ["AgentFunctions"]

EVIDENCE_CHARS = 1800  # per step output shown to a model
FULL_OUTPUT = 1 << 20  # the excerpt cuts; the tool layer already capped the output (64 KiB)
CONTEXT_LISTING = "find . -maxdepth 3 -type f | sort"
# Tools that, given no file operand, read stdin (see AgentFunctions._chain_filter).
STDIN_FILTERS = {"sort", "head", "tail", "uniq", "cut", "tr", "wc", "grep", "cat"}
TRUNCATING_FILTERS = {"head", "tail"}
# Tools that take structured arguments rather than a command line; plans are command lines.
STRUCTURED_TOOLS = {"shell", "python", "operator", "write_file"}
HIDDEN_PREFIXES = ("./.git/", "./.ragix/")  # ragix's own state is not part of the user's project


def reads_stdin(command: str, root: Path) -> bool:
    """True for a single-stage filter (sort, head, wc, ...) that names no existing file: it reads stdin."""
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    if not words or words[0] not in STDIN_FILTERS or "|" in words:
        return False
    operands = [w for w in words[1:] if not w.startswith("-")]
    return not any((root / w).exists() for w in operands)


_WC_TOTAL = re.compile(r"^(\s*\d+(?:\s+\d+)*\s+)total$", re.MULTILINE)


def _annotate_totals(text: str) -> str:
    """Mark wc's summary line so that a model does not take "total" for a file."""
    return _WC_TOTAL.sub(r"\1total   <- sum of the files listed, not a file", text)


# Commands that only move around or print where we are: every command already runs in the
# project directory, so such a step costs a step of the budget and yields no evidence.
NAVIGATION = {"pwd", "cd", "echo", "true"}


def _is_no_evidence(step: PlanStep) -> bool:
    """A step that cannot contribute evidence: tool "none", no command, `cd`/`pwd`, or a bare `ls`
    (the planner was already shown the file listing)."""
    call = step.tool_call
    if call is None or call.tool == "none":
        return True
    cmd = str(call.args.get("command") or "").strip()
    if not cmd:
        return call.tool in NAVIGATION
    try:
        words = shlex.split(cmd)
    except ValueError:
        return False
    if not words or "|" in words:
        return False
    if words[0] in NAVIGATION:
        return True
    return words[0] == "ls" and all(w.startswith("-") or w in (".", "./") for w in words[1:])


def compact_steps(steps: List[PlanStep], root: Path) -> List[PlanStep]:
    """Merge what small models split: a filter step joins the previous step's pipeline, and a step
    whose command is just the beginning of the next step's pipeline is dropped (it would run twice).
    Steps that cannot yield evidence (see _is_no_evidence) are dropped unless nothing else is left."""
    out: List[PlanStep] = []
    if any(not _is_no_evidence(s) for s in steps):
        steps = [s for s in steps if not _is_no_evidence(s)]
    for step in steps:
        cmd = str(step.tool_call.args.get("command") or "").strip() if step.tool_call else ""
        prev_cmd = str(out[-1].tool_call.args.get("command") or "").strip() if out and out[-1].tool_call else ""
        # head/tail are not merged: they cut the previous output, which must stay in the evidence
        # (e.g. `... | xargs wc -l | sort -nr | head -n 1` keeps only wc's "total" line).
        if prev_cmd and cmd and reads_stdin(cmd, root) and cmd.split()[0] not in TRUNCATING_FILTERS:
            out[-1].tool_call.args["command"] = f"{prev_cmd} | {cmd}"
            out[-1].description = f"{out[-1].description}; {step.description}"
            continue
        if prev_cmd and cmd and (cmd == prev_cmd or cmd.startswith(prev_cmd + " |")):
            out[-1] = step
            continue
        out.append(step)
    for i, step in enumerate(out, 1):
        step.num = i
    return out


class ClassifyReply(BaseModel):
    complexity: Literal["BYPASS", "SIMPLE", "MODERATE", "COMPLEX"]


class AnswerReply(BaseModel):
    answer: str = Field(min_length=1, max_length=8000)
    confidence: float = Field(ge=0, le=1)


class CommandReply(BaseModel):
    command: str = Field(min_length=1, max_length=1000)


class ReflectReply(BaseModel):
    diagnosis: str = Field(max_length=4000)
    new_plan_summary: str = Field(max_length=4000)


class VerifyReply(BaseModel):
    verdict: Literal["pass", "fail"]
    issues: str = Field(default="", max_length=4000)
    answer: str = Field(min_length=1, max_length=8000)
    confidence: float = Field(ge=0, le=1)


def plan_schema(tools: List[str], max_steps: int) -> Dict[str, Any]:
    """The plan's JSON Schema; the tool enum is exactly what the active profile allows."""
    return {
        "type": "object",
        "properties": {
            "objective": {"type": "string"},
            "steps": {
                "type": "array",
                "minItems": 1,
                "maxItems": max_steps,
                "items": {
                    "type": "object",
                    "properties": {
                        "num": {"type": "integer"},
                        "description": {"type": "string"},
                        "tool": {"type": "string", "enum": sorted(set(tools)) + ["none"]},
                        "args": {
                            "type": "object",
                            "properties": {"command": {"type": "string"}},
                            "required": ["command"],
                        },
                    },
                    "required": ["num", "description", "tool", "args"],
                },
            },
            "validation": {"type": "string"},
            "confidence": {"type": "number", "minimum": 0, "maximum": 1},
        },
        "required": ["objective", "steps", "validation", "confidence"],
    }


class PlanStepReply(BaseModel):
    num: int
    description: str = Field(min_length=1, max_length=1000)
    tool: str
    args: Dict[str, Any] = Field(default_factory=dict)


class PlanReply(BaseModel):
    objective: str = Field(max_length=2000)
    steps: List[PlanStepReply] = Field(min_length=1, max_length=10)
    validation: str = Field(default="", max_length=2000)
    confidence: float = Field(default=0.5, ge=0, le=1)


class AgentFunctions:
    def __init__(self, *, planner: LLMClient, worker: LLMClient, verifier: LLMClient, toolbox: Any,
                 experience: Any = None, top_k: int = 5, max_context_chars: int = 2000):
        self.planner = planner
        self.worker = worker
        self.verifier = verifier
        self.toolbox = toolbox
        self.experience = experience
        self.top_k = top_k
        self.max_context_chars = max_context_chars
        self.tools: List[str] = [t for t in (getattr(toolbox, "allowed_tools", []) or []) if t not in STRUCTURED_TOOLS]
        self.root = Path(getattr(toolbox, "root", "."))
        self.last_complexity: Optional[TaskComplexity] = None
        self._listing: Optional[str] = None

    # -- shared context ----------------------------------------------------------

    def file_context(self) -> str:
        """A bounded listing of the project, computed once per run."""
        if self._listing is None:
            r = self.toolbox.run_command(CONTEXT_LISTING)
            if r.ok:
                text = "\n".join(line for line in r.stdout.splitlines() if not line.startswith(HIDDEN_PREFIXES))
            else:
                text = r.stderr or r.error or ""
            self._listing = bounded(text, self.max_context_chars)
        return self._listing

    def experience_context(self, query: str) -> str:
        if self.experience is None or self.top_k <= 0:
            return ""
        try:
            return bounded(self.experience.search(query, top_k=self.top_k), self.max_context_chars)
        except Exception as exc:  # memory helps; it must not stop a run
            return f"[experience search failed: {exc}]"

    # -- CLASSIFY ----------------------------------------------------------------

    def classify(self, goal: str, template: Optional[str] = None) -> TaskComplexity:
        """``template``: a classify prompt text to use instead of the shipped one (benchmarks)."""
        label = rule_based_complexity(goal)
        if label is None:
            text = prompts.render_text(template, goal=bounded(goal, 4000)) if template is not None else \
                prompts.render("classify", goal=bounded(goal, 4000))
            msg = [{"role": "user", "content": text}]
            reply, _ = ask_json(self.planner, msg, ClassifyReply, stop_reason="classify_failed", max_tokens=16)
            label = TaskComplexity.parse(reply.complexity)
            if label == TaskComplexity.BYPASS and needs_tools(goal):
                label = TaskComplexity.SIMPLE
        self.last_complexity = label
        return label

    # -- DIRECT_EXEC -------------------------------------------------------------

    def answer(self, goal: str) -> Dict[str, Any]:
        if self.last_complexity == TaskComplexity.SIMPLE and self.tools:
            return self._answer_with_one_command(goal)
        msg = [{"role": "user", "content": prompts.render("direct_answer", goal=bounded(goal, 4000))}]
        reply, _ = ask_json(self.worker, msg, AnswerReply, stop_reason="answer_failed", max_tokens=600)
        return {"answer": reply.answer, "confidence": reply.confidence}

    def _answer_with_one_command(self, goal: str) -> Dict[str, Any]:
        listing = self.file_context()
        feedback = ""
        attempts: List[PlanStep] = []
        # One command, and one corrected command if the first was refused or failed: SIMPLE has
        # no reflection budget, but a command that never ran (or named a wrong path) says nothing.
        # A wrong path with exactly one existing file of a close name is corrected without asking the
        # model again (1.5B models tend to retry the same path); the step description says so.
        fixed: Optional[Tuple[str, str]] = None
        for attempt in (1, 2):
            if fixed is not None:
                command, note = fixed
            else:
                msg = [{"role": "user", "content": prompts.render(
                    "simple_command", goal=bounded(goal, 4000), file_context=listing, tools=", ".join(self.tools))
                    + feedback}]
                reply, _ = ask_json(self.worker, msg, CommandReply, stop_reason="command_generation_failed",
                                    max_tokens=120)
                command, note = reply.command, ""
            args = {"command": command, "note": note} if note else {"command": command}
            step = PlanStep(num=attempt, description=note or goal, tool_call=ToolCall("shell", args))
            fixed = self._run(step)
            attempts.append(step)
            if step.status == StepStatus.SUCCESS:
                break
            r = step.result
            why = (r.error or r.stderr or "").strip() if r else ""
            feedback = (f"\n\nThe command `{command}` did not work: {bounded(why, 400)}\n"
                        "Return a different, valid command.")
        ok = attempts[-1].status == StepStatus.SUCCESS
        return {"answer": self.compose_for(goal, attempts), "confidence": 0.7 if ok else 0.2, "steps": attempts}

    # -- PLAN --------------------------------------------------------------------

    def generate_plan(self, goal: str, reflection_context: str) -> Dict[str, Any]:
        complexity = self.last_complexity or TaskComplexity.MODERATE
        step_rule = "3–7 steps for COMPLEX tasks." if complexity == TaskComplexity.COMPLEX else \
            "1–4 steps; use as few as the goal needs (one pipeline can be one step)."
        max_steps = 7 if complexity == TaskComplexity.COMPLEX else 4
        text = prompts.render(
            "plan", goal=bounded(goal, 4000), file_context=self.file_context(),
            experience_context=self.experience_context(goal) or "(none)",
            reflection_context=bounded(reflection_context, self.max_context_chars) or "(none)",
            step_rule=step_rule, tools=", ".join(self.tools))
        reply, _ = ask_json(self.planner, [{"role": "user", "content": text}], PlanReply,
                            schema=plan_schema(self.tools, max_steps), stop_reason="plan_generation_failed",
                            max_tokens=700)
        return reply.model_dump()

    def parse_plan(self, raw: Dict[str, Any], goal: str) -> Plan:
        reply = PlanReply.model_validate(raw)
        steps = []
        for i, s in enumerate(reply.steps, 1):  # renumbered by compact_steps: models skip and repeat numbers
            steps.append(PlanStep(num=i, description=s.description, tool_call=ToolCall(s.tool.strip(), dict(s.args))))
        return Plan(objective=reply.objective or goal, steps=compact_steps(steps, self.root),
                    validation=reply.validation, confidence=reply.confidence)

    # -- EXECUTE -----------------------------------------------------------------

    def execute_step(self, step: PlanStep, state: ReasoningState) -> PlanStep:
        call = step.tool_call
        if call is None or call.tool == "none":
            step.status = StepStatus.SKIPPED
            return step
        command = str(call.args.get("command") or "").strip()
        if not command:
            command = self._materialise(step, state)
        command = self._chain_filter(command, state)
        step.tool_call = ToolCall(call.tool, {**call.args, "command": command})
        fixed = self._run(step)
        if fixed is not None:
            # The same lookup as on the SIMPLE path: one existing file of a close name, so the step is
            # re-run on it at once instead of spending a reflection; both runs are in the trace.
            step.tool_call = ToolCall(call.tool, {**call.args, "command": fixed[0], "note": fixed[1]})
            self._run(step)
        return step

    def _chain_filter(self, command: str, state: ReasoningState) -> str:
        """A step like `sort -n` reads stdin, which a step never gets (a worker-written command can
        still look like that after plan compaction). Wire it after the previous step's command, as
        a pipeline of individually validated stages; the previous command is read-only, so
        re-running it is safe."""
        if not reads_stdin(command, self.root):
            return command
        previous = next((s for s in reversed(state.executed_steps)
                         if s.status == StepStatus.SUCCESS and s.tool_call and s.tool_call.args.get("command")), None)
        if previous is None:
            return command
        return f"{previous.tool_call.args['command']} | {command}"

    def _materialise(self, step: PlanStep, state: ReasoningState) -> str:
        earlier = "\n\n".join(f"Step {s.num} ({s.description}):\n{bounded(step_output(s), 800)}"
                              for s in state.executed_steps if s.status == StepStatus.SUCCESS) or "(none)"
        text = prompts.render(
            "worker_step", goal=bounded(state.goal, 2000), step_num=step.num, step_description=step.description,
            tool=step.tool_call.tool if step.tool_call else "none",
            args=bounded(str(step.tool_call.args if step.tool_call else {}), 500),
            earlier_outputs=earlier, tools=", ".join(self.tools))
        reply, _ = ask_json(self.worker, [{"role": "user", "content": text}], CommandReply,
                            stop_reason="command_generation_failed", max_tokens=120)
        return reply.command

    def _run(self, step: PlanStep) -> Optional[Tuple[str, str]]:
        """Run the step's command and judge it. For a failure on a missing path, its stderr gets
        ragix's hint first, and the unambiguous re-aimed (command, note) is returned, else None."""
        command = str(step.tool_call.args.get("command", "")) if step.tool_call else ""
        result: ToolResult = self.toolbox.run_command(command)
        first = command.split()[0] if command.split() else ""
        if first == "grep" and result.returncode == 1 and not (result.stderr or "").strip() and not result.refused:
            # grep's "no match" is an answer, not a failure.
            result.returncode = 0
            result.stdout = result.stdout or "(no matches)"
        fix = None
        if not result.ok and not result.refused:
            hint, fix = diagnose(command, result.stderr or "", self.root)
            if hint:  # first, so that it survives every truncation of the error on its way to a prompt
                result.stderr = f"{hint}\n{result.stderr or ''}"
        step.result = result
        step.status = StepStatus.SUCCESS if result.ok else StepStatus.FAILED
        return fix

    # -- REFLECT / VERIFY / RESPOND -----------------------------------------------

    def reflect(self, payload: Dict[str, Any]) -> Dict[str, Any]:
        attempts = "\n".join(f"- step {a['failed_step']}: {a['error'][:200]} → {a['diagnosis'][:300]}"
                             for a in payload.get("previous_attempts") or []) or "(none)"
        text = prompts.render(
            "reflect", goal=bounded(payload.get("goal"), 2000),
            failed_step_num=payload.get("failed_step_num"),
            failed_step_description=bounded(payload.get("failed_step_description"), 500),
            error=bounded(payload.get("error"), 1000), file_context=bounded(payload.get("file_context"), self.max_context_chars),
            experience_context=bounded(payload.get("experience_context"), self.max_context_chars) or "(none)",
            previous_attempts=attempts)
        reply, _ = ask_json(self.planner, [{"role": "user", "content": text}], ReflectReply,
                            stop_reason="reflection_failed", max_tokens=400)
        return reply.model_dump()

    def evidence(self, steps: List[PlanStep], goal: str = "") -> str:
        parts = []
        for s in steps:
            r = s.result
            cmd = (r.command if r and r.command else (s.tool_call.args.get("command") if s.tool_call else "")) or s.description
            status = "ok" if s.status == StepStatus.SUCCESS else f"FAILED (rc={r.returncode if r else '?'})"
            out = excerpt(step_output(s, limit=FULL_OUTPUT), goal, EVIDENCE_CHARS)
            if " wc" in f" {cmd}":
                out = _annotate_totals(out)
            note = s.tool_call.args.get("note") if s.tool_call else None
            parts.append(f"$ {cmd}   [{status}]" + (f"\n(ragix: {note})" if note else "") + f"\n{out or '(no output)'}")
        return "\n\n".join(parts) or "(no command was run)"

    def compose_for(self, goal: str, steps: List[PlanStep]) -> str:
        text = prompts.render("compose_answer", goal=bounded(goal, 2000), evidence=self.evidence(steps, goal))
        answer = ask_text(self.worker, [{"role": "user", "content": text}], max_tokens=300).text.strip()
        return ground_answer(goal, answer, steps, self.root)

    def compose(self, state: ReasoningState) -> str:
        return self.compose_for(state.goal, state.executed_steps)

    def verify(self, state: ReasoningState) -> Dict[str, Any]:
        steps = state.executed_steps
        if not any(s.status == StepStatus.SUCCESS and step_output(s).strip() for s in steps):
            # Nothing to judge from: fail on the evidence, without asking a model.
            return {"verdict": "fail", "issues": "no step produced output to support an answer",
                    "answer": state.final_answer or "No evidence was gathered.", "confidence": 0.1}
        current = state.final_answer or self.compose(state)
        # Only the steps that produced output are evidence: measured, a refused first attempt listed
        # here made the verifier fail answers that later steps had fully supported.
        succeeded = [s for s in steps if s.status == StepStatus.SUCCESS]
        text = prompts.render("verify", goal=bounded(state.goal, 2000), plan_and_steps=self.evidence(succeeded, state.goal),
                              current_answer=bounded(current, 3000))
        reply, _ = ask_json(self.verifier, [{"role": "user", "content": text}], VerifyReply,
                            stop_reason="verification_generation_failed", max_tokens=500)
        verdict = reply.model_dump()
        if verdict["verdict"] == "fail":
            issues = verdict["issues"].strip()
            if not issues:
                # A judge that names no issue has not found one: keep the answer, lower the confidence.
                verdict.update(verdict="pass", answer=current, confidence=min(verdict["confidence"], 0.5),
                               issues="(the verifier failed the answer without naming an issue; answer kept)")
            else:
                # The verifier's own rewrite of a doubted answer is no better evidence than the writer's:
                # keep the writer's answer and say what was doubted.
                verdict["answer"] = f"{current.rstrip()}\n\nVerification failed: {issues}"
        verdict["answer"] = ground_answer(state.goal, verdict["answer"], steps, self.root)
        return verdict
