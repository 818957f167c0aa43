"""Ctrl-C during a write waits for the write (core/interrupt.py), with a real SIGINT."""

from __future__ import annotations

import os
import signal

import pytest

from ragix_core.core.interrupt import finishing, no_interrupt, sigint_ends_run
from ragix_core.memory.jsonl_log import JsonlLog


@pytest.fixture(autouse=True)
def default_sigint():
    """Python's own SIGINT handler for each test: a suite started in the background (nohup, `&`)
    inherits SIGINT ignored, and these tests are about what Ctrl-C does in a terminal."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def _ctrl_c() -> None:
    os.kill(os.getpid(), signal.SIGINT)


def test_an_interrupt_during_a_write_is_raised_after_it(tmp_path):
    log = JsonlLog(tmp_path / "events.jsonl")
    done = []
    with sigint_ends_run():
        with pytest.raises(KeyboardInterrupt):
            with no_interrupt():
                _ctrl_c()
                log.append({"n": 1})  # the write the interrupt arrived in the middle of
                done.append(True)
    assert done == [True] and [r["n"] for r in log] == [1]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # restored


def test_outside_a_write_the_interrupt_is_immediate():
    reached = []
    with sigint_ends_run():
        with pytest.raises(KeyboardInterrupt):
            _ctrl_c()
            reached.append(True)
    assert reached == []


def test_while_finishing_further_interrupts_are_ignored(capsys):
    with sigint_ends_run():
        with finishing():
            _ctrl_c()
            _ctrl_c()
        assert "already stopping" in capsys.readouterr().err


def test_without_the_handler_nothing_is_deferred():
    with pytest.raises(KeyboardInterrupt):
        with no_interrupt():
            _ctrl_c()
            pytest.fail("the default handler raises at once")
