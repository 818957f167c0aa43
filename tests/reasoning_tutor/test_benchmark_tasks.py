"""The benchmark's tasks are winnable by evidence alone, and not by a plausible wrong answer.

An oracle game per task (the moves a careful player would make) must win against the real fixture, the real
confined tool box and the shipped rules, and its answer must pass the task's own checker; the same answer with
the value changed must be rejected by the tutor. A task the rules could not prove would measure nothing.
"""

import shutil
import sys
from pathlib import Path

import pytest

from ragix_core.eval.evaluate import _judge_answer
from ragix_core.reasoning_tutor.tutor import WON

from .conftest import make_tutor, propose, respond

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from benchmarks.tutor_games import FIXTURE, load_tasks  # noqa: E402

ORACLE = {
    "search-define": (["grep -rn 'def parse_config' src"], "parse_config is defined in src/shopcart/config_loader.py.",
                      [("defines", "src/shopcart/config_loader.py", "parse_config")], ("config_loader", "cart")),
    "search-count-python": (["find . -name '*.py' | wc -l"], "There are 7 Python files.",
                            [("file_count", ".", "*.py", "7")], ("7", "8")),
    "search-error-lines": (["grep -c ERROR logs/service.log"], "logs/service.log has 3 ERROR lines.",
                           [("match_count", "logs/service.log", "ERROR", "3")], ("3 ERROR", "4 ERROR")),
    "formal-threads": (["cat config/settings.ini", "calc 4*6"], "4 workers times 6 threads per worker is 24 threads.",
                       [("setting", "config/settings.ini", "workers", "4"),
                        ("setting", "config/settings.ini", "threads_per_worker", "6"), ("value", "4*6", "24")],
                       ("24 threads", "28 threads")),
    "formal-orders-total": (["cat data/orders.csv", "calc 42.50+17.25+99.00+8.75+30.00"],
                            "The amounts sum to 197.5.",
                            [("contains", "data/orders.csv", "1003,carol,99.00"),
                             ("value", "42.50+17.25+99.00+8.75+30.00", "197.5")], ("197.5", "187.5")),
    "formal-price-with-tax": (["grep -n TAX_RATE src/shopcart/pricing.py", "calc 50*(1+0.2)"],
                              "With TAX_RATE 0.2 the item costs 60.",
                              [("setting", "src/shopcart/pricing.py", "TAX_RATE", "0.2"), ("value", "50*(1+0.2)", "60")],
                              ("costs 60", "costs 70")),
    "gov-license": (["head -n 1 LICENSE"], "The project is distributed under the MIT License.",
                    [("contains", "LICENSE", "MIT License")], ("MIT", "GPL")),
    "gov-password-rotation": (["grep -n rotated SECURITY.md"], "Passwords must be rotated every 90 days.",
                              [("contains", "SECURITY.md", "rotated every 90 days")], ("90 days", "60 days")),
    "gov-security-contact": (["grep -n Report SECURITY.md"], "Report them to security@shopcart.example.",
                             [("contains", "SECURITY.md", "Report vulnerabilities to security@shopcart.example")],
                             ("security@shopcart.example", "security@example.com")),
    "diag-missing-setting": (["grep ERROR logs/service.log"], "The missing setting is payment_key.",
                             [("contains", "logs/service.log", "missing required setting: payment_key")],
                             ("payment_key", "payment_token")),
    "diag-port-mismatch": (["grep -n port config/settings.ini", "grep -n PORT tests/test_app.py"],
                           "config/settings.ini sets port 8080; tests/test_app.py expects 8000.",
                           [("setting", "config/settings.ini", "port", "8080"),
                            ("setting", "tests/test_app.py", "EXPECTED_PORT", "8000")], ("8000", "9000")),
    "diag-missing-module": (["cat src/shopcart/app.py", "ls src/shopcart"],
                            "app.py imports payments, but src/shopcart/payments.py does not exist.",
                            [("imports", "src/shopcart/app.py", "shopcart.payments"),
                             ("missing", "src/shopcart/payments.py")], ("payments.py", "payment.py")),
}
TASKS = {t.scenario.id: t for t in load_tasks()}


def test_every_task_has_an_oracle_and_the_bands_are_covered():
    assert set(ORACLE) == set(TASKS) and len(TASKS) >= 10
    assert {t.band for t in TASKS.values()} == {"search", "formal", "governance", "diagnosis"}


