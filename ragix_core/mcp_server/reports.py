"""The structured content every tool returns: the answer, why the run stopped, the commands run
with their outputs, and where the trace is. Outputs are cut to a bound, and the cut is said."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from pydantic import BaseModel, Field

from ragix_core.core.types import ToolResult

__all__ = ["CommandRecord", "RunReport", "CommandReport", "CorpusHit", "CorpusReport", "command_record",
           "OUTPUT_CHARS"]

OUTPUT_CHARS = 8000  # per output stream: enough for an answer's evidence, not a flood into the client


def _cut(text: Optional[str]) -> str:
    text = text or ""
    return text if len(text) <= OUTPUT_CHARS else text[:OUTPUT_CHARS] + f"\n[... cut at {OUTPUT_CHARS} characters]"


class CommandRecord(BaseModel):
    command: str
    returncode: Optional[int] = None
    stdout: str = ""
    stderr: str = ""
    refused: bool = False
    error: Optional[str] = None
    truncated: bool = False


class RunReport(BaseModel):
    answer: str = Field(description="The final answer (may say why there is none).")
    stop_reason: str = Field(description="success, or the named reason the run stopped.")
    caveat: Optional[str] = Field(default=None, description="ragix's reservation about the answer: commands that "
                                  "printed different outputs, or a short answer no second command reproduced.")
    commands: List[CommandRecord] = Field(default_factory=list, description="Commands run, with their outputs.")
    trace_path: Optional[str] = Field(default=None, description="The run's trace file on the server's machine.")
    session_id: Optional[str] = None
    strategy: Optional[str] = None
    usage: Dict[str, int] = Field(default_factory=dict)
    details: Dict[str, Any] = Field(default_factory=dict, description="Engine-specific facts (score, status...).")


class CommandReport(BaseModel):
    ok: bool
    result: CommandRecord


class CorpusHit(BaseModel):
    source: str
    score: float
    event: Dict[str, Any]


class CorpusReport(BaseModel):
    query: str
    hits: List[CorpusHit]


def command_record(result: ToolResult, shown: Optional[str] = None) -> CommandRecord:
    return CommandRecord(command=shown or result.written or result.command or result.tool,
                         returncode=result.returncode, stdout=_cut(result.stdout), stderr=_cut(result.stderr),
                         refused=result.refused, error=result.error, truncated=result.truncated)


def text_record(command: str, output: Any, error: Any = None) -> CommandRecord:
    return CommandRecord(command=command, stdout=_cut(output if isinstance(output, str) else repr(output)),
                         error=None if error is None else str(error))
