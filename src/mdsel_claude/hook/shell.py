"""Which Markdown files a shell command line shows a large part of, read from its text alone.

Agents read files through their shell tool too (`cat docs/guide.md`, `sed -n '1,400p'
README.md`, `head -500 CHANGELOG.md | nl`). The command line is never run: comments and
here-documents are set aside, the rest is split with `shlex`, and nothing is expanded but `~` and
a glob of Markdown names in one directory; no variable, command substitution or alias is
evaluated. Each pipeline is followed from the files its first command prints to what its last
command shows (see `commands`): a filter that keeps the text (`cat`, `nl`, `less`, `tee`) keeps
it, `head`/`tail`/`sed -n` keep their lines of it, anything else (`grep`, `wc`, `awk`, a redirect
to a file) leaves nothing of it on the screen. A subshell, a `{ …; }` group, a loop, an `if` or a
`case` is one command whose output flows on (`tokens.group_ends` finds where each ends).
`cd DIR`, `pushd` and `popd` move the directory later relative paths are read from (back again
after a subshell's `)`); `sh -c 'TEXT'` is followed into TEXT.

What cannot be understood is silence: a reminder the agent does not need costs more than one it
misses, and the Read tool still has its own. Every step is bounded: the command's length, the
files looked at, the directory entries a glob reads, the depth of nested shells.
"""

from __future__ import annotations

import os
from functools import partial

