"""Layer 1: turn a command (string or argv) into validated pipeline stages.

Tool names are exact and resolved to absolute paths in fixed system
directories (never through $PATH, never a path given by the model). Each stage
is checked on its own by the tool's argument policy; ``xargs`` is not run as a
program but interpreted by the executor (see pipeline.py), so the items it
appends are validated as paths at run time too.
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Collection, List, Optional, TypeVar

from ragix_core.tools.argcheck import ArgReport, check_args
from ragix_core.tools.findcheck import check_find
from ragix_core.tools.globbing import expand_globs
from ragix_core.tools.lexer import Redirect, check_text, split_pipeline
from ragix_core.tools.paths import PathGuard, skip_kind, skip_notes
from ragix_core.tools.policy import MODEL_COMMANDS, TRUNCATING_FILTERS
from ragix_core.tools.recursion import grep_file_args, hide_state
from ragix_core.tools.refusal import Refusal
from ragix_core.tools.specs import NUM, SPECS
from ragix_core.tools.specs_more import GZIP_NAMES, GZIP_READS
from ragix_core.tools.tarcheck import check_tar

__all__ = ["Stage", "XargsPlan", "Validator", "resolve_tool", "SYSTEM_BIN_DIRS"]

SYSTEM_BIN_DIRS = ("/usr/bin", "/bin", "/usr/sbin", "/sbin")
F = TypeVar("F", bound=Callable[..., Any])
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,63}")
_AWK_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")  # an operand awk runs as `var=value`


def _refuse_on_error(fn: F) -> F:
    """Any unexpected exception inside validation means "refuse", never "run"."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except Refusal:
            raise
        except Exception as exc:
            raise Refusal(f"validation failed ({type(exc).__name__}: {exc}); refusing") from None

    return wrapper  # type: ignore[return-value]


def resolve_tool(name: str) -> str:
    """Absolute path of tool ``name`` in the fixed system directories, or Refusal."""
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise Refusal(f"tool name {name!r} is not a plain tool name (paths such as ./ls or /bin/ls are refused)")
    for d in SYSTEM_BIN_DIRS:
        candidate = os.path.join(d, name)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    raise Refusal(f"tool {name!r} is not installed in {', '.join(SYSTEM_BIN_DIRS)}")


@dataclass
class XargsPlan:
    tool: str
    fixed: List[str]  # the target's own arguments, already validated
    null: bool = False
    max_args: int = 1000
    no_run_if_empty: bool = False
    # ``-I R``: each item (a line, or a NUL-ended name with -0) replaces R in the fixed arguments, one run an item.
    replace: Optional[str] = None
    # Whether the stage was taken as a write (approval, the write mount): a run that would write when this is
    # False is refused (an item can make a reader write: `-I n sed -n …` with the item `i`).
    writes: bool = False
    # Items known before the run (a recursive grep turned into grep on the tree's safe files)
    # instead of items read from stdin; their batches combine exit codes the way grep does.
    items: Optional[List[str]] = None
    # A later pipeline stage reads this stage's lines as GNU prints them (anything but head/tail by lines), or
    # `> FILE` keeps them: a one-item grep batch then runs as written, without the -H that names its file for a reader.
    read_on: bool = False


# ragix's `tree` prints an outline for a reader, cut to a depth and a number of entries (tools/model_commands.py).
# Measured on the three sets at bd99fa4: every one of 25 uses was piped (`tree -d | wc -l`, `tree . | grep -v …`)
# and 5 of 17 runs that used it passed: the outline's lines are not the files.
_TREE_PIPED = ("`tree` prints an outline for reading (indented, cut to a depth and a number of entries, with "
               "\"N files below, not shown\" lines), so a pipe after it counts or filters the outline, not the files: "
               "run `tree DIR` alone to read it, or use find to list, filter or count files")


def _reads_lines_on(words: List[str]) -> bool:
    """A stage that reads what the stage before printed, not only which lines (``head``/``tail`` by lines)."""
    if not words or words[0] not in TRUNCATING_FILTERS:
        return True
    return any(w.startswith("-c") or w.startswith("--bytes") for w in words[1:])


