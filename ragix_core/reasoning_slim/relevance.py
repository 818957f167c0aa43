"""Relevance of a node's question to the root question: BM25 from SQLite FTS5.

    index = RelevanceIndex(root_question)
    index.relevance("How many days are in February 2023?")   # in [0, 1]

FTS5's ``bm25()`` is the real Okapi BM25 (k1 = 1.2, b = 0.75). A BM25 score only ranks
documents for one query, so it is made absolute by dividing by the root question's own
score for the same query, in both directions, keeping the larger:

    relevance(q) = max( BM25(q; words of root) / BM25(root; words of root),
                        BM25(root; words of q) / BM25(q; words of q) )      clipped to [0, 1]

The first asks how much of the root a node covers (low for any short sub-question), the
second how much of the node is about the root (high for "Who are River's parents?" under a
family puzzle about River). A node that shares none of the root's words scores 0.

Inverse document frequencies need a corpus: the tree's own questions are too few (FTS5
clamps the IDF of a word found in more than half of the documents to ~0, so with three
documents every shared word would weigh nothing). The index therefore also holds a fixed
background of ordinary questions (``BACKGROUND``), in which "what", "how many", "the" are
common and the task's own names and numbers are rare.
"""

from __future__ import annotations

import sqlite3
import threading
from typing import List

from ragix_core.memory.rerank import tokens

__all__ = ["RelevanceIndex", "BACKGROUND", "STOPWORDS"]

# Ordinary questions and statements of many kinds: only their word statistics matter.
BACKGROUND = (
    "What is the capital of France?",
    "How many days are there in a week?",
    "Who wrote the novel and when was it published?",
    "What is the difference between a list and a tuple in Python?",
    "How do I convert a string to an integer?",
    "Why is the sky blue during the day?",
    "What time does the train leave and when does it arrive?",
    "How many people live in the city?",
    "What is the total cost if each item costs five dollars?",
    "Is it true that all birds can fly?",
    "Which of the following statements is correct?",
    "What day of the week is it today?",
    "How long does it take to walk to the station?",
    "What causes rain and how are clouds formed?",
    "Explain how a computer stores numbers in memory.",
    "If a train travels at a constant speed, how far does it go in two hours?",
    "What is the answer to the question above?",
    "Give the result as a whole number.",
    "Who is the oldest person in the family?",
    "How is the mother related to the child?",
    "Does it logically follow from the statements that the conclusion is true?",
    "Answer with yes or no.",
    "What is the sum of the numbers in the list?",
    "How many apples are left after some are eaten?",
    "Name the month that comes after this one.",
    "What year did the war end?",
    "What is the meaning of this word?",
    "How do plants make their food from sunlight?",
    "What are the main causes of the problem and how can it be solved?",
    "Which country has the largest population in the world?",
    "What is the best way to learn a new language?",
    "How many hours are there in a day and minutes in an hour?",
    "If you have some coins, how much money do you have in total?",
    "What is the date one month from now?",
    "Can you describe the steps of the process in order?",
    "What happens when water is heated to its boiling point?",
    "Where is the nearest hospital from here?",
    "Why do we need to sleep every night?",
    "What are the rules of the game and who won it?",
    "Calculate the result of the expression and state the final answer.",
    "Is the statement true or false, and why?",
    "How old will she be in ten years?",
    "What is the price of the ticket for an adult and for a child?",
    "Which animal has the most legs?",
    "What is the main idea of the text?",
    "How are these two things similar and how are they different?",
    "What would happen if the temperature rose by a few degrees?",
    "List the factors that affect the outcome.",
    "Who is telling the truth and who is lying?",
    "When does the meeting start and how long does it last?",
)


# Function words carry no topic; left in a query they let "How many legs does a spider have?"
# match a family puzzle through "how" and "have".
STOPWORDS = frozenset("""
a about above after again against all am an and any are as at be because been before being below between
both but by can could did do does doing down during each few for from further had has have having he her
here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not
now of off on once only or other our ours out over own same she should so some such than that the their
theirs them themselves then there these they this those through to too under until up very was we were what
when where which while who whom why will with would you your yours yourself many much give name answer
please tell find state
""".split())


def _match_query(text: str) -> str:
    # Each distinct content word quoted (FTS5 syntax characters in the text are then literal), OR'ed.
    words = [w for w in dict.fromkeys(tokens(text)) if w not in STOPWORDS]
    return " OR ".join('"' + w.replace('"', '""') + '"' for w in words)


class RelevanceIndex:
    """An in-memory FTS5 index of the background, the root question and the tree's questions."""

    def __init__(self, root: str) -> None:
        self.root = root
        self._query = _match_query(root)
        self._lock = threading.Lock()  # children are scored from several threads
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._db.execute("CREATE VIRTUAL TABLE docs USING fts5(body, tokenize='unicode61 remove_diacritics 2')")
        self._db.executemany("INSERT INTO docs(body) VALUES (?)", [(b,) for b in BACKGROUND])
        self._root_id = self._insert(root)

    def _insert(self, text: str) -> int:
        cur = self._db.execute("INSERT INTO docs(body) VALUES (?)", (text,))
        return int(cur.lastrowid)

    def _scores(self, query: str, ids: List[int]) -> dict:
        if not query:
            return {}
        marks = ",".join("?" * len(ids))
        rows = self._db.execute(f"SELECT rowid, bm25(docs) FROM docs WHERE docs MATCH ? AND rowid IN ({marks})",
                                [query, *ids]).fetchall()
        return {int(r): -float(s) for r, s in rows}  # FTS5 returns -BM25 (lower is better)

    @staticmethod
    def _ratio(scores: dict, doc: int, reference: int) -> float:
        ref = scores.get(reference, 0.0)
        return max(0.0, min(1.0, scores.get(doc, 0.0) / ref)) if ref > 0.0 else 0.0

    def relevance(self, text: str) -> float:
        """BM25 of ``text`` for the root's words, relative to the root's own score; in [0, 1]."""
        if not _match_query(text):
            return 0.0
        if text.strip() == self.root.strip():
            return 1.0
        with self._lock:
            doc = self._insert(text)  # it stays: the tree's questions are part of the corpus
            covers = self._scores(self._query, [doc, self._root_id])
            about = self._scores(_match_query(text), [doc, self._root_id])
        return max(self._ratio(covers, doc, self._root_id), self._ratio(about, self._root_id, doc))

    def close(self) -> None:
        with self._lock:
            self._db.close()
