"""The instructions block as text: appended after a blank line, taken out byte for byte."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import mdsel
from mdsel_claude.server.tools import INDEX_TOOL, SELECT_TOOL
from mdsel_claude.setup import instructions_block as ib
from tests.conftest import ROOT
from tests.mdsel_claude.server.test_tools import readme

LAYOUTS = [
    "",
    "x",
    "x\n",
    "x\n\n",
    "x\n\n\n",
    "# Notes\r\n\r\nUse tabs.\r\n",
    "# Notes\r\nno final ending",
    "\ufeff",
    "\ufeff# With a BOM\n",
    "\n",
    "\r\n",
    "trailing spaces   \n   ",
    "old Mac\rline endings\r",
    "mixed\r\nendings\nhere",
    "unicode: é ß 中文 \u2028 inside a line\n",
    "<!-- a comment of the user's -->\n",
    "ends in a form feed\x0c",
]


@pytest.mark.parametrize("text", LAYOUTS)
def test_append_then_take_out_gives_back_every_byte(text: str) -> None:
    done = ib.append(text)
    assert done.text.startswith(text) and done.text.endswith(done.block)
    assert done.text == text + done.piece
    assert ib.take_out(done.text, done.piece, done.block) == text
    assert ib.state(done.text) == "present"
    assert ib.state(text) == "absent"


@pytest.mark.parametrize("text", LAYOUTS)
def test_what_the_user_adds_around_the_block_stays(text: str) -> None:
    done = ib.append(text)
    before, after = "# Added on top\n", "\nAdded below.\n"
    edited = before + done.text + after
    assert ib.take_out(edited, done.piece, done.block) == before + text + after


def test_the_block_follows_a_blank_line_in_the_file_s_own_line_ending() -> None:
    assert ib.append("a\r\nb\r\n").text == "a\r\nb\r\n\r\n" + ib.block("\r\n")
    assert ib.append("a\nb").text == "a\nb\n\n" + ib.block("\n")
    assert ib.append("a\n\n").piece == ib.block("\n")
    assert ib.append("").text == ib.block("\n")


def test_a_blank_line_taken_out_by_hand_still_lets_the_block_go() -> None:
    done = ib.append("mine\n")
    squeezed = "mine\n" + done.block
    assert ib.take_out(squeezed, done.piece, done.block) == "mine\n"


def test_a_final_line_ending_taken_away_by_hand_still_lets_the_block_go() -> None:
    done = ib.append("mine\n")
    assert ib.take_out(done.text[:-1], done.piece, done.block) == "mine\n"


def test_an_edited_block_is_not_taken_out() -> None:
    done = ib.append("mine\n")
    edited = done.text.replace("not whole", "never whole")
    assert ib.take_out(edited, done.piece, done.block) is None
    assert ib.state(edited) == "edited"


def test_the_block_inside_a_line_is_not_ours() -> None:
    text = "quoted: " + ib.block()
    assert ib.state(text) == "absent"  # the marker is there, but not as a line of its own
    assert ib.take_out(text, ib.block(), ib.block()) is None


def test_an_older_block_is_replaced_in_place() -> None:
    older = ib.block("\r\n").replace("not whole", "not in one go")
    text = f"top\r\n\r\n{older}below\r\n"
    assert ib.state(text, older) == "older"
    assert ib.replace(text, older) == f"top\r\n\r\n{ib.block(chr(13) + chr(10))}below\r\n"


def test_the_block_is_a_few_lines_naming_both_tools() -> None:
    text = ib.block()
    assert INDEX_TOOL in text and SELECT_TOOL in text
    assert "?q=" in text and ":812" in text
    assert len(text.splitlines()) <= 8 and len(text.encode()) < 800


QUOTED = [s for s in re.findall(r"`([^`]+)`", "".join(ib.BODY)) if "_" not in s]


@pytest.mark.parametrize("selector", QUOTED)
def test_every_selector_the_block_quotes_selects(tmp_path: Path, selector: str) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text(readme(), encoding="utf-8")
    assert len(QUOTED) == 3
    outcome = mdsel.run_command("select", selector, ["docs/a.md"], cwd=str(tmp_path))
    assert (outcome.exit_code, outcome.stderr) == (0, "")
    assert outcome.stdout.strip()


def test_round_trips_over_many_small_layouts() -> None:
    # Every text of up to five characters drawn from what decides a layout: line ends, a
    # lone CR, a BOM, a space, a letter, and the block's own first character.
    import itertools

    alphabet = ["a", "\n", "\r", "\r\n", "\ufeff", " ", "<"]
    for size in range(6):
        for parts in itertools.product(alphabet, repeat=size):
            text = "".join(parts)
            done = ib.append(text)
            assert ib.take_out(done.text, done.piece, done.block) == text, repr(text)


def test_the_clients_page_shows_the_block_as_written() -> None:
    page = (ROOT / "docs" / "clients.md").read_text(encoding="utf-8")
    assert f"```markdown\n{ib.block()}```\n" in page


def test_a_file_whose_line_endings_were_converted_still_gives_the_block_back() -> None:
    done = ib.append("mine\n")
    converted = done.text.replace("\n", "\r\n")
    assert ib.take_out(converted, done.piece, done.block) is None
    swapped = ib.take_out(converted, ib.respelled(done.piece), ib.respelled(done.block))
    assert swapped == "mine\r\n"
