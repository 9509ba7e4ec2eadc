"""A shell command line's words and operators, as `shlex` splits what the shell would run, and
where each of its groups ends.

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
                out.append(text[i : i + 2].translate(_IN_QUOTES))
                i += 2
                continue
            quote = "" if c == quote else quote
            out.append(c if c == quote else c.translate(_IN_QUOTES))
            i += 1
        elif c == "\\":
            if text[i + 1 : i + 2] != "\n":  # `\` newline joins the lines
                out.append(c + text[i + 1 : i + 2].translate(LITERAL_MAGIC))  # `\*` is a star
            i += 2
        elif c in "'\"":
            quote = c
            out.append(c)
            i += 1
        elif c == "`":
            # Command substitution: what it runs prints into a word (`v=\`cat x.md\``), so the
            # span stays one word, its blanks and operators set aside like quoted ones.
            end = i + 1
            while end < n and text[end] != "`":
                end += 2 if text[end] == "\\" else 1
            end = min(end + 1, n)
            out.append(text[i:end].translate(_OPAQUE))
            i = end
        elif c == "#" and (i == 0 or text[i - 1] in WORD_END):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif c in _DIGITS and (i == 0 or text[i - 1] in WORD_END):
            # `2>/dev/null`, `0<x.md`: digits that touch a redirection are its file descriptor,
            # marked so (`FD`); `head -n 7 < x.md` (a blank between) is an argument and a `<`.
            end = i
            while end < n and text[end] in _DIGITS:
                end += 1
            out.append(FD + text[i:end] if text[end : end + 1] in ("<", ">") else text[i:end])
            i = end
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


_DIGITS = "0123456789"
"""The digits of a descriptor: ASCII only (`²>x` is a word `²` and stdout redirected)."""

FD = "\U000f0100"
"""Marks a word that is a redirection's file descriptor (`2` of `2>&1`): shlex splits `2>` as
`2` and `>`, and `2 >` is another command (an argument `2`, then stdout redirected)."""

_QUOTED = {ord(c): 0xF0000 + n for n, c in enumerate(";&|()<>\n")}
"""Operator characters inside quotes, as private-use characters while shlex splits (it would
take a quoted `|` alone for a pipe), then put back: see `_split`."""
LITERAL_MAGIC = {ord(c): 0xF0020 + n for n, c in enumerate("*?[~")}
"""Glob and tilde characters quoted or escaped (`"docs/*.md"`, a backslash before `~`), taken as
written: private-use characters until a word is read as a path (see shell_words), so that no
glob is expanded and no home folder put in their place."""
AS_WRITTEN = {code: char for char, code in LITERAL_MAGIC.items()}
_IN_QUOTES = {**_QUOTED, **LITERAL_MAGIC}
_OPAQUE = {**_QUOTED, **{ord(c): 0xF0010 + n for n, c in enumerate(" \t\r")}}
"""The same for a backquoted command substitution, whose blanks do not end the word either."""
_UNQUOTED = {code: chr(char) for char, code in _OPAQUE.items()}

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


# -- groups: where each bracket and compound command ends ---------------------------------------
# Found in one pass over the words: `( … )` (and the `(` of `$( … )` and `<( … )`), `{ …; }`,
# `if … fi`, `for`, `while`, `until` and `select … done`, `case … esac`. One pass keeps a command
# line of any shape (a thousand unclosed brackets) linear; what is never closed has no end and
# is read word by word.

COMMAND_OPERATORS = frozenset({"|", "|&", "&&", "||", ";", "&", "\n", "(", ")", ";;", "{", "}"})
"""The words that end a simple command."""

GROUPS = {
    "(": ")", "{": "}", "if": "fi", "for": "done", "while": "done", "until": "done",
    "select": "done", "case": "esac",
}  # fmt: skip
"""Compound commands, by the word that opens each and the one that closes it."""

BEFORE_COMMAND = COMMAND_OPERATORS | {"do", "then", "else", "elif", "!", "time"}
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
    waiting = dict.fromkeys(GROUPS.values(), 0)  # open groups per closing word
    pattern = False  # in a `case`, between `in` or `;;` and the pattern's `)`
    for i, word in enumerate(words):
        at_start = i == 0 or words[i - 1] in BEFORE_COMMAND
        if word == "{" and i >= 2 and words[i - 2] == "function":
            at_start = True  # `function f { …; }`
        if pattern:
            if word == "esac" and at_start:
                pattern = False
                _close(open_groups, waiting, "esac", i, ends)
            elif word == ")":
                pattern = False  # the pattern's commands follow
            continue
        if word == "(":
            open_groups.append((")", i))
            waiting[")"] += 1
        elif word == ")":
            _close(open_groups, waiting, ")", i, ends)
        elif word == ";;" and open_groups and open_groups[-1][0] == "esac":
            pattern = True
        elif at_start and word in GROUPS:
            open_groups.append((GROUPS[word], i))
            waiting[GROUPS[word]] += 1
        elif at_start and word in _CLOSERS:
            _close(open_groups, waiting, word, i, ends)
        elif word == "in" and open_groups and open_groups[-1] == ("esac", i - 2):
            pattern = True  # `case WORD in`
    return ends


def _close(
    open_groups: list[tuple[str, int]],
    waiting: dict[str, int],
    closer: str,
    i: int,
    ends: dict[int, int],
) -> None:
    """`closer` at `i` closes the innermost open group it closes, and every group opened after
    that one is left unclosed. Looked for only when one waits (`waiting`): a thousand `}` after a
    thousand `(` must not search the stack each time."""
    if not waiting[closer]:
        return
    for depth in range(len(open_groups) - 1, -1, -1):
        if open_groups[depth][0] == closer:
            ends[open_groups[depth][1]] = i + 1
            for dropped, _start in open_groups[depth:]:
                waiting[dropped] -= 1
            del open_groups[depth:]
            return
