"""`mdsel index` and `mdsel select`: arguments and MDSEL_* variables → options; the only printer.

Exit codes: 0 everything resolved and every file read; 1 anything unresolved, any invalid
selector, any file error (what succeeded is still printed); 2 command-line usage errors.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, Sequence

from mdsel._version import __version__
from mdsel.api import Options, Outcome, run_command
from mdsel.errors import Problem
from mdsel.files import FileLimits, expand_paths

SELECTOR_HELP = """\
selectors:
  h2.1              the second h2 section (0-based): the heading and everything up to the
                    next heading of the same or a higher level
  section.3         the fourth section, counting headings of every level
  para.0 code.2 list.1 table.0 quote.0
                    top-level blocks (long names work too: paragraph, blockquote,
                    heading:h2, block:code)
  root              the whole document
  h2.1/code.0       the first code block inside h2.1 (paths scope each step)
  list.2/code.0     the first fence in the third list's items
  h2.0-2  h2.0,2,4  h2[1]
                    ranges and lists of indices; no index means all of them
  readme::h2.0      only in the document whose namespace is readme (from README.md)
  h2.0,code.1       several selectors in one request
  h2.1?head=20      parameters: head=N, tail=N (lines), page=N, full=true, toc=true

examples:
  mdsel index README.md docs/
  mdsel select h2.1 README.md
  mdsel select 'h2.1/code.0' README.md
  mdsel select 'h2.3?toc=true' big.md
  mdsel select 'readme::h1.0,api::h2.0' README.md API.md
"""

ENVIRONMENT_HELP = """\
environment:
  MDSEL_PAGE_WORDS          words per page and per response (default 2000)
  MDSEL_INDEX_MAX_HEADINGS  outline size before deep levels collapse (default 250)
  MDSEL_MAX_FILES           files per call after expansion (default 500)
  MDSEL_MAX_BYTES           largest file read (default 52428800)
  MDSEL_MAX_TOTAL_BYTES     bytes read per call (default 104857600)

exit status: 0 all resolved, 1 anything unresolved or unreadable (the rest is still printed),
2 usage error.
"""

_INT_VARIABLES = {
    "MDSEL_PAGE_WORDS": 2000,
    "MDSEL_INDEX_MAX_HEADINGS": 250,
    "MDSEL_MAX_FILES": 500,
    "MDSEL_MAX_BYTES": 52_428_800,
    "MDSEL_MAX_TOTAL_BYTES": 104_857_600,
}


class ConfigError(Exception):
    """An MDSEL_* variable with an unusable value; the message names it."""


def read_settings(environ: Mapping[str, str]) -> dict[str, int]:
    values: dict[str, int] = {}
    for name, default in _INT_VARIABLES.items():
        raw = environ.get(name, "").strip()
        if not raw:
            values[name] = default
            continue
        try:
            value = int(raw)
        except ValueError:
            raise ConfigError(
                f"{name}={raw!r} is not a whole number; unset it or use e.g. {default}"
            ) from None
        if value < 1:
            raise ConfigError(f"{name}={raw!r} must be at least 1; unset it or use e.g. {default}")
        values[name] = value
    return values


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Help laid out verbatim; the width is read with os.get_terminal_size, because argparse's
    default imports shutil (and with it zlib, bz2 and lzma) for every parser it builds."""

    def __init__(self, prog: str) -> None:
        try:
            width = os.get_terminal_size(sys.stderr.fileno()).columns
        except (OSError, ValueError):
            width = 100
        super().__init__(prog, width=max(40, min(width, 120)) - 2)


FILES_HELP = "Markdown files, directories or glob patterns; - reads standard input"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mdsel",
        description="Select parts of Markdown documents by structure instead of reading them "
        "whole.",
        epilog=SELECTOR_HELP + "\n" + ENVIRONMENT_HELP,
        formatter_class=_Formatter,
    )
    parser.add_argument("--version", action="version", version=f"mdsel {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    index = commands.add_parser(
        "index",
        help="list the selectors of each document: heading outline and block counts",
        description="Print a selector inventory: every heading with its selector, title, line "
        "span and section words, then the document's block counts.",
        epilog="examples:\n  mdsel index README.md\n  mdsel index docs/ --json\n"
        "  mdsel index 'docs/**/*.md'\n  git show HEAD:README.md | mdsel index -\n\n"
        + ENVIRONMENT_HELP,
        formatter_class=_Formatter,
    )
    index.add_argument("files", nargs="+", metavar="FILE", help=FILES_HELP)
    _common(index)

    select = commands.add_parser(
        "select",
        help="print exactly the source text a selector names",
        description="Print the verbatim source lines of what SELECTOR names.",
        epilog=SELECTOR_HELP + "\n" + ENVIRONMENT_HELP,
        formatter_class=_Formatter,
    )
    select.add_argument(
        "selector", metavar="SELECTOR", help="e.g. h2.1, 'h2.1/code.0', readme::para.3"
    )
    select.add_argument("files", nargs="+", metavar="FILE", help=FILES_HELP)
    _common(select)
    return parser


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--json", action="store_true", help="print the JSON envelope instead of text"
    )
    parser.add_argument(
        "--full", action="store_true", help="no pagination or outline budget (like ?full=true)"
    )


def run(argv: Sequence[str], environ: Mapping[str, str], cwd: str | None = None) -> Outcome:
    """Everything but printing, so the CLI is testable in-process. SystemExit for usage errors."""
    args = build_parser().parse_args(list(argv))
    try:
        settings = read_settings(environ)
    except ConfigError as exc:
        return Outcome("", f"mdsel: {exc}\n", 2)
    limits = FileLimits(
        max_files=settings["MDSEL_MAX_FILES"],
        max_bytes=settings["MDSEL_MAX_BYTES"],
        max_total_bytes=settings["MDSEL_MAX_TOTAL_BYTES"],
    )
    options = Options(
        json=args.json,
        full=args.full,
        page_words=settings["MDSEL_PAGE_WORDS"],
        max_headings=settings["MDSEL_INDEX_MAX_HEADINGS"],
    )
    expansion = expand_paths(args.files, limits, cwd)
    problems = [Problem(p.type, p.code, p.message, file=p.path) for p in expansion.problems]
    return run_command(
        args.command,
        getattr(args, "selector", None),
        expansion.paths,
        options,
        max_bytes=limits.max_bytes,
        problems=problems,
        warnings=expansion.warnings,
        cwd=cwd,
    )


def main(argv: Sequence[str] | None = None) -> int:
    try:
        outcome = run(sys.argv[1:] if argv is None else argv, os.environ)
    except SystemExit as exc:  # argparse: --help, --version, usage errors
        return exc.code if isinstance(exc.code, int) else 2
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