def _chooses_names(args: List[str]) -> bool:
    """grep's arguments (before '--') already say whether to print file names."""
    for word in args:
        if word == "--":
            return False
        if word in ("--no-filename", "--with-filename") or (
                word.startswith("-") and not word.startswith("--") and ("h" in word or "H" in word)):
            return True
    return False


@dataclass
class Stage:
    tool: str
    argv: List[str]  # argv[0] is the absolute executable path
    writes: bool = False
    xargs: Optional[XargsPlan] = None
    words: List[str] = field(default_factory=list)  # as the model wrote them (globs expanded)
    notes: List[str] = field(default_factory=list)  # "[ragix] skipped ..." lines for stderr
    # `> file` / `>> file` on the last stage: (the target as written, append); ragix writes it
    redirect: Optional["tuple[str, bool]"] = None


def _short_and_long(words: List[str]) -> set:
    """The option letters and long names in ``words`` (values not told apart: an over-reading is safe where used)."""
    seen: set = set()
    for w in words:
        if w == "--":
            break
        if w.startswith("--"):
            seen.add(w[2:].partition("=")[0])
        elif w.startswith("-") and len(w) > 1:
            seen.update(w[1:])
    return seen


def _in_long_value(spec: Any, word: str, text: str) -> bool:
    """``text`` stands only in the value of a long option that takes one (`--regexp={}`): getopt reads the rest of
    the word as that value, so an item there cannot add an option."""
    name, eq, _ = word[2:].partition("=") if word.startswith("--") else ("", "", "")
    return bool(eq) and spec is not None and name in spec.long_value and text not in name


def _option_writes(spec: Any, words: List[str]) -> bool:
    """Whether ``words`` hold an option that makes the tool write (sed -i), read from the words alone."""
    return bool(_short_and_long(words) & set(spec.writes_when))


