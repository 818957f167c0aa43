"""Ctrl-C during an embedded model call stops the generation, not only the wait for it."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from ragix_core.llm.embedded import EmbeddedClient


class SlowServer:
    """Stands in for llama.cpp's server: streams one token every 10 ms until told to stop."""

    def __init__(self):
        self.tokens = 0
        self.stopped = threading.Event()

    def handle_chat_completions(self, req, on_chunk=None):
        for _ in range(3000):
            self.tokens += 1
            if on_chunk({"choices": [{"delta": {"content": "x"}}]}):
                self.stopped.set()
                return
            time.sleep(0.01)


@pytest.fixture()
def ctrl_c_raises():
    """A process started in the background inherits SIGINT ignored (CI may start pytest so); Ctrl-C must raise."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="signals go to the main thread")
def test_ctrl_c_stops_the_generation_at_its_next_token(ctrl_c_raises):
    server = SlowServer()
    client = EmbeddedClient("m")
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        client._stream_until(server, {"messages": []}, time.monotonic() + 60, "test", 60)
    assert server.stopped.wait(2), "the abandoned generation kept running"
    assert server.tokens < 300  # ~30 at the interrupt, not the 3000 the deadline would allow
