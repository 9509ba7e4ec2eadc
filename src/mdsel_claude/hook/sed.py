"""What a `sed` command shows of the files it reads: `sed -n '1,400p' FILE`, `-n -e '10,20p;30p'`,
`sed 's/a/b/' FILE`, line ranges numbered across several files; nothing known for anything else.
"""

from __future__ import annotations

from mdsel_claude.hook.files import line_count
from mdsel_claude.hook.parts import WHOLE, Piece, Stream, count, narrowed

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


def sed_shows(
    argv: list[str],
    stream: Stream,
    files: Callable[[list[str]], list[str]],
    lines: Callable[[str], int | None] | None = None,
) -> Stream:
    """`sed -n '1,400p' FILE` (and `-n -e '10,20p;30p'`): those lines; `sed 's/a/b/' FILE`
    (substitutions only, no -n): the whole file; in place (`-i`, `-Ei`), by a script file
    (`-f`), by pattern, or with commands that drop lines (`10q`, `5,$d`): nothing known."""
    quiet = separate = nul = False
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
            return []  # in place, or a script file
        elif arg.startswith(("--null-data", "--zero-terminated")):
            nul = True
        elif arg.startswith("-") and len(arg) > 1 and not arg.startswith("--"):
            cluster = arg[1:].partition("e")[0]  # what follows an `e` is its script
            if "i" in cluster or "f" in cluster:
                return []  # `-i`, `-Ei.bak`, `-nf x.sed`: in place, or a script file
            quiet = quiet or "n" in cluster
            separate = separate or "s" in cluster
            nul = nul or "z" in cluster
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
    if nul and pieces != [WHOLE]:
        # NUL-ended lines (`-z`): a Markdown file, which holds no NUL, is one line, shown whole
        # by a range that holds line 1; across several files, which line is which is left out.
        if named and len(named) > 1 and not separate:
            return []
        pieces = [WHOLE] if any(_holds_first(piece) for piece in pieces) else []
    if named and len(named) > 1 and not separate and pieces != [WHOLE]:
        return _across(named, pieces, lines or line_count)
    if named:
        return [(path, piece) for path in named for piece in pieces]
    return [part for piece in pieces for part in narrowed(stream, piece)]


def _holds_first(piece: Piece) -> bool:
    """Whether a range of lines holds the first line."""
    unit, start, stop = piece
    return unit == "lines" and start == 0 and (stop is None or stop >= 1)


MAX_ACROSS = 8
"""Files of one `sed` whose lines are counted to number a range across them (each read up to
the hook's byte bound): later ones are left out (under-counted, never over)."""


def _across(named: list[str], pieces: list[Piece], lines_of: Callable[[str], int | None]) -> Stream:
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
        lines = lines_of(path)
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
        start = count(start_text)
        if not start:
            return None  # `$p`, `/re/p`: a line or a pattern, not a count; `0,5p`: an error
        stop: int | None = start
        if comma and stop_text == "$":
            stop = None
        elif comma and stop_text[:1] == "+" and count(stop_text[1:]) is not None:
            stop = start + int(stop_text[1:])
        elif comma:
            stop = count(stop_text)
            if stop is None:
                return None  # a pattern address: how far it reaches is not in the text
        pieces.append(("lines", max(start - 1, 0), stop))
    return pieces or None
