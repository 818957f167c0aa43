"""A report as plain blocks (headings, paragraphs, tables, lists, figures), written to Markdown or HTML.

One structure, two small writers: the Markdown and the HTML say the same thing, and neither needs a
template engine or a Markdown library.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import List, Sequence, Union

__all__ = ["Heading", "Paragraph", "Table", "Bullets", "Figure", "Block", "to_markdown", "to_html"]


@dataclass
class Heading:
    text: str
    level: int = 2


@dataclass
class Paragraph:
    text: str


@dataclass
class Table:
    header: Sequence[str]
    rows: List[Sequence[object]]
    align_right: Sequence[bool] = field(default_factory=tuple)  # per column: numbers read better right-aligned


@dataclass
class Bullets:
    items: List[str]


@dataclass
class Figure:
    path: str  # relative to the report
    caption: str


Block = Union[Heading, Paragraph, Table, Bullets, Figure]


def _cell(value: object) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def to_markdown(blocks: List[Block]) -> str:
    out: List[str] = []
    for b in blocks:
        if isinstance(b, Heading):
            out.append("#" * b.level + " " + b.text)
        elif isinstance(b, Paragraph):
            out.append(b.text)
        elif isinstance(b, Table):
            right = list(b.align_right) + [False] * (len(b.header) - len(b.align_right))
            lines = ["| " + " | ".join(_cell(h) for h in b.header) + " |",
                     "|" + "|".join(" ---: " if r else " --- " for r in right) + "|"]
            lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in b.rows]
            out.append("\n".join(lines))
        elif isinstance(b, Bullets):
            out.append("\n".join(f"- {item}" for item in b.items))
        elif isinstance(b, Figure):
            out.append(f"![{b.caption}]({b.path})")
    return "\n\n".join(out) + "\n"


def to_html(blocks: List[Block], title: str) -> str:
    e = html.escape
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">', f"<title>{e(title)}</title>",
           "<style>body{font-family:sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem}"
           "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .5rem}"
           "td.n{text-align:right}img{max-width:100%}</style>", "</head><body>"]
    for b in blocks:
        if isinstance(b, Heading):
            out.append(f"<h{b.level}>{e(b.text)}</h{b.level}>")
        elif isinstance(b, Paragraph):
            out.append(f"<p>{e(b.text)}</p>")
        elif isinstance(b, Table):
            right = list(b.align_right) + [False] * (len(b.header) - len(b.align_right))
            out.append("<table><thead><tr>" + "".join(f"<th>{e(str(h))}</th>" for h in b.header) + "</tr></thead><tbody>")
            for row in b.rows:
                out.append("<tr>" + "".join(f'<td{" class=n" if r else ""}>{e(str(c))}</td>'
                                            for c, r in zip(row, right)) + "</tr>")
            out.append("</tbody></table>")
        elif isinstance(b, Bullets):
            out.append("<ul>" + "".join(f"<li>{e(i)}</li>" for i in b.items) + "</ul>")
        elif isinstance(b, Figure):
            out.append(f'<figure><img src="{e(b.path)}" alt="{e(b.caption)}"><figcaption>{e(b.caption)}'
                       "</figcaption></figure>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