from mdsel_claude.hook.commands import PRINTERS, shows
from mdsel_claude.hook.parts import OTHER, WHOLE, Piece, Stream, printed_exceeds
from mdsel_claude.hook.shell_words import (
    Globs,
    changed_dir,
    file_operands,
    redirections,
    without_prefixes,
)
from mdsel_claude.hook.tokens import (
    AS_WRITTEN,
    BEFORE_COMMAND,
    COMMAND_OPERATORS,
    GROUPS,
    group_ends,
    tokens,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

MAX_COMMAND = 64 * 1024
"""A longer command line is not parsed (the answer is silence): bounds the work per payload."""

MAX_CHECKS = 8
"""At most this many (file, part) pairs of one command are counted (each reads ≤ 8 MiB)."""

MAX_DEPTH = 2
"""`sh -c 'sh -c "…"'` is followed this deep."""

_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh"})
_SHOWING = PRINTERS | {"head", "tail", "sed", "gsed", "tee"}
"""Commands whose output is the stream `shows` gives, when it gives one."""
_SILENT = frozenset(
    {"cd", "true", "false", ":", "export", "unset", "local", "shift", "exit", "return", "test",
     "[", "[[", "readonly", "wait", "sleep", "mkdir", "rm", "cp", "mv", "touch", "chmod", "ln",
     "read"}
)  # fmt: skip
"""Commands that print nothing on stdout: a group of them and a `cat` is the file's lines."""
_LEADING = frozenset({"then", "do", "else", "elif", "!"})


def printed_markdown(command: str, cwd: str, threshold: int) -> list[str]:
    """The Markdown files of which `command`, run in `cwd`, would show more than `threshold`
    words (absolute paths, each once, in order); [] when it shows none or cannot be read."""
    if not isinstance(command, str) or len(command) > MAX_COMMAND or "\0" in command:
        return []
    found: list[str] = []
    checked: set[tuple[str, Piece]] = set()
    try:
        for path, piece in _shown(command, cwd, 0, Globs()):
            if not path or path in found or (path, piece) in checked:
                continue  # no path: lines of no file (parts.OTHER)
            if len(checked) >= MAX_CHECKS:
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


def _shown(
    command: str, cwd: str | None, depth: int, globs: Globs, scope: _Scope | None = None
) -> Iterator[tuple[str, Piece]]:
    """Every (file, part) the command line shows, pipeline by pipeline."""
    words = tokens(command)
    walk = _Walk(words, globs)
    return walk.shown(0, len(words), cwd, [], scope or _Scope(cwd), depth)


class _Scope:
    """What a run of words leaves behind: the directory it ends in, whether an `exec` took
    stdout away, and whether it printed lines of no file named (`echo`, `ls`)."""

    __slots__ = ("closed", "cwd", "other")

    def __init__(self, cwd: str | None) -> None:
        self.cwd = cwd
        self.closed = False
        self.other = False


class _Walk:
    """One command line's words, walked: each group's end found once (`groups`), the globs'
    entry budget shared."""

    __slots__ = ("ends", "globs", "words")

    def __init__(self, words: list[str], globs: Globs) -> None:
        self.words = words
        self.ends = group_ends(words)
        self.globs = globs

    def shown(
        self,
        start: int,
        stop: int,
        cwd: str | None,
        dirs: list[str | None],
        scope: _Scope,
        depth: int,
    ) -> Iterator[tuple[str, Piece]]:
        """What words[start:stop] show, run in `cwd` with the `pushd` stack `dirs`; `scope`
        gets what they leave behind."""
        words = self.words
        pipeline: list[list[str]] = [[]]
        outer: list[str | None] = []  # the directory to go back to at an unpaired `)`
        substituted: dict[str, Stream] = {}  # `<(…)` or a group, as its command sees it
        closing: set[str] = set()  # groups in this shell whose `exec` took stdout away
        moves: dict[str, str | None] = {}  # a group → the directory its `cd` leaves
        i = start
        while i <= stop:
            token = words[i] if i < stop else "\n"
            i += 1
            last = pipeline[-1][-1] if pipeline[-1] else ""
            end = self.ends.get(i - 1, 0)
            closed_here = 0 < end <= stop
            if (
                token == "{"
                and closed_here
                and (
                    pipeline[-1][:1] == ["function"]
                    or words[max(i - 3, start) : i - 1] == ["(", ")"]
                )
            ):
                # A function's body (`f() { …; }`) runs when the function is called, which the
                # text alone cannot follow: nothing of it is shown here.
                pipeline = [[]]
                i = end
                continue
            if token in GROUPS and closed_here and all(w in BEFORE_COMMAND for w in pipeline[-1]):
                inner = _Scope(cwd)
                stream = list(self.shown(i, end - 1, cwd, list(dirs), inner, depth))
                name = f"\0group {len(substituted)}"  # no word of the command holds a NUL
                substituted[name] = [OTHER, *stream, OTHER] if inner.other else stream
                if token != "(":  # a subshell's `cd` and `exec` end with it; a group's do not
                    moves[name] = inner.cwd  # once it runs alone: in a pipeline, it is a subshell
                    if inner.closed:
                        closing.add(name)
                pipeline[-1].append(name)
                i = end
                continue
            if token == "(" and last.endswith("$"):
                i = end if closed_here else stop  # `$(…)`, `$((…))`: its output is not shown
                continue
            if token == "(" and last == "<":
                # `<(…)`: a process substitution is a file name to its command, which reads
                # what the inner commands print (it does not reach the screen unless that
                # command shows it). What `>(…)` prints does reach the screen: a subshell.
                begin = i
                inner_stop, i = (end - 1, end) if closed_here else (stop, stop)
                name = f"/dev/fd/{63 - len(substituted)}\0"  # no path holds a NUL
                stream = []
                if depth < MAX_DEPTH:
                    inner = _Scope(cwd)
                    stream = list(self.shown(begin, inner_stop, cwd, [], inner, depth + 1))
                    if inner.other:
                        stream = [OTHER, *stream, OTHER]
                substituted[name] = stream
                pipeline[-1][-1] = name
                continue
            if token in ("|", "|&"):
                pipeline.append([])
                continue
            if token not in COMMAND_OPERATORS:
                pipeline[-1].append(token)
                continue
            if not outer and token != "&" and _stdout_taken_away(pipeline):
                scope.cwd, scope.closed = cwd, True
                return  # `exec >/dev/null` in this shell: nothing after it reaches the screen
            here, shown, other = self.run(pipeline, cwd, depth, substituted, dirs)
            scope.other = scope.other or other
            if token != "&":  # `cd docs &` moves a background job's directory, not this one's
                cwd = here
                if len(pipeline) == 1:
                    cwd = next((moves[w] for w in pipeline[0] if w in moves), cwd)
            yield from shown
            if token != "&" and len(pipeline) == 1 and closing.intersection(pipeline[0]):
                scope.cwd, scope.closed = cwd, True
                return  # `{ exec >/dev/null; }`: the group ran in this shell
            pipeline = [[]]
            if token == "(":
                outer.append(cwd)
            elif token == ")" and outer:
                cwd = outer.pop()
        scope.cwd = cwd

    def run(
        self,
        pipeline: list[list[str]],
        cwd: str | None,
        depth: int,
        substituted: dict[str, Stream],
        dirs: list[str | None],
    ) -> tuple[str | None, Stream, bool]:
        """The directory after the pipeline (`cd`, `pushd` or `popd` alone moves it), what it
        shows, and whether it prints lines of no file named; `substituted`: what each `<(…)`
        or group the words name prints; `dirs`: the `pushd` stack."""
        stream: Stream = []
        other = False
        for index, words in enumerate(pipeline):
            argv, stdin, to_screen = redirections(words, cwd)
            argv, here = without_prefixes(argv, cwd)  # `env -C DIR`: the command runs there
            other = False
            if not argv:
                stream = []
                continue
            if len(pipeline) == 1 and argv[0] in ("cd", "pushd", "popd"):
                return _moved(argv, cwd, dirs), [], argv[0] != "cd"  # the two print the stack
            if argv[0] in substituted:  # a group: what it printed, on to the next command
                stream = substituted[argv[0]] if to_screen else []
                continue
            given = [word for word in argv[1:] if word in substituted]
            if given:  # read from `<(…)`: what the inner commands print flows in as input
                argv = [word for word in argv if word not in substituted]
                stream = [part for name in given for part in substituted[name]]
            elif stdin is not None:
                stream = substituted.get(stdin, [(stdin, WHOLE)])
            elif index == 0:
                stream = []
            name = os.path.basename(argv[0])
            if name in _SHELLS:
                stream = self.nested(argv, here, depth)
            else:
                inner = stream if given else []
                paths = partial(file_operands, cwd=here, globs=self.globs)
                stream = shows(argv, stream, paths, self.globs.line_count)
                if inner and name in PRINTERS and inner[0] not in stream:
                    stream = inner + stream  # `cat <(…) guide.md` prints both
                other = name not in _SILENT and (not stream or name not in _SHOWING)
            if not to_screen:
                stream, other = [], False
        return cwd, stream, other

    def nested(self, argv: list[str], cwd: str | None, depth: int) -> Stream:
        """`bash -c 'TEXT'` (also `-lc`, `-ec`): what TEXT shows (its own lines of no file
        marked, parts.OTHER); a script file is not followed."""
        for i, arg in enumerate(argv[1:-1], start=1):
            if arg.startswith("-") and not arg.startswith("--") and "c" in arg:
                if depth >= MAX_DEPTH or cwd is None:
                    return []
                inner = _Scope(cwd)
                # The text as the inner shell reads it: quoting that kept a glob literal here
                # was this shell's, and is gone there (`bash -c 'cat docs/*.md'` expands it).
                text = argv[i + 1].translate(AS_WRITTEN)
                stream = list(_shown(text, cwd, depth + 1, self.globs, inner))
                return [OTHER, *stream, OTHER] if inner.other else stream
        return []


def _stdout_taken_away(pipeline: list[list[str]]) -> bool:
    """Whether the pipeline is `exec` with a redirection that takes stdout off the screen,
    and keeps no copy of it (`exec 3>&1 >/dev/null` does: `>&3` shows again)."""
    words = pipeline[0] if len(pipeline) == 1 else []
    while words[:1] and words[0] in _LEADING:  # `then exec >/dev/null`
        words = words[1:]
    if words[:1] != ["exec"]:
        return False
    # A copy of stdout kept on another descriptor, made while stdout was still the screen
    # (`exec 3>&1 >/dev/null`). `exec >/dev/null 2>&1` copies /dev/null, and fd 2 is the
    # tool's output anyway: neither keeps what later commands print to stdout. Found in the
    # same pass as the redirections (one pass per copy made 10,000 copies take a minute).
    kept: list[str] = []
    argv, _stdin, to_screen = redirections(words, None, kept)
    return argv == ["exec"] and not to_screen and not kept


def _moved(argv: list[str], cwd: str | None, dirs: list[str | None]) -> str | None:
    """The directory after `cd DIR`, `pushd DIR` (the one left is kept) or `popd` (back to it);
    None when the text cannot say (`pushd` alone or `+N` rotate the stack)."""
    if argv[0] == "cd":
        return changed_dir(argv, cwd)
    operands = argv[1:]
    if argv[0] == "popd":
        if operands:
            dirs.clear()  # `popd +1` drops another entry: what is left is not known
            return None
        return dirs.pop() if dirs else cwd  # an empty stack: popd fails, nothing moves
    if not operands or operands[0].startswith(("+", "-")):
        dirs.clear()
        return None
    dirs.append(cwd)
    return changed_dir(argv, cwd)
