"""mdsel: select parts of Markdown documents by structure (headings, sections, blocks).

    >>> sources, problems = mdsel.load(["README.md"])
    >>> result = mdsel.select("h2.1/code.0", sources)

`run_command` gives exactly what the `mdsel` CLI prints for a list of files.

The names below load their module on first use (PEP 562), so `import mdsel` alone costs nothing:
the hook and the server's read policy import the leaf `mdsel.names` without loading the parser.
"""

from __future__ import annotations

from mdsel._version import __version__

TYPE_CHECKING = False
if TYPE_CHECKING:
    from mdsel.api import index, load, run_command, select
    from mdsel.columns import Block
    from mdsel.errors import ParseError, Problem, SelectorSyntaxError, Suggestion
    from mdsel.files import Expansion, FileLimits, expand_paths
    from mdsel.results import Child, IndexResult, Match, Options, Outcome, SelectResult
    from mdsel.sections import Heading
    from mdsel.tree import Document, Source, parse_document

_EXPORTS = {
    "Block": "mdsel.columns",
    "Child": "mdsel.results",
    "Document": "mdsel.tree",
    "Expansion": "mdsel.files",
    "FileLimits": "mdsel.files",
    "Heading": "mdsel.sections",
    "IndexResult": "mdsel.results",
    "Match": "mdsel.results",
    "Options": "mdsel.results",
    "Outcome": "mdsel.results",
    "ParseError": "mdsel.errors",
    "Problem": "mdsel.errors",
    "SelectResult": "mdsel.results",
    "SelectorSyntaxError": "mdsel.errors",
    "Source": "mdsel.tree",
    "Suggestion": "mdsel.errors",
    "expand_paths": "mdsel.files",
    "index": "mdsel.api",
    "load": "mdsel.api",
    "parse_document": "mdsel.tree",
    "run_command": "mdsel.api",
    "select": "mdsel.api",
}
"""Public name → the module that defines it."""

__all__ = [
    "Block",
    "Child",
    "Document",
    "Expansion",
    "FileLimits",
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


if not TYPE_CHECKING:  # type checkers see the imports above, so a misspelt name is an error

    def __getattr__(name: str) -> object:
        module_name = _EXPORTS.get(name)
        if module_name is None:
            raise AttributeError(f"module 'mdsel' has no attribute {name!r}")
        import sys

        __import__(module_name)  # the builtin: importlib itself is not loaded at start-up
        value = getattr(sys.modules[module_name], name)
        globals()[name] = value  # later look-ups are plain attribute reads
        return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