class Validator:
    def __init__(self, guard: PathGuard, tools: Collection[str], *, writes_allowed: bool, any_command: bool) -> None:
        self.guard = guard
        self.tools = set(tools)
        self.writes_allowed = writes_allowed
        self.any_command = any_command

    @_refuse_on_error
    def command(self, text: str) -> List[Stage]:
        out = []
        split = split_pipeline(text)
        redirect = None
        if len(split[-1]) >= 2 and isinstance(split[-1][-2], Redirect):
            mark, target = split[-1][-2], split[-1][-1]
            split[-1] = split[-1][:-2]
            redirect = (self.redirect_target(target), mark.append)
        for words in split[:-1]:
            if words and words[0] == "tree":
                raise Refusal(_TREE_PIPED)
        for i, words in enumerate(split):
            skipped: dict = {}
            expanded = expand_globs(words[0], words, self.guard.root, check=self._glob_match_ok, skipped=skipped)
            stage = self.stage(expanded, first=(i == 0))
            stage.notes = skip_notes(skipped) + stage.notes
            out.append(stage)
        out[-1].redirect = redirect
        for i, stage in enumerate(out):
            if stage.xargs is not None:  # `> FILE` keeps the lines for a later reader of the file, as printed
                stage.xargs.read_on = redirect is not None or any(_reads_lines_on(later.words) for later in out[i + 1:])
        return out

    def redirect_target(self, target: str) -> str:
        """Check the file of `> file`: write profiles only, a plain written path (not a directory)."""
        if not self.writes_allowed:
            raise Refusal("redirection '>' is not allowed in this read-only profile; ragix returns stdout and "
                          "stderr separately (drop 2>/dev/null, > file)")
        real = self.guard.write(target)
        if os.path.isdir(real):
            raise Refusal(f"'> {target}': it is a directory")
        if not os.path.isdir(os.path.dirname(real)):
            raise Refusal(f"'> {target}': its directory does not exist (create it with mkdir -p)")
        return target
    def _glob_match_ok(self, match: str) -> Optional[str]:
        """None when a glob match may be used; else the kind of path it is (it is skipped)."""
        try:
            self.guard.read(match)
        except Refusal as exc:
            return skip_kind(exc.reason)
        return None

    @_refuse_on_error
    def recheck(self, stage: Stage, index: int) -> Stage:
        """Validate a later pipeline stage again right before it starts: an earlier stage may
        have moved, created or linked the paths it names since the whole line was checked."""
        try:
            fresh = self.stage(list(stage.words), first=(index == 0))
        except Refusal as exc:
            raise Refusal(f"stage {index + 1} ({' '.join(stage.words)}) refused when it started, after the "
                          f"stage(s) before it ran: {exc.reason}") from None
        fresh.notes = [n for n in stage.notes if n not in fresh.notes] + fresh.notes
        fresh.redirect = stage.redirect
        if fresh.xargs is not None and stage.xargs is not None:
            fresh.xargs.read_on = stage.xargs.read_on
        return fresh

    @_refuse_on_error
    def stage(self, words: List[str], first: bool = True) -> Stage:
        if not isinstance(words, list) or not words or not all(isinstance(w, str) for w in words):
            raise Refusal("a command needs a tool name followed by string arguments")
        for w in words:
            check_text(w, "argument")
        name, args = words[0], words[1:]
        if name in GZIP_NAMES and "gzip" in self.tools:
            try:
                return self.stage(["gzip"] + GZIP_NAMES[name] + args, first)
            except Refusal as exc:  # said of the name the model wrote
                raise Refusal(f"{name} (gzip {' '.join(GZIP_NAMES[name])}): {exc.reason}") from None
        if name == "xargs":
            if first:
                raise Refusal("xargs needs input from a previous pipeline stage")
            return self._xargs(args, words)
        self._check_tool_name(name)
        path = name if name in MODEL_COMMANDS else resolve_tool(name)  # run by ragix itself: no executable
        report = self.report(name, args)
        if self.any_command:
            return Stage(tool=name, argv=[path] + list(args), writes=True, words=list(words))
        spec = SPECS[name]
        recursive = bool(report.seen & spec.recursive)
        skipped: dict = {}
        for _, scan in report.scans:
            for why, names in scan.skipped.items():
                skipped.setdefault(why, []).extend(names)
        if skipped and name != "grep":
            raise Refusal(f"{name}: " + "; ".join(n.removeprefix("[ragix] ") for n in skip_notes(skipped))
                          + " under the tree; name a narrower path")
        if name == "grep" and skipped:
            # Search the tree's safe files by name instead of refusing the whole search.
            files = [f for _, scan in report.scans for f in scan.files]
            fixed = grep_file_args(args, report.operands, report.seen)
            plan = XargsPlan(tool=name, fixed=fixed, items=files, no_run_if_empty=True)
            return Stage(tool=name, argv=[path] + fixed, writes=False, xargs=plan, words=list(words),
                         notes=skip_notes(skipped))
        if report.args is not None:
            args = report.args
        args = hide_state(name, list(args), self.guard.root, recursive)
        if name == "sed":
            args = ["--sandbox"] + args  # GNU sed then refuses its e (run), r/R (read) and w/W (write) commands
        return Stage(tool=name, argv=[path] + args, writes=report.writes, words=list(words))

    def _check_tool_name(self, name: str) -> None:
        if self.any_command:
            return
        if name not in self.tools:
            allowed = ", ".join(sorted(t for t in self.tools if t in SPECS)) or "none"
            raise Refusal(f"tool {name!r} is not allowed in this profile (allowed: {allowed})")

    def check_argv(self, name: str, args: List[str]) -> bool:
        """Validate the arguments of one tool; return whether it writes."""
        return self.report(name, args).writes

    def report(self, name: str, args: List[str]) -> ArgReport:
        """Validate the arguments of one tool; return what was learned (ArgReport)."""
        if self.any_command:
            return ArgReport(writes=True)  # sovereign: any argv; the OS layer confines it, so treat it as a writer
        spec = SPECS.get(name)
        if spec is None:
            raise Refusal(f"tool {name!r} has no argument policy")
        if spec.writes and not self.writes_allowed:
            raise Refusal(f"{name} writes files; this profile is read-only")
        if spec.positionals == "find":
            check_find(args, self.guard)
            return ArgReport(writes=False)
        if spec.positionals == "tar":
            report = ArgReport()
            report.args = check_tar(args, self.guard, self.writes_allowed, report)
            return report
        report = check_args(spec, args, self.guard)
        if report.writes and not self.writes_allowed:
            opts = "/".join(("-" if len(o) == 1 else "--") + o for o in sorted(report.seen & spec.writes_when))
            raise Refusal(f"{name} {opts + ' ' if opts else ''}writes files here; this profile is read-only")
        return report

    def _xargs(self, args: List[str], words: List[str]) -> Stage:
        plan = XargsPlan(tool="", fixed=[])
        i = 0
        while i < len(args) and args[i].startswith("-"):
            a = args[i]
            if a in ("-0", "--null"):
                plan.null = True
            elif a in ("-r", "--no-run-if-empty"):
                plan.no_run_if_empty = True
            elif a == "-n" or a == "--max-args":
                if i + 1 >= len(args):
                    raise Refusal(f"xargs: {a} needs a value")
                i += 1
                plan.max_args = self._max_args(args[i])
            elif a.startswith("--max-args="):
                plan.max_args = self._max_args(a.split("=", 1)[1])
            elif re.fullmatch(r"-n\d+", a):
                plan.max_args = self._max_args(a[2:])
            elif a == "-I" or (a.startswith("-I") and len(a) > 2):
                if a == "-I":
                    if i + 1 >= len(args):
                        raise Refusal("xargs: -I needs the text to replace (e.g. -I {})")
                    i += 1
                plan.replace = a[2:] or args[i]
                if not plan.replace:  # "" would stand between every two characters of every word
                    raise Refusal("xargs: -I needs a non-empty text to replace")
                check_text(plan.replace, "xargs -I text")
            else:
                raise Refusal(f"xargs: option {a} is not allowed (allowed: -0 --null -r --no-run-if-empty -n N "
                              "--max-args=N -I TEXT)")
            i += 1
        if i >= len(args):
            raise Refusal("xargs: name the tool to run (e.g. xargs wc -l)")
        tool, fixed = args[i], args[i + 1 :]
        if tool == "xargs":
            raise Refusal("xargs: nested xargs is not allowed")
        # zcat/gunzip stay as written in the plan: each run goes through ``stage``, which reads them as gzip
        real, real_fixed = ("gzip", GZIP_NAMES[tool] + fixed) if tool in GZIP_NAMES and "gzip" in self.tools \
            else (tool, fixed)
        self._check_tool_name(real)
        spec = SPECS.get(real)
        if spec is not None and spec.writes and not self.writes_allowed:
            raise Refusal(f"xargs: {tool} writes files; this profile is read-only")
        if real not in MODEL_COMMANDS:
            resolve_tool(real)
        # Each run's whole argv (items included) is checked before any runs, and again right before it runs
        # (``xargs_argv``), as the direct command naming those items would be. Here: whether the stage may write.
        if plan.replace is not None:
            quoted = next((w for w in fixed if w.startswith("-") and plan.replace in w
                           and not _in_long_value(spec, w, plan.replace)), None)
            if quoted is not None:  # an item would choose the options: `-I n sed -n …` with the item `i`
                raise Refusal(f"xargs -I: {plan.replace!r} stands inside the option {quoted!r}; an item may only "
                              "stand in an operand")
            plan.max_args, plan.no_run_if_empty = 1, True  # GNU: one item a run, and no run on empty input
            writes = bool(spec is not None and (spec.writes or _option_writes(spec, real_fixed)))
        else:
            # a reader's options are checked here too (a writer's cannot be alone: `chmod 755` names no file yet);
            # a program that writes by an option (`sed -i`) is a write: its runs need the write mount
            writes = bool(spec is not None and spec.writes) or self.check_argv(real, real_fixed)
        if real == "gzip" and not _short_and_long(real_fixed) & GZIP_READS:
            writes = True  # gzip FILE and gzip -d FILE replace FILE: its names come with the items
        plan.tool, plan.fixed = tool, list(fixed)
        plan.writes = writes and self.writes_allowed  # where the profile only reads, each run's check refuses a write
        return Stage(tool="xargs", argv=["xargs"] + list(args), xargs=plan, words=list(words), writes=plan.writes)

    @staticmethod
    def _max_args(value: str) -> int:
        NUM(value, "-n")
        n = int(value)
        if not 1 <= n <= 1000:
            raise Refusal("xargs: -n must be between 1 and 1000")
        return n

    @_refuse_on_error
    def xargs_items(self, plan: XargsPlan, items: List[str]) -> "tuple[List[str], List[str]]":
        """The items xargs may pass on, and "[ragix] skipped ..." notes for the others.

        A name from a pipe (find's output) that is a hard link, a FIFO or a link out of
        the root is left out and reported, like a glob match; when nothing is left, the
        command is refused rather than run with no operand (it would read stdin)."""
        spec = SPECS.get("gzip" if plan.tool in GZIP_NAMES else plan.tool)
        if self.any_command or spec is None or spec.positionals not in ("paths", "pattern_paths"):
            return items, []
        kept, skipped = [], {}
        for item in items:
            try:
                self.guard.read(item)
            except Refusal as exc:
                skipped.setdefault(skip_kind(exc.reason), []).append(item)
                continue
            kept.append(item)
        notes = skip_notes(skipped)
        if items and not kept:
            raise Refusal("xargs: every item was skipped (" + "; ".join(n.removeprefix("[ragix] ") for n in notes) + ")")
        return kept, notes

    @_refuse_on_error
    def xargs_argv(self, plan: XargsPlan, items: List[str]) -> List[str]:
        """Full argv for one xargs batch; the items are validated as paths (after '--').

        A grep batch of one file gets ``-H`` when its lines reach the reader: grep names files only
        when it has several, so a batch of one (a single item, the last batch, ``-n 1``, or a recursive
        grep over a tree of one file) printed bare lines where the others named theirs. Measured on the
        regression set: `find ... | head -n 1 | xargs grep -n '## '` printed README.md's headings without
        its name, and the answer put them under another file. Not when the command chose names itself
        (-h, -H and their long forms), and not when a later stage reads the lines (``plan.read_on``): the
        model wrote that stage for GNU's bare lines. Measured on AgentBench OS (aad8506):
        `find … -exec grep -oP IP {} \\; | sort | uniq | wc -l` counted "FILE:IP" pairs, 4 where 3 addresses."""
        fixed = list(plan.fixed)
        if plan.replace is not None:
            # GNU xargs -I: the item goes where the text stood, in any word (`{}/abc.txt`), one run an item
            if items and items[0].startswith("-") and any(w.startswith(plan.replace) for w in fixed):
                raise Refusal(f"xargs -I: the item {items[0]!r} would be read as an option")
            return self._run_argv(plan, [w.replace(plan.replace, items[0]) if items else w for w in fixed])
        if os.path.basename(plan.tool) == "grep" and len(items) == 1 and not plan.read_on \
                and not _chooses_names(fixed):
            fixed = ["-H"] + fixed
        if os.path.basename(plan.tool) == "awk":
            # awk reads every word after its program as a file or an assignment, "--" too: measured
            # on AgentBench OS (a0b5077), `find . -name '*.txt' | xargs awk '{...}'` failed in three
            # tasks with "awk: cannot open --". A name awk would take for an option or an
            # assignment is given as ./NAME, the same file.
            tail = [f"./{i}" if i.startswith("-") or _AWK_ASSIGNMENT.match(i) else i for i in items]
        else:
            tail = items if "--" in fixed else ["--"] + items
        return self._run_argv(plan, fixed + tail)

    def _run_argv(self, plan: XargsPlan, args: List[str]) -> List[str]:
        """One run's argv, checked and completed as the direct command would be (``stage``: sed's --sandbox,
        ragix's state hidden from a recursive search, tar's safe options, zcat read as gzip)."""
        run = self.stage([plan.tool] + args)
        if run.xargs is not None:  # a recursive grep over a tree with unsafe files: searched file by file directly
            raise Refusal(f"xargs: {plan.tool} over a tree with files ragix skips; name the files instead")
        if run.writes and not plan.writes:
            raise Refusal(f"xargs: `{' '.join(run.words)}` would write files, which the command as written does not")
        return run.argv
