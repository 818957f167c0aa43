"""EXECUTE's steps: a plan step's command run through the confined tool box, mended and judged.

A mixin of ``AgentFunctions`` (agent_fns.py), which holds what these methods read and set:
``toolbox``, ``root``, ``tools`` (the programs the planner was offered), ``worker`` (who writes a
step again from earlier outputs), ``failed`` and ``empty`` (for REFLECT's evidence) and the shared
``file_context``. What a step becomes before and after it runs: skipped (a repeat, a listing the
planner was shown, a refused or failed rework of evidence the plan has), re-run in a mended form
(tools/ and evidence/steps.py), or given back its search's lines when a reducer hid them.
"""

from __future__ import annotations

from typing import Optional

from ragix_core import prompts
from ragix_core.core.stop import StopRun
from ragix_core.core.text import bounded
from ragix_core.core.types import PlanStep, ReasoningState, StepStatus, ToolCall
from ragix_core.evidence.command_checks import check_command
from ragix_core.evidence.line_count_mends import line_count_mend
from ragix_core.evidence.pipe_mistakes import pipe_mistake
from ragix_core.evidence.reduction import (reversed_ranking, search_behind_reduction, table_behind_total,
                                           total_left_out, total_summed)
from ragix_core.evidence.steps import (SKIPPED_FAILED_REWORK, SKIPPED_REFUSAL, SKIPPED_REPEAT, SKIPPED_SHOWN,
                                      SKIPPED_WRITE, Fix, failed_rework_of, found_nothing, refused_after_evidence,
                                      refused_write, run_command_step, shown_command, step_output)
from ragix_core.llm.structured import ask_json

from .plans import command_of, command_text, lists_what_was_shown, programs, reads_stdin
from .remote_steps import is_remote, run_remote_step
from .replies import CommandReply

__all__ = ["PlanSteps"]


