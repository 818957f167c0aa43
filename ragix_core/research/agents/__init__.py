"""The four agents of spec 004: analyst, critic, writer, clarification."""

from .analyst import AnalystAgent
from .base import BaseReasoningAgent
from .clarification import ClarificationAgent
from .critic import CriticAgent
from .writer import WriterAgent

__all__ = ["BaseReasoningAgent", "AnalystAgent", "CriticAgent", "WriterAgent", "ClarificationAgent"]
