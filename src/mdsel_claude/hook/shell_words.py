"""The words of one simple command, read as the shell would without running anything: its
redirections (`< x.md`, `> out`, `2>&1`), the prefixes that run the command after them (`sudo`,
`FOO=1`, `timeout 10`), `cd`'s directory, and its operands as paths (`~` and a glob of Markdown
names in one directory expanded, within a budget of directory entries per command line).
"""

from __future__ import annotations

import os

from mdsel.names import is_markdown_name
from mdsel_claude.hook.tokens import AS_WRITTEN, FD

MAX_FILES = 64
"""At most this many files of one command are named or globbed."""

MAX_GLOB_ENTRIES = 10_000
"""The globs of one command read at most this many directory entries in all; a glob past them
expands to nothing."""


_REDIRECTS = frozenset({">", ">>", ">|", "&>", "&>>", ">&", "<", "<<", "<<-", "<<<", "<>", "<&"})
_STILL_SHOWN = {
    "/dev/stdout": "1", "/dev/fd/1": "1", "/proc/self/fd/1": "1",
    "/dev/stderr": "2", "/dev/fd/2": "2", "/proc/self/fd/2": "2",
}  # fmt: skip
"""Redirection targets that are the shell tool's own output: the descriptor each one is."""
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


MAX_LINE_COUNTS = 8
"""At most this many files of one command line have their lines counted (each read up to the
hook's byte bound) to number `sed` ranges across files; past them a count is not known."""


class Globs:
    """The globs of one command line: each expanded once, all within one entry budget; and the
    files whose lines it counts (`line_count`), within their own budget."""

    __slots__ = ("counted", "entries", "seen")

    def __init__(self) -> None:
        self.entries = MAX_GLOB_ENTRIES
        self.seen: dict[tuple[str, str], list[str]] = {}
        self.counted: dict[str, int | None] = {}

    def line_count(self, path: str) -> int | None:
        """`files.line_count` of `path`, each file once per command line and at most
        `MAX_LINE_COUNTS` files in all (None past them: the caller then under-counts)."""
        if path not in self.counted:
            if len(self.counted) >= MAX_LINE_COUNTS:
                return None
            from mdsel_claude.hook.files import line_count

            self.counted[path] = line_count(path)
        return self.counted[path]


def redirections(
    words: list[str], cwd: str | None, kept: list[str] | None = None
) -> tuple[list[str], str | None, bool]:
    """The words without redirections; the file fed on stdin (`< x.md`), if any; and whether
    stdout still reaches the screen (`> out`, `>/dev/null` take it away; `2>&1` does not).
    `kept`, when given, gets each descriptor beyond 2 made a copy of stdout while stdout still
    reached the screen (`3>&1` before `>/dev/null`), found in the same pass.

    Applied in order, as the shell does: `2>/dev/null >&2` sends stdout where stderr went by
    then (nowhere), `>&2 2>/dev/null` to where stderr went first (the screen: agents' shell
    tools return stderr too). A descriptor beyond 2 reaches the screen only when copied from
    one that does in the same command."""
    argv: list[str] = []
    stdin: str | None = None
    shown = {"1": True, "2": True}  # where each descriptor goes: the screen, or elsewhere
    i = 0
    while i < len(words):
        word = words[i]
        if word in _REDIRECTS:
            target = words[i + 1] if i + 1 < len(words) else ""
            fd = argv.pop()[len(FD) :] if argv and argv[-1].startswith(FD) else ""
            fd = (fd.lstrip("0") or "0") if fd else ""  # `01>` is stdout, as `1>`
            copied = word == ">&" and target.isascii() and target.isdigit()
            if copied:
                target = target.lstrip("0") or "0"  # `>&02` copies stderr
            if word == "<" and fd in ("", "0"):
                stdin = _file(target, cwd, as_written=True)
            elif word in (">", ">>", ">|", "&>", "&>>") or (word == ">&" and not copied):
                to = shown.get(_STILL_SHOWN.get(target, ""), False)
                both = word in ("&>", "&>>") or (word == ">&" and fd == "" and target != "-")
                for number in ("1", "2") if both else (fd or "1",):
                    shown[number] = to
            elif word == ">&":
                if kept is not None and target == "1" and fd not in ("", "1", "2") and shown["1"]:
                    kept.append(fd)
                shown[fd or "1"] = shown.get(target, False)
            i += 2
            continue
        argv.append(word)
        i += 1
    return argv, stdin, shown["1"]


