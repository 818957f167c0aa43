"""Blocks under headings -> chunks small enough to show several to a 1.5B model.

A chunk never spans two sections (a heading starts a new one); consecutive blocks
of one section are packed up to ``max_chars``; a block longer than that is cut at
sentence ends (at a word when a sentence is itself too long). Each chunk keeps its
heading path, so a citation can say where in the document it came from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, List

from .documents import Block

__all__ = ["Chunk", "chunk_blocks", "MAX_CHARS"]

MAX_CHARS = 700  # about 175 tokens: eight chunks fit a 4,096-token context with the instructions
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


@dataclass
class Chunk:
    ord: int  # position in its document, from 0
    heading: str
    text: str


def _pieces(text: str, max_chars: int) -> List[str]:
    if len(text) <= max_chars:
        return [text]
    out: List[str] = []
    current = ""
    for sentence in _SENTENCE_END.split(text):
        while len(sentence) > max_chars:  # one sentence longer than a chunk: cut at a word
            cut = sentence.rfind(" ", 0, max_chars)
            cut = cut if cut > max_chars // 2 else max_chars
            head, sentence = sentence[:cut].rstrip(), sentence[cut:].lstrip()
            if current:
                out.append(current)
                current = ""
            out.append(head)
        if current and len(current) + 1 + len(sentence) > max_chars:
            out.append(current)
            current = sentence
        else:
            current = f"{current} {sentence}".strip()
    if current:
        out.append(current)
    return out


def chunk_blocks(blocks: Iterable[Block], max_chars: int = MAX_CHARS) -> List[Chunk]:
    chunks: List[Chunk] = []
    heading = None
    current = ""

    def emit() -> None:
        nonlocal current
        if current.strip():
            chunks.append(Chunk(len(chunks), heading or "", current.strip()))
        current = ""

    for block in blocks:
        if block.heading != heading:
            emit()
            heading = block.heading
        for piece in _pieces(block.text, max_chars):
            if current and len(current) + 2 + len(piece) > max_chars:
                emit()
            current = f"{current}\n{piece}" if current else piece
    emit()
    return chunks