class PlanSteps:
    def execute_step(self, step: PlanStep, state: ReasoningState) -> PlanStep:
        call = step.tool_call
        if call is not None and is_remote(call.tool):  # an MCP tool: its args are its arguments, not a command
            step = run_remote_step(self.toolbox, step)
            if step.status == StepStatus.FAILED:
                self.failed.append(step)  # REFLECT's last failure: a server failure is one to reflect on
            return step
        if call is None or (call.tool == "none" and not self._starts_with_a_tool(call)):
            step.status = StepStatus.SKIPPED
            return step
        command = str(call.args.get("command") or "").strip()
        if not command:
            command = self._materialise(step, state)
        command = self._chain_filter(command, state)
        step.tool_call = ToolCall(call.tool, {**call.args, "command": command})
        if (state.plan is not None and state.plan.steps and step is not state.plan.steps[-1]
                and not step.description.endswith("(ragix)") and lists_what_was_shown(command, self.file_context())):
            # A listing the planner was shown, before the steps that use it: no new evidence, and
            # it counted against the goal's step budget. A plan's last step may be the answer.
            step.status = StepStatus.SKIPPED
            step.tool_call = ToolCall(call.tool, {**step.tool_call.args, "aside": SKIPPED_SHOWN})
            return step
        ran = self._ran_before(step, state)
        if ran is not None:
            # The tools are read-only: the same command gives the same output, which the evidence
            # already holds. Measured (R3 at 571bb74): plans repeated a search two to four times
            # (one ran `grep -rl 'from M import' .` four times, twice as `... | head -n 1` whose cut
            # list was then searched whole again; another twice), and each repeat
            # counted as a step against the goal's budget.
            step.status = StepStatus.SKIPPED
            step.tool_call = ToolCall(call.tool, {**step.tool_call.args, "aside": (
                f"{SKIPPED_REPEAT} {ran.num} (`{command_of(ran)}`): its output is above")})
            return step
        fixed = self._run(step, state.goal)
        if fixed is not None and fixed.kind == "substitution" and self._rewritten_from_outputs(step, state):
            fixed = None
        if fixed is not None:
            # The same fixes as on the one-command path (a close file name, a search over the project,
            # a substitution as xargs): the step is re-run at once instead of spending a reflection;
            # every run is in the trace. A mended command that found nothing gets the mend of an empty
            # search once more (-i, the parts of a name): measured on the regression set at 7fdd634,
            # `grep -rn 'maintainer' docs/*.md | cut -d: -f2 docs/maintainer.md`, made to read its
            # pipe, still searched the lowercase word the guide writes "Maintainer:".
            step.tool_call = ToolCall(call.tool, {**call.args, "command": fixed.command, fixed.key: fixed.note,
                                                  "planned": command})
            again = self._run(step, state.goal, final=True)
            if again is not None and step.status == StepStatus.SUCCESS and found_nothing(step):
                args = step.tool_call.args
                said = f"{args[again.key]}; then {again.note}" if args.get(again.key) else again.note
                before = (step.tool_call, step.result, step.status)
                step.tool_call = ToolCall(call.tool, {**args, "command": again.command, again.key: said})
                self._run(step, state.goal, final=True)
                if step.status != StepStatus.SUCCESS:  # the empty output stays the step's evidence
                    step.tool_call, step.result, step.status = before
                    self._not_failed(step)
        if refused_write(step):
            # A write the run may not make: the plan's reading steps still run on what exists.
            step.status = StepStatus.SKIPPED
            step.tool_call = ToolCall(step.tool_call.tool, {**step.tool_call.args, "aside": SKIPPED_WRITE})
            self._not_failed(step)
        elif state.plan is not None and refused_after_evidence(step, state.plan.steps, state.goal):
            # A refused rework of evidence the plan already has is no failure to reflect on.
            step.status = StepStatus.SKIPPED
            step.tool_call = ToolCall(step.tool_call.tool, {**step.tool_call.args, "aside": SKIPPED_REFUSAL})
        reworked = failed_rework_of(step, state.plan.steps) if state.plan is not None else None
        if reworked is not None:
            # Nor is a failed one: the output it reworks is above, and the trace keeps the failure.
            step.status = StepStatus.SKIPPED
            step.tool_call = ToolCall(step.tool_call.tool, {
                **step.tool_call.args, "aside": f"{SKIPPED_FAILED_REWORK} {reworked.num} (`{command_of(reworked)}`)"})
        return step

    def _not_failed(self, step: PlanStep) -> None:
        """``step`` is no failure for REFLECT after all (its last run stands, or it was set aside)."""
        self.failed = [s for s in self.failed if s is not step]

    def _starts_with_a_tool(self, call: ToolCall) -> bool:
        """A step labelled "none" (no tool) runs when its command starts with a tool the planner was
        offered: measured at temperature 0.3, `grep -rn 'get' src/PKG/FILE.py` labelled "none" was
        skipped. `cd /path/to/project`, or a bare word like `get`, stays aside."""
        first = programs(command_text(call.args))[:1]
        return bool(first) and first[0] in self.tools

    @staticmethod
    def _ran_before(step: PlanStep, state: ReasoningState) -> Optional[PlanStep]:
        """The step of this run that already ran ``step``'s command (whitespace-normalised), or the
        search that ``step`` would only cut down and then run again whole (``_unreduce``), and
        succeeded; None when there is none."""
        command = command_of(step)
        if not command:
            return None
        behind = search_behind_reduction(state.goal, command)
        same = {command, " ".join(behind[0].split())} if behind else {command}
        # A step re-run in another form (a fix) ran what it was planned as too: measured at b48c465,
        # a plan's second `grep -rl dataclass *.py` ran again after the first had been widened.
        return next((s for s in state.executed_steps if s is not step and s.status == StepStatus.SUCCESS
                     and (command_of(s) in same or (s.tool_call is not None and
                                                    command_text({"command": s.tool_call.args.get("planned")}) in same))),
                    None)

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

    def _rewritten_from_outputs(self, step: PlanStep, state: ReasoningState) -> bool:
        """A step written as `X $(Y)` after earlier steps printed something: the worker writes it
        again from those outputs, and the step keeps that run if it found something. Measured
        (every three-set run): step 1 found docs/FILE.md the largest, step 2
        was `grep '## ' $(find . -name '*.md' | head -n 1)`, whose xargs form read README.md — the
        substitution stood for "the file step 1 found", which only the outputs name."""
        if not any(s.status == StepStatus.SUCCESS and step_output(s).strip() for s in state.executed_steps):
            return False
        refused, before = step.tool_call, (step.tool_call, step.result, step.status)
        planned = str(refused.args.get("command") or "")
        step.tool_call = ToolCall(refused.tool, {k: v for k, v in refused.args.items() if k != "command"})
        try:
            command = self._materialise(step, state, note=f"the planner wrote `{planned}`; ragix runs no `$(...)`: "
                                                          "name the files the earlier outputs show")
        except StopRun as stop:
            if stop.reason != "command_generation_failed":
                raise  # the model is down or too slow: the run ends as for any call
            command = ""
        if not command or "$(" in command:
            step.tool_call, step.result, step.status = before
            return False
        step.tool_call = ToolCall(refused.tool, {**refused.args, "command": command, "aside": (
            f"the planner's `{planned}` was refused (no command substitution); the step was written again "
            f"from the earlier steps' outputs")})
        if self._run(step, state.goal) is None and step.status == StepStatus.SUCCESS and not found_nothing(step):
            return True
        step.tool_call, step.result, step.status = before
        return False

    def _materialise(self, step: PlanStep, state: ReasoningState, note: str = "") -> str:
        earlier = "\n\n".join(f"Step {s.num} ({s.description}):\n{bounded(step_output(s), 800)}"
                              for s in state.executed_steps if s.status == StepStatus.SUCCESS) or "(none)"
        text = prompts.render(
            "worker_step", goal=bounded(state.goal, 2000), step_num=step.num, step_description=step.description,
            tool=step.tool_call.tool if step.tool_call else "none",
            args=bounded(note or str(step.tool_call.args if step.tool_call else {}), 500),
            earlier_outputs=earlier, tools=", ".join(self.tools))
        reply, _ = ask_json(self.worker, [{"role": "user", "content": text}], CommandReply,
                            stop_reason="command_generation_failed", max_tokens=120)
        return reply.command

    def _run(self, step: PlanStep, goal: str = "", final: bool = False) -> Optional[Fix]:
        """Run the step and judge it; the fix ragix would run instead is returned. ``final``: the step
        is already a fix, and no second one will run, so a reducer's loss is undone now. Measured
        on the regression set at f04ae2c: `grep -rn 'def' WRONG.py | cut -d: -f3` was re-aimed at
        the file of the close name, printed blank lines, and the -i the empty output asked for was never run, nor
        the search without its cut."""
        fix = run_command_step(self.toolbox, step, self.root)
        if (fix is None or final) and goal and step.status == StepStatus.SUCCESS:
            self._unreduce(step, goal)
        if step.status == StepStatus.SUCCESS and step.result is not None:
            # with the files at hand: whether the command's operands are files decides some shapes
            step.result.doubt, step.result.mistake = check_command(goal, shown_command(step), self.root)
            if fix is None and not final and (step.result.doubt or step.result.mistake):
                mend = line_count_mend(goal, shown_command(step), self.root)  # names counted for lines
                fix = Fix(*mend) if mend else None
        if step.status == StepStatus.FAILED and not refused_write(step):
            # (a write refused for want of --yes is no failed command: a plan may hold it, and skips it)
            self.failed.append(step)
        elif found_nothing(step):
            self.empty.append(step)
        return fix

    def _without_total(self, step: PlanStep, command: str) -> bool:
        """A ranking of a wc table that kept only its "total" line (``total_left_out``), or a sum over a wc
        table (``total_summed``), is run with that line filtered out. True when that run worked, found
        something and (for a sum) printed something else; else the step stays as it was."""
        printed = step.result.stdout or ""
        fix = total_left_out(command, printed)
        summed = fix is None and step.status == StepStatus.SUCCESS
        fix = fix or (total_summed(command) if summed else None)
        if fix is None:
            return False
        call, before = step.tool_call, (step.tool_call, step.result, step.status)
        earlier = call.args.get("aside")
        step.tool_call = ToolCall(call.tool, {"planned": command, **call.args, "command": fix[0],
                                              "aside": f"{earlier}; then {fix[1]}" if earlier else fix[1]})
        run_command_step(self.toolbox, step, self.root)
        if step.status == StepStatus.SUCCESS and not found_nothing(step) and not (
                summed and (step.result.stdout or "") == printed):
            return True
        step.tool_call, step.result, step.status = before
        return False

    def _unreduce(self, step: PlanStep, goal: str) -> None:
        """A ranking cut at the end the goal does not ask for is cut at the other (``reversed_ranking``).
        A search whose reducer dropped what ``goal`` asks for or printed nothing at all, or a wc
        table cut down to its "total" line (evidence/reduction.py), is run again without the reducing
        stages, and the step keeps the fuller output; the writer is told what the reducer printed.
        Both runs are in the trace. If the shorter pipeline does not succeed, or finds nothing either,
        the step stays as it was. A step that wrote is never run again (`… >> FILE` would append twice).
        Nor is a pipeline whose shape misreads (evidence/pipe_mistakes.py): its search alone would win with a
        listing for the writer to add up by eye, where the mistake, said to the retry, names the fix (AgentBench
        OS test-73 at a6351b3: `grep -o NUM f1 f2 f3 | awk '{sum += $1} …'` read `f1:5` as 0; its grep alone
        won, the writer answered 100, one of nine numbers whose sum is 0, and the run ended `success`)."""
        if step.result is not None and step.result.writes:
            return
        call = step.tool_call
        command = str(call.args.get("command") or "") if call else ""
        if pipe_mistake(command, self.root):
            return
        flipped = reversed_ranking(goal, command) if call else None
        if flipped is not None:
            before = (step.tool_call, step.result, step.status)
            step.tool_call = ToolCall(call.tool, {"planned": command, **call.args, "command": flipped[0],
                                                  "aside": flipped[1]})
            run_command_step(self.toolbox, step, self.root)
            if step.status != StepStatus.SUCCESS or found_nothing(step):
                step.tool_call, step.result, step.status = before
            call = step.tool_call
            command = str(call.args.get("command") or "")
        if call is not None and step.result is not None and self._without_total(step, command):
            return
        behind = search_behind_reduction(goal, command) if call else None
        reduced = step_output(step, 300) if behind is not None and not found_nothing(step) else ""
        if not reduced and call is not None and found_nothing(step):
            # a reducer that printed nothing may have destroyed what the search found
            behind = search_behind_reduction(goal, command, printed_nothing=True)
            reduced = "nothing" if behind is not None else ""
        if not reduced and call is not None and step.result is not None:
            # head/tail that kept only wc's "total" line: the table before them is the evidence
            behind = table_behind_total(command, step.result.stdout or "")
            reduced = step_output(step, 300) if behind is not None else ""
        if not reduced:
            return
        search, tail = behind
        before = (step.tool_call, step.result, step.status)
        said = f"ran `{search}` without `| {tail}`, which printed: {reduced}"
        earlier = call.args.get("aside")  # a fix of this same step (-i, the other end of a ranking)
        step.tool_call = ToolCall(call.tool, {**call.args, "command": search,
                                              "aside": f"{earlier}; then {said}" if earlier else said})
        run_command_step(self.toolbox, step, self.root)
        if step.status != StepStatus.SUCCESS or found_nothing(step):
            step.tool_call, step.result, step.status = before
