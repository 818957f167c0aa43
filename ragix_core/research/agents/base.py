"""What every research agent shares: its prompt files, the model call, the record of it.

An agent asks through ``llm.structured.ask_json`` (schema-constrained, validated, one
repair, then ``StopRun``) with its own per-call timeout. Messages are two: the agent's
system prompt (``prompts/research_<agent>.md``, fixed text) and its task
(``prompts/research_<agent>_task.md``: the run's sources and question first, then what
changes per call), so llama.cpp's prompt cache reuses the sources across calls.
The last exchange is kept for the iteration logger.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple, Type, TypeVar

from pydantic import BaseModel

from ragix_core import prompts
from ragix_core.llm.structured import ask_json

__all__ = ["BaseReasoningAgent"]

M = TypeVar("M", bound=BaseModel)


class BaseReasoningAgent:
    def __init__(self, client: Any, agent_name: str, timeout: Optional[float] = None, max_retries: int = 1) -> None:
        """``client``: an LLMClient (a role's TracedClient in a run). ``max_retries``: repairs of an
        invalid reply (ask_json makes exactly one)."""
        self.client = client
        self.agent_name = agent_name
        self.timeout = timeout
        self.max_retries = max_retries
        self.last_messages: List[Dict[str, str]] = []
        self.last_reply: Any = None
        self.last_usage: Dict[str, int] = {}

    def messages(self, prompt_name: str, system_values: Dict[str, Any], task_values: Dict[str, Any]) -> List[Dict[str, str]]:
        return [{"role": "system", "content": prompts.render(prompt_name, **system_values)},
                {"role": "user", "content": prompts.render(f"{prompt_name}_task", **task_values)}]

    def ask(self, prompt_name: str, custom_vars: Dict[str, Any], reply_model: Type[M], *,
            system_vars: Optional[Dict[str, Any]] = None, schema: Optional[Dict[str, Any]] = None,
            max_tokens: int = 512, temperature: Optional[float] = None) -> Tuple[M, Any]:
        """The validated reply of the model to this agent's prompt; ``StopRun`` (``<agent>_failed``,
        ``llm_timeout``, ``llm_unavailable``) when there is none. ``temperature`` None: the role's own."""
        self.last_messages = self.messages(prompt_name, system_vars or {}, custom_vars)
        reply, completion = ask_json(self.client, self.last_messages, reply_model,
                                     stop_reason=f"{self.agent_name}_failed", schema=schema,
                                     max_tokens=max_tokens, temperature=temperature, timeout=self.timeout)
        self.last_reply = reply.model_dump()
        usage = getattr(completion, "usage", None)
        self.last_usage = {"prompt_tokens": getattr(usage, "prompt_tokens", 0),
                           "completion_tokens": getattr(usage, "completion_tokens", 0),
                           "latency": round(float(getattr(completion, "latency", 0.0) or 0.0), 3)}
        return reply, completion
