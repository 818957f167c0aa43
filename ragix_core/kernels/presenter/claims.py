"""Checking a model's prose against the numbers and file names the audit kernels produced.

Presenter tiers T1-T3 let a model write sentences about kernel output; this module is what keeps them
honest. ``check_prose(text, facts)`` splits the text into sentences and keeps a sentence only when every
number and every file or directory name in it is one the kernels produced (citations.py says how a
number or a path checks) and each number goes with a path the kernels showed it with (binding.py). A
dropped sentence is returned with what it cited that no kernel produced, or gave to the wrong path, so
the report can count it. Deterministic: no model, no clock.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import List, Tuple

from ragix_core.kernels.presenter.binding import misattributed
from ragix_core.kernels.presenter.citations import (Facts, cited_directory_names, cited_numbers, cited_paths,
                                                    facts_from, number_checks, path_checks)

__all__ = ["Facts", "Dropped", "CheckedProse", "check_prose", "cited_numbers", "cited_paths", "cited_directory_names",
           "facts_from", "split_sentences", "without_cut_tail"]

_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[`*_]*[A-Z0-9])")
_LIST_MARK = re.compile(r"^\s*(?:[-*+•]|\d{1,2}[.)])\s+")


@dataclass
class Dropped:
    sentence: str
    numbers: List[str] = field(default_factory=list)  # as written, unsupported
    paths: List[str] = field(default_factory=list)  # cited, no kernel produced them
    misattributed: List[str] = field(default_factory=list)  # "N (PATH)": produced, but not shown with PATH

    def to_dict(self) -> dict:
        return {"sentence": self.sentence, "unsupported_numbers": self.numbers, "unknown_paths": self.paths,
                "misattributed_numbers": self.misattributed}


@dataclass
class CheckedProse:
    kept: List[str]
    dropped: List[Dropped]
    numbers_checked: int  # numbers cited in the kept and dropped sentences together
    paths_checked: int

    @property
    def text(self) -> str:
        return " ".join(self.kept)

    def to_dict(self) -> dict:
        return {"kept": self.kept, "dropped": [d.to_dict() for d in self.dropped],
                "numbers_checked": self.numbers_checked, "paths_checked": self.paths_checked}


def split_sentences(text: str) -> List[str]:
    """Sentences of ``text``: each line a unit (list markers removed), each line cut after . ! ?"""
    out: List[str] = []
    for line in text.splitlines():
        line = _LIST_MARK.sub("", line).strip()
        if line:
            out.extend(s.strip() for s in _SENTENCE_END.split(line) if s.strip())
    return out


_FINISHED = re.compile(r"[.!?][\"')\]`*_]*(?=\s|$)")


def without_cut_tail(text: str) -> Tuple[str, str]:
    """(``text`` up to its last finished sentence, the unfinished rest): for a reply the token limit stopped.
    A reply with no finished sentence is all tail."""
    ends = [m.end() for m in _FINISHED.finditer(text)]
    cut_at = ends[-1] if ends else 0
    return text[:cut_at].rstrip(), text[cut_at:].strip()


def check_prose(text: str, facts: Facts) -> CheckedProse:
    """Keep the sentences of ``text`` whose every number and path is in ``facts``, each number with a path
    it was shown with; drop the others."""
    kept: List[str] = []
    dropped: List[Dropped] = []
    n_numbers = n_paths = 0
    for sentence in split_sentences(text):
        paths = cited_paths(sentence, facts)
        directories = cited_directory_names(sentence)
        numbers = cited_numbers(sentence)
        n_numbers += len(numbers)
        n_paths += len(paths) + len(directories)
        bad_numbers = [w for v, w in numbers if not number_checks(v, w, facts)]
        bad_paths = ([p for p in paths if not path_checks(p, facts)]
                     + [d for d in directories if d not in facts.directory_names])
        wrong_owner = misattributed(sentence, facts)
        if bad_numbers or bad_paths or wrong_owner:
            dropped.append(Dropped(sentence, bad_numbers, bad_paths, wrong_owner))
        else:
            kept.append(sentence)
    return CheckedProse(kept, dropped, n_numbers, n_paths)
