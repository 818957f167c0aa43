import json
import pickle
import zipfile
from pathlib import Path

import pytest

from ragix_core.eval.benchmarks import BenchmarkError, benchmark_scenarios, last_number, numbers_equal
from ragix_core.eval.benchmarks.agentbench import agentbench_scenarios, find_wheel
from ragix_core.eval.benchmarks.answers import string_answer_matches
from ragix_core.eval.workspace import working_copy

DATA = "inspect_evals/agent_bench/data/"


def test_last_number_reads_the_final_value():
    assert last_number("Step 1: 12 apples, 3 pears. Total: 1,234.") == 1234
    assert last_number("3, 4") == 4 and last_number("none") is None
    assert numbers_equal("so the answer is 70", "70") and not numbers_equal("70 then 71", "70")


def test_string_answer_is_a_whole_word():
    assert string_answer_matches("Answer:\nyes\n", "yes")
    assert string_answer_matches("The file is `alpha.txt`.", "alpha.txt")
    assert not string_answer_matches("I do not know", "no")
    assert not string_answer_matches("", "x")


def test_gsm_is_deterministic_and_checked():
    pytest.importorskip("reasoning_gym")
    a = benchmark_scenarios("bench:gsm:5:7")
    b = benchmark_scenarios("bench:gsm:5:7")
    c = benchmark_scenarios("bench:gsm:5:8")
    assert [s.input for s in a] == [s.input for s in b] != [s.input for s in c]
    assert len(a) == 5 and a[0].id == "gsm-7-0"
    import reasoning_gym

    entry = reasoning_gym.create_dataset("gsm_symbolic", size=5, seed=7)[0]
    assert pickle.loads(pickle.dumps(a)) == a  # a worker process (ragix eval --jobs) gets the same checks
    ok, _ = a[0].checker(f"Reasoning... so the result is {entry['answer']}", Path("."))
    bad, detail = a[0].checker(f"{float(entry['answer']) + 1}", Path("."))
    assert ok and not bad and f"expected {entry['answer']}" in detail


@pytest.mark.parametrize("spec, fragment", [
    ("bench:nope", "unknown benchmark 'nope'"),
    ("bench:gsm:many", "size must be an integer"),
    ("bench:agentbench:train", "split must be one of dev, test"),
])
def test_bad_specs(spec, fragment, tmp_path, monkeypatch):
    monkeypatch.setenv("RAGIX_BENCH_DIR", str(make_wheel(tmp_path, [])))
    with pytest.raises(BenchmarkError, match=fragment):
        benchmark_scenarios(spec)


def make_wheel(tmp_path, tasks, scripts=None):
    d = tmp_path / "bench"
    d.mkdir(exist_ok=True)
    with zipfile.ZipFile(d / "inspect_evals-0.0.0-py3-none-any.whl", "w") as zf:
        zf.writestr(DATA + "agent_bench_os_test.json", json.dumps(tasks))
        zf.writestr(DATA + "agent_bench_os.json", "[]")
        for name, text in (scripts or {}).items():
            zf.writestr(DATA + "scripts/" + name, text)
    return d


