"""The orchestrator's step written as free text (``chat.decisions: free``), read into spec 003's decision.

A small model writes better free text than JSON ("Let Me Speak Freely?", arXiv 2408.02442; NL2SH,
2502.06858: Qwen2.5-Coder-1.5B's shell commands 0.21 -> 0.50 taken from a free answer's code block),
and a code model computes better by writing a program than by doing arithmetic in words (PAL, arXiv
2211.10435; Program of Thoughts, 2211.12588). Measured here on MT-Bench's math at 01d06c0: the JSON
orchestrator answered 2/20 turns, the same model answering in one plain call 4/20 (docs/RESULTS.md).

So the step is the model's own reply (prompts/chat_free.md):
- a fenced ```python block (or an unlabelled one) is a ``repl`` call with that code;
- else a line ``SEARCH: keywords`` is a ``search`` call, when the run has the search tool;
- else the reply is the answer, kept as the step's ``draft``: the writer sends it as it stands
  (one call, as the plain call makes), where a JSON step would need a second call to write it.
The reply is untrusted: code runs in the repl's OS sandbox, and every field is bounded as the JSON
decision's are (decision.normalised).
"""

from __future__ import annotations

import re
from typing import Any, Dict, Sequence, Tuple

from ragix_core.core.text import bounded
from ragix_core.llm.codeblock import FENCE

from .decision import INPUT_CHARS, THINKING_CHARS

__all__ = ["free_decision", "REPLY_CHARS", "PYTHON_TAGS"]

REPLY_CHARS = 6000  # of a reply kept in the transcript (the code and the words around it)
PYTHON_TAGS = ("python", "py", "python3", "")  # a block with another tag (bash, text) is not run
_SEARCH = re.compile(r"^[ \t*_]*SEARCH[ \t*_]*:[ \t]*(.+?)[ \t*_]*$", re.IGNORECASE | re.MULTILINE)


def _program(reply: str) -> Tuple[str, str, str]:
    """The first Python block's code, the words before it, and the reply as kept: up to that block,
    closed (generation stops at CLOSING_FENCE; what a model writes after its program, an output it
    imagines, is never shown to it again). ('', reply, reply) when there is none."""
    for match in FENCE.finditer(reply):
        code = match.group(2).strip("\n")
        if match.group(1).lower() in PYTHON_TAGS and code.strip():
            before = reply[:match.start()].strip()
            return code, before, f"{before}\n```python\n{code}\n```".strip()
    return "", reply.strip(), reply.strip()


def free_decision(reply: str, tools: Sequence[str]) -> Tuple[str, Dict[str, Any]]:
    """``(thinking, meta)`` for a reasoning message, as ``decision.normalised`` gives them for a JSON
    step; ``meta["reply"]`` keeps what the model wrote (its transcript turn), ``meta["draft"]`` the
    answer of an answering step."""
    reply = (reply or "").strip()
    code, words, kept = _program(reply) if "repl" in tools else ("", reply, reply)
    meta: Dict[str, Any] = {"action": "answer", "tool_name": None, "tool_input": {}, "confidence": 50,
                            "missing_info": [], "reply": bounded(kept, REPLY_CHARS), "format": "free"}
    if code:
        meta.update(action="repl", tool_name="repl", tool_input={"code": bounded(code, INPUT_CHARS)})
    elif "search" in tools and _SEARCH.search(reply):
        query = _SEARCH.search(reply).group(1).strip().strip("`\"'")
        meta.update(action="search", tool_name="search", tool_input={"query": bounded(query, 300, marker=False)})
    else:
        meta["draft"] = bounded(reply, INPUT_CHARS)
    return bounded(words, THINKING_CHARS), meta
