"""Long tool outputs keep their head, their tail and the lines the goal is about."""

from ragix_core.evidence.excerpt import excerpt, goal_keywords

GUIDE = "\n".join([f"Section {i}: filler text about installation and usage of the tool." for i in range(1, 60)]
                  + ["Contact: the Maintainer is Ada Lovelace."]
                  + [f"Appendix {i}: more filler text that nobody asked about at all." for i in range(1, 60)])


def test_short_output_is_unchanged():
    assert excerpt("a\nb\n", "anything", 100) == "a\nb\n"


def test_lines_the_goal_asks_about_come_first_numbered_then_head_and_tail():
    out = excerpt(GUIDE, "Who is named as the maintainer in the documentation?", 1800)
    assert len(out) <= 1800 + 200  # the markers cost a little
    first = out.splitlines()[:3]
    assert first == ["[ragix: the lines mentioning maintainer]", "line 60: Contact: the Maintainer is Ada Lovelace.",
                     "[the output itself]"]
    assert "Section 1:" in out and out.rstrip().endswith("Appendix 59: more filler text that nobody asked about at all.")
    assert "omitted" in out


def test_short_outputs_get_no_highlights():
    short = "\n".join(GUIDE.splitlines()[55:62])
    assert excerpt(short, "maintainer", 1800) == short


def test_without_matching_lines_head_and_tail_remain_and_the_cut_is_stated():
    out = excerpt(GUIDE, "What is the port?", 1000)
    assert "Ada Lovelace" not in out
    assert "Section 1:" in out and "Appendix 59" in out and "lines" in out and "omitted" in out


def test_one_huge_line_is_cut_by_characters():
    out = excerpt("x" * 5000, "goal", 100)
    assert out.startswith("x" * 100) and "4900 more characters cut" in out


def test_question_words_are_not_keywords():
    assert goal_keywords("Which files in this repo mention the storage module?") == {"mention", "storage", "module"}