TASKS = [
    {"id": 1, "description": "How many .log files are in /home/agent/logs?",
     "create": {"init": {"code": "mkdir -p /home/agent/logs && touch /home/agent/logs/a.log /home/agent/logs/b.log"}},
     "evaluation": {"check": [None, {"language": "python", "file": "check/integer-match.py"}],
                    "example": {"code": "ls /home/agent/logs/*.log | wc -l"}}},
    {"id": 2, "description": "Which file holds 'needle'?", "create": {"init": "echo needle > ~/hay.txt"},
     "evaluation": {"check": [None, {"file": "check/string-match.py"}], "example": {"file": "example/x.sh"}}},
    {"id": 3, "description": "fixed", "evaluation": {"match": "42"}},
    # rejected: users, background processes, system paths, container-only checks, missing scripts
    {"id": 4, "description": "x", "create": {"init": {"code": "useradd jack"}}, "evaluation": {"match": "1"}},
    {"id": 5, "description": "x", "start": "python3 -c 'while 1: pass' &", "evaluation": {"match": "1"}},
    {"id": 6, "description": "x", "create": {"init": {"code": "echo 1 > /etc/motd"}}, "evaluation": {"match": "1"}},
    {"id": 7, "description": "x", "evaluation": {"check": {"file": "check/0.sh"}}},
    {"id": 8, "description": "x", "create": {"init": {"file": "init/missing.sh"}}, "evaluation": {"match": "1"}},
    {"id": 9, "description": "x", "evaluation": {"check": [None, {"file": "check/integer-match.py"}],
                                                 "example": {"code": "ls $PATH | wc -l"}}},
    # the host's group database, not the task's files: ragix's answer is 53 here, the container's is another
    {"id": 10, "description": "How many groups are in this UNIX system?",
     "evaluation": {"check": [None, {"file": "check/integer-match.py"}], "example": "getent group | wc -l"}},
]


@pytest.mark.parametrize("sent", [False, True], ids=["here", "sent"])
def test_agentbench_adapter_selects_sets_up_and_checks(sent, tmp_path, monkeypatch):
    monkeypatch.setenv("RAGIX_BENCH_DIR", str(make_wheel(tmp_path, TASKS, {"example/x.sh": "#!/bin/bash\ngrep -l needle ~/*.txt | xargs -n1 basename\n"})))
    skipped = []
    scen = agentbench_scenarios("test", skipped=skipped)
    if sent:  # as a worker process gets them (ragix eval --jobs): the setup and checker still share the reference
        scen = pickle.loads(pickle.dumps(scen))
    assert [s.id for s in scen] == ["agentbench-os-test-1", "agentbench-os-test-2", "agentbench-os-test-3"]
    assert {sid for sid, _ in skipped} == {f"agentbench-os-test-{i}" for i in range(4, 11)}
    assert scen[0].input == "How many .log files are in ./logs?"
    assert all(s.home_is_workdir for s in scen)  # the copy stands for the container's home: `~` is read as it
    with working_copy(None) as work:
        scen[0].setup(work)
        assert sorted(p.name for p in (work / "logs").iterdir()) == ["a.log", "b.log"]
        assert scen[0].checker("There are 2 log files.", work)[0]
        assert not scen[0].checker("There are 3 log files.", work)[0]
    with working_copy(None) as work:
        scen[1].setup(work)  # "~" is the working copy
        assert scen[1].checker("hay.txt", work)[0] and not scen[1].checker("stack.txt", work)[0]
    assert scen[2].checker("42", Path("."))[0]


def test_agentbench_failed_reference_is_a_setup_error(tmp_path, monkeypatch):
    task = dict(TASKS[0], evaluation={"check": [None, {"file": "check/integer-match.py"}],
                                      "example": {"code": "echo not-a-number"}})
    monkeypatch.setenv("RAGIX_BENCH_DIR", str(make_wheel(tmp_path, [task])))
    (s,) = agentbench_scenarios("test")
    with working_copy(None) as work, pytest.raises(RuntimeError, match="not an integer"):
        s.setup(work)


def test_missing_wheel_says_how_to_get_it(no_bench_data):
    with pytest.raises(BenchmarkError, match="pip download --no-deps inspect-evals"):
        find_wheel()


def test_real_wheel_when_present():
    try:
        wheel = find_wheel()
    except BenchmarkError:
        pytest.skip("inspect-evals wheel not in .bench (pip download --no-deps inspect-evals==0.28.0 -d .bench)")
    if "0.0.0" in wheel.name:
        pytest.skip("test wheel")
    assert len(agentbench_scenarios("test", wheel)) >= 40
    assert len(agentbench_scenarios("dev", wheel)) >= 5
