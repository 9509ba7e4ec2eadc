"""Where each bracket and compound command ends: one pass, keywords only where a command
starts, `case` patterns no brackets, the unclosed left without an end."""

from __future__ import annotations

import pytest

from mdsel_claude.hook.groups import group_ends
from mdsel_claude.hook.tokens import tokens


@pytest.mark.parametrize(
    ("command", "pairs"),
    [
        ("( cat x ) | head", [("(", ")")]),
        ("{ a; { b; }; } > f", [("{", "}"), ("{", "}")]),
        ("if a; then b; fi; echo done fi", [("if", "fi")]),
        ("for x in a; do echo done; done | head", [("for", "done")]),
        ("x=$( (cat f) )", [("(", ")"), ("(", ")")]),
        (
            '( case "$1" in -h) echo u;; (b|c) x;; esac; cat g ) | head',
            [("(", ")"), ("case", "esac")],
        ),
        (
            "for x in a; do case $x in a|done) echo;; esac; done",
            [("for", "done"), ("case", "esac")],
        ),
        ("( ( ( cat x )", [("(", ")")]),
        ("{ ( cat x; }", [("{", "}")]),
    ],
)
def test_each_group_ends_at_its_closing_word(command: str, pairs: list[tuple[str, str]]) -> None:
    words = tokens(command)
    ends = group_ends(words)
    assert sorted((words[start], words[end - 1]) for start, end in ends.items()) == sorted(pairs)
    for start, end in ends.items():
        assert start < end - 1  # the closing word comes after the opening one


def test_nothing_closed_has_no_end() -> None:
    assert group_ends(tokens("( " * 30_000)) == {}
    assert group_ends(tokens("if; " * 10_000)) == {}
    words = tokens("( " * 10_000 + "cat x " + ") " * 10_000)
    ends = group_ends(words)
    assert len(ends) == 10_000 and ends[0] == len(words)
