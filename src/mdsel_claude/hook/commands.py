"""What one command of a pipeline shows of the files it reads: `cat`, `head`, `sed -n`, ….

A pipeline's stream is a list of parts of files (see `files.Piece`); each command here maps the
stream flowing into it, and the files it names, to what flows out. `shell` splits the command
line into pipelines and commands and calls `shows` for each. Any command not named here shows
nothing of the files (`grep`, `wc`, `awk`: a small part, or none).
"""

from __future__ import annotations

import os

from mdsel_claude.hook.files import REVERSED, WHOLE, Piece, line_count

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

Stream = list[tuple[str, Piece]]
"""What flows down a pipeline: parts of files, in order."""

PRINTERS = frozenset({"cat", "tac", "nl", "less", "more", "most", "bat", "batcat"})
"""Commands that show the whole of each file given (or of their input); `tac` last line first."""

VALUED = {
    "nl": frozenset("bdfhilnsvw"),
    "bat": frozenset("lmHrL"),
    "batcat": frozenset("lmHrL"),
    "less": frozenset("bhjkoOpPtTxyz"),
}
"""Short options that take a value, per command (`nl -w 3`): that value is not a file."""

MAX_COUNT_DIGITS = 12


def shows(argv: list[str], stream: Stream, files: Callable[[list[str]], list[str]]) -> Stream:
    """What the command `argv` shows, given the `stream` flowing into it; `files` turns its
    operands into paths (expanding a glob, or dropping what the text cannot say)."""
    name = os.path.basename(argv[0])
    if name in PRINTERS:
        operands = operands_of(argv, VALUED.get(name, frozenset()))
        named = files([o for o in operands if o != "-"])
        if name == "tac":
            return [(path, REVERSED) for path in named] if named else _reversed(stream)
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
        return _sed(argv, stream, files)
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


def _count(text: str) -> int | None:
    return int(text) if text.isdigit() and len(text) <= MAX_COUNT_DIGITS else None


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
    count = _count(digits)
    return None if count is None or not scale else count * scale


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
    i = 1
    while i < len(argv):
        arg = argv[i]
        if arg in ("-n", "-c", "--lines", "--bytes"):
            unit = "bytes" if arg in ("-c", "--bytes") else "lines"
            value = argv[i + 1] if i + 1 < len(argv) else ""
            i += 1
        elif arg.startswith(("--lines=", "--bytes=")):
            unit = "bytes" if arg.startswith("--bytes") else "lines"
            value = arg.partition("=")[2]
        elif arg.startswith(("-n", "-c")) and len(arg) > 2:
            unit = "bytes" if arg[1] == "c" else "lines"
            value = arg[2:]
        elif len(arg) > 1 and arg[0] in "-+" and arg[1:].isdigit():
            unit, value = "lines", arg if arg[0] == "+" else arg[1:]  # `head -40`, `tail +40`
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
    if name == "head":
        if sign == "-":  # all but the last `count`
            return ((unit, 0, -count) if count else (unit, 0, None)), operands
        return (unit, 0, count), operands
    if sign == "+":
        return (unit, max(count - 1, 0), None), operands
    return ((unit, -count, None) if count else (unit, 0, 0)), operands


def _bat_range(argv: list[str]) -> Piece:
    """`bat -r 10:200` / `--line-range=:200` shows those lines; otherwise the whole file."""
    for i, arg in enumerate(argv):
        value = None
        if arg in ("-r", "--line-range") and i + 1 < len(argv):
            value = argv[i + 1]
        elif arg.startswith("--line-range="):
            value = arg.partition("=")[2]
        if value is not None:
            first, _, last = value.partition(":")
            start = _count(first) if first else 1
            stop = _count(last) if last else None
            if start is None or (last and stop is None):
                return ("lines", 0, 0)
            return ("lines", max(start - 1, 0), stop)
    return WHOLE


def narrowed(stream: Stream, piece: Piece) -> Stream:
    """The input cut to `piece`. Exact for one file; for several, the first file's head or the
    last file's tail (a count reaching into the next file is under-counted, never over)."""
    if not stream or piece == WHOLE:
        return stream
    cut_unit, cut_start, cut_stop = piece
    path, current = stream[-1] if cut_start < 0 else stream[0]
    if current == WHOLE:
        return [(path, piece)]
    if current == REVERSED:  # `tac f | head -n 5` shows f's last 5 lines, `| tail` its first
        if cut_unit == "lines" and cut_start == 0 and cut_stop is not None and cut_stop >= 0:
            return [(path, ("lines", -cut_stop, None))] if cut_stop else []
        if cut_unit == "lines" and cut_start < 0 and cut_stop is None:
            return [(path, ("lines", 0, -cut_start))]
        return []
    unit, start, stop = current
    if unit != cut_unit or start < 0 or (stop is not None and stop < 0):
        return []  # lines of bytes, a cut of a tail: not knowable from the text alone
    if cut_start < 0:
        if cut_stop is not None or stop is None:
            return []
        if start == 0:  # `head -n 900 | tail -n 50`: the head may end sooner, so kept as such
            return [(path, (unit, cut_start, stop))]
        # A range's tail: exact when the file reaches the range's end, under-counted otherwise.
        return [(path, (unit, max(start, stop + cut_start), stop))]
    if cut_stop is not None and cut_stop < 0:
        return []
    first = start + cut_start
    last = None if cut_stop is None else start + cut_stop
    if stop is not None:
        last = stop if last is None else min(stop, last)
    return [(path, (unit, first, last))]


