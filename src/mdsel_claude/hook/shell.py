"""Which Markdown files a shell command line shows a large part of, read from its text alone.

Agents read files through their shell tool too (`cat docs/guide.md`, `sed -n '1,400p'
README.md`, `head -500 CHANGELOG.md | nl`). The command line is never run: comments and
here-documents are set aside, the rest is split with `shlex`, and nothing is expanded but `~` and
a glob of Markdown names in one directory; no variable, command substitution or alias is
evaluated. Each pipeline is followed from the files its first command prints to what its last
command shows (see `commands`): a filter that keeps the text (`cat`, `nl`, `less`, `tee`) keeps
it, `head`/`tail`/`sed -n` keep their lines of it, anything else (`grep`, `wc`, `awk`, a redirect
to a file) leaves nothing of it on the screen. `cd DIR` moves the directory later relative paths
are read from (back again after a subshell's `)`); `sh -c 'TEXT'` is followed into TEXT.

What cannot be understood is silence: a reminder the agent does not need costs more than one it
misses, and the Read tool still has its own. Every step is bounded: the command's length, the
files looked at, the directory entries a glob reads, the depth of nested shells.
"""

from __future__ import annotations

import os

from mdsel.names import is_markdown_name
from mdsel_claude.hook.commands import PRINTERS, Stream, shows
from mdsel_claude.hook.files import WHOLE, Piece, printed_exceeds
from mdsel_claude.hook.tokens import tokens

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

MAX_COMMAND = 64 * 1024
"""A longer command line is not parsed (the answer is silence): bounds the work per payload."""

MAX_FILES = 64
"""At most this many files of one command are named or globbed."""

MAX_CHECKS = 8
"""At most this many (file, part) pairs of one command are counted (each reads ≤ 8 MiB)."""

MAX_GLOB_ENTRIES = 10_000
"""The globs of one command read at most this many directory entries in all; a glob past them
expands to nothing."""

MAX_DEPTH = 2
"""`sh -c 'sh -c "…"'` is followed this deep."""

_OPERATORS = frozenset({"|", "|&", "&&", "||", ";", "&", "\n", "(", ")", ";;", "{", "}"})
_REDIRECTS = frozenset({">", ">>", ">|", "&>", "&>>", ">&", "<", "<<", "<<-", "<<<", "<>", "<&"})
_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh"})
_STILL_SHOWN = frozenset(
    {"/dev/stdout", "/dev/stderr", "/dev/fd/1", "/dev/fd/2", "/proc/self/fd/1", "/proc/self/fd/2"}
)
"""Redirection targets that are the shell tool's own output."""
_KEYWORDS = frozenset({"if", "then", "elif", "else", "while", "until", "do", "!"})
"""Words before a command that leave what it prints alone (`if cat x.md; then …`)."""
_PREFIXES = {
    "sudo": frozenset("ugCDhpUrtT"),
    "nice": frozenset("n"),
    "env": frozenset("uCS"),
    "timeout": frozenset("sk"),
    "command": frozenset(),
    "builtin": frozenset(),
    "exec": frozenset("a"),
    "time": frozenset("fo"),
    "nohup": frozenset(),
    "stdbuf": frozenset("ioe"),
}
"""Commands that run the command after them, with their short options that take a value."""


def printed_markdown(command: str, cwd: str, threshold: int) -> list[str]:
    """The Markdown files of which `command`, run in `cwd`, would show more than `threshold`
    words (absolute paths, each once, in order); [] when it shows none or cannot be read."""
    if not isinstance(command, str) or len(command) > MAX_COMMAND or "\0" in command:
        return []
    found: list[str] = []
    checked: set[tuple[str, Piece]] = set()
    try:
        for path, piece in _shown(command, cwd, 0, _Globs()):
            if path in found or (path, piece) in checked or len(checked) >= MAX_CHECKS:
                continue
            checked.add((path, piece))
            if printed_exceeds(path, piece, threshold):
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


class _Globs:
    """The globs of one command line: each expanded once, all within one entry budget."""

    __slots__ = ("entries", "seen")

    def __init__(self) -> None:
        self.entries = MAX_GLOB_ENTRIES
        self.seen: dict[tuple[str, str], list[str]] = {}


