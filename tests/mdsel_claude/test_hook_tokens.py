"""A command line's words and operators: quoted operator characters stay in their words."""

from __future__ import annotations

import pytest

from mdsel_claude.hook.tokens import tokens


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
