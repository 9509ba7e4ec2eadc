"""`mdsel-claude hook`: Claude Code hook JSON on stdin → the Read reminder or nothing (stdlib only).

Claude Code runs this on every `Read`, so it imports nothing beyond `json`, `os`, `stat`, `sys` and
two leaves of the engine that use only the standard library, `mdsel.names` and `mdsel.settings`
(`import mdsel` itself loads nothing; a test checks all of this). It never blocks the tool and
exits 0 on every input. It stops reading a file as soon as the answer is known: once the word
threshold is passed, at the first NUL byte, or after `MAX_BYTES`, so a huge file costs no more
than a small one.

In outline mode (`--mode outline` or `MDSEL_HOOK_MODE=outline`), a whole-file Read of a large
Markdown file seen at PostToolUse has its result replaced by the document's index; only then,
once the threshold is passed, is the rest of the engine imported (see `hook_outline`).
"""

from __future__ import annotations

import json
import os
import stat
import sys

from mdsel.names import is_markdown_name
from mdsel.settings import DEFAULT_MIN_WORDS, parse_count, raw_value

# A bare name rather than `typing.TYPE_CHECKING`: importing `typing` costs more than this whole
# module, and mypy treats any constant called TYPE_CHECKING the same way.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

REMINDER = (
    "This is a Markdown file over the configured size threshold.\n"
    "Use mdsel_index and mdsel_select instead of Read."
)
"""The reminder of SPEC §6, byte for byte: two lines, no final newline, never varied."""

EVENTS = frozenset({"PreToolUse", "PostToolUse"})
"""Hook events the reminder is given for; any other event is answered with silence."""

MODES = ("reminder", "outline")
"""`--mode` / `MDSEL_HOOK_MODE` values; the first is the default."""

REPLACING_EVENT = "PostToolUse"
"""The only event at which a tool's result exists and can be replaced (outline mode)."""

CHUNK_BYTES = 64 * 1024
"""Bytes per read: large enough that a typical 200-word file is one read."""

MAX_BYTES = 8 * 1024 * 1024
"""Read at most this much of a file (guards against a huge file without a whitespace or NUL)."""

_BOM = b"\xef\xbb\xbf"
"""A UTF-8 byte order mark; skipped at the start of a file, as the engine does."""

_ASCII_WHITESPACE = b" \t\n\r\x0b\x0c"
"""The separators of `bytes.split()`: the word rule of SPEC §2."""

USAGE = f"""\
usage: mdsel-claude hook [--min-words N] [--mode reminder|outline]

Reads a Claude Code PreToolUse/PostToolUse payload on stdin. For Read on a Markdown
file with more than N words (default: MDSEL_MIN_WORDS, else {DEFAULT_MIN_WORDS}) it prints the
reminder to use mdsel_index and mdsel_select; otherwise it prints nothing.
With --mode outline (default: MDSEL_HOOK_MODE, else reminder), at PostToolUse the
result of a whole-file Read is replaced by the document's index and the reminder;
a Read with offset or limit is left alone.
It always exits 0 and never blocks the Read.
"""


def parse_threshold(argv: Sequence[str], environ: Mapping[str, str]) -> int:
    """Return the word threshold: `--min-words N`, else `MDSEL_MIN_WORDS`, else the default (200).

    An invalid value (not a non-negative integer) falls back to the default with a note on stderr;
    the hook must still answer, and exiting non-zero would show Claude Code an error.
    """
    raw: str | None = None
    source = "MDSEL_MIN_WORDS"
    args = list(argv)
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--min-words":
            raw = args[i + 1] if i + 1 < len(args) else ""
            source = "--min-words"
            i += 2
            continue
        if arg.startswith("--min-words="):
            raw = arg.partition("=")[2]
            source = "--min-words"
        elif arg == "--mode":
            i += 2  # read by parse_mode
            continue
        elif not arg.startswith("--mode="):
            sys.stderr.write(f"mdsel-claude hook: ignoring unknown argument {arg!r}\n")
        i += 1
    # --min-words, else MDSEL_MIN_WORDS, else the default: an unusable value at one step is
    # noted and the next step is tried.
    candidates = [(source, raw)] if raw is not None else []
    from_env = raw_value(environ, "MDSEL_MIN_WORDS")
    if from_env is not None:
        candidates.append(("MDSEL_MIN_WORDS", from_env))
    notes: list[str] = []
    threshold = DEFAULT_MIN_WORDS
    for name, value in candidates:
        number = parse_count(value)
        if number is not None:
            threshold = number
            break
        notes.append(f"{name}={value!r} is not a non-negative integer")
    for note in notes:
        sys.stderr.write(f"mdsel-claude hook: {note}; using {threshold}\n")
    return threshold


