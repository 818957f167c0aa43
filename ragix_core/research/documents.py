"""Reading one document into its structure: a title, a date, and blocks under headings.

Markdown (markdown-it-py), HTML (selectolax's Lexbor parser), PDF (pypdf, one section per
page) and plain text (paragraphs). A file that cannot be read as its kind — binary content
in a text file, an encrypted or broken PDF, a parser error — raises ``Unreadable`` with the
reason; the indexer counts it and goes on (never fatal).
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple

__all__ = ["Block", "Document", "Unreadable", "MissingParser", "read_document", "KINDS", "kind_of", "decode_text"]

KINDS: Dict[str, str] = {
    ".md": "markdown", ".markdown": "markdown",
    ".txt": "text", ".text": "text", ".rst": "text",
    ".html": "html", ".htm": "html", ".xhtml": "html",
    ".pdf": "pdf",
}
_SNIFF = 8192
_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


class Unreadable(Exception):
    """The file is not a readable document of its kind; the message says why."""


class MissingParser(RuntimeError):
    """The library that reads this kind of file is not installed (every such file would fail)."""

    def __init__(self, kind: str, package: str) -> None:
        super().__init__(f"reading {kind} files needs {package}: pip install 'ragix[research]'")


@dataclass
class Block:
    heading: str  # heading path, " > " between levels ("" before the first heading)
    text: str


@dataclass
class Document:
    title: str
    date: Optional[str]  # ISO date (YYYY-MM-DD) stated by the document, else None
    blocks: List[Block] = field(default_factory=list)


def kind_of(path: Path) -> Optional[str]:
    return KINDS.get(path.suffix.lower())


def _iso_date(text: str) -> Optional[str]:
    m = _DATE.search(text or "")
    if not m:
        return None
    try:
        return _dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3))).isoformat()
    except ValueError:
        return None


def decode_text(data: bytes, name: str) -> str:
    """UTF-8 (with or without BOM), else Latin-1; binary content (NUL bytes) is ``Unreadable``."""
    if b"\x00" in data[:_SNIFF]:
        raise Unreadable("binary content (NUL bytes) in a text file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _squash(text: str) -> str:
    return " ".join(text.split())


class _Headings:
    """The current heading path while walking a document."""

    def __init__(self) -> None:
        self.stack: List[Tuple[int, str]] = []

    def push(self, level: int, title: str) -> None:
        while self.stack and self.stack[-1][0] >= level:
            self.stack.pop()
        self.stack.append((level, title))

    @property
    def path(self) -> str:
        return " > ".join(t for _, t in self.stack if t)


# -- Markdown -----------------------------------------------------------------------------

_FRONT_MATTER = re.compile(r"\A---\s*\n(.*?)\n---\s*\n", re.S)


def _markdown(text: str, fallback_title: str) -> Document:
    try:
        from markdown_it import MarkdownIt
    except ImportError:
        raise MissingParser("Markdown", "markdown-it-py") from None

    date = None
    title = ""
    fm = _FRONT_MATTER.match(text)
    if fm:
        for line in fm.group(1).splitlines():
            key, _, value = line.partition(":")
            if key.strip().lower() == "date":
                date = _iso_date(value)
            elif key.strip().lower() == "title":
                title = value.strip().strip("'\"")
        text = text[fm.end():]
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    heads = _Headings()
    blocks: List[Block] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.type == "heading_open":
            words = _squash(tokens[i + 1].content) if i + 1 < len(tokens) else ""
            level = int(tok.tag[1:])
            if level == 1 and not title:
                title = words
            heads.push(level, words)
            i += 3
            continue
        if tok.type in ("fence", "code_block"):
            if tok.content.strip():
                blocks.append(Block(heads.path, tok.content.strip()))
        elif tok.type == "inline" and tok.content.strip():
            blocks.append(Block(heads.path, _squash(tok.content)))
        i += 1
    return Document(title or fallback_title, date, blocks)


# -- HTML ---------------------------------------------------------------------------------

_SKIP = {"script", "style", "noscript", "template", "svg", "nav", "head", "iframe", "object", "button", "form"}
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_BLOCKS = {"p", "div", "li", "ul", "ol", "dl", "dt", "dd", "pre", "blockquote", "table", "tr", "td", "th",
           "caption", "section", "article", "main", "aside", "header", "footer", "figure", "figcaption",
           "br", "hr", "body", "address", "center"}
# A paragraph that is one short bold phrase and nothing else is a heading in many manuals (`<p><b>Maximum
# Number Of Tables In A Join</b></p>` in a list of limits): read as one level below h6, so the next real
# heading or the next such paragraph ends its section. Longer than this, it is emphasis, not a title.
_BOLD_HEADING_CHARS = 100
_BOLD_LEVEL = 7


def _bold_heading(node) -> Optional[str]:
    """The text of a ``<p>`` whose whole text is one ``<b>``/``<strong>`` phrase, else None."""
    bold = node.css_first("b, strong")  # first: most paragraphs have none, and their text is read once, later
    if bold is None:
        return None
    text = _squash(node.text(deep=True))
    if not text or len(text) > _BOLD_HEADING_CHARS or text[-1] in ".,;:":
        return None
    return text if _squash(bold.text(deep=True)) == text else None


def _html(text: str, fallback_title: str) -> Document:
    try:
        from selectolax.lexbor import LexborHTMLParser
    except ImportError:
        raise MissingParser("HTML", "selectolax") from None

    try:
        tree = LexborHTMLParser(text)
    except Exception as exc:  # the parser's own errors: this file only
        raise Unreadable(f"HTML parser failed: {exc}") from None
    node = tree.css_first("title")
    title = _squash(node.text()) if node is not None else ""
    date = None
    for meta in tree.css("meta[name], meta[property]"):
        name = (meta.attributes.get("name") or meta.attributes.get("property") or "").lower()
        if name in ("date", "dc.date", "article:published_time", "dcterms.date"):
            date = date or _iso_date(meta.attributes.get("content") or "")
    if date is None:
        t = tree.css_first("time[datetime]")
        date = _iso_date(t.attributes.get("datetime") or "") if t is not None else None
    root = tree.body or tree.root
    heads = _Headings()
    blocks: List[Block] = []
    buf: List[str] = []
    preformatted = [0]

    def flush() -> None:
        words = "".join(buf)
        buf.clear()
        words = words.strip() if preformatted[0] else _squash(words)
        if words:
            blocks.append(Block(heads.path, words))

    # A stack of child iterators, not recursion: generated HTML can nest deeper than Python's limit.
    iters = [iter(list(root.iter(include_text=True)))] if root is not None else []
    closers: List[Optional[str]] = [None]
    while iters:
        try:
            child = next(iters[-1])
        except StopIteration:
            iters.pop()
            tag = closers.pop()
            if tag in _BLOCKS:
                flush()
                if tag == "pre":
                    preformatted[0] -= 1
            continue
        tag = child.tag
        if tag == "-text":
            buf.append(child.text_content or "")
        elif tag in _SKIP or tag == "-comment" or tag.startswith("!"):
            continue
        elif tag in _HEADINGS:
            flush()
            words = _squash(child.text(deep=True))
            if _HEADINGS[tag] == 1 and not title:
                title = words
            heads.push(_HEADINGS[tag], words)
        elif tag == "p" and (words := _bold_heading(child)) is not None:
            flush()
            heads.push(_BOLD_LEVEL, words)
        else:
            if tag in _BLOCKS:
                flush()
                if tag == "pre":
                    preformatted[0] += 1
            iters.append(iter(list(child.iter(include_text=True))))
            closers.append(tag)
    flush()
    return Document(title or fallback_title, date, blocks)


# -- PDF ----------------------------------------------------------------------------------

def _pdf(path: Path, fallback_title: str) -> Document:
    try:
        from pypdf import PdfReader
    except ImportError:
        raise MissingParser("PDF", "pypdf") from None
    try:
        reader = PdfReader(str(path))
        if reader.is_encrypted:
            raise Unreadable("encrypted PDF")
        meta = reader.metadata or {}
        title = str(meta.get("/Title") or "").strip()
        raw_date = str(meta.get("/CreationDate") or "")
        date = None
        if raw_date.startswith("D:") and len(raw_date) >= 10:
            date = _iso_date(f"{raw_date[2:6]}-{raw_date[6:8]}-{raw_date[8:10]}")
        blocks: List[Block] = []
        for n, page in enumerate(reader.pages, start=1):
            text = page.extract_text() or ""
            for para in re.split(r"\n\s*\n", text):
                if para.strip():
                    blocks.append(Block(f"page {n}", _squash(para)))
    except Unreadable:
        raise
    except Exception as exc:  # pypdf raises many kinds on broken files: this file only
        raise Unreadable(f"PDF could not be read: {type(exc).__name__}: {exc}") from None
    if not blocks:
        raise Unreadable("PDF has no extractable text (scanned images?)")
    return Document(title or fallback_title, date, blocks)


# -- plain text ---------------------------------------------------------------------------

def _text(text: str, fallback_title: str) -> Document:
    blocks = [Block("", _squash(p)) for p in re.split(r"\n\s*\n", text) if p.strip()]
    first = blocks[0].text if blocks else ""
    title = first if 0 < len(first) <= 80 else fallback_title
    return Document(title, _iso_date(text[:300]) if re.match(r"\s*date\s*:", text[:300], re.I) else None, blocks)


def read_document(path: Path, data: Optional[bytes] = None) -> Document:
    """The structure of the document at ``path`` (``data``: its bytes, if already read)."""
    kind = kind_of(path)
    if kind is None:
        raise Unreadable(f"unsupported file type {path.suffix or '(none)'}")
    fallback = path.stem
    if kind == "pdf":
        return _pdf(path, fallback)
    if data is None:
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise Unreadable(f"cannot read: {exc.strerror or exc}") from None
    text = decode_text(data, path.name)
    if kind == "markdown":
        return _markdown(text, fallback)
    if kind == "html":
        return _html(text, fallback)
    return _text(text, fallback)