_CHDIR = {"env": "C", "sudo": "D"}
"""The prefixes' short option that runs the command in another directory (`--chdir` too)."""


def without_prefixes(argv: list[str], cwd: str | None = None) -> tuple[list[str], str | None]:
    """`sudo -u x cat f`, `FOO=1 cat f`, `timeout 10 cat f`, `then cat f`: the command itself,
    and the directory it runs in (`env -C docs cat f`, `sudo -D docs …` run it in docs/)."""
    while argv:
        head = argv[0]
        name = os.path.basename(head)
        if head in _KEYWORDS or ("=" in head and head.partition("=")[0].isidentifier()):
            argv = argv[1:]
        elif name == "command" and argv[1:2] in (["-v"], ["-V"]):
            return [], cwd  # `command -v cat`: says where a command is, runs nothing
        elif name in _PREFIXES:
            valued = _PREFIXES[name]
            chdir = _CHDIR.get(name)
            start = cwd  # the last `-C DIR` counts, from where the prefix runs (GNU env)
            argv = argv[1:]
            while argv and argv[0].startswith("-") and argv[0] != "-":
                option = argv[0]
                if option == "--":
                    argv = argv[1:]
                    break
                key, equals, value = option.partition("=")
                if chdir and key == "--chdir":
                    if not equals:
                        value = argv[1] if len(argv) > 1 else ""
                        argv = argv[1:]
                    cwd = changed_dir(["cd", value], start) if value else None
                    argv = argv[1:]
                    continue
                if option.startswith("--"):
                    argv = argv[1:]  # a long option: its value, if any, is attached with `=`
                    continue
                at = option.find(chdir, 1) if chdir else -1
                if at > 0 and not any(flag in valued for flag in option[1:at]):
                    value = option[at + 1 :] or (argv[1] if len(argv) > 1 else "")
                    argv = argv[1:] if option[at + 1 :] else argv[2:]
                    cwd = changed_dir(["cd", value], start) if value else None
                    continue
                takes = option[-1] in valued
                argv = argv[2:] if takes else argv[1:]
            if name == "timeout" and argv:
                argv = argv[1:]  # the duration
        else:
            break
    return argv, cwd


def _home(word: str) -> str:
    """`~` and `~/x` as the home directory; `~user` is left as written (no user lookup)."""
    return os.path.expanduser(word) if word == "~" or word.startswith("~/") else word


def changed_dir(argv: list[str], cwd: str | None) -> str | None:
    """The directory after `cd ARGV`, or None when the text cannot say (`cd -`, `cd "$X"`):
    later relative paths are then unknown, never guessed."""
    operands = [arg for arg in argv[1:] if not arg.startswith("-") or arg == "-"]
    if not operands:
        return os.path.expanduser("~")
    target = _home(operands[0])
    if target == "-" or "$" in target or "`" in target or "\0" in target:
        return None
    target = target.translate(AS_WRITTEN)
    if os.path.isabs(target):
        return os.path.normpath(target)
    return None if cwd is None else os.path.normpath(os.path.join(cwd, target))


def _file(word: str, cwd: str | None, as_written: bool = False) -> str | None:
    """An operand as an absolute path, or None when the shell would change it (`$X`) or the
    directory is unknown; `as_written`: its quoted glob characters put back (tokens)."""
    if not word or "$" in word or "`" in word or len(word) > 4096:
        return None
    word = _home(word)
    if as_written:
        word = word.translate(AS_WRITTEN)
    if os.path.isabs(word):
        return word
    return None if cwd is None else os.path.join(cwd, word)


def file_operands(words: list[str], cwd: str | None, globs: Globs) -> list[str]:
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
            found.append(path.translate(AS_WRITTEN))  # `"*.md"`: the name as written
        if len(found) >= MAX_FILES:
            break
    return found[:MAX_FILES]


def _glob(folder: str, pattern: str, globs: Globs) -> list[str]:
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
