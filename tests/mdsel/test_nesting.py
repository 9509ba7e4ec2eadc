"""Section nesting, first lines and words before each heading, against worked examples."""

from __future__ import annotations

from array import array

from mdsel.nesting import first_lines, nest, words_before
from mdsel.source import line_table


def test_nest_closes_sections_at_the_same_or_a_higher_level() -> None:
    # h1 A, h2 B, h3 C, h2 D, h1 E at offsets 0, 10, 20, 30, 40 of a 50-byte document.
    levels = bytearray([1, 2, 3, 2, 1])
    starts = array("i", [0, 10, 20, 30, 40])
    ends, lasts, parents, depths = nest(levels, starts, 50, "i")
    assert list(ends) == [40, 30, 30, 40, 50]
    assert list(lasts) == [3, 2, 2, 3, 4]
    assert list(parents) == [-1, 0, 1, 0, -1]
    assert list(depths) == [0, 1, 2, 1, 0]


def test_a_deeper_first_heading_is_closed_by_a_shallower_one() -> None:
    ends, lasts, parents, depths = nest(bytearray([3, 1, 2]), array("i", [0, 5, 9]), 12, "i")
    assert (list(ends), list(lasts), list(parents), list(depths)) == (
        [5, 12, 12], [0, 2, 2], [-1, -1, 1], [0, 0, 1],
    )  # fmt: skip


def test_first_lines_and_words_before_each_heading() -> None:
    data = b"intro words\n\n# A\none two\n\n## B\nthree\n"
    lines = line_table(data)
    starts = array("i", [data.index(b"# A"), data.index(b"## B")])
    assert list(first_lines(lines, starts)) == [3, 6, 8]  # the last: the line of the file's end
    assert list(words_before(lines, starts)) == [2, 6, 9]  # the last: every word
    assert len(data.split()) == 9
