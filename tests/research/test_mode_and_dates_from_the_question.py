"""Spec 004's mode and time range read from the question (issue 40, item 4): the detectors alone.

Each detector is a general mechanism (phrases about sources; a date parser), so each is tested
with several paraphrases that must trigger and several close ones that must not.
"""

from __future__ import annotations

import datetime as dt

import pytest

from ragix_core.research.mode_detection import choose_mode, detect_mode
from ragix_core.research.time_range import parse_time_range

TODAY = dt.date(2026, 11, 28)


@pytest.mark.parametrize("question", [
    "Answer only from official docs: what is the pack limit?",
    "Using just the official documentation, how do I rotate the signing key?",
    "What is the default port? Official sources only.",
    "Relying solely on the vendor's manual, what port does it use?",
    "Strictly based on authoritative sources, when was it founded?",
    "Ignore the forums: what is the open pack limit?",
    "What is the limit, excluding blogs and social media?",
])
def test_strict_paraphrases(question):
    assert detect_mode(question)[0] == "strict"


@pytest.mark.parametrize("question", [
    "Compare what sources say about the pack limit.",
    "Do the sources agree on the staff count?",
    "What do the official docs say versus the forums?",
    "How do the reports differ on the headcount?",
    "Are there conflicting claims about the release date?",
    "Contrast what the manual states with what users report.",
])
def test_monitor_paraphrases(question):
    assert detect_mode(question)[0] == "monitor"


@pytest.mark.parametrize("question", [
    "What are people saying about the new teapot?",
    "Including forums, what is known about Zorblat?",
    "Search any sources you have: who founded it?",
])
def test_discovery_paraphrases(question):
    assert detect_mode(question)[0] == "discovery"


@pytest.mark.parametrize("question", [
    "What is the only official mirror?",                          # "only" and "official", no sources
    "Compare the performance of Orion and Vega.",                 # a comparison, not of sources
    "What is the difference between the official and beta builds?",
    "How do I exclude blog posts from the sitemap?",              # about a site's content
    "Is there any source code for the parser?",
    "Why are there no forums for this project?",
    "How does the report generator differ from the old one?",
    "Which documentation format is only supported on Linux?",
    "Is it against official policy?",
    "Where is the official release schedule?",
    "What is the open pack limit per repository?",
    "Compare the loose-object count that triggers git gc --auto with the batch limit.",
])
def test_questions_that_ask_no_mode(question):
    assert detect_mode(question) is None


def test_the_flag_wins_then_the_question_then_the_config():
    q = "Answer only from official docs: what is the limit?"
    assert choose_mode(q, "monitor", "discovery").as_dict() == {
        "mode": "monitor", "source": "flag", "reason": "--mode monitor was given"}
    choice = choose_mode(q, None, "discovery")
    assert (choice.mode, choice.source) == ("strict", "question") and "'only from official docs'" in choice.reason
    choice = choose_mode("What is the limit?", None, "monitor")
    assert (choice.mode, choice.source) == ("monitor", "config") and "research.default_mode" in choice.reason


@pytest.mark.parametrize("question, since, until", [
    ("What changed since 2023?", "2023-01-01", None),
    ("List the changes made after 2023.", "2024-01-01", None),
    ("Which settings were added from March 2024 onwards?", "2024-03-01", None),
    ("What did the manual say before 2022?", None, "2021-12-31"),
    ("releases until June 2021", None, "2021-06-30"),
    ("What was the limit as of 5 March 2024?", None, "2024-03-05"),
    ("What did it say prior to 2020-02-15?", None, "2020-02-14"),
    ("What changed between 2021 and 2022?", "2021-01-01", "2022-12-31"),
    ("news from January 2020 to March 2020", "2020-01-01", "2020-03-31"),
    ("What happened during 2019-2020?", "2019-01-01", "2020-12-31"),
    ("What changed in the last 2 years?", "2024-11-28", None),
    ("Any updates over the past month?", "2026-10-29", None),
    ("What was announced this year?", "2026-01-01", "2026-11-28"),
    ("since 2022 and before 2024", "2022-01-01", "2023-12-31"),
])
def test_time_ranges_the_question_states(question, since, until):
    found = parse_time_range(question, TODAY)
    assert (found.since, found.until) == (since, until)
    assert found.phrases and found.describe().startswith("documents dated")


@pytest.mark.parametrize("question", [
    "How many teapots were sold in 2023?",        # about an event in 2023, told by any later document
    "What is the open pack limit per repository?",
    "What happens after 64 packs are open?",
    "Does the job run before 3 pm?",
    "How old must a loose object be before git gc prunes it?",
    "After how long are reflog entries dropped?",
    "What is error 2023 in the manual?",
])
def test_questions_without_a_range_of_dates(question):
    assert parse_time_range(question, TODAY) is None


@pytest.mark.parametrize("question, bound", [
    ("Which limits applied before version 3?", "before version 3"),
    ("What changed since release 2.1?", "since release 2.1"),
    ("Options removed after v4", "after v4"),
])
def test_a_version_bound_is_no_date(question, bound):
    found = parse_time_range(question, TODAY)
    assert found.versions == [bound] and found.temporal() == {}