def _shown(command: str, cwd: str | None, depth: int, globs: _Globs) -> Iterator[tuple[str, Piece]]:
    """Every (file, part) the command line shows, pipeline by pipeline."""
    return _shown_words(tokens(command), cwd, depth, globs)


def _shown_words(
    words: list[str], cwd: str | None, depth: int, globs: _Globs
) -> Iterator[tuple[str, Piece]]:
    pipeline: list[list[str]] = [[]]
    outer: list[str | None] = []  # the directory to go back to at each subshell's `)`
    substituted: dict[str, Stream] = {}  # `<(…)` as its command sees it → what it prints
    i = 0
    while i <= len(words):
        token = words[i] if i < len(words) else "\n"
        i += 1
        last = pipeline[-1][-1] if pipeline[-1] else ""
        if token == "(" and last.endswith("$"):
            i = _closing(words, i)  # `$(…)`, `$((…))`: its output is not shown
            continue
        if token == "(" and last == "<":
            # `<(…)`: a process substitution is a file name to its command, which reads what
            # the inner commands print (it does not reach the screen unless that command
            # shows it). What `>(…)` prints does reach the screen: it is read as a subshell.
            end = _closing(words, i)
            name = f"/dev/fd/{63 - len(substituted)}\0"  # no path of the command holds a NUL
            inner = words[i : end - 1]
            substituted[name] = (
                list(_shown_words(inner, cwd, depth + 1, globs)) if depth < MAX_DEPTH else []
            )
            pipeline[-1][-1] = name
            i = end
            continue
        if token in ("|", "|&"):
            pipeline.append([])
            continue
        if token not in _OPERATORS:
            pipeline[-1].append(token)
            continue
        if not outer and token != "&" and _stdout_taken_away(pipeline):
            return  # `exec >/dev/null` in this shell: nothing after it reaches the screen
        moved, shown = _run_pipeline(pipeline, cwd, depth, globs, substituted)
        if token != "&":  # `cd docs &` moves a background job's directory, not this shell's
            cwd = moved
        yield from shown
        pipeline = [[]]
        if token == "(":
            outer.append(cwd)
        elif token == ")" and outer:
            cwd = outer.pop()


def _stdout_taken_away(pipeline: list[list[str]]) -> bool:
    """Whether the pipeline is `exec` with a redirection that takes stdout off the screen,
    and keeps no copy of it (`exec 3>&1 >/dev/null` does: `>&3` shows again)."""
    words = pipeline[0] if len(pipeline) == 1 else []
    if words[:1] != ["exec"]:
        return False
    if any(word == ">&" and words[k + 1 : k + 2] == ["1"] for k, word in enumerate(words)):
        return False
    argv, _stdin, to_screen = _redirections(words, None)
    return argv == ["exec"] and not to_screen


def _closing(tokens: list[str], i: int) -> int:
    """The index after the `)` that closes the `(` just before `i`."""
    depth = 1
    while i < len(tokens) and depth:
        depth += {"(": 1, ")": -1}.get(tokens[i], 0)
        i += 1
    return i


def _run_pipeline(
    pipeline: list[list[str]],
    cwd: str | None,
    depth: int,
    globs: _Globs,
    substituted: dict[str, Stream],
) -> tuple[str | None, Stream]:
    """The directory after the pipeline (`cd` alone moves it) and what the pipeline shows;
    `substituted`: what each `<(…)` the words name prints."""
    stream: Stream = []
    for index, words in enumerate(pipeline):
        argv, stdin, to_screen = _redirections(words, cwd)
        argv = _without_prefixes(argv)
        if not argv:
            stream = []
            continue
        if len(pipeline) == 1 and argv[0] in ("cd", "pushd"):
            return _changed_dir(argv, cwd), []
        given = [word for word in argv[1:] if word in substituted]
        if given:  # read from `<(…)`: what the inner commands print flows in as input
            argv = [word for word in argv if word not in substituted]
            stream = [part for name in given for part in substituted[name]]
        elif stdin is not None:
            stream = substituted.get(stdin, [(stdin, WHOLE)])
        elif index == 0:
            stream = []
        if os.path.basename(argv[0]) in _SHELLS:
            stream = _nested(argv, cwd, depth, globs)
        else:
            inner = stream if given else []
            stream = shows(argv, stream, lambda words: _files(words, cwd, globs))
            if inner and os.path.basename(argv[0]) in PRINTERS and inner[0] not in stream:
                stream = inner + stream  # `cat <(…) guide.md` prints both
        if not to_screen:
            stream = []
    return cwd, stream


