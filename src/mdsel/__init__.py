"""mdsel: select parts of Markdown documents by structure (headings, sections, blocks).

    >>> sources, problems = mdsel.load(["README.md"])
    >>> result = mdsel.select("h2.1/code.0", sources)

`run_command` gives exactly what the `mdsel` CLI prints for a list of files.
"""

from mdsel._version import __version__
from mdsel.api import (
    Child,
    IndexResult,
    Match,
    Options,
    Outcome,
    SelectResult,
    index,
    load,
    run_command,
    select,
)
from mdsel.errors import ParseError, Problem, SelectorSyntaxError, Suggestion
from mdsel.files import Expansion, FileLimits, FileProblem, expand_paths
from mdsel.parse import Block
from mdsel.tree import Document, Heading, Source, parse_document

__all__ = [
    "Block",
    "Child",
    "Document",
    "Expansion",
    "FileLimits",
    "FileProblem",
    "Heading",
    "IndexResult",
    "Match",
    "Options",
    "Outcome",
    "ParseError",
    "Problem",
    "SelectResult",
    "SelectorSyntaxError",
    "Source",
    "Suggestion",
    "__version__",
    "expand_paths",
    "index",
    "load",
    "parse_document",
    "run_command",
    "select",
]
