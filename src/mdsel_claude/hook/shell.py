"""Which Markdown files a shell command line prints a large part of, read from its text alone.

Agents read files through their shell tool too (`cat docs/guide.md`, `sed -n '1,400p'
README.md`, `head -500 CHANGELOG.md | nl`). The command line is split with `shlex` and never
run: nothing is expanded but `~` and a glob of Markdown names, and no variable, command
substitution or alias is evaluated. Each pipeline is followed from the files its first command
prints to what its last command shows: a filter that keeps the text (`cat`, `nl`, `less`, `tee`)
keeps it, `head`/`tail`/`sed -n` keep their lines of it, anything else (`grep`, `wc`, `awk`,
a redirect to a file) leaves nothing of it on the screen. `cd DIR` moves the directory later
relative paths are read from; `sh -c 'TEXT'` is followed into TEXT.

What cannot be understood is silence: a reminder the agent does not need costs more than one it
misses, and the Read tool still has its own.
"""

from __future__ import annotations

import os
import shlex

from mdsel.names import is_markdown_name
from mdsel_claude.hook.files import WHOLE, Piece, printed_exceeds

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

MAX_COMMAND = 64 * 1024
"""A longer command line is not parsed (the answer is silence): bounds the work per payload."""

MAX_FILES = 64
"""At most this many files of one command are looked at."""

MAX_DEPTH = 2
"""`sh -c 'sh -c "…"'` is followed this deep."""

_OPERATORS = frozenset({"|", "|&", "&&", "||", ";", "&", "\n", "(", ")", ";;", "{", "}"})
_REDIRECTS = frozenset({">", ">>", ">|", "&>", "&>>", ">&", "<", "<<", "<<<", "<>", "<&"})
_PRINTERS = frozenset({"cat", "tac", "nl", "less", "more", "most", "bat", "batcat"})
"""Commands that show the whole of each file given (or of their input)."""
_PREFIXES = frozenset({"sudo", "command", "builtin", "exec", "time", "nice", "nohup", "env"})
_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh"})
_VALUED = {
    "nl": frozenset("bdfhilnsvw"),
    "bat": frozenset("lmHrL"),
    "batcat": frozenset("lmHrL"),
    "less": frozenset("bhjkoOpPtTxyz"),
    "tee": frozenset(),
    "cat": frozenset(),
}
"""Short options that take a value, per command (`nl -w 3`): that value is not a file."""

Stream = list[tuple[str, Piece]]
"""What flows down a pipeline: parts of files, in order."""


def printed_markdown(command: str, cwd: str, threshold: int) -> list[str]:
    """The Markdown files of which `command`, run in `cwd`, would show more than `threshold`
    words (absolute paths, each once, in order); [] when it shows none or cannot be read."""
    if not isinstance(command, str) or len(command) > MAX_COMMAND or "\0" in command:
        return []
    found: list[str] = []
    try:
        for path, piece in _shown(command, cwd, 0):
            fresh = path not in found and len(found) < MAX_FILES
            if fresh and printed_exceeds(path, piece, threshold):
                found.append(path)
    except (ValueError, OSError, RecursionError):
        return found
    return found


def shows_large_markdown(command: object, cwd: str | None, threshold: int) -> bool:
    """Whether a shell tool's `command` (a payload's value: anything) run in `cwd` would show
    more than `threshold` words of a Markdown file; no for a command or directory that is not
    usable (an unknown directory is not guessed at)."""
    return (
        isinstance(command, str)
        and cwd is not None
        and bool(printed_markdown(command, cwd, threshold))
    )


def _tokens(command: str) -> list[str]:
    lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|()<>\n")
    lexer.whitespace = " \t\r"
    lexer.whitespace_split = True
    lexer.commenters = ""
    return list(lexer)


def _shown(command: str, cwd: str, depth: int) -> Iterator[tuple[str, Piece]]:
    """Every (file, part) the command line shows, pipeline by pipeline."""
    tokens = _tokens(command)
    pipeline: list[list[str]] = [[]]
    heredocs: list[str] = []
    i = 0
    while i <= len(tokens):
        token = tokens[i] if i < len(tokens) else "\n"
        i += 1
        if token.startswith("#"):
            # A comment runs to the end of its line (shlex keeps `a#b` whole, as the shell does).
            while i < len(tokens) and tokens[i] != "\n":
                i += 1
            continue
        if token in ("<<", "<<-") and i < len(tokens):
            heredocs.append(tokens[i].lstrip("-"))
        if token in ("|", "|&"):
            pipeline.append([])
            continue
        if token not in _OPERATORS:
            pipeline[-1].append(token)
            continue
        cwd, shown = _run_pipeline(pipeline, cwd, depth)
        yield from shown
        pipeline = [[]]
        if token == "\n":
            # A here-document's lines are the command's input, not commands: skip to each
            # delimiter line in turn.
            for delimiter in heredocs:
                while i < len(tokens) and not (tokens[i] == delimiter and tokens[i - 1] == "\n"):
                    i += 1
                i += 1
            heredocs = []


