"""Small generated documents of lists and block quotes holding headings of random levels, and
what an independent reader (markdown-it-py's tokens) says their nested headings select.

The documents keep to Markdown every CommonMark reader reads alike: each line carries its
containers' markers in full (no lazy continuation), a list or quote is followed by a blank line,
and a link reference definition comes after one. Headings are titled `t0`, `t1`…, so each
heading's anchor is its title.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field

from markdown_it import MarkdownIt

MAX_DEPTH = 3
"""Containers inside one another, at most."""


@dataclass
class _Writer:
    rng: random.Random
    headings: int = 0
    definitions: int = 0

    def title(self) -> str:
        self.headings += 1
        return f"t{self.headings - 1}"

    def blocks(self, depth: int, top: bool = False) -> list[str]:
        """The lines of a few blocks, without the markers of the containers around them."""
        rng = self.rng
        lines: list[str] = []
        count = rng.randint(1, 5 if top else 3)
        for number in range(count):
            kind = rng.choice(
                ["heading", "heading", "para", "list", "quote", "definitions"]
                if depth < MAX_DEPTH
                else ["heading", "heading", "para", "definitions"]
            )
            if kind == "definitions" and not number:
                kind = "para"  # not a container's only text
            # A definition cannot interrupt a paragraph: a blank line before it.
            if lines and lines[-1] != "" and (kind == "definitions" or rng.random() < 0.6):
                lines.append("")
            if kind == "heading":
                lines.append(f"{'#' * rng.randint(1, 6)} {self.title()}")
            elif kind == "para":
                lines += [f"text {n}" for n in range(rng.randint(1, 2))]
            elif kind == "definitions":
                for _ in range(rng.randint(1, 2)):
                    self.definitions += 1
                    lines.append(f"[d{self.definitions}]: http://example.com/{self.definitions}")
            elif kind == "list":
                lines += self.items(depth + 1)
                lines.append("")
            else:
                lines += [f"> {line}" if line else ">" for line in self.blocks(depth + 1)]
                lines.append("")
        while lines and lines[-1] == "":
            lines.pop()
        return lines

    def items(self, depth: int) -> list[str]:
        """The lines of a list of one to three items."""
        marker = self.rng.choice(["-", "*", "1."])
        indent = " " * (len(marker) + 1)
        lines: list[str] = []
        for number in range(self.rng.randint(1, 3)):
            if number and self.rng.random() < 0.5:
                lines.append("")
            item = self.blocks(depth)
            lines.append(f"{marker} {item[0]}")
            lines += [f"{indent}{line}" if line else "" for line in item[1:]]
        return lines


def documents(count: int, seed: int = 33) -> Iterator[str]:
    """`count` documents, the same ones on every run."""
    rng = random.Random(seed)
    for _ in range(count):
        yield "\n".join(_Writer(rng).blocks(0, top=True)) + "\n"


@dataclass
class Heading:
    """A heading as markdown-it reads it: 1-based line, and the containers it is in."""

    title: str
    level: int
    line: int
    containers: tuple[int, ...]
    """Indices into Reading.blocks of the lists and quotes holding it, outermost first."""


@dataclass
class Block:
    kind: str
    """para, list or quote (mdsel's names)."""
    first: int
    last: int
    """1-based, inclusive, trailing blank lines dropped."""
    ancestors: tuple[int, ...]
    """Indices into Reading.blocks of the lists and quotes holding it."""


@dataclass
class Reading:
    lines: list[str]
    headings: list[Heading] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)

    def nested(self) -> list[Heading]:
        return [heading for heading in self.headings if heading.containers]

    def section(self, heading: Heading) -> tuple[int, int]:
        """A nested heading's lines: up to the next heading of its level or a higher one
        anywhere inside its innermost list or quote, or to that container's last line."""
        container = heading.containers[-1]
        last = self.blocks[container].last
        for later in self.headings:
            if (
                later.line > heading.line
                and container in later.containers
                and later.level <= heading.level
            ):
                last = min(last, later.line - 1)
                break
        quotes = sum(self.blocks[c].kind == "quote" for c in heading.containers)
        return heading.line, self._content_end(heading.line, last, quotes)

    def inside(self, heading: Heading, kind: str) -> list[tuple[int, int]]:
        """The lines of the outermost blocks of `kind` lying in the heading's own lines."""
        first, last = self.section(heading)

        def held(block: Block) -> bool:
            return block.kind == kind and first < block.first and block.last <= last

        return [
            (block.first, block.last)
            for block in self.blocks
            if held(block) and not any(held(self.blocks[a]) for a in block.ancestors)
        ]

    def _content_end(self, first: int, last: int, quotes: int) -> int:
        """`last`, or the line before the blank lines ending lines first-last: blank holds
        only spaces and tabs, or only the markers of the `quotes` quotes around the text."""
        while last > first:
            line = self.lines[last - 1]
            if line.strip(" \t>") or line.count(">") > quotes:
                break
            last -= 1
        return last


_KINDS = {
    "paragraph_open": "para",
    "bullet_list_open": "list",
    "ordered_list_open": "list",
    "blockquote_open": "quote",
}


def read(text: str) -> Reading:
    """What markdown-it-py reads in `text`."""
    reading = Reading(text.split("\n"))
    tokens = MarkdownIt("commonmark").parse(text)
    open_containers: list[int] = []
    for position, token in enumerate(tokens):
        if token.type in ("bullet_list_close", "ordered_list_close", "blockquote_close"):
            open_containers.pop()
            continue
        if token.type == "heading_open":
            assert token.map is not None
            title = tokens[position + 1].content
            reading.headings.append(
                Heading(title, int(token.tag[1]), token.map[0] + 1, tuple(open_containers))
            )
            continue
        kind = _KINDS.get(token.type)
        if kind is None or token.hidden:  # a tight item's text: no paragraph of its own
            continue
        assert token.map is not None
        first = token.map[0] + 1
        quotes = sum(reading.blocks[c].kind == "quote" for c in open_containers)
        quotes += kind == "quote"
        last = reading._content_end(first, token.map[1], quotes)
        block = Block(kind, first, last, tuple(open_containers))
        reading.blocks.append(block)
        if kind != "para":
            open_containers.append(len(reading.blocks) - 1)
    return reading
