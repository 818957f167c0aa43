"""Grounding: a quote that stands where it is cited but does not state the answer moves to the retrieved
chunk that does; and a loop whose later revisions fail the checks keeps the draft that passed them.

The drafts below have the shape of the embedded model's recorded reply on the git-doc question about
the credential cache (benchmarks/results/research/2026-11-28-gitdoc-c1f0587-partial.json, declined 3
times): the claim states the value, the quote is the examples section's first sentence, copied word for
word, which states nothing of it; the value stands in the options section of the same page. The pages
are fictional (the same structure in other words)."""

from __future__ import annotations

import pytest

from ragix_core.research import DeepResearchOrchestrator
from ragix_core.research.checks import check_draft
from ragix_core.research.draft import ClaimIn, Draft
from ragix_core.research.matching import entry_support, term_in

from .conftest import ScriptedLLM, analyst, critic, label, writer
from .test_citation_repair import resolver_over

PAGES = {
    "official/keyring.md": "# keyring-cache\n\n## Options\n\n--expire <seconds>\n"
                           "Number of seconds to keep passphrases in memory (default: 900).\n\n"
                           "--socket <path>\nWhere the cache daemon listens.\n\n"
                           "## Examples\n\nThe point of this cache is to ask for your passphrase less often. For example:\n"
                           "$ keyring set helper cache\n",
    "news/changes.md": "# Changes\n\nThe release of 900 new icons was delayed; keyring cache fixes are planned.\n",
}
QUESTION = "If I use the keyring cache, how long are my passphrases kept unless I change it?"
CLAIM = "The passphrases are kept for 900 seconds by default."  # the recorded reply's claim, in this page's words
INTRO = "The point of this cache is to ask for your passphrase less often. For example:"


@pytest.fixture
def pages(tmp_path):
    from ragix_core.research import DocumentIndex

    from .conftest import write_collection

    idx = DocumentIndex.open(write_collection(tmp_path / "pages", PAGES))
    idx.update()
    yield idx
    idx.close()


def resolver(pages, settings):
    return resolver_over(pages, settings, pages.search(QUESTION, 8))


def lab_of(res, text):
    return next(i["label"] for i in res.context if text in (i.get("_text") or res.text_of(i["chunk"])))


def test_a_quote_that_does_not_state_the_answer_moves_to_the_chunk_that_does(pages, settings):
    res = resolver(pages, settings)
    d = Draft("900 seconds", [ClaimIn(text=CLAIM, source=lab_of(res, INTRO), quote=INTRO)])
    report = check_draft(d, res, QUESTION, "discovery")
    assert report.passed, report.failures()
    c = d.citations[0]
    assert c.path == "official/keyring.md" and "(default: 900)" in c.quote and c.support == "close"
    assert c.cited_chunk != c.chunk and "does not state the answer" in c.repair
    assert report.repaired and report.repaired[0]["chunk"] == c.chunk


@pytest.mark.parametrize("answer,claim", [
    ("900 minutes", "The passphrases are kept for 900 minutes by default."),  # no place states "minutes"
    ("900", "Deleted entries expire after 900 ticks."),  # places hold 900, none states this claim
])
def test_places_that_do_not_state_the_claim_and_every_answer_term_are_not_cited(pages, settings, answer, claim):
    res = resolver(pages, settings)
    d = Draft(answer, [ClaimIn(text=claim, source=lab_of(res, INTRO), quote=INTRO)])
    report = check_draft(d, res, QUESTION, "discovery")
    assert not report.passed and "900" in report.unsupported_terms
    assert not report.repaired and d.citations[0].quote == INTRO.rstrip(":")


def test_an_invented_quote_is_not_grounded_by_its_claim(pages, settings):
    res = resolver(pages, settings)
    d = Draft("900 seconds", [ClaimIn(text=CLAIM, source=lab_of(res, INTRO),
                                      quote="passphrases are remembered for a quarter of an hour")])
    report = check_draft(d, res, QUESTION, "discovery")
    assert report.unsupported_quotes and not report.repaired and not report.passed


def test_a_move_keeps_the_terms_the_citation_already_backed(pages, settings):
    res = resolver(pages, settings)
    # "icons" stands only on the news page, "900 seconds" only on the manual: no one place states both,
    # so the news citation (which backs "icons") must not be moved to the manual.
    news = ClaimIn(text="900 new icons were delayed", source=lab_of(res, "900 new icons"), quote="900 new icons")
    d = Draft("900 icons seconds", [news])
    report = check_draft(d, res, QUESTION, "discovery")
    assert d.citations[0].path == "news/changes.md" and not d.citations[0].repair
    assert not report.passed and "seconds" in report.unsupported_terms


def test_term_in_matches_numbers_by_value_and_words_by_stem():
    assert term_in("4,000", ["up to 4000 entries"]) and not term_in("400", ["up to 4000 entries"])
    assert term_in("Packs", ["one pack file"]) and not term_in("pack", ["a backpack"])


