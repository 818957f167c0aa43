"""The names a question gives its subject, and whether the pages an answer cites name them too.

A question that the documents do not answer still retrieves pages, and a 1.5B analyst answers from
them: on git's manual, "How do I configure GitHub Actions to run my test suite on every push?" was
answered with `push.default` from git-push.html, and "Which command locks a file stored with Git LFS
...?" with `git worktree lock` (full loop at 01d06c0). Neither page says "GitHub" or "LFS". What the
question calls its subject by name (GitHub Actions, Git LFS, FTS5, SHA-1, Kerberos) is on the page
that answers it: checked on the frozen sets' answerable questions, every gold page but one of several
names each of its question's names. So an answer whose cited pages never name one of the question's
names is about something else, and the check says so.

A name is a word with a capital letter that does not open a sentence ("I" aside), or a run of such
words ("GitHub Actions" is one name, matched as a phrase). A question written in lower case gives no
names and is not checked.
"""

from __future__ import annotations

import re
from typing import Iterable, List

from .matching import STOP, fold

__all__ = ["question_names", "names_missing"]

_TOKEN = re.compile(r"[^\W_][\w]*(?:[-'’][\w]+)*")
_SENTENCE_END = re.compile(r"[.!?:;]\s+$")
_NOT_NAMES = frozenset({"i", "i'm", "i’m", "i've", "i'd", "i'll"})


def _is_name(token: str) -> bool:
    word = re.sub(r"['’]s$", "", token)
    return any(c.isupper() for c in word) and fold(word) not in STOP and fold(token) not in _NOT_NAMES


def question_names(question: str) -> List[str]:
    """The names in ``question``, in order, each once: runs of capitalised words that do not open a sentence."""
    names: List[str] = []
    run: List[str] = []
    last_end = 0
    for i, m in enumerate(_TOKEN.finditer(question)):
        between = question[last_end:m.start()]
        opens = i == 0 or bool(_SENTENCE_END.search(question[:m.start()]))
        if run and between != " ":  # punctuation or a line ends a run: "FTS3, FTS4" are two names
            names.append(" ".join(run))
            run = []
        token = m.group(0)
        if not opens and _is_name(token):
            word = re.sub(r"['’]s$", "", token)
            run.append(word)
            if word != token:  # a possessive ends its name: "SQLite's JSON functions" names SQLite, then JSON
                names.append(" ".join(run))
                run = []
        elif run:
            names.append(" ".join(run))
            run = []
        last_end = m.end()
    if run:
        names.append(" ".join(run))
    return list(dict.fromkeys(names))


def _singular(part: str) -> str:
    """An upper-case word's plural as written in prose ("SELECTs") is the word."""
    return part[:-1] if len(part) > 2 and part.endswith("s") and part[:-1].isupper() else part


def _pattern(name: str) -> "re.Pattern[str]":
    # "R-Tree" is also "R*Tree" and "rtree"; "GitHub Actions" is a phrase, in any case.
    parts = [re.escape(fold(_singular(p))) for p in re.split(r"[-\s]+", name) if p]
    return re.compile(r"(?<!\w)" + r"[\s\-*_]*".join(parts))


def names_missing(question: str, pages: Iterable[str]) -> List[str]:
    """The question's names that none of ``pages`` (the cited pages' text) states."""
    texts = [fold(p) for p in pages]
    return [n for n in question_names(question) if not any(_pattern(n).search(t) for t in texts)]