@pytest.mark.parametrize("task_id", sorted(ORACLE))
def test_the_oracle_game_wins_and_passes_the_checker_and_a_changed_value_does_not(task_id, tmp_path):
    task = TASKS[task_id]
    commands, answer, claims, (right, wrong) = ORACLE[task_id]
    project = tmp_path / "project"
    shutil.copytree(FIXTURE, project)
    t = make_tutor(project, goal=task.scenario.input, accept=task.accept)
    for command in commands:
        v = t.judge(propose(command))
        assert v.kind == "executed", v.reason
    assert right in answer
    lie = t.judge(respond(answer.replace(right, wrong), *claims))
    assert lie.status != WON, f"the tutor accepted a changed answer: {answer.replace(right, wrong)!r}"
    v = t.judge(respond(answer, *claims))
    assert v.status == WON, v.reason
    failures, _, _, _ = _judge_answer(task.scenario, answer, project)
    assert failures == [], failures
    assert all(t.graph.grounded(n.id) for n in t.graph.of_kind("claim") if n.status == "validated")


@pytest.mark.parametrize("task_id", sorted(ORACLE))
def test_after_the_evidence_every_suggested_answer_wins_and_one_of_them_is_right(task_id, tmp_path):
    """The tutor's drafted answers state only what the facts state (so each wins), and the evidence the
    oracle gathered puts a right one among them, or leaves the step that needs reasoning to the player."""
    from ragix_core.reasoning_tutor.moves import MoveReply
    from ragix_core.reasoning_tutor.suggest import suggest

    task = TASKS[task_id]
    commands = ORACLE[task_id][0]
    project = tmp_path / "project"
    shutil.copytree(FIXTURE, project)
    t = make_tutor(project, goal=task.scenario.input, accept=task.accept)
    for command in commands:
        t.judge(propose(command))
    suggestion = suggest(t)
    if task_id == "diag-missing-module":  # what is missing is the player's inference: no answer is offered
        assert not suggestion.moves and "missing" in suggestion.note
        return
    assert suggestion.moves and all(m["move"] == "RESPOND" for m in suggestion.moves)
    right = 0
    for m in suggestion.moves:
        trial = make_tutor(project, goal=task.scenario.input, accept=task.accept, log=False)
        for command in commands:
            trial.judge(propose(command))
        assert trial.judge(MoveReply.model_validate(m).root).status == WON, m
        right += not _judge_answer(task.scenario, m["answer"], project)[0]
    assert right >= 1, [m["answer"] for m in suggestion.moves]


def _game_after(task_id, tmp_path, *commands):
    """A game of the task on a fresh copy of the fixture, after ``commands`` ran."""
    task = TASKS[task_id]
    project = tmp_path / "project"
    shutil.copytree(FIXTURE, project)
    t = make_tutor(project, goal=task.scenario.input, accept=task.accept)
    for command in commands:
        assert t.judge(propose(command)).kind == "executed"
    return t


def test_arithmetic_on_a_number_no_file_shows_does_not_win(tmp_path):
    # Measured in the benchmark run of 2026-11-26: "8*42.50 = 340" won formal-orders-total; the 8 is in no
    # output (the file has 8.75). A value counts only when its operands were observed or stated by the goal.
    t = _game_after("formal-orders-total", tmp_path, "cat data/orders.csv", "calc 8*42.50")
    contains = ("contains", "data/orders.csv", "order_id,customer,amount")
    v = t.judge(respond('data/orders.csv says: "order_id,customer,amount" 8*42.50 = 340.', contains,
                        ("value", "8*42.50", "340")))
    assert v.status != WON and "computes with a number" in v.reason
    # ... and the tutor does not draft that answer for the player to copy (measured: it did, eight turns)
    from ragix_core.reasoning_tutor.suggest import suggest
    assert not any("340" in m.get("answer", "") for m in suggest(t).moves)
    assert t.judge(propose("calc 42.50+17.25+99.00+8.75+30.00")).kind == "executed"
    v = t.judge(respond("The amounts sum to 197.5.", contains, ("value", "42.50+17.25+99.00+8.75+30.00", "197.5")))
    assert v.status == WON, v.reason


def test_the_port_task_needs_the_port_the_test_expects_not_any_line_of_the_test(tmp_path):
    # The first benchmark's acceptance took any `contains` claim about tests/test_app.py, so an answer naming
    # the config's port and quoting an unrelated line of the test won without the expected port.
    t = _game_after("diag-port-mismatch", tmp_path, "cat config/settings.ini", "cat tests/test_app.py")
    port = ("setting", "config/settings.ini", "port", "8080")
    v = t.judge(respond("settings.ini sets port 8080; the test imports pytest.", port,
                        ("contains", "tests/test_app.py", "import")))
    assert v.status != WON
    v = t.judge(respond("settings.ini sets port 8080; the test expects 8000.", port,
                        ("setting", "tests/test_app.py", "EXPECTED_PORT", "8000")))
    assert v.status == WON, v.reason
