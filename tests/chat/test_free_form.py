"""The orchestrator writing free text (chat.decisions: free): a program runs in the repl, the answer is the reply."""

from __future__ import annotations

from ragix_core.chat.arithmetic import wrong_arithmetic
from ragix_core.chat.free_form import free_decision
from ragix_core.chat.graph import run_thread
from ragix_core.chat.messages import final_message, reasoning_steps, tool_messages
from ragix_core.chat.passages import about_the_question, content_words
from ragix_core.chat.nodes import DEPS_KEY
from ragix_core.chat.state import new_state
from ragix_core.config import parse_config
from tests.chat.conftest import FakeTools, deps_with

PROGRAM = "The area is width times height.\n```python\nprint(12.5 * 8)\n```"


def test_a_python_block_is_a_repl_call_and_what_follows_it_is_never_kept():
    thinking, meta = free_decision(PROGRAM + "\nOutput: 99\nThe area is 99.", ["repl", "search"])
    assert meta["action"] == meta["tool_name"] == "repl" and meta["tool_input"] == {"code": "print(12.5 * 8)"}
    assert thinking == "The area is width times height." and "99" not in meta["reply"]
    assert meta["reply"].endswith("```python\nprint(12.5 * 8)\n```") and "draft" not in meta


def test_a_block_cut_at_the_stop_sequence_still_runs_and_another_language_does_not():
    _, meta = free_decision("```python\nx = 3\nprint(x * 2)", ["repl"])  # generation stopped at the fence
    assert meta["tool_input"] == {"code": "x = 3\nprint(x * 2)"}
    _, meta = free_decision("Run this:\n```bash\nls -l\n```\nThat lists files.", ["repl"])
    assert meta["action"] == "answer" and "ls -l" in meta["draft"]


def test_a_search_line_searches_only_when_the_run_has_search_and_other_text_is_the_answer():
    _, meta = free_decision("I need the team's notes.\nSEARCH: on-call rotation", ["repl", "search"])
    assert meta["action"] == "search" and meta["tool_input"] == {"query": "on-call rotation"}
    _, meta = free_decision("SEARCH: on-call rotation", ["repl"])
    assert meta["action"] == "answer"
    _, meta = free_decision(PROGRAM, ["search"])  # no repl in this run: the code is not run
    assert meta["action"] == "answer" and meta["draft"].startswith("The area")


def _thread(replies, question="What is the area of a 12.5 by 8 rectangle?", tools=None, writer=("Writer's.",)):
    deps = deps_with(replies, writer_replies=writer, tools=tools or FakeTools(outputs={"repl": "100.0\n"}),
                     decisions="free")
    state = run_thread(new_state("s", "t", question), {"configurable": {DEPS_KEY: deps}})
    return state["messages"], deps


def test_a_program_runs_then_the_next_reply_is_the_answer_with_no_writer_call():
    messages, deps = _thread([PROGRAM, "The area is 100.0 square units [1]."])
    final = final_message(messages)
    assert final.content == "The area is 100.0 square units [1]." and final.meta["stop_reason"] == "success"
    assert final.meta["written_by"] == "orchestrator" and final.meta["citations"][0]["label"] == 1
    assert deps.tools.calls == [{"tool": "repl", "input": {"code": "print(12.5 * 8)"}, "earlier": 2}]
    assert deps.writer.calls == []  # the answer was the orchestrator's reply
    second = deps.orchestrator.calls[1]["messages"]
    assert "Python program" in second[0]["content"] and "JSON" not in second[0]["content"]
    assert second[2] == {"role": "assistant", "content": "The area is width times height.\n```python\n"
                                                         "print(12.5 * 8)\n```"}
    assert "100.0" in second[3]["content"] and "write the answer" in second[3]["content"]


def test_a_question_needing_no_tool_is_answered_in_one_call():
    messages, deps = _thread(["Hello! How can I help?"], question="Hi there")
    assert final_message(messages).content == "Hello! How can I help?" and tool_messages(messages) == []
    assert len(deps.orchestrator.calls) == 1 and deps.writer.calls == []


def test_the_same_program_again_is_not_run_twice_and_the_writer_answers_from_the_result():
    messages, deps = _thread([PROGRAM, PROGRAM])
    assert len(deps.tools.calls) == 1 and reasoning_steps(messages)[-1].meta["forced_answer"].startswith("repeated")
    assert final_message(messages).content == "Writer's." and len(deps.writer.calls) == 1


def test_a_cited_label_no_result_backs_is_dropped_from_a_free_answer():
    messages, _ = _thread(["It is 100 [3]."], question="What is 12.5 times 8?")
    assert final_message(messages).content == "It is 100."


def test_the_config_names_the_decision_format_and_refuses_another():
    assert parse_config({}, "t").chat.decisions == "free"  # the default
    assert parse_config({"chat": {"decisions": "json"}}, "t").chat.decisions == "json"
    assert parse_config({"chat": {"decisions": "free"}}, "t").chat.decisions == "free"
    try:
        parse_config({"chat": {"decisions": "yaml"}}, "t")
    except Exception as exc:  # the config's own error type, naming the field
        assert "decisions" in str(exc)
    else:
        raise AssertionError("an unknown decision format was accepted")


