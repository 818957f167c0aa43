"""Flag policies for the everyday tools of issue 11 item 6 (specs.py holds the first set).

Same rules as specs.py: an allowlist per tool, long options in full, a reason for
each refused option that matters. Tools that run programs from their input have
their own checks: sed always runs with --sandbox (GNU sed then rejects its e, r
and w commands), awk's program goes through awkcheck.
"""

from __future__ import annotations

import os
import re
from typing import Any, List

from ragix_core.tools.awkcheck import check_awk
from ragix_core.tools.refusal import Refusal
from ragix_core.tools.specs_base import ANY, CHAR, NUM, ToolSpec
from ragix_core.tools.specs_base import choice_value as _choice
from ragix_core.tools.specs_base import pattern_value as _pattern

__all__ = ["MORE_SPECS"]

_FILES0 = {"files0-from": "reads file names from a file and echoes them in errors (exfiltration)"}
_ASSIGN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_MODE = re.compile(r"(?:[0-7]{1,4}|[ugoa]*[-+=][rwxXt]*(?:[-+=][rwxXt]*)*(?:,[ugoa]*[-+=][rwxXt]*(?:[-+=][rwxXt]*)*)*)")


def _date_operand(args: List[str], report: Any, guard: Any) -> None:
    # date MMDDhhmm... sets the clock; only +FORMAT operands are read-only
    for a in args:
        if not a.startswith("-") and not a.startswith("+"):
            raise Refusal(f"date: operand {a!r} would set the clock; only +FORMAT is allowed")


def _awk(args: List[str], report: Any, guard: Any) -> None:
    program = next((a for a in args if not a.startswith("-") or a == "-"), None)
    values = report.values.get("v", []) + report.values.get("assign", [])
    for v in values:
        if not _ASSIGN.match(v) or v.split("=", 1)[0] in ("ARGV", "ARGC", "ENVIRON", "PROCINFO"):
            raise Refusal(f"awk: -v expects name=value (not ARGV/ARGC/ENVIRON), got {v!r}")
    if program is None:
        raise Refusal("awk: missing program")
    check_awk(program)
    skipped_program = False
    for a in args:
        if a.startswith("-") and a != "-":
            continue
        if not skipped_program:
            skipped_program = True
            continue
        if _ASSIGN.match(a):
            raise Refusal(f"awk: operand {a!r} is an assignment; use -v {a}")


def _chmod_mode(args: List[str], report: Any, guard: Any) -> None:
    mode = next((a for a in args if not a.startswith("-")), None)
    if mode is None or not _MODE.fullmatch(mode):
        raise Refusal(f"chmod: mode {mode!r} is not allowed (octal without setuid/setgid, or u+x style; no s)")
    if mode.isdigit() and len(mode) == 4 and mode[0] in "4567":
        raise Refusal("chmod: setuid/setgid bits are not allowed")


def _needs_s(args: List[str], report: Any, guard: Any) -> None:
    if not report.seen & {"s", "symbolic"}:
        raise Refusal("ln: only symbolic links (ln -s TARGET LINK); a hard link would make a multiply-linked file")


GZIP_READS = {"c", "stdout", "to-stdout", "l", "list", "t", "test"}  # gzip writes no file with these
# zcat and gunzip are gzip under other names (on Debian, scripts that run it): they run as gzip, under its policy.
# Measured at 4018844 (NL2Bash fs_1-131, lines of the .gz files after decompression): 6 draws refused for gunzip.
GZIP_NAMES = {"zcat": ["-d", "-c"], "gunzip": ["-d"]}


def _gzip(args: List[str], report: Any, guard: Any) -> None:
    """gzip FILE replaces FILE by FILE.gz (gzip -d the reverse): both names are written,
    unless the output goes to stdout (-c) or nothing is written (-l, -t). Each file must exist: given a name
    that does not, gzip -d tries NAME.gz, NAME.z, … itself, names no check here saw."""
    operands = report.positionals
    for p in operands:
        if p != "-":
            guard.read(p, must_exist=True)
    if report.seen & GZIP_READS or not operands or operands == ["-"]:
        return
    report.writes = True
    decompress = bool(report.seen & {"d", "decompress", "uncompress"})
    for p in operands:
        guard.write(p)
        if decompress:
            out = p[:-4] + ".tar" if p.endswith(".tgz") else p[:-3] if p.endswith(".gz") else None
            if out is None:
                raise Refusal(f"gzip -d: {p!r} does not end in .gz or .tgz")
        else:
            out = p + ".gz"
        guard.write(out)


