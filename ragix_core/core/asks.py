"""Whether a goal asks several things: the one rule the graph (plan at once instead of trying one
command first, ``reasoning_v30.build.try_first_route``; label COMPLEX, ``labels``) and the collective
patterns (the hierarchical master splits only such a goal; ``ragix ask`` sends it to that master) share.

A goal asks several things when it holds two questions, or when one sentence joins a second ask to a
first with "and", "then" or ";". A task told in several sentences ("Create a directory. Inside it, make
three files, then count them") asks one thing in steps: AgentBench OS's five such tasks were planned at
once and passed 0/5 (4 of them wrong answers ending ``success``), where trying one command first and
decomposing after a failure is what the evidence for small models supports (ADaPT).
"""

from __future__ import annotations

import re

__all__ = ["several_asks", "asks_quantity"]

_ASK = r"(how many|how much|which|what|where|who|when|list|count|find|show|name)"
_FIRST_ASK = re.compile(r"\b" + _ASK + r"\b", re.IGNORECASE)
# A second ask joined to the first: "How many X, and which Y", "Count X; then list Y". A bare comma is not a
# join: ", which is the sum of ..." and ", what width does it use?" continue the same ask.
_SECOND_ASK = re.compile(r"(;\s*|,?\s+and\s+(also\s+)?|,?\s+then\s+|;\s*then\s+)" + _ASK + r"\b", re.IGNORECASE)
# "Which X ..., and how many?" asks the measure of the X it names: the ranked table that names X shows its count,
# so one command answers both (ADaPT: decompose only after a failure). Measured on the paraphrase set at 52a8250:
# "Which directory directly contains the most files, and how many?" planned at once, 4,030 tokens and 254 s, and
# ended wrong. Only a bare count closes the sentence ("and how many?", "and how many lines?"), or a count of
# "it"/"they", which can only be the X named ("and how many does it have?", "and how many lines are in it?"); a
# count of something else asks a second thing ("and how many of them fail?", "and how many does the README have?").
_NAMES_ONE = re.compile(r"which|what", re.IGNORECASE)
_ITS_COUNT = re.compile(r",?\s+and\s+how (?:many|much)(?:\s+[\w-]+)?"
                        r"(?:\s+(?:does|do|did)\s+(?:it|they)\s+(?:have|contain|hold)"
                        r"|\s+(?:it|they)\s+(?:has|have|contains?|holds?)"
                        r"|\s+(?:is|are)\s+in\s+(?:it|them))?\s*[?.!]?\s*$", re.IGNORECASE)
# A goal whose answer is a quantity, however it is asked: "how many", "the number of", "count", "total", "add up",
# "altogether", "in all", "combined", "how long", "what size", "average" (paraphrases of one question must all
# reach it: "Add up the minutes", "How long do they take altogether?", "What do they come to, combined?").
# A verb is read in every form a goal takes ("Counts all files", NL2Bash's third person, at 7defe0e read as no
# count, so its listing went to the writer in full).
_QUANTITY = re.compile(r"\b(how (?:many|much|long|big|large)|number of|count(?:s|ed|ing)?|totals?|sum|sums|sum up|"
                       r"add(?:s|ed|ing)? up|tall(?:y|ies|ied|ying)|"
                       r"altogether|in all|combined|what size|size of|length of|average|the mean|mean of)\b",
                       re.IGNORECASE)
# A question mark that ends a question ("width=?)" inside a call does not).
_QUESTION_END = re.compile(r"\?(?=\s|$)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")


def several_asks(goal: str) -> bool:
    """True when the goal asks two things: two questions, or two asks joined in one sentence. One command
    cannot answer it, so the try-first route plans at once."""
    text = goal.strip()
    if len(_QUESTION_END.findall(text)) >= 2:
        return True
    for sentence in _SENTENCE_END.split(text):
        first = _FIRST_ASK.search(sentence)
        second = _SECOND_ASK.search(sentence, first.end()) if first else None
        if second and not (_NAMES_ONE.match(first.group(1)) and _ITS_COUNT.match(sentence, second.start())):
            return True
    return False


def asks_quantity(goal: str) -> bool:
    """True when the goal asks for a quantity (a count, a total, an average): the one kind of answer whose
    number a command can compute in place of the model's arithmetic (reasoning_v30/computed.py)."""
    return bool(_QUANTITY.search(goal))
