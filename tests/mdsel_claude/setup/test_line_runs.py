"""Lines inserted into a text and taken out again, every other byte kept."""

from __future__ import annotations

import pytest

from mdsel_claude.setup.line_runs import splice, take_out


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("a = 1", "a = 1\n[t]\nb = 2\n"),
        ("a = 1\n[x]\n", "a = 1\n\n[t]\nb = 2\n[x]\n"),
        ("", "[t]\nb = 2\n"),
        ("a\r\nb", "a\r\n[t]\r\nb\r\n"),
    ],
)
def test_what_is_spliced_in_comes_out_again_byte_for_byte(old: str, new: str) -> None:
    text, runs = splice(old, new, respelled=True)
    assert text.replace("\r\n", "\n").rstrip("\n") == new.replace("\r\n", "\n").rstrip("\n")
    assert take_out(text, runs, bool(old) and not old.endswith("\n")) == old


def test_lines_respelled_keep_the_files_own_spelling() -> None:
    old = '["hooks"]\n[[hooks.A]]\nm = 1\n'
    new = '["hooks"]\n[["hooks".A]]\nm = 1\n[["hooks".A]]\nm = 2\n'
    text, runs = splice(old, new, respelled=True)
    assert text == '["hooks"]\n[[hooks.A]]\nm = 1\n[["hooks".A]]\nm = 2\n'
    assert runs == ('[["hooks".A]]\nm = 2\n',)


def test_a_run_changed_since_is_not_taken_out() -> None:
    assert take_out("a\nb = 3\n", ("b = 2\n",), False) is None
    # found only at the start of a line
    assert take_out("xb = 2\n", ("b = 2\n",), False) is None


def test_the_added_ending_stays_when_lines_were_added_below_the_run() -> None:
    assert take_out("a\n[t]\n[u]\n", ("[t]\n",), True) == "a\n[u]\n"
    assert take_out("a\n[t]\n", ("[t]\n",), True) == "a"
