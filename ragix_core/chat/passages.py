"""Whether passages found in the user's documents are about the question: the gate before ragix shows them.

ragix searches the user's documents before a free-text orchestrator's first step (chat/nodes.py); a search
always returns its best passages, about the question or not. Shown unrelated passages, the 1.5B model
stopped writing programs for arithmetic and answered from them in words (measured on our conversations at
941aadd: 6 of 8 arithmetic turns wrong, none computed). So passages are shown only when they share at least
``LEAST_SHARED`` content words with the question: a word of three or more letters that is not a function
word, compared as written (lower-cased). The question's words and the documents decide, nothing else.
"""

from __future__ import annotations

import re
from typing import Set

__all__ = ["content_words", "about_the_question", "LEAST_SHARED"]

LEAST_SHARED = 2
_WORD = re.compile(r"[^\W\d_][\w'-]*", re.UNICODE)
_FUNCTION_WORDS = frozenset("""
about above after again against all also and any are aren't because been before being below between both but
can can't cannot could couldn't did didn't does doesn't doing don't down during each else ever every few for
from further had hadn't has hasn't have haven't having her here hers herself him himself his how i'm i've into
isn't it's its itself just let's like many more most much must mustn't myself nor not now off once only other
ought our ours ourselves out over own same she should shouldn't some such than that that's the their theirs them
themselves then there there's these they this those through too under until upon very was wasn't were weren't
what what's when where which while who whom whose why will with won't would wouldn't yes yet you your yours
yourself yourselves according please tell give show find know say says said want need get got use used using
one two three first still even well way may might shall
""".split())


def content_words(text: str) -> Set[str]:
    """The lower-cased words of ``text`` that carry its subject: three letters or more, not function words."""
    return {w for w in (m.group().lower().strip("'-") for m in _WORD.finditer(text or ""))
            if len(w) >= 3 and w not in _FUNCTION_WORDS}


def about_the_question(question: str, passages: str) -> bool:
    """True when ``passages`` share at least ``LEAST_SHARED`` content words with ``question``."""
    return len(content_words(question) & content_words(passages)) >= LEAST_SHARED