def test_written_out_arithmetic_is_computed_and_only_plain_numbers_are_evaluated():
    # measured at f722838 on our own conversations: "347 * 29 = 9883" (it is 10063)
    assert wrong_arithmetic("347 * 29 = 9883") == [("347 * 29 = 9883", "10063")]
    assert wrong_arithmetic("2 + 2 = 5 and 3 × 3 = 9, then 1/3 = 0.34") == [("2 + 2 = 5", "4"),
                                                                           ("1/3 = 0.34", "0.333333")]
    right = ["9883 - 1234 = 8649", "12.5 * 8 = 100 units", "1,200 x 2 = 2,400", "35/36 = 0.97", "2/3 = 0.66",
             "(3 + 4) * 2 = 14"]
    assert [wrong_arithmetic(t) for t in right] == [[]] * len(right)
    # names, powers, signs and calls are not arithmetic of plain numbers: never evaluated
    for text in ("x - y = 4z - 4z = 0", "(4z)^2 = 16", "-5 = -5", "10 / 0 = 1", "__import__('os') = 1", "2**99 = 1"):
        assert wrong_arithmetic(text) == [], text
    # an untrusted reply of thousands of operators is read in one pass (a backtracking regex hung on these)
    assert wrong_arithmetic("1 + " * 2000) == [] and wrong_arithmetic("1 + 2 " * 1000 + "= 3") == []


def test_an_answer_with_wrong_arithmetic_is_sent_back_once_with_the_computed_value():
    messages, deps = _thread(["347 * 29 = 9883", "347 * 29 = 10063", ], question="What is 347 times 29?")
    assert final_message(messages).content == "347 * 29 = 10063" and deps.tools.calls == []
    second = deps.orchestrator.calls[1]["messages"]
    assert second[-2] == {"role": "assistant", "content": "347 * 29 = 9883"}
    assert "`347 * 29` is 10063, not 9883" in second[-1]["content"] and second[-1]["role"] == "user"
    assert reasoning_steps(messages)[0].meta["wrong_arithmetic"] == ["347 * 29 = 9883"]
    # a second wrong answer stands: the check is not a loop
    messages, deps = _thread(["2 + 2 = 5", "2 + 2 = 5!"], question="What is 2 plus 2?")
    assert final_message(messages).content == "2 + 2 = 5!" and len(deps.orchestrator.calls) == 2


def _docs_thread(replies, question="Which port does our ingest service listen on?", history=None, docs=True):
    tools = FakeTools(outputs={"search": "1. Ingest service (docs: services.md)\nIt listens on port 7421.",
                               "repl": "100.0\n"}, searches_documents=docs)
    deps = deps_with(replies, tools=tools, decisions="free")
    state = new_state("s", "t", question)
    if history:
        state["history"] = history
    state = run_thread(state, {"configurable": {DEPS_KEY: deps}})
    return state["messages"], deps


def test_with_the_users_documents_ragix_searches_them_first_and_the_model_answers_from_the_passages():
    messages, deps = _docs_thread(["It listens on port 7421 [1]."])
    assert deps.tools.calls[0] == {"tool": "search", "earlier": 1, "input": {
        "query": "Which port does our ingest service listen on?", "sources": "docs"}}
    first = reasoning_steps(messages)[0]
    assert first.meta["by"] == "ragix" and first.meta["action"] == "search"
    assert tool_messages(messages)[0].meta["by"] == "ragix"
    final = final_message(messages)
    assert final.content == "It listens on port 7421 [1]." and final.meta["citations"][0]["label"] == 1
    asked = deps.orchestrator.calls[0]["messages"]  # the model's one call: question, passages, what to do
    assert [m["role"] for m in asked] == ["system", "user"]
    assert "port 7421" in asked[1]["content"] and "they may be about something else" in asked[1]["content"]


def test_a_follow_up_is_searched_with_the_question_before_it():
    _, deps = _docs_thread(["Team Kestrel [1]."], question="Which team owns that service?",
                           history=[("Which port does our ingest service listen on?", "Port 7421.")])
    assert deps.tools.calls[0]["input"]["query"] == ("Which port does our ingest service listen on? "
                                                     "Which team owns that service?")


def test_passages_about_something_else_are_not_shown_and_the_model_computes_as_before():
    messages, deps = _docs_thread([PROGRAM, "The area is 100.0 square units [1]."],
                                  question="What is the area of a 12.5 by 8 rectangle?")
    assert [c["tool"] for c in deps.tools.calls] == ["search", "repl"]
    assert "port 7421" not in str(deps.orchestrator.calls[0]["messages"])
    assert [m.meta["tool"] for m in tool_messages(messages)] == ["repl"]
    assert final_message(messages).content == "The area is 100.0 square units [1]."


def test_without_the_users_documents_nothing_is_searched_unasked():
    messages, deps = _docs_thread(["Port 80."], docs=False)
    assert deps.tools.calls == [] and final_message(messages).content == "Port 80."


def test_passages_are_about_the_question_when_they_share_two_of_its_content_words():
    passages = "1. Zephyr ingest (docs: zephyr.md)\nThe Zephyr ingest service listens on port 7421."
    assert about_the_question("Which port does the Zephyr service use?", passages)  # port, zephyr, service
    assert not about_the_question("What is 347 multiplied by 29?", passages)
    assert not about_the_question("Which port is it?", passages)  # one word in common
    assert not about_the_question("What is the one that does this?", passages)  # function words only
    assert content_words("Convert 100 degrees Fahrenheit to Celsius.") == {"convert", "degrees", "fahrenheit",
                                                                             "celsius"}
