"""A report as a list of blocks, rendered to Markdown and to self-contained HTML.

Building blocks instead of Markdown text means the HTML needs no Markdown parser.
Inline text may use `code` spans; nothing else is interpreted.
"""

from __future__ import annotations

import base64
import html
import re
from dataclasses import dataclass
from pathlib import Path

from sanssim.analysis.fmt import Num, harmonised


@dataclass(frozen=True)
class Heading:
    level: int
    text: str


@dataclass(frozen=True)
class Para:
    text: str


@dataclass(frozen=True)
class Bullets:
    items: list[str]


@dataclass(frozen=True)
class Table:
    """Rows under a header. A column is one measure (the `alike` columns one between them),
    or where `measure` names the column that says each row's measure, the rows of one
    measure are: its estimates get one number of decimals (`fmt.harmonised`), the unit
    telling measures apart too (a share in % beside a count)."""

    header: list[str]
    rows: list[list[str]]
    measure: int | None = None
    alike: tuple[int, ...] = ()  # columns holding one measure between them (one per seat)

    def __post_init__(self) -> None:
        widths = {len(row) for row in self.rows} - {len(self.header)}
        if widths:
            raise ValueError(f"table rows of {widths} cells under {len(self.header)} headers")
        groups: dict[tuple, list[tuple[int, int]]] = {}
        for i, row in enumerate(self.rows):
            kind = () if self.measure is None else (row[self.measure],)
            for j, cell in enumerate(row):
                unit = cell.unit if isinstance(cell, Num) else None
                column = -1 if j in self.alike or kind else j
                groups.setdefault((column, unit, *kind), []).append((i, j))
        rows = [list(row) for row in self.rows]
        for places in groups.values():
            for (i, j), cell in zip(
                places, harmonised([rows[i][j] for i, j in places]), strict=True
            ):
                rows[i][j] = cell
        object.__setattr__(self, "rows", rows)


@dataclass(frozen=True)
class Figure:
    """A PNG file in the report directory."""

    file: str
    caption: str


Block = Heading | Para | Bullets | Table | Figure


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def to_markdown(blocks: list[Block]) -> str:
    out: list[str] = []
    for b in blocks:
        if isinstance(b, Heading):
            out.append(f"{'#' * b.level} {b.text}")
        elif isinstance(b, Para):
            out.append(b.text)
        elif isinstance(b, Bullets):
            out.append("\n".join(f"- {item}" for item in b.items))
        elif isinstance(b, Table):
            lines = [
                "| " + " | ".join(map(_md_cell, b.header)) + " |",
                "|" + "|".join("---" for _ in b.header) + "|",
            ]
            lines += ["| " + " | ".join(map(_md_cell, row)) + " |" for row in b.rows]
            out.append("\n".join(lines))
        else:
            out.append(f"![{b.caption}]({b.file})\n\n*{b.caption}*")
    return "\n\n".join(out) + "\n"


def _inline(text: str) -> str:
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))


STYLE = """body{font-family:sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;
line-height:1.45;color:#222}table{border-collapse:collapse;margin:1rem 0;font-size:.9rem}
table{display:block;overflow-x:auto}
td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left}th{background:#f2f2f2}
img{max-width:100%}figcaption{font-style:italic;color:#555}code{background:#f4f4f4}
p,li,figcaption,h1,h2,h3{overflow-wrap:break-word}"""


def to_html(blocks: list[Block], folder: Path, title: str) -> str:
    """A single HTML file; figures are embedded as base64 data URIs."""
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>",
    ]
    for b in blocks:
        if isinstance(b, Heading):
            out.append(f"<h{b.level}>{_inline(b.text)}</h{b.level}>")
        elif isinstance(b, Para):
            out.append(f"<p>{_inline(b.text)}</p>")
        elif isinstance(b, Bullets):
            out.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in b.items) + "</ul>")
        elif isinstance(b, Table):
            head = "".join(f"<th>{_inline(h)}</th>" for h in b.header)
            body = "".join(
                "<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in row) + "</tr>" for row in b.rows
            )
            out.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
        else:
            data = base64.b64encode((folder / b.file).read_bytes()).decode("ascii")
            out.append(
                f'<figure><img alt="{html.escape(b.caption)}" src="data:image/png;base64,{data}">'
                f"<figcaption>{_inline(b.caption)}</figcaption></figure>"
            )
    out.append("</body></html>")
    return "\n".join(out) + "\n"
