"""Where each bracket and compound command of a command line ends, found in one pass over its
words: `( … )` (and the `(` of `$( … )` and `<( … )`), `{ …; }`, `if … fi`, `for`, `while`,
`until` and `select … done`, `case … esac`. One pass keeps a command line of any shape (a
thousand unclosed brackets) linear; what is never closed has no end and is read word by word.
"""

from __future__ import annotations

OPERATORS = frozenset({"|", "|&", "&&", "||", ";", "&", "\n", "(", ")", ";;", "{", "}"})
"""The words that end a simple command."""

GROUPS = {
    "(": ")", "{": "}", "if": "fi", "for": "done", "while": "done", "until": "done",
    "select": "done", "case": "esac",
}  # fmt: skip
"""Compound commands, by the word that opens each and the one that closes it."""

BEFORE_COMMAND = OPERATORS | {"do", "then", "else", "elif", "!"}
"""After these words a command starts: only there is a keyword or a brace one."""

_CLOSERS = frozenset(GROUPS.values()) - {")"}


def group_ends(words: list[str]) -> dict[int, int]:
    """Opening word's index → the index after the word that closes it, for every group closed.

    A bracket opens and closes wherever it stands; a keyword or brace only where a command
    starts (`echo done` closes nothing). A `case` pattern (`-h)`, `a|b)`) is no bracket. A
    closer skips the groups opened after its own that are still open (they are never closed).
    """
    ends: dict[int, int] = {}
    open_groups: list[tuple[str, int]] = []  # (the closing word, the opening word's index)
    pattern = False  # in a `case`, between `in` or `;;` and the pattern's `)`
    for i, word in enumerate(words):
        at_start = i == 0 or words[i - 1] in BEFORE_COMMAND
        if pattern:
            if word == "esac" and at_start:
                pattern = False
                _close(open_groups, "esac", i, ends)
            elif word == ")":
                pattern = False  # the pattern's commands follow
            continue
        if word == "(":
            open_groups.append((")", i))
        elif word == ")":
            _close(open_groups, ")", i, ends)
        elif word == ";;" and open_groups and open_groups[-1][0] == "esac":
            pattern = True
        elif at_start and word in GROUPS:
            open_groups.append((GROUPS[word], i))
        elif at_start and word in _CLOSERS:
            _close(open_groups, word, i, ends)
        elif word == "in" and open_groups and open_groups[-1] == ("esac", i - 2):
            pattern = True  # `case WORD in`
    return ends


def _close(open_groups: list[tuple[str, int]], closer: str, i: int, ends: dict[int, int]) -> None:
    for depth in range(len(open_groups) - 1, -1, -1):
        if open_groups[depth][0] == closer:
            ends[open_groups[depth][1]] = i + 1
            del open_groups[depth:]
            return