def parse_mode(argv: Sequence[str], environ: Mapping[str, str]) -> str:
    """Return the mode: `--mode M`, else `MDSEL_HOOK_MODE`, else "reminder".

    An unknown value is noted on stderr and the next source is tried, as for the threshold.
    """
    candidates: list[tuple[str, str]] = []
    args = list(argv)
    for i, arg in enumerate(args):
        if arg == "--mode":
            candidates = [("--mode", args[i + 1] if i + 1 < len(args) else "")]
        elif arg.startswith("--mode="):
            candidates = [("--mode", arg.partition("=")[2])]
    from_env = raw_value(environ, "MDSEL_HOOK_MODE")
    if from_env is not None:
        candidates.append(("MDSEL_HOOK_MODE", from_env))
    mode = MODES[0]
    notes: list[str] = []
    for name, value in candidates:
        if value.strip().lower() in MODES:
            mode = value.strip().lower()
            break
        notes.append(f"{name}={value!r} is not one of {', '.join(MODES)}")
    for note in notes:
        sys.stderr.write(f"mdsel-claude hook: {note}; using {mode}\n")
    return mode


def target_path(payload: object) -> str | None:
    """The file a `Read` payload is about, as an absolute path, or None if it is not one."""
    if not isinstance(payload, dict) or payload.get("tool_name") != "Read":
        return None
    tool_input = payload.get("tool_input")
    if not isinstance(tool_input, dict):
        return None
    file_path = tool_input.get("file_path")
    if not isinstance(file_path, str) or not file_path or "\0" in file_path:
        return None
    if not os.path.isabs(file_path):
        cwd = payload.get("cwd")
        base = cwd if isinstance(cwd, str) and cwd and "\0" not in cwd else os.getcwd()
        file_path = os.path.join(base, file_path)
    return file_path


def exceeds_word_threshold(path: str, threshold: int) -> bool:
    """True when the regular file at `path` has more than `threshold` words before any NUL.

    Words are runs of bytes between ASCII whitespace (SPEC §2). Only the bytes before the first
    NUL, and within the first `MAX_BYTES`, are looked at; the result does not depend on how the
    file is cut into reads. Anything that is not a readable regular file is False, and a FIFO or
    device is never opened.
    """
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
        # O_NONBLOCK: if the path was swapped for a FIFO since the stat, opening must not hang.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError):
        return False
    try:
        info = os.fstat(fd)
        # n bytes hold at most (n + 1) // 2 words, so a small file needs no reading at all.
        if not stat.S_ISREG(info.st_mode) or (info.st_size + 1) // 2 <= threshold:
            return False
        # SPEC §2 skips a leading BOM before anything else, word counts included.
        if os.read(fd, len(_BOM)) != _BOM:
            os.lseek(fd, 0, os.SEEK_SET)
        count = 0
        in_word = False
        remaining = MAX_BYTES
        while remaining > 0:
            chunk = os.read(fd, min(CHUNK_BYTES, remaining))
            if not chunk:
                return False
            remaining -= len(chunk)
            nul = chunk.find(b"\0")
            if nul >= 0:
                chunk = chunk[:nul]
                remaining = 0
                if not chunk:
                    return False
            # A word cut by the previous read continues here and is not a new one.
            continued = 1 if in_word and chunk[0] not in _ASCII_WHITESPACE else 0
            needed = threshold + 1 - count
            # maxsplit bounds the work: len(parts) == min(words in chunk, needed + 1).
            parts = chunk.split(None, needed)
            if len(parts) - continued >= needed:
                return True
            count += len(parts) - continued
            in_word = chunk[-1] not in _ASCII_WHITESPACE
        return False
    except OSError:
        return False
    finally:
        os.close(fd)