def _sed(argv: list[str], stream: Stream, files: Callable[[list[str]], list[str]]) -> Stream:
    """`sed -n '1,400p' FILE` (and `-n -e '10,20p;30p'`): those lines; `sed 's/a/b/' FILE`
    (substitutions only, no -n): the whole file; in place (`-i`, `-Ei`), by a script file
    (`-f`), by pattern, or with commands that drop lines (`10q`, `5,$d`): nothing known."""
    quiet = separate = False
    scripts: list[str] = []
    operands: list[str] = []
    i = 1
    while i < len(argv):
        arg = argv[i]
        if arg in ("-n", "--quiet", "--silent"):
            quiet = True
        elif arg in ("-s", "--separate"):
            separate = True
        elif arg in ("-e", "--expression"):
            scripts.append(argv[i + 1] if i + 1 < len(argv) else "")
            i += 1
        elif arg.startswith("--expression="):
            scripts.append(arg.partition("=")[2])
        elif arg.startswith(("--in-place", "--file")):
            return []
        elif arg.startswith("-") and len(arg) > 1 and not arg.startswith("--"):
            cluster = arg[1:].partition("e")[0]  # what follows an `e` is its script
            if "i" in cluster or "f" in cluster:
                return []  # `-i`, `-Ei.bak`, `-nf x.sed`: in place, or a script file
            quiet = quiet or "n" in cluster
            separate = separate or "s" in cluster
            if "e" in arg[1:]:
                rest = arg[1:].partition("e")[2]
                scripts.append(rest if rest else (argv[i + 1] if i + 1 < len(argv) else ""))
                i += 0 if rest else 1
        elif not arg.startswith("--") or arg == "-":
            operands.append(arg)
        i += 1
    if not scripts and operands:
        scripts.append(operands.pop(0))
    named = files([o for o in operands if o != "-"])
    script = ";".join(scripts)
    pieces = _sed_lines(script) if quiet else ([WHOLE] if _edits_only(script) else None)
    if pieces is None:
        return []
    if named and len(named) > 1 and not separate and pieces != [WHOLE]:
        return _across(named, pieces)
    if named:
        return [(path, piece) for path in named for piece in pieces]
    return [part for piece in pieces for part in narrowed(stream, piece)]


MAX_ACROSS = 8
"""Files of one `sed` whose lines are counted to number a range across them (each read up to
the hook's byte bound): later ones are left out (under-counted, never over)."""


def _across(named: list[str], pieces: list[Piece]) -> Stream:
    """Line ranges numbered across the files one after another, as sed numbers them without
    -s: each file's part of each range (the files' lines are counted; past a file that cannot
    be counted, the rest are left out: under-counted, never over)."""
    shown: Stream = []
    before = 0
    ends = [stop for _, _, stop in pieces if stop is not None]
    last = max(ends) if len(ends) == len(pieces) else None  # None: a range runs to the end
    for path in named[:MAX_ACROSS]:
        if last is not None and before >= last:
            break  # every range ended in an earlier file: nothing more to read
        for unit, start, stop in pieces:
            if stop is not None and stop <= before:
                continue  # the range ended in an earlier file
            local_stop = None if stop is None else stop - before
            shown.append((path, (unit, max(start - before, 0), local_stop)))
        lines = line_count(path)
        if lines is None:
            break
        before += lines
    return shown


def _commands(script: str) -> list[str]:
    return [c.strip() for c in script.replace("\n", ";").split(";") if c.strip()]


def _without_address(command: str) -> str:
    """A sed command without its address (`10,20`, `$`, `/re/`, `5,+3`) and `!`."""
    i = 0
    for _ in range(2):
        if command[i : i + 1] == "/":
            end = command.find("/", i + 1)
            i = len(command) if end < 0 else end + 1
        else:
            while i < len(command) and (command[i].isdigit() or command[i] in "$+~"):
                i += 1
        if command[i : i + 1] != ",":
            break
        i += 1
    return command[i:].lstrip(" !")


def _edits_only(script: str) -> bool:
    """Whether a script without -n prints every line: only substitutions (`s`) and
    transliterations (`y`), or nothing at all (`sed '' FILE` is `cat`)."""
    return all(_without_address(c)[:1] in ("s", "y") for c in _commands(script))


def _sed_lines(script: str) -> list[Piece] | None:
    """The lines a `-n` script of `A,Bp` / `A,+Np` / `Ap` / `A,$p` / `p` commands prints, one
    part each; None for any other script."""
    pieces: list[Piece] = []
    for command in _commands(script):
        if not command.endswith("p"):
            return None
        address = command[:-1].replace(" ", "")
        if not address:
            pieces.append(WHOLE)
            continue
        start_text, comma, stop_text = address.partition(",")
        start = _count(start_text)
        if start is None:
            return None  # `$p`, `/re/p`: a line or a pattern, not a count
        stop: int | None = start
        if comma and stop_text == "$":
            stop = None
        elif comma and stop_text[:1] == "+" and _count(stop_text[1:]) is not None:
            stop = start + int(stop_text[1:])
        elif comma:
            stop = _count(stop_text)
            if stop is None:
                return None  # a pattern address: how far it reaches is not in the text
        pieces.append(("lines", max(start - 1, 0), stop))
    return pieces or None
