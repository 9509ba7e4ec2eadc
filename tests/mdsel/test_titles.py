"""Titles in text output: control characters escaped as Python's repr escapes them, every other
character as written; and the places titles are printed (index lines, suggestions, toc)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mdsel.cli import run
from mdsel.titles import shown_title

CONTROLS = [chr(c) for c in [*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029]]


@pytest.mark.parametrize("char", CONTROLS, ids=lambda c: f"U+{ord(c):04X}")
def test_each_control_character_is_escaped_like_python_repr(char: str) -> None:
    """Reference: `repr` of the character, which escapes exactly the unprintable ones."""
    shown = shown_title(f"a{char}b")
    assert shown == f"a{repr(char)[1:-1]}b"
    assert shown.isprintable()


def test_every_character_the_pattern_escapes_is_unprintable() -> None:
    """shown_title skips the search for a printable title: that is only right while every
    character of the pattern is one str.isprintable() refuses."""
    from mdsel.titles import control

    pattern = control()
    assert not [c for c in range(0x110000) if pattern.match(chr(c)) and chr(c).isprintable()]


@pytest.mark.parametrize(
    "title",
    ["plain", "no\u00a0break space", "tab-free émoji 🎉", "back\\slash", "  spaced  out  ", ""],
)
def test_other_characters_are_kept_as_written(title: str) -> None:
    assert shown_title(title) == title


def _index(tmp_path: Path, markdown: bytes, *argv: str) -> tuple[str, str]:
    path = tmp_path / "t.md"
    path.write_bytes(markdown)
    outcome = run([*argv, str(path)], {}, None)
    return outcome.stdout, outcome.stderr


def test_index_and_toc_lines_cannot_be_forged_by_a_title(tmp_path: Path) -> None:
    markdown = b"# One&#10;h1.9 Forged  L1-1 0w&#27;[31m\n\n## Two\xc2\xa0words\n\ntext\n"
    stdout, _ = _index(tmp_path, markdown, "index")
    headings = [line for line in stdout.splitlines() if line.lstrip().startswith("h")]
    assert len(headings) == 2  # the forged index line stays inside the first heading's line
    assert headings[0].startswith("h1.0 One\\nh1.9 Forged  L1-1 0w\\x1b[31m ")
    assert headings[1].startswith("  h2.0 Two\u00a0words ")
    assert "\x1b" not in stdout
    toc, _ = _index(tmp_path, markdown, "select", "h1.0?toc=true")
    header, first, *_rest = toc.splitlines()
    assert header.endswith("t.md h1.0?toc=true One\\nh1.9 Forged  L1-1 0w\\x1b[31m L1-5 <==")
    assert first.startswith("h1.0 One\\nh1.9 Forged") and "\x1b" not in toc


def test_suggestions_show_titles_escaped(tmp_path: Path) -> None:
    _, stderr = _index(tmp_path, b"# Install&#10;~h9.9 (x)\n\ntext\n", "select", "install")
    assert stderr.splitlines()[-1] == "~h1.0 (Install\\n~h9.9 (x)) ~?q=install"


def test_invisible_format_characters_are_shown_escaped() -> None:
    # A zero-width space, a joiner, a soft hyphen, a word joiner and a byte order mark: names
    # that hold them look like other names when printed raw.
    for char, shown in [
        ("\u200b", "\\u200b"), ("\u200d", "\\u200d"), ("\xad", "\\xad"),
        ("\u2060", "\\u2060"), ("\ufeff", "\\ufeff"), ("\u200e", "\\u200e"),
    ]:  # fmt: skip
        assert shown_title(f"a{char}b") == f"a{shown}b"
    assert shown_title("café ☕ 👍") == "café ☕ 👍"
