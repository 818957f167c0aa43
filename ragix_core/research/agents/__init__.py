"""The four agents of spec 004 (analyst, critic, writer, clarification) and the decomposer ragix adds."""

from .analyst import AnalystAgent
from .base import BaseReasoningAgent
from .clarification import ClarificationAgent
from .critic import CriticAgent
from .decomposer import DecomposerAgent
from .writer import WriterAgent

__all__ = ["BaseReasoningAgent", "AnalystAgent", "CriticAgent", "WriterAgent", "ClarificationAgent", "DecomposerAgent"]