def _run_pipeline(
    pipeline: list[list[str]], cwd: str, depth: int
) -> tuple[str, list[tuple[str, Piece]]]:
    """The directory after the pipeline (`cd` alone moves it) and what the pipeline shows."""
    stream: Stream = []
    for index, words in enumerate(pipeline):
        argv, stdin, to_screen = _redirections(words, cwd)
        argv = _without_prefixes(argv)
        if not argv:
            stream = []
            continue
        if len(pipeline) == 1 and argv[0] in ("cd", "pushd"):
            return _changed_dir(argv, cwd), []
        if stdin is not None:
            stream = [(stdin, WHOLE)]
        elif index == 0:
            stream = []
        stream = _filter(argv, stream, cwd, depth)
        if not to_screen:
            stream = []
    return cwd, stream


def _redirections(words: list[str], cwd: str) -> tuple[list[str], str | None, bool]:
    """The words without redirections; the file fed on stdin (`< x.md`), if any; and whether
    stdout still reaches the screen (`> out`, `>/dev/null` take it away; `2>&1` does not)."""
    argv: list[str] = []
    stdin: str | None = None
    to_screen = True
    i = 0
    while i < len(words):
        word = words[i]
        if word in _REDIRECTS:
            target = words[i + 1] if i + 1 < len(words) else ""
            fd = argv.pop() if argv and argv[-1].isdigit() and len(argv[-1]) == 1 else ""
            if word == "<" and fd in ("", "0"):
                stdin = _file(target, cwd)
            elif fd in ("", "1") and (
                word in (">", ">>", ">|", "&>", "&>>") or (word == ">&" and target not in "12")
            ):
                to_screen = False  # `>&2` still shows it: agents' shell tools return stderr too
            i += 2
            continue
        argv.append(word)
        i += 1
    return argv, stdin, to_screen


def _without_prefixes(argv: list[str]) -> list[str]:
    """`sudo cat x`, `FOO=1 cat x`, `env -i cat x`, `time cat x`: the command itself."""
    while argv:
        head = argv[0]
        if "=" in head and head.partition("=")[0].isidentifier():
            argv = argv[1:]
        elif os.path.basename(head) in _PREFIXES:
            argv = argv[1:]
            while argv and argv[0].startswith("-"):
                argv = argv[1:]
        else:
            break
    return argv


def _changed_dir(argv: list[str], cwd: str) -> str:
    operands = [arg for arg in argv[1:] if not arg.startswith("-") or arg == "-"]
    if not operands:
        return os.path.expanduser("~")
    target = operands[0]
    if target == "-" or "$" in target or "`" in target:
        return cwd  # not knowable from the text; later relative paths stay as they were
    return os.path.normpath(os.path.join(cwd, os.path.expanduser(target)))


def _file(word: str, cwd: str) -> str | None:
    """An operand as an absolute path, or None when the shell would change it (`$X`, a glob)."""
    if not word or "$" in word or "`" in word or len(word) > 4096:
        return None
    return os.path.join(cwd, os.path.expanduser(word))


def _files(words: list[str], cwd: str) -> list[str]:
    """The operands as files: a glob of Markdown names is expanded as the shell would."""
    found: list[str] = []
    for word in words:
        path = _file(word, cwd)
        if path is None:
            continue
        if any(magic in word for magic in "*?[") and is_markdown_name(word):
            import glob

            found += sorted(glob.glob(path))[:MAX_FILES]
        else:
            found.append(path)
    return found[:MAX_FILES]


def _operands(argv: list[str], valued: frozenset[str]) -> list[str]:
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


def _filter(argv: list[str], stream: Stream, cwd: str, depth: int) -> Stream:
    """What one command of a pipeline shows, given what flows into it."""
    name = os.path.basename(argv[0])
    if name in _SHELLS:
        return _shell(argv, cwd, depth)
    if name in _PRINTERS:
        operands = _operands(argv, _VALUED.get(name, frozenset()))
        files = _files([o for o in operands if o != "-"], cwd)
        piece = _bat_range(argv) if name in ("bat", "batcat") else WHOLE
        return [(path, piece) for path in files] if files else _narrowed(stream, piece)
    if name == "tee":
        return stream
    if name in ("head", "tail"):
        cut, operands = _head_tail(name, argv)
        if cut is None:
            return []
        files = _files(operands, cwd)
        return [(path, cut) for path in files] if files else _narrowed(stream, cut)
    if name in ("sed", "gsed"):
        return _sed(argv, stream, cwd)
    return []