def reminder_for(payload: object, threshold: int) -> str | None:
    """The hook's stdout for one payload: the reminder JSON line, or None for silence."""
    path = target_path(payload)
    if path is None:
        return None
    assert isinstance(payload, dict)  # target_path only accepts dict payloads
    event = payload.get("hook_event_name")
    if event not in EVENTS or not is_markdown_name(path):
        return None
    # The extension must hold for the symlink target too: `notes.md -> secrets.txt` is not Markdown.
    if not is_markdown_name(os.path.realpath(path)):
        return None
    if not exceeds_word_threshold(path, threshold):
        return None
    output = {"hookSpecificOutput": {"hookEventName": event, "additionalContext": REMINDER}}
    return json.dumps(output) + "\n"


def is_partial_read(payload: dict[str, object]) -> bool:
    """True when the Read asked for a slice (`offset` or `limit`): a deliberate choice of lines."""
    tool_input = payload.get("tool_input")
    if not isinstance(tool_input, dict):
        return False
    return tool_input.get("offset") is not None or tool_input.get("limit") is not None


def answer_for(payload: object, threshold: int, mode: str) -> str | None:
    """The hook's stdout in `mode`: the reminder, the replaced Read result, or None for silence.

    Outline mode changes only PostToolUse, where a result exists to replace; elsewhere, and
    whenever the outline cannot be made, the answer is the reminder, as in the default mode.
    """
    if mode != "outline" or not isinstance(payload, dict):
        return reminder_for(payload, threshold)
    replacing = payload.get("hook_event_name") == REPLACING_EVENT
    if replacing and is_partial_read(payload):
        return None
    reminder = reminder_for(payload, threshold)
    path = target_path(payload)
    if reminder is None or not replacing or path is None:
        return reminder
    try:
        from mdsel_claude.hook_outline import replaced_read

        replaced = replaced_read(payload, path, REMINDER)
    except Exception:
        # The outline is a bonus: any failure (engine, file changed since) keeps the reminder.
        return reminder
    if replaced is None:
        return reminder
    output = {
        "hookSpecificOutput": {"hookEventName": REPLACING_EVENT, "updatedToolOutput": replaced}
    }
    return json.dumps(output) + "\n"


MAX_PAYLOAD = 16 * 1024 * 1024


def main(argv: Sequence[str] | None = None) -> int:
    """Run the hook: read the payload on stdin, print the reminder or nothing, return 0."""
    args = sys.argv[1:] if argv is None else list(argv)
    if "-h" in args or "--help" in args:
        sys.stdout.write(USAGE)
        return 0
    try:
        threshold = parse_threshold(args, os.environ)
        mode = parse_mode(args, os.environ)
        # A hook payload is a few hundred bytes; past MAX_PAYLOAD the answer is silence rather
        # than holding whatever a broken caller pipes in.
        raw = sys.stdin.buffer.read(MAX_PAYLOAD + 1)
        if not raw.strip() or len(raw) > MAX_PAYLOAD:
            return 0
        output = answer_for(json.loads(raw), threshold, mode)
        if output is not None:
            # One unbuffered write: nothing is left for the exit-time flush to fail on (a reader
            # that has gone away would otherwise turn exit 0 into an error).
            os.write(1, output.encode())
    except Exception:
        # Silence is the answer to anything unexpected: a hook error would be shown to the agent
        # and user on every Read, and the Read itself must go ahead regardless.
        pass
    return 0
