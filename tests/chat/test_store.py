"""Sessions, threads and messages persist in SQLite; one session is answered by one process at a time."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest

from ragix_core.chat import messages as M
from ragix_core.chat.store import INTERRUPTED, ChatStore, SessionBusy, UnknownSession


def _thread(store, session, thread_id, question, answer=None, stop="success"):
    store.begin_thread(session, thread_id, question)
    store.add_messages(thread_id, [M.human(thread_id, question)])
    if answer is not None:
        store.add_messages(thread_id, [M.final_answer(f"{thread_id}:001", answer, stop_reason=stop)])
        store.finish_thread(thread_id, answer, stop, {"llm_calls": 2})


def test_a_conversation_is_read_back_by_another_store_instance(tmp_path):
    path = tmp_path / "s.sqlite"
    one = ChatStore(path)
    one.ensure_session("s1", docs="/docs")
    _thread(one, "s1", "t1", "What is 2+2?", "4")
    _thread(one, "s1", "t2", "and times 10?", "40")
    one.close()
    two = ChatStore(path)
    assert two.history("s1") == [("What is 2+2?", "4"), ("and times 10?", "40")]
    threads = two.threads("s1")
    assert [t.seq for t in threads] == [1, 2] and threads[0].usage == {"llm_calls": 2}
    assert [m.kind for m in two.messages("t1")] == ["human", "ai"]
    assert two.session("s1").docs == "/docs"
    (listed,) = two.sessions()
    assert listed.threads == 2 and listed.first_question == "What is 2+2?"


def test_adding_the_same_message_twice_keeps_one(tmp_path):
    store = ChatStore(tmp_path / "s.sqlite")
    store.ensure_session("s")
    store.begin_thread("s", "t", "q")
    q = M.human("t", "q")
    store.add_messages("t", [q])
    store.add_messages("t", [q, M.reasoning("t:001", "x", action="answer", tool_name=None, tool_input={})])
    assert [m.id for m in store.messages("t")] == ["t:000", "t:001"]


def test_unfinished_and_aborted_threads_stay_out_of_the_history(tmp_path):
    store = ChatStore(tmp_path / "s.sqlite")
    store.ensure_session("s")
    _thread(store, "s", "t1", "first", "one")
    _thread(store, "s", "t2", "killed mid-way")  # its process died: never finished
    _thread(store, "s", "t3", "ctrl-c", "partial", stop="user_abort")
    assert store.close_unfinished("s") == 1
    assert store.threads("s")[1].stop_reason == INTERRUPTED
    assert store.history("s") == [("first", "one")]


def test_delete_removes_threads_and_messages(tmp_path):
    store = ChatStore(tmp_path / "s.sqlite")
    store.ensure_session("s")
    _thread(store, "s", "t1", "q", "a")
    store.delete_session("s")
    assert store.session("s") is None and store.threads("s") == [] and store.messages("t1") == []
    with pytest.raises(UnknownSession, match="no chat session 's'"):
        store.delete_session("s")
    with pytest.raises(UnknownSession):
        store.begin_thread("s", "t9", "q")


def test_the_lock_serialises_two_holders_of_one_session(tmp_path):
    store_a, store_b = ChatStore(tmp_path / "s.sqlite"), ChatStore(tmp_path / "s.sqlite")
    order = []
    entered = threading.Event()

    def first():
        with store_a.lock("s"):
            entered.set()
            order.append("a-in")
            time.sleep(0.4)
            order.append("a-out")

    t = threading.Thread(target=first)
    t.start()
    entered.wait(5)
    waited = []
    with store_b.lock("s", on_wait=lambda: waited.append(True)):
        order.append("b-in")
    t.join()
    assert order == ["a-in", "a-out", "b-in"] and waited == [True]
    with store_a.lock("other"):  # another session is not held up
        pass


def test_a_busy_session_times_out_with_a_clear_error(tmp_path):
    store = ChatStore(tmp_path / "s.sqlite")
    holder = subprocess.Popen([sys.executable, "-c", (
        "import fcntl, hashlib, os, sys, time\n"
        f"p = os.path.join({str(store.lock_dir)!r}, hashlib.sha256(b's').hexdigest()[:32] + '.lock')\n"
        "fd = os.open(p, os.O_RDWR | os.O_CREAT); fcntl.flock(fd, fcntl.LOCK_EX)\n"
        "print('held', flush=True); time.sleep(30)")], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(SessionBusy, match="session 's' is busy"):
            with store.lock("s", timeout=0.3):
                pass
    finally:
        holder.kill()
        holder.wait()
    with store.lock("s", timeout=5):  # the lock died with its process
        pass


def test_an_unwritable_store_is_a_clear_error(tmp_path):
    from ragix_core.chat.store import StoreError

    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match="cannot open the chat store"):
        ChatStore(blocker / "sub" / "s.sqlite")