def _shell(argv: list[str], cwd: str, depth: int) -> Stream:
    """`bash -c 'TEXT'` (also `-lc`, `-ec`): what TEXT shows; a script file is not followed."""
    for i, arg in enumerate(argv[1:-1], start=1):
        if arg.startswith("-") and not arg.startswith("--") and "c" in arg:
            if depth >= MAX_DEPTH:
                return []
            return list(_shown(argv[i + 1], cwd, depth + 1))
    return []


def _count(text: str) -> int | None:
    return int(text) if text.isdigit() and len(text) <= 12 else None


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
    digits = value[len(sign) :]
    scale = 1
    if unit == "bytes" and digits[-1:].lower() in ("k", "m"):
        scale = 1024 if digits[-1].lower() == "k" else 1024 * 1024
        digits = digits[:-1]
    if not digits.isdigit() or len(digits) > 12:
        return None, operands
    count = int(digits) * scale
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


def _narrowed(stream: Stream, piece: Piece) -> Stream:
    """The input cut to `piece`. Exact for one file; for several, the first file's head or the
    last file's tail (a count reaching into the next file is under-counted, never over)."""
    if not stream or piece == WHOLE:
        return stream
    cut_unit, cut_start, cut_stop = piece
    path, current = stream[-1] if cut_start < 0 else stream[0]
    if current == WHOLE:
        return [(path, piece)]
    unit, start, stop = current
    if unit != cut_unit or min(start, cut_start, stop or 0, cut_stop or 0) < 0:
        return []  # lines of bytes, a tail of a slice: not knowable from the text alone
    first = start + cut_start
    last = None if cut_stop is None else start + cut_stop
    if stop is not None:
        last = stop if last is None else min(stop, last)
    return [(path, (unit, first, last))]


def _sed(argv: list[str], stream: Stream, cwd: str) -> Stream:
    """`sed -n '1,400p' FILE` (and `-n -e '10,20p;30p'`): those lines; `sed 's/a/b/' FILE` (no
    -n): the whole file; in place (`-i`), by a script file (`-f`) or by pattern: nothing known."""
    quiet = False
    scripts: list[str] = []
    operands: list[str] = []
    i = 1
    while i < len(argv):
        arg = argv[i]
        if arg in ("-n", "--quiet", "--silent"):
            quiet = True
        elif arg in ("-e", "--expression"):
            scripts.append(argv[i + 1] if i + 1 < len(argv) else "")
            i += 1
        elif arg.startswith("--expression="):
            scripts.append(arg.partition("=")[2])
        elif arg.startswith(("-i", "--in-place", "-f", "--file")):
            return []
        elif arg.startswith("-") and len(arg) > 1 and not arg.startswith("--"):
            quiet = quiet or "n" in arg
            if arg.endswith("e"):
                scripts.append(argv[i + 1] if i + 1 < len(argv) else "")
                i += 1
        elif not arg.startswith("--") or arg == "-":
            operands.append(arg)
        i += 1
    if not scripts and operands:
        scripts.append(operands.pop(0))
    files = _files([o for o in operands if o != "-"], cwd)
    if quiet:
        piece = _sed_lines(";".join(scripts))
        if piece is None:
            return []
    else:
        piece = WHOLE  # every line is printed, edited or not (`d` of a few lines still shows most)
    return [(path, piece) for path in files] if files else _narrowed(stream, piece)


def _sed_lines(script: str) -> Piece | None:
    """The lines a `-n` script of `A,Bp` / `A,+Np` / `Ap` / `A,$p` commands prints, from the
    first to the last (the lines between are few next to a file's); None for any other script."""
    first: int | None = None
    last: int | None = 0
    for command in script.replace("\n", ";").split(";"):
        command = command.strip()
        if not command:
            continue
        if not command.endswith("p"):
            return None
        start_text, comma, stop_text = command[:-1].replace(" ", "").partition(",")
        if not start_text.isdigit() or len(start_text) > 12:
            return None
        start = int(start_text)
        stop: int | None = start
        if comma and stop_text == "$":
            stop = None
        elif comma and stop_text[:1] == "+" and stop_text[1:].isdigit():
            stop = start + int(stop_text[1:])
        elif comma and stop_text.isdigit():
            stop = int(stop_text)
        elif comma:
            return None  # a pattern address: how far it reaches is not in the text
        first = start if first is None else min(first, start)
        last = None if stop is None or last is None else max(last, stop)
    if first is None:
        return None
    return ("lines", max(first - 1, 0), last)
