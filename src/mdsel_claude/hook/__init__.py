"""`mdsel-claude hook`: an agent's tool-hook JSON on stdin → the reminder, or nothing (stdlib only).

Agents run this on every file read (Claude Code on every shell command too, and VS Code, which
ignores the matchers of Claude Code's settings, on every tool call), so it imports
nothing beyond `json`, `os`, `stat`, `sys`, the one client module `--client` names (`claude` by
default; see `CLIENTS`) and two leaves of the engine that use only the standard library,
`mdsel.names` and `mdsel.settings` (`import mdsel` itself loads nothing; a test checks all of
this). A shell command is parsed (`shell`, with `shlex`) only when the payload is one. The hook
never blocks the tool and exits 0 on every input; `files` stops reading a file as soon as the
answer is known, so a huge file costs no more than a small one.

In outline mode (`--mode outline` or `MDSEL_HOOK_MODE=outline`), a whole-file read of a large
Markdown file, seen once its result exists, has that result replaced by the document's index;
only then is the rest of the engine imported (see `outline`).
"""

from __future__ import annotations

import json
import os
import sys

from mdsel.settings import DEFAULT_MIN_WORDS, parse_count, raw_value

# A bare name rather than `typing.TYPE_CHECKING`: importing `typing` costs more than this whole
# module, and mypy treats any constant called TYPE_CHECKING the same way.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

MODES = ("reminder", "outline")
"""`--mode` / `MDSEL_HOOK_MODE` values; the first is the default."""

CLIENTS = ("claude", "cline", "codex", "copilot", "factory", "gemini", "opencode", "qwen")
"""`--client` values, the first the default: each is a module of this package whose
`answer(payload, threshold, mode)` gives the hook's stdout for that client's payloads."""

USAGE = f"""\
usage: mdsel-claude hook [--client NAME] [--min-words N] [--mode reminder|outline]

Reads an agent's tool-hook payload on stdin (--client: {", ".join(CLIENTS)}; default
{CLIENTS[0]}, Claude Code's PreToolUse/PostToolUse/PostToolUseFailure, which VS Code
sends too). When the tool reads a Markdown file with
more than N words (default: MDSEL_MIN_WORDS, else {DEFAULT_MIN_WORDS}), or a shell command prints
more than N words of one, it prints the reminder to use mdsel_index and mdsel_select;
otherwise it prints nothing.
With --mode outline (default: MDSEL_HOOK_MODE, else reminder), once the tool has run, the
result of a whole-file read is replaced by the document's index and the reminder; a read
of some lines only is left alone.
It always exits 0 and never blocks the tool.
"""


def parse_threshold(argv: Sequence[str], environ: Mapping[str, str], quiet: bool = False) -> int:
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
        elif arg in ("--mode", "--client"):
            i += 2  # read by parse_mode, parse_client
            continue
        elif not arg.startswith(("--mode=", "--client=")) and not quiet:
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
    for note in [] if quiet else notes:
        sys.stderr.write(f"mdsel-claude hook: {note}; using {threshold}\n")
    return threshold


def parse_mode(argv: Sequence[str], environ: Mapping[str, str], quiet: bool = False) -> str:
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
    for note in [] if quiet else notes:
        sys.stderr.write(f"mdsel-claude hook: {note}; using {mode}\n")
    return mode


def parse_client(argv: Sequence[str]) -> str | None:
    """Return `--client NAME` (the default when absent), or None for a name not in `CLIENTS`
    (noted on stderr: an unknown client's payloads cannot be read, so the answer is silence)."""
    name = CLIENTS[0]
    args = list(argv)
    for i, arg in enumerate(args):
        if arg == "--client":
            name = args[i + 1] if i + 1 < len(args) else ""
        elif arg.startswith("--client="):
            name = arg.partition("=")[2]
    if name in CLIENTS:
        return name
    sys.stderr.write(f"mdsel-claude hook: unknown --client {name!r}; one of {', '.join(CLIENTS)}\n")
    return None


MAX_PAYLOAD = 16 * 1024 * 1024

QUIET_ERRORS_OK = frozenset({"claude"})
"""Clients that keep a hook's stderr out of the conversation (Claude Code shows it only in its
transcript view): only they are told on stderr about a setting the hook could not use."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the hook: read the payload on stdin, print the reminder or nothing, return 0."""
    args = sys.argv[1:] if argv is None else list(argv)
    if "-h" in args or "--help" in args:
        sys.stdout.write(USAGE)
        return 0
    try:
        client = parse_client(args)
        if client is None:
            return 0
        # Gemini CLI shows a hook's stderr to the user whenever its stdout is empty, so a note
        # about a bad setting would appear on every read: the other clients get none.
        quiet = client not in QUIET_ERRORS_OK
        threshold = parse_threshold(args, os.environ, quiet)
        mode = parse_mode(args, os.environ, quiet)
        # A hook payload is a few hundred bytes; past MAX_PAYLOAD the answer is silence rather
        # than holding whatever a broken caller pipes in.
        raw = sys.stdin.buffer.read(MAX_PAYLOAD + 1)
        if not raw.strip() or len(raw) > MAX_PAYLOAD:
            return 0
        payload = json.loads(raw)
        # The client's module by name: only its own code is loaded on this path.
        adapter = __import__(f"{__name__}.{client}", fromlist=["answer"])
        output = adapter.answer(payload, threshold, mode)
        if output is not None:
            # One unbuffered write: nothing is left for the exit-time flush to fail on (a reader
            # that has gone away would otherwise turn exit 0 into an error).
            os.write(1, output.encode())
    except Exception:
        # Silence is the answer to anything unexpected: a hook error would be shown to the agent
        # and user on every Read, and the Read itself must go ahead regardless.
        pass
    return 0
