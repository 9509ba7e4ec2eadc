"""A command line's words and operators (quoted operator characters stay in their words), and
where each group ends: one pass, keywords only where a command starts, `case` patterns no
brackets, the unclosed left without an end."""

from __future__ import annotations

import pytest

from mdsel_claude.hook.tokens import group_ends, tokens


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("cat a.md | head -n 5", ["cat", "a.md", "|", "head", "-n", "5"]),
        ("(cat a.md)>x", ["(", "cat", "a.md", ")", ">", "x"]),
        ("cat 'my (copy).md' \"a|b.md\"", ["cat", "my (copy).md", "a|b.md"]),
        ("grep 'a;b' f.md; cat g.md", ["grep", "a;b", "f.md", ";", "cat", "g.md"]),
        ("sh -c 'cat a.md | nl'", ["sh", "-c", "cat a.md | nl"]),
        ("cat a.md # what's | this", ["cat", "a.md"]),
        ("cat <<'E'\nit's | x\nE\ncat b.md", ["cat", "<<", "E", "\n", "cat", "b.md"]),
    ],
)
def test_words_and_operators(command: str, expected: list[str]) -> None:
    assert tokens(command) == expected


@pytest.mark.parametrize("quoted", ["'|'", '"|"', "';'", "'&&'", "'('", '")"', "'>'"])
def test_quoted_operator_characters_alone_are_no_operators(quoted: str) -> None:
    words = tokens(f"echo {quoted} cat a.md")
    assert len(words) == 4 and words[0] == "echo" and words[2:] == ["cat", "a.md"]
    assert words[1] not in ("|", ";", "&&", "(", ")", ">")


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
        ("function f { cat x; }", [("{", "}")]),
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
