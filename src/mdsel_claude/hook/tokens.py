"""A shell command line's words and operators, as `shlex` splits what the shell would run.

Comments, here-document bodies and line continuations are set aside first: they may hold any
text (a lone `'` in `# what's in it` would otherwise stop shlex), and none of it runs. A line
shlex still cannot split (an unclosed quote) is left out, not the whole command.
"""

from __future__ import annotations

import shlex

WORD_END = " \t\n;&|()<>"
"""What ends an unquoted word: blanks and the shell's operator characters."""


def _code(text: str) -> str:
    """`text` without comments, here-document bodies and line continuations: what shlex should
    split (a lone `'` in a comment or a here-document would otherwise stop it)."""
    out: list[str] = []
    quote = ""
    heredocs: list[tuple[str, bool]] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if quote:
            if c == "\\" and quote == '"':
                out.append(text[i : i + 2].translate(_QUOTED))
                i += 2
                continue
            quote = "" if c == quote else quote
            out.append(c if c == quote else c.translate(_QUOTED))
            i += 1
        elif c == "\\":
            if text[i + 1 : i + 2] != "\n":  # `\` newline joins the lines
                out.append(text[i : i + 2])
            i += 2
        elif c in "'\"":
            quote = c
            out.append(c)
            i += 1
        elif c == "#" and (i == 0 or text[i - 1] in WORD_END):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("$((", i) or (
            text.startswith("((", i) and (i == 0 or text[i - 1] in WORD_END)
        ):
            # Arithmetic: `$((1<<2))`, `(( n <<= 1 ))` shift; no here-document starts there.
            end = _arithmetic_end(text, i + text.index("((", i) - i + 2)
            out.append(text[i:end])
            i = end
        elif text.startswith("<<", i) and not text.startswith("<<<", i):
            word, tabs, end = _heredoc_word(text, i + 2)
            if word:
                heredocs.append((word, tabs))
            out.append(text[i:end])
            i = end
        elif c == "\n" and heredocs:
            out.append(c)
            i = _after_heredocs(text, i + 1, heredocs)
            heredocs = []
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _arithmetic_end(text: str, i: int) -> int:
    """Where the arithmetic whose `((` ends at `i` ends: past the `))` that closes it (or the
    text's end)."""
    depth = 2
    while i < len(text) and depth:
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
    return i


def _heredoc_word(text: str, i: int) -> tuple[str, bool, int]:
    """The delimiter of the here-document whose `<<` ends at `i` (quotes removed), whether
    leading tabs are stripped (`<<-`), and where the delimiter word ends."""
    tabs = text[i : i + 1] == "-"
    i += tabs
    while text[i : i + 1] in (" ", "\t"):
        i += 1
    end = i
    while end < len(text) and text[end] not in WORD_END:
        end += 1
    word = text[i:end].replace("'", "").replace('"', "").replace("\\", "")
    return word, tabs, end


def _after_heredocs(text: str, i: int, heredocs: list[tuple[str, bool]]) -> int:
    """Where the text resumes after the bodies of `heredocs`, which start at `i`."""
    for word, tabs in heredocs:
        while i < len(text):
            end = text.find("\n", i)
            line = text[i : len(text) if end < 0 else end]
            i = len(text) if end < 0 else end + 1
            if (line.lstrip("\t") if tabs else line) == word:
                break
    return i


_QUOTED = {ord(c): 0xF0000 + n for n, c in enumerate(";&|()<>\n")}
"""Operator characters inside quotes, as private-use characters while shlex splits (it would
take a quoted `|` alone for a pipe), then put back: see `_split`."""
_UNQUOTED = {code: char for char, code in _QUOTED.items()}

OPERATORS = ("<<<", "&>>", "<<-", ";;", "&&", "||", "|&", ">>", "<<", "&>", ">&", "<&", "<>", ">|")
"""The shell's operators of more than one character, longest first."""

_PUNCTUATION = ";&|()<>\n"


def _split(text: str) -> list[str]:
    lexer = shlex.shlex(text, posix=True, punctuation_chars=_PUNCTUATION)
    lexer.whitespace = " \t\r"
    lexer.whitespace_split = True
    lexer.commenters = ""
    words: list[str] = []
    for word in lexer:
        # shlex keeps a run of operator characters as one token (`);`, `))`): split it as
        # the shell reads it. Quoted ones were set aside (_QUOTED), so they are no operators.
        if word and all(c in _PUNCTUATION for c in word):
            words += _operators(word)
        elif word and all(ord(c) in _UNQUOTED for c in word):
            # Quoted operator characters alone (`echo '|'`): left as they are, a word that is
            # no operator and no file.
            words.append(word)
        else:
            words.append(word.translate(_UNQUOTED))
    return words


def _operators(run: str) -> list[str]:
    found: list[str] = []
    while run:
        step = next((op for op in OPERATORS if run.startswith(op)), run[0])
        found.append(step)
        run = run[len(step) :]
    return found


def tokens(command: str) -> list[str]:
    """The words and operators of the command line; a line shlex cannot split (an unclosed
    quote) is left out, not the whole command."""
    code = _code(command)
    try:
        return _split(code)
    except ValueError:
        tokens: list[str] = []
        for line in code.split("\n"):
            try:
                tokens += [*_split(line), "\n"]
            except ValueError:
                tokens.append("\n")
        return tokens
