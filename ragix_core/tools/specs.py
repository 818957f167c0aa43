"""Per-tool argument policy: which options exist, which take values, what positionals mean.

Each entry is an allowlist. Anything not listed is refused, so a GNU option we
did not think about cannot slip through. Long options must be written in full:
GNU getopt accepts unique abbreviations (``--fil=`` means ``--files0-from=``),
and exact matching is the only check that cannot be fooled by them.
"""

from __future__ import annotations

from typing import Dict

from ragix_core.tools.specs_base import ANY, CHAR, KEY, LIST, NUM, ToolSpec, Value
from ragix_core.tools.specs_base import choice_value as _choice
from ragix_core.tools.specs_base import pattern_value as _pattern
from ragix_core.tools.model_commands import MODEL_SPECS
from ragix_core.tools.specs_more import MORE_SPECS


def _grep_pattern_files(args, report, guard) -> None:
    """`grep -f FILE` reads its patterns from FILE: a file of the project, checked as any file grep reads
    (`grep -Fxvf A B`, the lines of B not in A, is how a shell compares two lists)."""
    for value in report.values.get("f", []) + report.values.get("file", []):
        if value != "-":
            guard.read(value, must_exist=True)

__all__ = ["ToolSpec", "SPECS", "Value"]

_FILES0 = {"files0-from": "--files0-from reads file names from a file and echoes them in errors (exfiltration)"}

