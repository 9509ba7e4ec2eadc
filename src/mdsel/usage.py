"""The `mdsel` command line as argparse reads it: the parser, its help texts and its errors.

Loaded only when the command line is not one of the two usual shapes cli.read_usual takes
directly (`--help`, `--version`, a usage error, an unknown option, …): building the parsers
costs about as much as indexing a small file.
"""

from __future__ import annotations

import argparse
import os
import sys

from mdsel._version import __version__
from mdsel.settings import (
    DEFAULT_MAX_ANSWER_TOKENS,
    DEFAULT_MAX_BLOCKS,
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_DEPTH,
    DEFAULT_MAX_FILES,
    DEFAULT_MAX_HEADINGS,
    DEFAULT_MAX_NAMES,
    DEFAULT_MAX_TOTAL_BYTES,
    DEFAULT_PAGE_WORDS,
)

SELECTOR_HELP = """\
selectors:
  h2.1              the second h2 section (0-based): the heading and everything up to the
                    next heading of the same or a higher level
  section.3         the fourth section, counting headings of every level
  para.0 code.2 list.1 table.0 quote.0
                    top-level blocks (long names work too: paragraph, blockquote,
                    heading:h2, block:code)
  root              the whole document
  L812              the innermost section holding line 812 (root before the first heading),
                    at the page that shows the line
  L800-850          exactly lines 800 to 850, verbatim (cut at the end of the file)
  docs/a.md:812     line 812 of that file as grep -n prints it: L812 in the document there
  #installation     the section whose heading has that GitHub anchor (lower case, spaces as
                    '-', repeats numbered -1, -2…; `mdsel index --json` lists them);
                    README.md#installation, a link as written, means readme::#installation;
                    a site's links too (/guide/api#setup, ./api.html#setup, /guide/#setup)
  h2.1/code.0       the first code block inside h2.1 (paths scope each step; a heading keeps
                    the number the index prints: h2.5/h3.4 is the index's h3.4, if under h2.5)
  L812/code.0 #setup/code.0
                    L<n> and #anchor come first and can be scoped into; L800-850 cannot
  list.2/code.0     the first fence in the third list's items
  h2.0-2  h2.0,2,4  h2[1]
                    ranges and lists of indices; no index means all of them
  readme::h2.0      only in the document whose namespace is readme (from README.md)
  h2.0,code.1       several selectors in one request
  h2.1?head=20      parameters: head=N, tail=N (lines), page=N, full=true, toc=true
  ?q=cors middleware
                    search: the sections holding the words, best first, with their best
                    lines, then the best one's text; words as written (dependency_overrides,
                    CORSMiddleware, --no-cache), "a phrase" as written; &page=2: next hits
  h2.1?q=cors       search inside a selection (a section, a link, readme::?q=… a document)

output:
  ==> docs/a.md h3.2 Guide › Install › Offline L40-52 <==
                    above each match: its path, the selector that selects it again, the
                    titles down to it, its lines; then its lines verbatim. A page, head=N
                    or tail=N ends with a line saying what was shown of what

examples:
  mdsel index README.md docs/
  mdsel select h2.1 README.md
  mdsel select 'h2.1/code.0' README.md
  mdsel select 'h2.3?toc=true' big.md
  mdsel select L812 CHANGELOG.md
  mdsel select 'README.md#installation' README.md
  mdsel select 'readme::h1.0,api::h2.0' README.md API.md
  mdsel select '?q=dependency overrides' docs/
"""

INDEX_HELP = """\
output:
  161 lines 1210 words; para 13 code 4 list 1 table 2
  h1.0 mdsel-claude 1 1210
    h2.0 Set-up 15 58       selector, title, start line, words of the section
    h2.1 Using mdsel 31 571
      h3.0 Selectors 58 220
  A section runs to the line before the next heading at its indentation or shallower (or
  to the end). The first line counts the document's lines, words and top-level blocks of
  each kind present (para.0-12 exist here; code.0-3 …). With several documents, each
  starts with its namespace and path, and selectors carry the namespace (readme::h2.1).
  Headings that do not fit MDSEL_INDEX_MAX_HEADINGS collapse into counts (+14); --json
  gives every span, word count and anchor.
  Many documents whose outlines would pass MDSEL_MAX_ANSWER_TOKENS print as a map instead:
  each directory once, each document as `file: title lines words` with the outline levels
  that fit (thousands: one line per directory), and a last line saying how to go deeper.

examples:
  mdsel index README.md
  mdsel index docs/ --json
  mdsel index 'docs/**/*.md'
  git show HEAD:README.md | mdsel index -
"""

ENVIRONMENT_HELP = (
    "environment:\n"
    f"  MDSEL_PAGE_WORDS          words per page and per response (default {DEFAULT_PAGE_WORDS})\n"
    "  MDSEL_INDEX_MAX_HEADINGS  outline size before deep levels collapse "
    f"(default {DEFAULT_MAX_HEADINGS})\n"
    "  MDSEL_MAX_ANSWER_TOKENS   estimated tokens per answer unless --full "
    f"(default {DEFAULT_MAX_ANSWER_TOKENS})\n"
    f"  MDSEL_MAX_FILES           files per call after expansion (default {DEFAULT_MAX_FILES})\n"
    f"  MDSEL_MAX_BYTES           largest file read (default {DEFAULT_MAX_BYTES})\n"
    f"  MDSEL_MAX_TOTAL_BYTES     bytes read per call (default {DEFAULT_MAX_TOTAL_BYTES})\n"
    "  MDSEL_MAX_DEPTH           directory levels searched below a directory or glob "
    f"(default {DEFAULT_MAX_DEPTH})\n"
    "  MDSEL_MAX_NAMES           names examined per call by directory and glob expansion "
    f"(default {DEFAULT_MAX_NAMES})\n"
    f"  MDSEL_MAX_BLOCKS          blocks and headings per document (default {DEFAULT_MAX_BLOCKS})\n"
    "\n"
    "exit status: 0 all resolved, 1 anything unresolved or unreadable "
    "(the rest is still printed),\n2 usage error.\n"
)


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
        description="Print a selector inventory: per document a line with its size and "
        "block counts, then every heading with its selector, title, start line and section "
        "words.",
        epilog=INDEX_HELP + "\n" + ENVIRONMENT_HELP,
        formatter_class=_Formatter,
    )
    index.add_argument("files", nargs="+", metavar="FILE", help=FILES_HELP)
    _common(index)

    select = commands.add_parser(
        "select",
        help="print exactly the source text a selector names",
        description="Print the verbatim source lines of what SELECTOR names, each match\n"
        "under a line saying where it is from.",
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
    from mdsel.omitted import MAX_FULL_BYTES, MAX_FULL_MATCHES

    parser.add_argument(
        "--full",
        action="store_true",
        help="no pagination or outline budget (like ?full=true); a select shows at most "
        f"{MAX_FULL_MATCHES:,} matches and {MAX_FULL_BYTES >> 20} MiB, then names the rest",
    )