# -- the loop keeps a verified draft --------------------------------------------------------

def test_a_verified_draft_is_kept_when_the_revisions_the_critic_asked_for_fail_the_checks(pages, settings):
    settings.reasoning.max_iterations = 2
    good = lambda m: analyst("900 seconds", [(CLAIM, label(m, "official/keyring.md"), "(default: 900)")])
    invented = lambda m: analyst("15 minutes", [("kept 15 minutes", label(m, "official/keyring.md"),
                                                 "passphrases are kept for fifteen minutes")])
    llm = ScriptedLLM([good, critic("REJECT", gaps=["say which option sets it"]), invented,
                       writer("Passphrases are kept 900 seconds.")])
    o = DeepResearchOrchestrator(pages, settings=settings, client=llm)
    schema = o.run_research(QUESTION, "discovery")[0]["schema_object"]
    assert schema["status"] == "ANSWERED" and schema["answer"] == "900 seconds"
    assert schema["citations"][0]["path"] == "official/keyring.md" and "900" in schema["citations"][0]["quote"]
    assert schema["critic"]["status"] == "WARN" and "doubts" in schema["critic"]["critique"]
    assert o.last_run["declined"] is False
    assert [r.get("verdict") for r in o.last_run["rounds"] if r.get("verdict")] == ["REJECT", "REJECT"]


def test_without_a_verified_draft_the_loop_still_declines(pages, settings):
    settings.reasoning.max_iterations = 2
    invented = lambda m: analyst("15 minutes", [("kept 15 minutes", label(m, "official/keyring.md"),
                                                 "passphrases are kept for fifteen minutes")])
    llm = ScriptedLLM([invented, invented, {"questions": [QUESTION]}])  # the decomposer: one question, no parts
    o = DeepResearchOrchestrator(pages, settings=settings, client=llm)
    schema = o.run_research(QUESTION, "discovery")[0]["schema_object"]
    assert schema["status"] == "UNVERIFIED" and schema["answer"] == "" and o.last_run["declined"] is True


# -- a manual's definition list ---------------------------------------------------------------

# The shape of the recorded reply on the question of the web server git instaweb starts: the claim
# names the option, the quote is the configuration page's entry (which points to the command's page),
# and the value stands at the end of the option's description on the command's page.
OPTIONS = ("-l\n--local\nOnly listen on the loopback address.\n-d\n--daemon\n"
           "The web daemon command line to run. Options may be specified here. Known are thttpd, nginx and "
           "caddy. (Default: thttpd)\n-p\n--port\nThe port to listen on. (Default: 8421)")
ENTRY_CLAIM = "webview starts the web daemon specified by the -d option when none is specified."


def test_an_entry_of_a_definition_list_states_the_claim_over_its_lines():
    got = entry_support(ENTRY_CLAIM, ["thttpd"], OPTIONS, "webview(1) OPTIONS")
    assert got.startswith("The web daemon command line") and got.endswith("(Default: thttpd)")  # the fewest lines
    # without the page's title the description line holds too few of the claim's words: the option's name joins
    assert entry_support(ENTRY_CLAIM, ["thttpd"], OPTIONS, "").startswith("-d\n--daemon\nThe web daemon")
    assert entry_support("the viewer page", ["thttpd"], OPTIONS, "") == ""  # too few words to say anything
    assert entry_support(ENTRY_CLAIM, ["lighttpd"], OPTIONS, "webview(1) OPTIONS") == ""  # a term it does not state
    assert entry_support("webview listens on port 9000 by default", ["9000"], OPTIONS, "webview(1) OPTIONS") == ""


def test_the_loop_answers_from_the_entry_that_states_the_value(tmp_path, settings):
    from ragix_core.research import DocumentIndex

    from .conftest import write_collection

    files = {"official/webview.md": "# webview(1)\n\n## OPTIONS\n\n" + OPTIONS + "\n",
             "official/config.md": "# config(1)\n\n## Variables\n\nwebview.daemon\nThe web daemon command line to "
                                   "start the viewer on your repository. See webview(1).\n"}
    idx = DocumentIndex.open(write_collection(tmp_path / "man", files))
    idx.update()
    quote = "The web daemon command line to start the viewer on your repository. See webview(1)."
    replies = [lambda m: analyst("thttpd", [(ENTRY_CLAIM, label(m, "official/config.md"), quote)]),
               critic("PASS"), writer("thttpd.")]
    o = DeepResearchOrchestrator(idx, settings=settings, client=ScriptedLLM(replies))
    schema = o.run_research("Which web daemon does webview start when I don't choose one?", "discovery")[0]["schema_object"]
    idx.close()
    assert schema["status"] == "ANSWERED" and schema["answer"] == "thttpd"
    assert [c["path"] for c in schema["citations"]] == ["official/webview.md"]
    assert "(Default: thttpd)" in schema["citations"][0]["quote"] and schema["repaired"]