def _diff_files(args: List[str], report: Any, guard: Any) -> None:
    """diff of two directories reads each file of both without a check of its own: a link in either that points
    out of the project (cp -r or mv can carry one there) would be read through (found by review, 2026-12-01)."""
    for p in report.positionals:
        if p != "-" and os.path.isdir(guard.read(p)):
            raise Refusal(f"diff: {p!r} is a directory; compare two files (find or ls lists what each holds)")


MORE_SPECS = [
    ToolSpec("diff", short="qsuciwbBEZtTaNpy", short_value={"U": NUM, "C": NUM, "W": NUM},
             long=frozenset("brief report-identical-files unified ignore-case ignore-all-space ignore-space-change "
                            "ignore-blank-lines side-by-side new-file text expand-tabs initial-tab show-c-function "
                            "minimal ignore-tab-expansion ignore-trailing-space strip-trailing-cr".split()),
             long_value={"color": _choice("never"), "label": ANY, "width": NUM},
             max_positionals=2, extra_check=_diff_files,
             denied={"r": "recursive diff follows symlinks out of the project; compare named files",
                     "recursive": "recursive diff follows symlinks out of the project",
                     "x": "use named files", "X": "-X reads a file named by the model",
                     "exclude-from": "reads a file named by the model", "from-file": "name both files",
                     "to-file": "name both files", "S": "recursive only", "starting-file": "recursive only"}),
    ToolSpec("comm", short="123z", long=frozenset({"check-order", "nocheck-order", "zero-terminated", "total"}),
             long_value={"output-delimiter": ANY}, max_positionals=2),
    ToolSpec("paste", short="sz", short_value={"d": ANY}, long=frozenset({"serial", "zero-terminated"}),
             long_value={"delimiters": ANY}),
    ToolSpec("join", short="iz", short_value={"1": NUM, "2": NUM, "j": NUM, "t": CHAR, "a": _choice("1", "2"),
                                              "v": _choice("1", "2"), "e": ANY, "o": ANY},
             long=frozenset({"ignore-case", "check-order", "nocheck-order", "header", "zero-terminated"}),
             max_positionals=2),
    ToolSpec("nl", short="p", short_value={"b": ANY, "n": _choice("ln", "rn", "rz"), "s": ANY, "v": NUM, "w": NUM,
                                           "i": NUM, "l": NUM, "d": ANY, "h": ANY, "f": ANY},
             long=frozenset({"no-renumber"}),
             long_value={"body-numbering": ANY, "number-format": _choice("ln", "rn", "rz"), "number-separator": ANY,
                         "starting-line-number": NUM, "number-width": NUM, "line-increment": NUM}),
    ToolSpec("rev"),
    ToolSpec("basename", short="az", short_value={"s": ANY}, long=frozenset({"multiple", "zero"}),
             long_value={"suffix": ANY}, positionals="free"),
    ToolSpec("dirname", short="z", long=frozenset({"zero"}), positionals="free"),
    ToolSpec("realpath", short="emsqzLP", long=frozenset({"canonicalize-existing", "canonicalize-missing", "strip",
                                                          "no-symlinks", "quiet", "zero", "logical", "physical"}),
             denied={"relative-to": "name paths inside the project", "relative-base": "name paths inside the project"}),
    ToolSpec("date", short="uR", short_value={"d": ANY}, long=frozenset({"utc", "universal", "rfc-email", "iso-8601"}),
             long_value={"date": ANY, "rfc-3339": _choice("date", "seconds", "ns")}, positionals="free",
             max_positionals=1, extra_check=_date_operand,
             denied={"s": "sets the clock", "set": "sets the clock", "f": "-f reads a file named by the model",
                     "file": "reads a file named by the model", "r": "use stat for a file's time",
                     "reference": "use stat for a file's time"}),
    # Arithmetic the model reaches for in a pipe (`... | bc`, `expr 3 + 4`, `seq 1 10`): none opens a file it is not
    # given or runs another program (GNU bc has no shell escape; dc, which has one, is not offered).
    ToolSpec("bc", short="lqsw", long=frozenset({"mathlib", "quiet", "standard", "warn"})),
    ToolSpec("expr", positionals="free"),
    ToolSpec("seq", short="w", short_value={"s": ANY, "f": ANY}, long=frozenset({"equal-width"}),
             long_value={"separator": ANY, "format": ANY}, positionals="free", max_positionals=3),
    ToolSpec("echo", short="neE", positionals="free"),
    ToolSpec("printf", positionals="free"),
    ToolSpec("md5sum", short="btz", long=frozenset({"binary", "text", "tag", "zero"}),
             denied={"c": "--check opens the files a list names (unchecked paths)", "check": "opens the files a list names"}),
    ToolSpec("sha256sum", short="btz", long=frozenset({"binary", "text", "tag", "zero"}),
             denied={"c": "--check opens the files a list names (unchecked paths)", "check": "opens the files a list names"}),
    ToolSpec("file", short="bhiknNpr0E", long=frozenset("brief mime mime-type mime-encoding no-dereference keep-going "
                                                        "no-pad raw print0 extension apple".split()),
             denied={"L": "-L follows symlinks out of the project", "dereference": "follows symlinks",
                     "f": "-f reads file names from a file", "files-from": "reads file names from a file",
                     "m": "-m loads a magic file named by the model", "magic-file": "loads a magic file",
                     "C": "-C writes a compiled magic file", "compile": "writes a file",
                     "s": "-s reads block devices", "special-files": "reads devices",
                     "z": "-z runs decompressors (lz4, zstd)", "uncompress": "runs decompressors"}),
    ToolSpec("sed", short="nEsurzi", short_value={"e": ANY, "l": NUM},
             long=frozenset({"quiet", "silent", "regexp-extended", "separate", "unbuffered", "null-data", "posix",
                             "debug", "in-place"}),
             long_value={"expression": ANY, "line-length": NUM},
             positionals="pattern_paths", pattern_options=frozenset({"e", "expression"}),
             writes_when=frozenset({"i", "in-place"}), write_operands=True,
             denied={"f": "-f reads the script from a file", "file": "reads the script from a file",
                     "follow-symlinks": "edits the file a symlink points to",
                     "sandbox": "ragix adds --sandbox itself"}),
    ToolSpec("awk", short_value={"F": ANY, "v": ANY}, long_value={"field-separator": ANY, "assign": ANY},
             positionals="pattern_paths", extra_check=_awk,
             denied={"f": "-f reads the program from a file", "file": "reads the program from a file",
                     "E": "-E reads the program from a file", "W": "-W options (mawk) change what awk may run",
                     "l": "loads an extension", "load": "loads an extension", "i": "includes a file",
                     "include": "includes a file"}),
    ToolSpec("gzip", short="cdfklnqtv123456789",
             long=frozenset("stdout to-stdout decompress uncompress force keep list no-name quiet test verbose "
                            "fast best".split()),
             extra_check=_gzip,
             denied={"r": "recursive: name the files", "recursive": "name the files", "S": "name the suffix .gz",
                     "suffix": "name the suffix .gz",
                     "N": "-N restores the name stored in the archive, which no check sees",
                     "name": "restores the name stored in the archive, which no check sees"}),
    ToolSpec("tar", positionals="tar"),  # its command line is checked by tarcheck
    # --- writers (dev / sovereign only)
    ToolSpec("tee", short="ai", long=frozenset({"append", "ignore-interrupts"}), positionals="write", writes=True),
    ToolSpec("ln", short="sfnvTr", long=frozenset({"symbolic", "force", "no-dereference", "verbose",
                                                   "no-target-directory", "relative"}),
             positionals="link", writes=True, extra_check=_needs_s,
             denied={"L": "hard links only", "P": "hard links only", "logical": "hard links only",
                     "physical": "hard links only", "t": "use TARGET LINK", "target-directory": "use TARGET LINK",
                     "b": "backups", "backup": "backups", "S": "backups", "suffix": "backups"}),
    ToolSpec("chmod", short="Rvcf", long=frozenset({"recursive", "verbose", "changes", "silent", "quiet"}),
             positionals="mode_write", writes=True, recursive=frozenset({"R", "recursive"}), extra_check=_chmod_mode,
             denied={"reference": "name the mode", "no-preserve-root": "never", "preserve-root": "always on"}),
]