def _redirections(words: list[str], cwd: str | None) -> tuple[list[str], str | None, bool]:
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
            elif target in _STILL_SHOWN:
                pass  # `> /dev/stdout`, `> /dev/stderr`: agents' shell tools return both
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
    """`sudo -u x cat f`, `FOO=1 cat f`, `timeout 10 cat f`, `then cat f`: the command itself."""
    while argv:
        head = argv[0]
        name = os.path.basename(head)
        if head in _KEYWORDS or ("=" in head and head.partition("=")[0].isidentifier()):
            argv = argv[1:]
        elif name == "command" and argv[1:2] in (["-v"], ["-V"]):
            return []  # `command -v cat`: says where a command is, runs nothing
        elif name in _PREFIXES:
            valued = _PREFIXES[name]
            argv = argv[1:]
            while argv and argv[0].startswith("-") and argv[0] != "-":
                takes = argv[0][-1] in valued and not argv[0].startswith("--")
                argv = argv[2:] if takes else argv[1:]
            if name == "timeout" and argv:
                argv = argv[1:]  # the duration
        else:
            break
    return argv


def _home(word: str) -> str:
    """`~` and `~/x` as the home directory; `~user` is left as written (no user lookup)."""
    return os.path.expanduser(word) if word == "~" or word.startswith("~/") else word


def _changed_dir(argv: list[str], cwd: str | None) -> str | None:
    """The directory after `cd ARGV`, or None when the text cannot say (`cd -`, `cd "$X"`):
    later relative paths are then unknown, never guessed."""
    operands = [arg for arg in argv[1:] if not arg.startswith("-") or arg == "-"]
    if not operands:
        return os.path.expanduser("~")
    target = _home(operands[0])
    if target == "-" or "$" in target or "`" in target or "\0" in target:
        return None
    if os.path.isabs(target):
        return os.path.normpath(target)
    return None if cwd is None else os.path.normpath(os.path.join(cwd, target))


def _file(word: str, cwd: str | None) -> str | None:
    """An operand as an absolute path, or None when the shell would change it (`$X`) or the
    directory is unknown."""
    if not word or "$" in word or "`" in word or len(word) > 4096:
        return None
    word = _home(word)
    if os.path.isabs(word):
        return word
    return None if cwd is None else os.path.join(cwd, word)


def _files(words: list[str], cwd: str | None, globs: _Globs) -> list[str]:
    """The operands as files: a glob of Markdown names in one directory is expanded."""
    found: list[str] = []
    for word in words:
        path = _file(word, cwd)
        if path is None:
            continue
        folder, name = os.path.split(path)
        if any(magic in name for magic in "*?[") and is_markdown_name(name):
            key = (folder, name)
            if key not in globs.seen:
                globs.seen[key] = _glob(folder, name, globs)
            found += globs.seen[key]
        elif not any(magic in folder for magic in "*?["):
            found.append(path)
        if len(found) >= MAX_FILES:
            break
    return found[:MAX_FILES]


def _glob(folder: str, pattern: str, globs: _Globs) -> list[str]:
    """The names in `folder` that `pattern` matches, sorted as the shell sorts them, within the
    command's entry budget (a directory past it expands to nothing)."""
    import fnmatch

    names: list[str] = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                globs.entries -= 1
                if globs.entries < 0:
                    return []
                hidden = entry.name.startswith(".") and not pattern.startswith(".")
                if not hidden and fnmatch.fnmatchcase(entry.name, pattern):
                    names.append(entry.name)
    except OSError:
        return []
    return [os.path.join(folder, name) for name in sorted(names)[:MAX_FILES]]


def _nested(argv: list[str], cwd: str | None, depth: int, globs: _Globs) -> Stream:
    """`bash -c 'TEXT'` (also `-lc`, `-ec`): what TEXT shows; a script file is not followed."""
    for i, arg in enumerate(argv[1:-1], start=1):
        if arg.startswith("-") and not arg.startswith("--") and "c" in arg:
            if depth >= MAX_DEPTH or cwd is None:
                return []
            return list(_shown(argv[i + 1], cwd, depth + 1, globs))
    return []
