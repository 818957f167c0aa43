"""The steps ragix adds itself to a finished plan: what a person looks at before answering.

Each runs once per run (``looked``), costs no model call and no reflection, and is said to be
ragix's in its description; the outputs become evidence like any step's.

- every search found nothing: read the small files the goal names or the searches were aimed
  at (measured: `grep 'quantity: 0' inventory.json` found nothing where the one-line JSON says
  `"quantity": 0`, and two reflections did not find the spelling); when there are none, search
  the goal's own words once;
- the goal names a file that is not there: list its directory, with a note the answer carries;
- a line-count goal names files no output counted: count them (`wc -l`);
- the goal asks about a file no step read: read it; about a file that does not exist, with one
  existing file of a close name no step read: read that one (the answer then says so);
- the goal asks about a function or class by name and no output shows where it is defined:
  search for its definitions (evidence/definitions.py), so that every one is in view (measured:
  "what does the execute function do?" answered from one of the two files defining it), and
  show the line under a decorator the goal names when a search printed only the decorator;
- the goal asks which modules import (or depend on) a module: search its import lines, and
  for indirect dependents those of each importer, level by level (evidence/imports.py).

``first`` gives the looks that answer a goal before any plan (``reasoning.first_plan: looks``):
the counts, reads, definitions, decorators and import lines above, asked for by the goal itself,
the functions of a call chain the goal asks to trace (evidence/calls.py), and the one command of a
question about the files of a type (evidence/file_questions.py).

The second to fourth are evidence/coverage.py's judgements.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Dict, List, Optional

from ragix_core.core.types import PlanStep, ReasoningState, StepStatus, ToolCall
from ragix_core.evidence.calls import TRACE_ASIDE, Trace, asks_call_trace, call_chain
from ragix_core.evidence.coverage import (asks_line_counts, directory_entries, goal_files_to_count, goal_files_to_read,
                                          goal_stand_ins_to_read, missing_goal_files)
from ragix_core.evidence.definitions import asked_names, asks_where_defined, decorators_asked, definition_sites
from ragix_core.evidence.file_questions import file_question, without_count_tail
from ragix_core.evidence.imports import asked_module, import_search, importers, module_of
from ragix_core.evidence.path_hints import goal_files, project_files, small_text_files
from ragix_core.evidence.recovery import goal_words_search

from .absence import all_empty
from .classify_rules import several_asks
from .plans import command_of, operand_words

__all__ = ["Looks", "LOOK_BYTES", "MAX_LOOKS"]

LOOK_BYTES = 4096  # a file is read by a look only up to this size
MAX_LOOKS = 2
MAX_IMPORT_SEARCHES = 4  # import searches (levels) per run: a dependency chain deeper than this is cut
MAX_IMPORTS_A_SEARCH = 12  # modules one search looks for


def _step(num: int, description: str, command: str, **args: str) -> PlanStep:
    return PlanStep(num=num, description=f"{description} (ragix)", tool_call=ToolCall("shell", {"command": command, **args}))


def _outputs(steps: List[PlanStep]) -> List[str]:
    """The successful steps' whole outputs: read for names and import lines, so not cut to a summary's size."""
    return [s.result.stdout or "" for s in steps if s.status == StepStatus.SUCCESS and s.result is not None]


class Looks:
    def __init__(self, root: Path):
        self.root = root
        self.looked: set = set()  # what was read, listed, counted or searched already ("ls:DIR", "def:NAME", FILE)
        self.missing_listed = False  # a file the goal names is shown not to exist: an empty search for it agrees
        self.import_searches = 0
        self._python: Optional[bool] = None
        self._would: Dict[str, bool] = {}  # would_answer per goal: the label and the try-first route both ask
        self._traces: Dict[str, Optional[Trace]] = {}  # call_chain per goal: would_answer, then PLAN's first looks

    def at_plan_end(self, state: ReasoningState) -> List[PlanStep]:
        if state.plan is None:
            return []
        return self.after(state.goal, state.executed_steps, len(state.plan.steps) + 1)

    def after(self, goal: str, steps: List[PlanStep], first: int) -> List[PlanStep]:
        """The next looks after ``steps`` (a finished plan's, or the one-command answer's evidence),
        numbered from ``first``; [] when there is nothing left to look at."""
        missing = [(named, d) for named, d in missing_goal_files(goal, steps, self.root)
                   if f"ls:{d}" not in self.looked][:MAX_LOOKS]
        if missing:
            self.looked.update(f"ls:{d}" for _, d in missing)
            self.missing_listed = True
            return [_step(first + i, f"list {d}: the goal names {named}, which is not there", f"ls {shlex.quote(d)}",
                          note=self._missing_note(named, d))
                    for i, (named, d) in enumerate(missing)]
        empty = all_empty(steps)
        reads = self._read_after_empty(goal, empty, first) if empty else []
        if reads:
            return reads
        counts_and_reads = self._counts_and_reads(goal, steps, first)
        if counts_and_reads:
            return counts_and_reads
        stand_ins = self._stand_ins(goal, steps, first)
        if stand_ins:
            return stand_ins
        code = self.definitions(goal, steps, first) or self.imports(goal, steps, first)
        # The goal's loose words last: exact searches first (measured: a loose `storage` search printed
        # the docstrings of storage.py and __init__.py, and the writer named them as importers).
        return code or (self._goal_words(goal, first) if empty else [])

    def first(self, goal: str) -> List[PlanStep]:
        """The looks that answer ``goal`` before any plan, numbered from 1: the line counts of the files
        it names, the files it asks about, where the names it asks about are defined (when it asks
        where or how many, not what they do), what a decorator it names decorates, and the import
        lines of a module it asks the importers of. A goal naming a file that is not there gets the
        file standing in for it (the one of a close name, or the only one of its type in its
        directory), else [] (a listing of its directory is no answer); [] when none applies: the
        model plans then."""
        if missing_goal_files(goal, [], self.root):
            # A listing of the missing file's directory is no answer; the one file standing in for it is.
            return self._stand_ins(goal, [], 1)
        return (self._counts_and_reads(goal, [], 1) or self.calls(goal)
                or self.definitions(goal, [], 1, names=asks_where_defined(goal)) or self.imports(goal, [], 1)
                or self._file_question(goal))

    def would_answer(self, goal: str) -> bool:
        """``first(goal)`` would give steps; nothing is marked as looked at (the try-first route asks
        before PLAN does). Asked once a goal per run: each asking walks the project's files."""
        if goal not in self._would:
            looked, searches = set(self.looked), self.import_searches
            try:
                self._would[goal] = bool(self.first(goal))
            finally:
                self.looked, self.import_searches = looked, searches
        return self._would[goal]

    def _counts_and_reads(self, goal: str, steps: List[PlanStep], first: int) -> List[PlanStep]:
        """Count the files a line-count goal names that no output counted; else read the files the
        goal asks about that no step read."""
        to_count = goal_files_to_count(goal, steps, self.root)
        key = "wc:" + " ".join(to_count)
        if to_count and key not in self.looked:
            self.looked.add(key)
            return [_step(first, "count the files the goal names", "wc -l " + " ".join(map(shlex.quote, to_count)))]
        to_read = [f for f in goal_files_to_read(goal, steps, self.root, LOOK_BYTES) if f not in self.looked][:MAX_LOOKS]
        self.looked.update(to_read)
        return [_step(first + i, f"read {f}: the goal asks about it and no step read it", f"cat {shlex.quote(f)}")
                for i, f in enumerate(to_read)]

    def calls(self, goal: str) -> List[PlanStep]:
        """The call chain the goal asks to trace (evidence/calls.py): a search for each name it starts
        from, with the chain in words as its aside, then each function's lines; once a run."""
        if "calls:" in self.looked or not asks_call_trace(goal) or not self._has_python():
            return []
        self.looked.add("calls:")
        if goal not in self._traces:  # one parse of the project's Python source a goal
            self._traces[goal] = call_chain(goal, self.root)
        trace = self._traces[goal]
        if trace is None:
            return []
        searches = [(f"search {t}: where the call chain the goal asks about starts",
                     f"grep -rnw --include='*.py' {shlex.quote(t)} .") for t in trace.tokens[:MAX_LOOKS]]
        steps = [_step(i, description, command, aside=TRACE_ASIDE + trace.summary())
                 for i, (description, command) in enumerate(searches, 1)]
        return steps + [_step(len(steps) + i, f"show {f.name}, a function of that call chain",
                              f"sed -n '{f.start},{f.end}p' {shlex.quote(f.path)}", aside=f.why)
                        for i, f in enumerate(trace.shown, 1)]

    def _file_question(self, goal: str) -> List[PlanStep]:
        """The one command of a question about the files of a type (evidence/file_questions.py), when
        the goal asks nothing else: a second ask needs a plan (measured, largest-md-headings: the
        ranking alone answers "the file with the most lines", not its headings)."""
        found = file_question(goal)
        if found is None or several_asks(without_count_tail(goal)) or "question:" in self.looked:
            return []
        self.looked.add("question:")
        description, command = found
        return [_step(1, f"{description}: the goal asks for it", command)]

    def _read_after_empty(self, goal: str, empty: List[PlanStep], first: int) -> List[PlanStep]:
        """Read the small files ``goal`` names or the ``empty`` searches were aimed at, once each."""
        operands = [word for s in empty for word in operand_words(command_of(s))]
        files = [f for f in small_text_files(goal_files(goal) + operands, self.root, max_bytes=LOOK_BYTES)
                 if f not in self.looked][:MAX_LOOKS]
        self.looked.update(files)
        return [_step(first + i, f"read {f}: every search found nothing", f"cat {shlex.quote(f)}")
                for i, f in enumerate(files)]

    def _stand_ins(self, goal: str, steps: List[PlanStep], first: int) -> List[PlanStep]:
        """Read the file standing in for each missing file the goal asks about (the one of a close
        name, or the only one of its type in its directory), with a note the answer carries."""
        stand_ins = [(n, c, why) for n, c, why in goal_stand_ins_to_read(goal, steps, self.root, LOOK_BYTES)
                     if c not in self.looked][:MAX_LOOKS]
        self.looked.update(c for _, c, _ in stand_ins)
        # A line count is counted, not read: a small model miscounts the lines of a file it is shown.
        count = asks_line_counts(goal)
        return [_step(first + i, f"{'count' if count else 'read'} {c}: the goal asks about {n}, which does not "
                                 f"exist; {why}", f"{'wc -l' if count else 'cat'} {shlex.quote(c)}",
                      note=f"{n} does not exist; this answer is from {c} ({why})")
                for i, (n, c, why) in enumerate(stand_ins)]

    def _goal_words(self, goal: str, first: int) -> List[PlanStep]:
        search = goal_words_search(goal)
        if search is None or "words:" in self.looked:
            return []
        self.looked.add("words:")
        return [_step(first, "search the goal's own words: every search found nothing and no file was named", search)]

    def _missing_note(self, named: str, directory: str) -> str:
        """What the answer says about a missing file: measured (missing-test-api at 3fe9ab5), the
        writer said "tests/test_api.py does not exist" and never named the file that is there."""
        entries = directory_entries(self.root, directory)
        if entries:
            return f"{named} does not exist; {directory} holds {', '.join(entries)}"
        return f"{named} does not exist; listed {directory} instead"

    def _has_python(self) -> bool:
        """The project has Python files (the code looks search Python's forms); walked once a run."""
        if self._python is None:
            self._python = any(f.endswith(".py") for f in project_files(self.root))
        return self._python

    def definitions(self, goal: str, steps: List[PlanStep], first: int, *, names: bool = True) -> List[PlanStep]:
        """Search the project for the definitions of the names ``goal`` asks about, unless a search
        already printed one (``names`` False: not these); and for what the decorators it asks about
        decorate, when a search printed a decorator's line without the one under it."""
        outputs = [("", out) for out in _outputs(steps)]
        # A definition printed by a file read (`cat cli.py`) does not show the other files defining the
        # name; one printed by a search with its path (`path:N:def ...`) does, as far as it searched.
        asked = [n for n in asked_names(goal) if f"def:{n}" not in self.looked
                 and not definition_sites(n, outputs)][:MAX_LOOKS] if names else []
        decorators = [d for d in decorators_asked(goal, [out for _, out in outputs])
                      if f"@:{d}" not in self.looked][:MAX_LOOKS]
        if not (asked or decorators) or not self._has_python():
            return []
        self.looked.update([f"def:{n}" for n in asked] + [f"@:{d}" for d in decorators])
        searches = [(f"find where {n} is defined: the goal asks about it",
                     f"grep -rnwE '(def|class) +{n}' --include='*.py' .") for n in asked]
        searches += [(f"show what @{d} decorates, the line under each @{d}: the goal asks about it",
                      f"grep -rn -A1 '@{d}' --include='*.py' .") for d in decorators]
        return [_step(first + i, description, command) for i, (description, command) in enumerate(searches)]

    def imports(self, goal: str, steps: List[PlanStep], first: int) -> List[PlanStep]:
        """Search the import lines of the module ``goal`` asks the importers of, and, for indirect
        importers, of the importers found, one search a level (each call sees the last level's output)."""
        asked = asked_module(goal)
        if asked is None or self.import_searches >= MAX_IMPORT_SEARCHES or not self._has_python():
            return []
        module, transitive = asked
        found = importers(module, _outputs(steps), transitive)
        wanted = [module] + ([module_of(f) for f in found] if transitive else [])
        pending = [m for m in dict.fromkeys(wanted) if f"imp:{m}" not in self.looked][:MAX_IMPORTS_A_SEARCH]
        if not pending:
            return []
        self.looked.update(f"imp:{m}" for m in pending)
        self.import_searches += 1
        return [_step(first, f"find the modules importing {', '.join(pending)}", import_search(pending))]
