"""What one command of a pipeline shows of the files it reads: `cat`, `head`, `sed -n`, ….

A pipeline's stream is a list of parts of files (see `parts.Piece`); each command here maps the
stream flowing into it, and the files it names, to what flows out. `shell` splits the command
line into pipelines and commands and calls `shows` for each. Any command not named here shows
nothing of the files (`grep`, `wc`, `awk`: a small part, or none).
"""

from __future__ import annotations

import os

from mdsel_claude.hook.parts import (
    MAX_COUNT,
    NUMBERED,
    REVERSED,
    WHOLE,
    Piece,
    Stream,
    count,
    narrowed,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

PRINTERS = frozenset({"cat", "tac", "nl", "less", "more", "most", "bat", "batcat"})
"""Commands that show the whole of each file given (or of their input); `tac` last line first."""

VALUED = {
    "nl": frozenset("bdfhilnsvw"),
    "bat": frozenset("lmHrL"),
    "batcat": frozenset("lmHrL"),
    "less": frozenset("bhjkoOpPtTxyz"),
}
"""Short options that take a value, per command (`nl -w 3`): that value is not a file."""


def shows(
    argv: list[str],
    stream: Stream,
    files: Callable[[list[str]], list[str]],
    lines: Callable[[str], int | None] | None = None,
) -> Stream:
    """What the command `argv` shows, given the `stream` flowing into it; `files` turns its
    operands into paths (expanding a glob, or dropping what the text cannot say); `lines`
    counts a file's lines for `sed` (the command line's budget of them)."""
    name = os.path.basename(argv[0])
    if name in PRINTERS:
        operands = operands_of(argv, VALUED.get(name, frozenset()))
        named = files([o for o in operands if o != "-"])
        if name == "tac":
            return [(path, REVERSED) for path in named] if named else _reversed(stream)
        if name == "nl" or (name == "cat" and _adds_to_lines(argv)):
            return [(path, NUMBERED) for path in named] if named else _numbered(stream)
        piece = _bat_range(argv) if name in ("bat", "batcat") else WHOLE
        return [(path, piece) for path in named] if named else narrowed(stream, piece)
    if name == "tee":
        return stream
    if name in ("head", "tail"):
        cut, operands = _head_tail(name, argv)
        if cut is None:
            return []
        named = files(operands)
        return [(path, cut) for path in named] if named else narrowed(stream, cut)
    if name in ("sed", "gsed"):
        from mdsel_claude.hook.sed import sed_shows  # only a `sed` command pays for reading it

        return sed_shows(argv, stream, files, lines)
    return []


def operands_of(argv: list[str], valued: frozenset[str]) -> list[str]:
    """Non-option words after the command name, skipping the values of `valued` options."""
    operands: list[str] = []
    i = 1
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            operands += argv[i + 1 :]
            break
        if arg.startswith("-") and len(arg) > 1 and not arg.startswith("--"):
            if arg[-1] in valued:
                i += 1  # `-w 3`, `-bw 3`: the next word is the value
        elif arg.startswith("+"):
            pass  # `less +G`, `more +100`: a command to the pager, not a file
        elif not arg.startswith("--") or arg == "-":
            operands.append(arg)
        elif "=" not in arg and arg[2:] in ("line-range", "language", "style", "theme"):
            i += 1  # bat's long options given their value as the next word
        i += 1
    return operands


_MULTIPLIERS = {
    "b": 512,
    **{p: 1024**n for n, p in enumerate("KMGTPE", start=1)},
    "k": 1024,
    "m": 1024**2,  # of the lower-case letters, GNU takes b, k and m only
    **{f"{p}B": 1000**n for n, p in enumerate("KMGTPE", start=1)},
    **{f"{p}iB": 1024**n for n, p in enumerate("KMGTPE", start=1)},
    "kB": 1000,
}
"""The suffixes GNU head and tail take on a count of lines or bytes (`-n 2K`, `-c 4kB`)."""


def _scaled(text: str) -> int | None:
    """A count with its multiplier suffix, as GNU head and tail read it; None if not one."""
    digits = text.rstrip("bBkKmMgGtTpPeEi")
    scale = _MULTIPLIERS.get(text[len(digits) :], 0) if digits != text else 1
    number = count(digits)
    if number is None or not scale or number * scale > MAX_COUNT:
        return None  # as GNU head and tail, which refuse a count past their largest
    return number * scale


def _adds_to_lines(argv: list[str]) -> bool:
    """Whether `cat` is given an option that adds to its lines (`-n`, `-b`, `-A`, `-E`…): any
    but `-s` (fewer blank lines) and `-u` (ignored), before a `--`."""
    for arg in argv[1:]:
        if arg == "--":
            break
        if arg.startswith("-") and len(arg) > 1 and arg.strip("-su"):
            return True
    return False


def _numbered(stream: Stream) -> Stream:
    """`… | nl`: each part with something added to its lines; a part of bytes is left out (a
    later cut by bytes could not be placed in it: under-counted, never over)."""
    return [
        (path, NUMBERED if piece == WHOLE else piece)
        for path, piece in stream
        if piece[0] != "bytes"
    ]


def _reversed(stream: Stream) -> Stream:
    """`… | tac`: whole files' lines, last first (the last file's first); a part of a file
    turned round is not followed (silence)."""
    if not all(piece == WHOLE for _, piece in stream):
        return []
    return [(path, REVERSED) for path, _ in reversed(stream)]


def _head_tail(name: str, argv: list[str]) -> tuple[Piece | None, list[str]]:
    """`head -n 40`, `head -40`, `-c 4K`, `--lines=40`, `head -n -5`, `tail -n +100`: the part
    each file (or the input) is cut to, and the file operands; None for a count not understood."""
    unit, value = "lines", "10"
    operands: list[str] = []
    nul = False  # `-z`: NUL-ended lines, so a Markdown file (no NUL in it) is one line
    flags = "qvfFz" if name == "tail" else "qvz"
    i = 1
    while i < len(argv):
        arg = argv[i]
        if len(arg) > 1 and arg[0] == "-" and arg[1] != "-" and not arg[1].isdigit():
            # A cluster of short options: `-n 40`, `-n40`, `-qn 3`, `-c4K`, `-fn 5`.
            for k, flag in enumerate(arg[1:], start=1):
                if flag in "nc":
                    unit = "bytes" if flag == "c" else "lines"
                    value = arg[k + 1 :] or (argv[i + 1] if i + 1 < len(argv) else "")
                    i += 0 if arg[k + 1 :] else 1
                    break
                if flag == "s" and name == "tail":  # `-s N`: seconds between polls
                    seconds = arg[k + 1 :] or (argv[i + 1] if i + 1 < len(argv) else "")
                    if not seconds.replace(".", "", 1).isdigit():
                        return None, operands  # `-sn 3`: `n` for seconds, an error
                    i += 0 if arg[k + 1 :] else 1
                    break
                if flag not in flags:
                    return None, operands  # an option not known (`head -f`: none of head's)
                nul = nul or flag == "z"
        elif len(arg) > 1 and arg[0] in "-+" and arg[1].isdigit() and i == 1:
            # `head -40`, `tail +40`, and the old forms with a unit: `tail -300c`, `-5l`, `-2b`
            # (GNU reads them first only: later, `-40` is an error and `+40` a file's name)
            obsolete = _obsolete(name, arg)
            if obsolete is None:
                return None, operands
            unit, value = obsolete
        elif len(arg) > 1 and arg[0] == "-" and arg[1].isdigit():
            return None, operands
        elif arg.startswith("--") and len(arg) > 2:
            # GNU takes any unambiguous start of a long option: `--byte=100`, `--li 3`.
            key, equals, given = arg.partition("=")
            if key in ("--help", "--version"):
                return None, operands  # prints that, and no file
            if len(key) > 2 and "--zero-terminated".startswith(key):
                nul = True
            elif len(key) > 2 and ("--bytes".startswith(key) or "--lines".startswith(key)):
                unit = "bytes" if "--bytes".startswith(key) else "lines"
                value = given if equals else (argv[i + 1] if i + 1 < len(argv) else "")
                i += 0 if equals else 1
        elif arg == "--":
            operands += argv[i + 1 :]
            break
        elif not arg.startswith("-") or arg == "-":
            operands.append(arg)
        i += 1
    operands = [o for o in operands if o != "-"]
    sign = value[:1] if value[:1] in "+-" else ""
    count = _scaled(value[len(sign) :])
    if count is None:
        return None, operands
    if nul and unit == "lines":
        # One line: a head or tail of one or more shows it, all but the last N none of it.
        if name == "head":
            shown = count > 0 if sign != "-" else count == 0
        else:
            shown = count <= 1 if sign == "+" else count > 0
        return (WHOLE if shown else (unit, 0, 0)), operands
    if name == "head":
        if sign == "-":  # all but the last `count`
            return ((unit, 0, -count) if count else (unit, 0, None)), operands
        return (unit, 0, count), operands
    if sign == "+":
        return (unit, max(count - 1, 0), None), operands
    return ((unit, -count, None) if count else (unit, 0, 0)), operands


def _obsolete(name: str, arg: str) -> tuple[str, str] | None:
    """`-40`, `+40`, `-300c`, `-5l`, `-2b` (`-Nk`, `-Nm` for head), with `f`, `q` or `v` after
    them: (unit, count as `_head_tail` reads it); None for a form not known."""
    digits = arg[1:].rstrip("abcdefghijklmnopqrstuvwxyz")
    if not digits.isdigit():
        return None
    suffix = arg[1 + len(digits) :].rstrip("fqv")
    scale = {"": 1, "l": 1, "c": 1, "b": 512, "k": 1024, "m": 1024**2}.get(suffix)
    if scale is None or (name == "tail" and suffix in ("k", "m")) or len(digits) > 12:
        return None
    unit = "lines" if suffix in ("", "l") else "bytes"
    return unit, ("+" if arg[0] == "+" else "") + str(int(digits) * scale)


def _bat_range(argv: list[str]) -> Piece:
    """`bat -r 10:200` / `-r10:200` / `--line-range=:200` shows those lines, `-r 40` line 40;
    otherwise the whole file. With several ranges, the longest (bat shows them all: counted
    under, never over)."""
    ranges: list[Piece] = []
    for i, arg in enumerate(argv):
        value = None
        if arg in ("-r", "--line-range") and i + 1 < len(argv):
            value = argv[i + 1]
        elif arg.startswith("--line-range="):
            value = arg.partition("=")[2]
        elif arg.startswith("-r") and len(arg) > 2:
            value = arg[2:]
        if value is not None:
            ranges.append(_line_range(value))
    if not ranges:
        return WHOLE
    return max(ranges, key=lambda r: (r[2] is None, (r[2] or 0) - r[1]))


def _line_range(value: str) -> Piece:
    """One of bat's line ranges: `10:200`, `:200`, `10:`, `40` (that line alone)."""
    first, colon, last = value.partition(":")
    start = count(first) if first else 1
    stop = count(last) if last else None
    if not colon:
        stop = start
    if start is None or (last and stop is None):
        return ("lines", 0, 0)
    return ("lines", max(start - 1, 0), stop)