_SPECS = [
    ToolSpec(
        "ls",
        short="aAbBcCdfFgGhiklmnNopqQrRsStuUvwxX1",
        short_value={"I": ANY, "T": NUM, "w": NUM},
        long=frozenset(
            "all almost-all escape ignore-backups directory classify file-type human-readable si inode "
            "numeric-uid-gid no-group literal hide-control-chars show-control-chars quote-name recursive "
            "reverse size group-directories-first full-time".split()
        ),
        long_value={
            "sort": _choice("none", "size", "time", "version", "extension", "width"),
            "time": _choice("atime", "access", "use", "ctime", "status", "birth", "creation", "mtime", "modification"),
            "format": _choice("across", "commas", "horizontal", "long", "single-column", "verbose", "vertical"),
            "quoting-style": _choice("literal", "locale", "shell", "shell-always", "shell-escape", "shell-escape-always", "c", "escape"),
            "indicator-style": _choice("none", "slash", "file-type", "classify"),
            "time-style": ANY,
            "ignore": ANY,
            "hide": ANY,
            "width": NUM,
            "tabsize": NUM,
        },
        denied={"L": "-L dereferences symlinks (may point outside the project)", "dereference": "follows symlinks", "D": "--dired"},
    ),
    ToolSpec(
        "find",  # its expression grammar is checked by findcheck; listed here for the registry
        positionals="find",
    ),
    ToolSpec(
        "grep",
        short="iyvclLnhHoqswxEFGPrbaITzZU",
        short_value={"e": ANY, "f": ANY, "m": NUM, "A": NUM, "B": NUM, "C": NUM},
        long=frozenset(
            "ignore-case no-ignore-case invert-match count files-with-matches files-without-match line-number "
            "no-filename with-filename only-matching quiet silent no-messages word-regexp line-regexp "
            "extended-regexp fixed-strings basic-regexp perl-regexp recursive byte-offset text null null-data "
            "initial-tab binary".split()
        ),
        long_value={
            "regexp": ANY,
            "file": ANY,  # the file is checked as a read (_grep_pattern_files)
            "max-count": NUM,
            "after-context": NUM,
            "before-context": NUM,
            "context": NUM,
            "include": ANY,
            "exclude": ANY,
            "exclude-dir": ANY,
            "binary-files": _choice("binary", "text", "without-match"),
            "color": _choice("never"),
            "colour": _choice("never"),
            "label": ANY,
        },
        positionals="pattern_paths",
        recursive=frozenset({"r", "recursive"}),
        pattern_options=frozenset({"e", "regexp", "f", "file"}),
        extra_check=_grep_pattern_files,
        denied={
            "R": "-R follows symlinks out of the project",
            "dereference-recursive": "follows symlinks out of the project",
            "d": "-d changes how directories and devices are read",
            "directories": "changes how directories are read",
            "D": "-D reads devices and FIFOs",
            "devices": "reads devices and FIFOs",
            "exclude-from": "reads a file named by the model",
        },
    ),
    ToolSpec(
        "head",
        short="qvz",
        short_value={"n": NUM, "c": NUM},
        long=frozenset({"quiet", "silent", "verbose", "zero-terminated"}),
        long_value={"lines": NUM, "bytes": NUM},
        numeric_shorthand=True,
    ),
    ToolSpec(
        "tail",
        short="qvz",
        short_value={"n": NUM, "c": NUM},
        long=frozenset({"quiet", "silent", "verbose", "zero-terminated"}),
        long_value={"lines": NUM, "bytes": NUM},
        numeric_shorthand=True,
        denied={
            "f": "-f follows the file forever",
            "F": "-F follows the file forever",
            "follow": "follows the file forever",
            "pid": "--pid waits for a process",
            "retry": "keeps retrying forever",
            "s": "only meaningful with -f",
            "sleep-interval": "only meaningful with -f",
        },
    ),
    ToolSpec(
        "wc",
        short="cmlLw",
        long=frozenset({"bytes", "chars", "lines", "max-line-length", "words"}),
        long_value={"total": _choice("auto", "always", "only", "never")},
        denied=_FILES0,
    ),
    ToolSpec("cat", short="AbeEnstTuv", long=frozenset("show-all number-nonblank number squeeze-blank show-ends show-tabs show-nonprinting".split())),
    ToolSpec("pwd", short="LP", positionals="none"),
    ToolSpec(
        "sort",
        short="bdfgiMhnRrVcCsuz",
        short_value={"k": KEY, "t": CHAR},
        long=frozenset(
            "ignore-leading-blanks dictionary-order ignore-case general-numeric-sort ignore-nonprinting month-sort "
            "human-numeric-sort numeric-sort random-sort reverse version-sort check stable unique zero-terminated".split()
        ),
        long_value={"key": KEY, "field-separator": CHAR, "sort": _choice("general-numeric", "human-numeric", "month", "numeric", "random", "version")},
        denied={
            **_FILES0,
            "o": "-o writes a file",
            "output": "writes a file",
            "T": "-T writes temporary files elsewhere",
            "temporary-directory": "writes temporary files elsewhere",
            "compress-program": "runs a program",
            "random-source": "reads a file named by the model",
        },
    ),
    ToolSpec(
        "uniq",
        short="cdDiuz",
        short_value={"f": NUM, "s": NUM, "w": NUM},
        long=frozenset({"count", "repeated", "ignore-case", "unique", "zero-terminated"}),
        long_value={"skip-fields": NUM, "skip-chars": NUM, "check-chars": NUM},
        max_positionals=1,  # a second positional is an OUTPUT file
    ),
    ToolSpec(
        "cut",
        short="nsz",
        short_value={"b": LIST, "c": LIST, "f": LIST, "d": CHAR},
        long=frozenset({"complement", "only-delimited", "zero-terminated"}),
        long_value={"bytes": LIST, "characters": LIST, "fields": LIST, "delimiter": CHAR, "output-delimiter": ANY},
    ),
    ToolSpec(
        "tr",
        short="cCdst",
        long=frozenset({"complement", "delete", "squeeze-repeats", "truncate-set1"}),
        positionals="free",
        max_positionals=2,
    ),
    ToolSpec(
        "stat",
        short="ft",
        short_value={"c": ANY},
        long=frozenset({"file-system", "terse"}),
        long_value={"format": ANY, "printf": ANY},
        denied={"L": "-L follows symlinks", "dereference": "follows symlinks"},
    ),
    ToolSpec(  # metadata only: sizes, never file contents
        "du",
        short="abchkmsxS0",
        short_value={"d": NUM},
        long=frozenset("all apparent-size bytes total human-readable si summarize one-file-system separate-dirs null".split()),
        long_value={"max-depth": NUM, "exclude": ANY, "threshold": NUM, "block-size": ANY},
        denied={**_FILES0, "L": "-L follows symlinks", "dereference": "follows symlinks", "H": "follows symlinks",
                "D": "follows symlinks", "X": "-X reads a file named by the model", "exclude-from": "reads a file named by the model"},
    ),
    # --- writers (dev / sovereign only) -------------------------------------
    ToolSpec("mkdir", short="pv", long=frozenset({"parents", "verbose"}), positionals="write", writes=True),
    ToolSpec("touch", short="acm", short_value={"d": ANY}, long=frozenset({"no-create"}), long_value={"date": ANY}, positionals="write", writes=True),
    ToolSpec("rm", short="rRfdv", long=frozenset({"recursive", "force", "dir", "verbose"}), positionals="write", writes=True,
             recursive=frozenset({"r", "R", "recursive"}), denied={"no-preserve-root": "never"}),
    ToolSpec("cp", short="rRnvpT", long=frozenset({"recursive", "no-clobber", "verbose", "no-target-directory"}), positionals="copy", writes=True,
             denied={"L": "-L follows symlinks", "dereference": "follows symlinks", "t": "use SOURCE... DEST", "target-directory": "use SOURCE... DEST"}),
    ToolSpec("mv", short="fnvT", long=frozenset({"force", "no-clobber", "verbose", "no-target-directory"}), positionals="move", writes=True,
             denied={"t": "use SOURCE... DEST", "target-directory": "use SOURCE... DEST"}),
]

# The core tools, then the everyday vocabulary (sed, awk, diff, tar, ...: tools/specs_more.py).
SPECS: Dict[str, ToolSpec] = {s.name: s for s in (*_SPECS, *MORE_SPECS, *MODEL_SPECS)}
