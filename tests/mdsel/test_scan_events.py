"""scan_events: the loop over the parser's events, and RareHeadings, which it calls for headings
inside containers or with a closing sequence or attribute block."""

from __future__ import annotations

import pyromark
import pytest

from mdsel.columns import KINDS
from mdsel.errors import NodeLimitError
from mdsel.parse import OPTIONS
from mdsel.scan_events import CHECK_EVERY, RareHeadings, scan_events

DOCUMENT = (
    "# Title\n\ntext\n\n- a\n- b\n\n  ## In a list\n\n> quote\n\n## Next {#next}\n\n"
    "```\ncode\n```\n"
)


def events_of(text: str) -> list[tuple[object, object]]:
    return list(pyromark.events_with_range(text, options=OPTIONS))


def test_blocks_and_top_level_headings_from_a_list_of_events() -> None:
    found = scan_events(events_of(DOCUMENT), DOCUMENT.encode())
    kinds = [KINDS[kind] for kind in found.kinds]
    assert kinds == ["para", "list", "para", "para", "quote", "para", "code"]
    assert list(found.levels) == [1, 2]  # the heading in the list is not a section
    assert found.titles == "TitleNext"
    assert list(found.title_ends) == [5, 9]
    assert found.ids == {1: "next"}
    assert [(h.level, h.title, h.container) for h in found.nested] == [(2, "In a list", 1)]
    # The list holds its items' two paragraphs (the heading is not a block), the quote one.
    assert list(found.parents) == [-1, -1, 1, 1, -1, 4, -1]
    assert list(found.last) == [0, 3, 2, 3, 5, 5, 6]


def test_offsets_are_shifted_into_the_whole_file() -> None:
    data = b"---\na: 1\n---\n" + DOCUMENT.encode()
    shift = len(data) - len(DOCUMENT)
    plain = scan_events(events_of(DOCUMENT), DOCUMENT.encode())
    shifted = scan_events(events_of(DOCUMENT), data, shift)
    assert list(shifted.starts) == [start + shift for start in plain.starts]
    assert list(shifted.heading_starts) == [start + shift for start in plain.heading_starts]
    assert data[shifted.heading_starts[1] :].startswith(b"## Next")


def test_the_checkpoint_runs_before_each_run_of_events_and_can_stop_the_scan() -> None:
    text = "para\n\n" * CHECK_EVERY
    calls = []
    scan_events(events_of(text), text.encode(), checkpoint=lambda: calls.append(1))
    assert len(calls) == -(-len(events_of(text)) // CHECK_EVERY)

    class Stop(Exception):
        pass

    def stop() -> None:
        raise Stop

    with pytest.raises(Stop):
        scan_events(events_of(text), text.encode(), checkpoint=stop)


def test_the_node_limit_names_where_it_was_passed() -> None:
    text = "a\n\nb\n\nc\n"
    with pytest.raises(NodeLimitError) as caught:
        scan_events(events_of(text), text.encode(), max_nodes=2)
    assert caught.value.offset == text.index("c")


def test_a_nested_heading_keeps_its_innermost_container_whose_end_is_its_last_items() -> None:
    # pulldown-cmark's range of the list runs on over the definitions after it; its item's
    # does not, and neither does the list's end the heading's lines are cut at.
    text = "- ### Alpha\n\n  text\n\n[x]: http://a\n[y]: http://b\n"
    found = scan_events(events_of(text), text.encode())
    (heading,) = found.nested
    assert KINDS[found.kinds[heading.container]] == "list"
    assert found.ends[heading.container] == text.index("[x]")  # not 35, "[y]"
    text = "- a\n- > ## Quoted\n"
    found = scan_events(events_of(text), text.encode())
    (heading,) = found.nested
    assert KINDS[found.kinds[heading.container]] == "quote"


def test_rare_headings_keep_nested_ones_apart_and_strip_attribute_blocks() -> None:
    data = b"## Kept {#kept .cls}\n"
    rare = RareHeadings(data, 0)
    assert rare(2, 0, len(data), -1, "Kept {#kept .cls}", 0) == "Kept"
    assert rare.ids == {0: "kept"}
    assert rare.texts == {0: "Kept {#kept .cls}"}
    assert rare(3, 0, len(data), 4, "Kept {#kept .cls}", 1) is None  # inside block 4
    assert [(h.level, h.title, h.id, h.container) for h in rare.nested] == [(3, "Kept", "kept", 4)]
