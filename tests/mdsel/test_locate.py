"""Which section holds a line, and which page shows it."""

from __future__ import annotations

from pathlib import Path

import mdsel
from mdsel.locate import page_holding, section_at
from mdsel.paginate import pages
from tests.conftest import FIXTURES

STRUCTURE = mdsel.parse_document((FIXTURES / "structure.md").read_bytes())


def test_every_line_maps_to_the_innermost_section_holding_it() -> None:
    doc = STRUCTURE
    for line in range(1, doc.line_count + 1):
        index = section_at(doc, line)
        holding = [
            i
            for i, h in enumerate(doc.headings)
            if h.line_start <= line and doc.lines.line_of(h.section_end - 1) >= line
        ]
        # The innermost section holding a line is the last (deepest) one that starts before it.
        assert index == (holding[-1] if holding else -1), line


def test_lines_before_the_first_heading_belong_to_the_root_only() -> None:
    assert [section_at(STRUCTURE, n) for n in (1, 4, 5, 7)] == [-1, -1, -1, -1]
    assert section_at(STRUCTURE, 8) == 0  # the `# Guide` line itself


def test_a_setext_underline_belongs_to_its_heading() -> None:
    heading = STRUCTURE.headings[5]
    assert heading.title == "Setext title"
    assert section_at(STRUCTURE, heading.line_start + 1) == 5


def test_page_holding_a_line() -> None:
    doc = mdsel.parse_document(b"".join(b"word %d\n" % n for n in range(1, 31)))
    spans = pages(doc, 1, 30, 20)  # two words a line: ten lines a page
    assert [(s.line_start, s.line_end) for s in spans] == [(1, 10), (11, 20), (21, 30)]
    assert [page_holding(spans, n) for n in (1, 10, 11, 25, 30)] == [1, 1, 2, 3, 3]
    # Not shown (cut off by head/tail): the nearest page, the last before it, else the first.
    assert page_holding(spans[1:], 31) == 2
    assert page_holding(spans[1:], 5) == 1


def test_a_line_no_page_shows_gets_the_nearest_page_and_no_claim(tmp_path: Path) -> None:
    # Lines 3-32 hold ten words each; 33-34 are blank and belong to A, whose pages end at 32.
    body = [f"line{n:02d} w w w w w w w w w" for n in range(3, 33)]
    path = tmp_path / "doc.md"
    path.write_text("\n".join(["# A", "", *body, "", "", "# B", "", "end"]) + "\n")
    options = mdsel.Options(page_words=20)

    def trailer(selector: str) -> str:
        outcome = mdsel.run_command("select", selector, [str(path)], options)
        assert outcome.exit_code == 0, outcome.stderr
        return outcome.stdout.splitlines()[-1]

    assert trailer("L20").startswith("[page 10/16 of h1.0, holding line 20:")
    # The blank line after A's text: A's last page, which does not claim to show it.
    assert trailer("L33").startswith("[page 16/16 of h1.0: ")
    # A line that head= cut off is not on any page either.
    assert "holding" not in trailer("L30?head=4")
    spans = pages(mdsel.parse_document(path.read_bytes()), 1, 34, 20, 10**6)
    assert page_holding(spans, 33) == len(spans)
    assert page_holding(spans, 1) == 1
