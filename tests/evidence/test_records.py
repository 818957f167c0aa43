"""JSON outputs as records: shown one per line; "which items have quantity 0" answered from them."""

from ragix_core.core.types import PlanStep, StepStatus, ToolCall, ToolResult
from ragix_core.evidence.binding import bind_answer
from ragix_core.evidence.records import records_in, records_text
from ragix_core.evidence.steps import evidence_block

INVENTORY = ('{"A1": {"sku": "A1", "name": "bolt", "quantity": 3}, '
             '"B7": {"sku": "B7", "name": "washer", "quantity": 0}}')


def step(stdout, command="cat inventory.json"):
    return PlanStep(1, "read", ToolCall("shell", {"command": command}), StepStatus.SUCCESS,
                    ToolResult("shell", 0, stdout=stdout))


def test_objects_of_objects_and_lists_of_objects_are_records():
    assert [k for k, _ in records_in(INVENTORY)] == ["A1", "B7"]
    assert records_in(f"./inventory.json:{INVENTORY}\n")[1][1]["name"] == "washer"  # a grep line
    assert records_in('[{"id": 1}, {"id": 2}]')[1] == ("2", {"id": 2})
    for not_records in ['{"a": 1}', "[1, 2]", "{not json", "plain text", "", '{"a": {"b": 1}, "c": 2}']:
        assert records_in(not_records) is None, not_records
    assert records_text(records_in(INVENTORY)).splitlines()[1] == "B7: sku=B7, name=washer, quantity=0"


def test_the_writer_sees_one_record_per_line():
    block = evidence_block([step(INVENTORY)], "Which items have quantity 0?")
    assert "B7: sku=B7, name=washer, quantity=0" in block and "one record per line" in block


def test_an_answer_naming_no_selected_record_is_replaced_by_them():
    # Measured (out-of-stock-items, issue 12): "one item has quantity 0: ./inventory.json".
    goal = "Which items in the inventory data file have quantity 0?"
    b = bind_answer(goal, "One item has quantity 0: ./inventory.json", [step(INVENTORY)])
    assert b.corrected and b.reason == "records"
    assert "B7: sku=B7, name=washer, quantity=0" in b.answer and "bolt" not in b.answer
    assert not bind_answer(goal, "The washer (B7).", [step(INVENTORY)]).corrected
    keyed = bind_answer(goal, "The item is B7.", [step(INVENTORY)])  # by its key only: its name is added
    assert keyed.corrected and keyed.reason == "records_added" and keyed.answer.startswith("The item is B7.")
    assert "name=washer" in keyed.answer
    nameless = '[{"id": 7, "quantity": 0}, {"id": 8, "quantity": 2}]'
    assert not bind_answer(goal, "Item 7.", [step(nameless)]).corrected  # no name to call it by


def test_some_named_gets_the_rest_appended_and_unselective_goals_are_left_alone():
    data = '[{"name": "a", "status": "archived"}, {"name": "b", "status": "archived"}, {"name": "c", "status": "live"}]'
    b = bind_answer("Which projects have status archived?", "Project a.", [step(data, "cat p.json")])
    assert b.corrected and b.reason == "records_added" and "name=b" in b.answer and "name=c" not in b.answer
    assert not bind_answer("What is in p.json?", "Three projects.", [step(data, "cat p.json")]).corrected
    assert not bind_answer("Which projects have status deleted?", "None.", [step(data, "cat p.json")]).corrected


def test_a_json_line_among_a_searchs_other_lines_is_read_as_records():
    # Measured (out-of-stock-items at 9cf2c48): the goal-word search printed the JSON line among others.
    from ragix_core.evidence.records import records_of, records_view

    out = f"./inventory.json:1:{INVENTORY}\n./src/cli.py:8:DEFAULT_DB = \"inventory.json\"\n"
    assert [(p, [k for k, _ in r]) for p, r in records_of(out)] == [("./inventory.json", ["A1", "B7"])]
    view = records_view(out).splitlines()
    assert view == ["./inventory.json: A1: sku=A1, name=bolt, quantity=3",
                    "./inventory.json: B7: sku=B7, name=washer, quantity=0", './src/cli.py:8:DEFAULT_DB = "inventory.json"']
    assert records_view("plain\nlines\n") is None
    b = bind_answer("Which items in the inventory data file have quantity 0?", "inventory.json has one.",
                    [step(out, "grep -rniwE -e 'inventory|quantity' .")])
    assert b.corrected and b.reason == "records" and "name=washer" in b.answer
