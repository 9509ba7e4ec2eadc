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

from mdsel_claude.hook.commands import PRINTERS, shows
from mdsel_claude.hook.parts import WHOLE, Piece, Stream, printed_exceeds
from mdsel_claude.hook.shell_words import (
    Globs,
    changed_dir,
    file_operands,
    redirections,
    without_prefixes,
)
from mdsel_claude.hook.tokens import tokens

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

MAX_COMMAND = 64 * 1024
"""A longer command line is not parsed (the answer is silence): bounds the work per payload."""

MAX_CHECKS = 8
"""At most this many (file, part) pairs of one command are counted (each reads ≤ 8 MiB)."""

MAX_DEPTH = 2
"""`sh -c 'sh -c "…"'` is followed this deep."""

_OPERATORS = frozenset({"|", "|&", "&&", "||", ";", "&", "\n", "(", ")", ";;", "{", "}"})
_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh"})
_GROUPS = {
    "(": ")", "{": "}", "if": "fi", "for": "done", "while": "done", "until": "done",
    "select": "done",
}  # fmt: skip
"""Compound commands, by the word that opens each and the one that closes it: what the whole
prints flows on as one command's output (`( cd docs && cat g.md ) | head -n 5`)."""
_BEFORE_COMMAND = _OPERATORS | {"do", "then", "else", "elif", "!"}
"""After these words a command starts (so an opening or closing word there is one)."""


def printed_markdown(command: str, cwd: str, threshold: int) -> list[str]:
    """The Markdown files of which `command`, run in `cwd`, would show more than `threshold`
    words (absolute paths, each once, in order); [] when it shows none or cannot be read."""
    if not isinstance(command, str) or len(command) > MAX_COMMAND or "\0" in command:
        return []
    found: list[str] = []
    checked: set[tuple[str, Piece]] = set()
    try:
        for path, piece in _shown(command, cwd, 0, Globs()):
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


def _shown(command: str, cwd: str | None, depth: int, globs: Globs) -> Iterator[tuple[str, Piece]]:
    """Every (file, part) the command line shows, pipeline by pipeline."""
    return _shown_words(tokens(command), cwd, depth, globs)


def _shown_words(
    words: list[str],
    cwd: str | None,
    depth: int,
    globs: Globs,
    dirs: list[str | None] | None = None,
    after: list[str | None] | None = None,
) -> Iterator[tuple[str, Piece]]:
    """What the words show; `dirs`: the `pushd` stack they start with; `after`, when given,
    gets the directory they end in (a `{ …; }` group or a loop moves the shell's own)."""
    pipeline: list[list[str]] = [[]]
    outer: list[str | None] = []  # the directory to go back to at each subshell's `)`
    substituted: dict[str, Stream] = {}  # `<(…)` or a group, as its command sees it → its output
    dirs = [] if dirs is None else dirs
    i = 0
    while i <= len(words):
        token = words[i] if i < len(words) else "\n"
        i += 1
        last = pipeline[-1][-1] if pipeline[-1] else ""
        if token in _GROUPS and all(word in _BEFORE_COMMAND for word in pipeline[-1]):
            end = _group_end(words, i, token)
            if end > 0:
                moved: list[str | None] = [cwd]
                inner = words[i : end - 1]
                name = f"\0group {len(substituted)}"  # no word of the command holds a NUL
                substituted[name] = list(_shown_words(inner, cwd, depth, globs, list(dirs), moved))
                if token != "(":  # a subshell's `cd` ends with it; a group's is the shell's
                    cwd = moved[0]
                pipeline[-1].append(name)
                i = end
                continue
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
            if after is not None:
                after[0] = cwd
            return  # `exec >/dev/null` in this shell: nothing after it reaches the screen
        here, shown = _run_pipeline(pipeline, cwd, depth, globs, substituted, dirs)
        if token != "&":  # `cd docs &` moves a background job's directory, not this shell's
            cwd = here
        yield from shown
        pipeline = [[]]
        if token == "(":
            outer.append(cwd)
        elif token == ")" and outer:
            cwd = outer.pop()
    if after is not None:
        after[0] = cwd


def _group_end(words: list[str], i: int, opener: str) -> int:
    """The index after the word that closes the group `opener` (just before `i`) opens, or -1
    when none does. Brackets close wherever they stand; a closing word only where a command
    starts (`echo done` closes nothing)."""
    closer = _GROUPS[opener]
    openers = {word for word, closing in _GROUPS.items() if closing == closer}
    anywhere = opener == "("
    level = 1
    while i < len(words):
        word = words[i]
        if anywhere or words[i - 1] in _BEFORE_COMMAND:
            if word in openers:
                level += 1
            elif word == closer:
                level -= 1
                if not level:
                    return i + 1
        i += 1
    return -1


def _stdout_taken_away(pipeline: list[list[str]]) -> bool:
    """Whether the pipeline is `exec` with a redirection that takes stdout off the screen,
    and keeps no copy of it (`exec 3>&1 >/dev/null` does: `>&3` shows again)."""
    words = pipeline[0] if len(pipeline) == 1 else []
    if words[:1] != ["exec"]:
        return False
    if any(word == ">&" and words[k + 1 : k + 2] == ["1"] for k, word in enumerate(words)):
        return False
    argv, _stdin, to_screen = redirections(words, None)
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
    globs: Globs,
    substituted: dict[str, Stream],
    dirs: list[str | None],
) -> tuple[str | None, Stream]:
    """The directory after the pipeline (`cd`, `pushd` or `popd` alone moves it) and what the
    pipeline shows; `substituted`: what each `<(…)` or group the words name prints; `dirs`:
    the `pushd` stack."""
    stream: Stream = []
    for index, words in enumerate(pipeline):
        argv, stdin, to_screen = redirections(words, cwd)
        argv = without_prefixes(argv)
        if not argv:
            stream = []
            continue
        if len(pipeline) == 1 and argv[0] in ("cd", "pushd", "popd"):
            return _moved(argv, cwd, dirs), []
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
        if os.path.basename(argv[0]) in _SHELLS:
            stream = _nested(argv, cwd, depth, globs)
        else:
            inner = stream if given else []
            stream = shows(argv, stream, lambda words: file_operands(words, cwd, globs))
            if inner and os.path.basename(argv[0]) in PRINTERS and inner[0] not in stream:
                stream = inner + stream  # `cat <(…) guide.md` prints both
        if not to_screen:
            stream = []
    return cwd, stream


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
        return dirs.pop() if dirs else None
    if not operands or operands[0].startswith(("+", "-")):
        dirs.clear()
        return None
    dirs.append(cwd)
    return changed_dir(argv, cwd)


def _nested(argv: list[str], cwd: str | None, depth: int, globs: Globs) -> Stream:
    """`bash -c 'TEXT'` (also `-lc`, `-ec`): what TEXT shows; a script file is not followed."""
    for i, arg in enumerate(argv[1:-1], start=1):
        if arg.startswith("-") and not arg.startswith("--") and "c" in arg:
            if depth >= MAX_DEPTH or cwd is None:
                return []
            return list(_shown(argv[i + 1], cwd, depth + 1, globs))
    return []
