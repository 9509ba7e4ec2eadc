"""Which section holds a line, which page shows it, and the lines of a heading inside a list or
quote."""

from __future__ import annotations

from pathlib import Path

import pytest

import mdsel
from mdsel.locate import page_holding, section_at
from mdsel.paginate import pages
from tests.conftest import FIXTURES
from tests.nested_markdown import documents, read

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


# -- the lines of a heading inside a list or quote --------------------------------------------


def lines_of(markdown: str, request: str) -> tuple[int, int]:
    """(first, last) line of the one match of `request`."""
    source = mdsel.Source("doc", "doc.md", mdsel.parse_document(markdown.encode()))
    (match,) = mdsel.select(request, [source], mdsel.Options(full=True)).matches
    return match.line_start, match.line_end


@pytest.mark.parametrize(
    "between",
    ["- > ## Beta", "- - ## Beta", "- > > ## Beta", "-   > ### Beta"],
)
def test_a_nested_heading_ends_at_a_higher_one_further_in_its_list(between: str) -> None:
    # Beta is in a quote or list inside the list holding Alpha: still in Alpha's list.
    assert lines_of(f"- ### Alpha\n{between}\n- ### Gamma\n", "#alpha") == (1, 1)


@pytest.mark.parametrize("between", ["> - ## Beta", "> > ## Beta", "> - > #### Beta"])
def test_a_nested_heading_ends_at_a_higher_one_further_in_its_quote(between: str) -> None:
    markdown = f"> ### Alpha\n> text\n{between}\n> ### Gamma\n"
    assert lines_of(markdown, "#alpha") == ((1, 3) if "####" in between else (1, 2))


def test_a_nested_heading_ends_with_its_list_not_on_definitions_after_it() -> None:
    # pulldown-cmark's range of the list runs on to the last definition's line.
    markdown = "- ### Alpha\n\n  text\n\n[x]: http://a\n[y]: http://b\n"
    assert lines_of(markdown, "#alpha") == lines_of(markdown, "list.0") == (1, 3)
    markdown = "# Top\n\n- a\n- ### Alpha\n  text\n\n[x]: http://a\n[y]: http://b\n\nafter\n"
    assert lines_of(markdown, "#alpha") == (4, 5)


def test_a_nested_headings_trailing_marker_lines_are_its_quotes_only() -> None:
    # `> >` closes the inner quote, which Alpha is not in: text, as in quote.0 around both.
    markdown = "> ### Alpha\n> > inner\n> >\n\nafter\n"
    assert lines_of(markdown, "#alpha") == lines_of(markdown, "quote.0") == (1, 3)
    markdown = "> ### Alpha\n> text\n>\n\nafter\n"
    assert lines_of(markdown, "#alpha") == lines_of(markdown, "quote.0") == (1, 2)
    markdown = "- ### Alpha\n  > inner\n  >\n\nafter\n"
    assert lines_of(markdown, "#alpha") == lines_of(markdown, "list.0") == (1, 3)


def test_nested_headings_lines_agree_with_markdown_it() -> None:
    # Generated lists and quotes holding headings of every level, against markdown-it-py's
    # reading: each nested heading's lines run to the next heading of its level or a higher
    # one anywhere in its innermost list or quote, or to that container's last line.
    checked = 0
    for text in documents(250):
        reading = read(text)
        for heading in reading.nested():
            assert lines_of(text, f"#{heading.title}") == reading.section(heading), text
            checked += 1
    assert checked > 500
