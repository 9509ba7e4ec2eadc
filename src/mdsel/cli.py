"""`mdsel index` and `mdsel select`: arguments and MDSEL_* variables → options; the only printer.

Exit codes: 0 everything resolved and every file read; 1 anything unresolved, any invalid
selector, any file error (what succeeded is still printed); 2 command-line usage errors.

The usual command lines (`mdsel index FILE…`, `mdsel select SELECTOR FILE…`, with `--json` or
`--full`) are read here directly; every other one goes to argparse (usage.py), which defines
what they all mean: start-up time is part of a small file's index.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Mapping, Sequence

from mdsel.api import run_command
from mdsel.files import FileLimits, expand_paths
from mdsel.results import Options, Outcome
from mdsel.settings import ConfigError, read_settings
from mdsel.tree import parse_document

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

COMMANDS = {"index": 1, "select": 2}
"""Command → the fewest positional arguments it takes (select: a selector and a file)."""


class Arguments:
    """The command line read: what argparse's namespace would hold for it."""

    __slots__ = ("command", "files", "full", "json", "selector")

    def __init__(
        self, command: str, selector: str | None, files: list[str], json: bool, full: bool
    ) -> None:
        self.command = command
        self.selector = selector
        self.files = files
        self.json = json
        self.full = full


def read_usual(argv: Sequence[str]) -> Arguments | None:
    """The arguments of a usual command line, read as argparse reads them; None for any other.

    Usual: a command, its positional arguments in one run, and `--json` / `--full` before or
    after them; `-` is a positional (standard input). Anything else starting with `-` (help,
    `--version`, unknown or abbreviated options, `--`), positionals split by an option, or
    too few of them are left to argparse, whose messages and exit codes they get.
    """
    if not argv or argv[0] not in COMMANDS:
        return None
    positionals: list[str] = []
    json = full = False
    after = False  # an option came after the positionals: one more would start a second run
    for argument in argv[1:]:
        if argument == "--json" or argument == "--full":
            json = json or argument == "--json"
            full = full or argument == "--full"
            after = bool(positionals)
        elif (argument.startswith("-") and argument != "-") or after:
            return None
        else:
            positionals.append(argument)
    if len(positionals) < COMMANDS[argv[0]]:
        return None
    selector = positionals.pop(0) if argv[0] == "select" else None
    return Arguments(argv[0], selector, positionals, json, full)


def run(argv: Sequence[str], environ: Mapping[str, str], cwd: str | None = None) -> Outcome:
    """Everything but printing, so the CLI is testable in-process. SystemExit for usage errors."""
    args: Arguments | argparse.Namespace | None = read_usual(argv)
    if args is None:
        from mdsel.usage import build_parser

        args = build_parser().parse_args(list(argv))
    try:
        settings = read_settings(environ)
    except ConfigError as exc:
        return Outcome("", f"mdsel: {exc}\n", 2)
    limits = FileLimits(
        settings.max_files,
        settings.max_bytes,
        settings.max_total_bytes,
        settings.max_depth,
        settings.max_names,
    )
    options = Options(
        args.json,
        args.full,
        settings.page_words,
        settings.max_headings,
        settings.max_answer_tokens,
    )
    expansion = expand_paths(args.files, limits, cwd)
    max_nodes = settings.max_blocks
    return run_command(
        args.command,
        getattr(args, "selector", None),
        expansion.paths,
        options,
        parse=lambda raw: parse_document(raw, max_nodes),
        max_bytes=limits.max_bytes,
        problems=expansion.problems,
        warnings=expansion.warnings,
        cwd=cwd,
        left_out=expansion.left_out,
    )


def main(argv: Sequence[str] | None = None) -> int:
    # A short run that builds only acyclic tuples, yet every few hundred allocations the cyclic
    # collector would walk all of them again. Switched off here rather than in parse_document:
    # the server parses in worker threads, and the switch is global to the process.
    enabled = gc.isenabled()
    gc.disable()
    try:
        outcome = run(sys.argv[1:] if argv is None else argv, os.environ)
    except SystemExit as exc:  # argparse: --help, --version, usage errors
        return exc.code if isinstance(exc.code, int) else 2
    finally:
        if enabled:  # main may be called in-process, as the tests do
            gc.enable()
    try:
        if outcome.stdout:
            sys.stdout.buffer.write(outcome.stdout.encode("utf-8", errors="surrogateescape"))
            sys.stdout.flush()
        if outcome.stderr:
            sys.stderr.buffer.write(outcome.stderr.encode("utf-8", errors="surrogateescape"))
            sys.stderr.flush()
    except BrokenPipeError:
        # `mdsel index big.md | head`: the reader left; say nothing more.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return outcome.exit_code
    return outcome.exit_code


if __name__ == "__main__":
    sys.exit(main())
