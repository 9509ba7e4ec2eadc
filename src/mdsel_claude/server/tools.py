"""The two MCP tools as plain data (normative descriptions, schemas) and their argument checks."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

INDEX_TOOL = "mdsel_index"
SELECT_TOOL = "mdsel_select"

# The descriptions and input schemas below are published verbatim: the seed that defines them
# calls them normative, and tests compare them with it character for character.
INDEX_DESCRIPTION = """\
Return a selector inventory for one or more Markdown documents.

IMPORTANT: For Markdown files over 200 words, use this tool instead of Read.
Always call mdsel_index BEFORE mdsel_select to discover available selectors.

Usage:
1. Call mdsel_index with file paths to get document structure
2. Review available selectors (h1.0, h2.0, code.0, etc.)
3. Call mdsel_select with specific selectors

Selector notation in output:
- h1.0, h2.1, h3.0 = Headings (level.index, 0-based)
- code.N, para.N, list.N, table.N, quote.N = Blocks

Output includes:
- Document namespace (derived from filename)
- Heading hierarchy with word counts
- Block type counts (code, paragraph, list, table, blockquote)"""

SELECT_DESCRIPTION = """\
Retrieve specific content from Markdown documents using selectors.

IMPORTANT: For Markdown files over 200 words, use this tool instead of Read.
Always call mdsel_index first to discover available selectors.

Selector grammar:
- h1.0, h2.1, h3.0 = Heading at level.index (0-based)
- code.0, para.0, list.0, table.0, quote.0 = Block at index
- h2.0/code.0 = Nested: first code block under first h2
- readme::h2.0 = Namespaced: h2.0 in specific document
- h2.0-2 = Range: h2.0, h2.1, h2.2
- h2.0,2,4 = List: specific indices
- h2.0?head=10 = Query: first 10 lines

Examples:
- "h2.0" = First h2 section
- "h2.1/code.0" = First code block in second h2
- "readme::h1.0" = First h1 in readme document

Returns exact markdown content. No summarization or interpretation."""

INDEX_INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "files": {
            "type": "array",
            "items": {"type": "string"},
            "description": "Array of Markdown file paths to index",
        }
    },
    "required": ["files"],
}

SELECT_INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "selector": {
            "type": "string",
            "description": "Selector string (e.g., 'h2.0', 'code.1', 'h2.0/para.0')",
        },
        "files": {
            "type": "array",
            "items": {"type": "string"},
            "description": "Array of Markdown file paths to search",
        },
    },
    "required": ["selector", "files"],
}

# Sent once at initialize. Clients that defer tool definitions until a search (Claude Code does)
# load only tool names and these instructions at the start, so they say when to reach for the
# tools and the selector forms used most; every byte is paid in every session, hence the terse
# notation. Tests keep it under INSTRUCTIONS_MAX_BYTES and run each quoted selector.
INSTRUCTIONS = """\
Read Markdown by structure: for any Markdown file over ~200 words, use mdsel_index and \
mdsel_select instead of Read (Read costs the whole file).
- Outline: mdsel_index, to find selectors. Each heading line: selector, title, start line, \
words. On a docs folder it gives a map: each file's title and top headings.
- Section: mdsel_select "h2.3"; a long one comes in pages: "h2.3?page=2".
- A line or link you already have is a selector itself: "L812" (Grep hit, error, diff) = the \
section holding line 812; "L800-850" = exactly those lines; a link as written: \
"README.md#install-steps" (site links too, /guide/api#setup, with the docs folder).
- Where is X discussed? "?q=install steps" on a docs folder or file = the sections holding \
the words, best first, the best one's text inline; in one section: "h2.1?q=install".
- Inside a section: "h2.1/code.0"; several: "h2.0,2" or "h2.1-3"; first lines: "h2.3?head=20".
- Several files: prefix the document name: "readme::h2.0".
Use Read for small files and before editing."""

INSTRUCTIONS_MAX_BYTES = 2048
"""Bound on INSTRUCTIONS (UTF-8): the whole text is in the model's context in every session."""

ANNOTATIONS: dict[str, Any] = {"readOnlyHint": True, "openWorldHint": False}
"""Both tools only read local files: hints that let a client skip confirmation prompts."""


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One tool as tools/list publishes it (wire names, camelCase where the protocol wants it)."""

    name: str
    title: str
    description: str
    input_schema: dict[str, Any]
    command: str
    """The mdsel command the tool runs: "index" or "select"."""


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        INDEX_TOOL, "Index Markdown documents", INDEX_DESCRIPTION, INDEX_INPUT_SCHEMA, "index"
    ),
    ToolSpec(
        SELECT_TOOL, "Select Markdown content", SELECT_DESCRIPTION, SELECT_INPUT_SCHEMA, "select"
    ),
)
TOOLS_BY_NAME: dict[str, ToolSpec] = {tool.name: tool for tool in TOOLS}


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
"""The control characters the read policy refuses in names (see access.py)."""


class ArgumentError(ValueError):
    """Arguments a tool cannot run with; the message names the tool and the field."""


@dataclass(frozen=True, slots=True)
class ArgumentLimits:
    """How much one call may ask for; the defaults are the server's (see config.py)."""

    max_entries: int = 100
    """Entries in `files` (MDSEL_MAX_ENTRIES)."""
    max_chars: int = 1024
    """Characters in one `files` entry (MDSEL_MAX_ENTRY_CHARS)."""


DEFAULT_LIMITS = ArgumentLimits()


@dataclass(frozen=True, slots=True)
class ToolRequest:
    """A validated tool call: which mdsel command, on which selector and file arguments."""

    command: str
    selector: str | None
    files: tuple[str, ...]


def _json_type(value: object) -> str:
    # Name the JSON type the client sent, not the Python one, so the message reads in its terms.
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _files(tool: str, arguments: dict[str, Any], limits: ArgumentLimits) -> tuple[str, ...]:
    if "files" not in arguments:
        raise ArgumentError(
            f"{tool}: missing required argument 'files' (an array of Markdown file paths)"
        )
    files = arguments["files"]
    if isinstance(files, str):
        # Agents often send one path as a bare string: it can only mean that one file.
        files = [files]
    if not isinstance(files, list):
        raise ArgumentError(
            f"{tool}: argument 'files' must be an array of strings, got {_json_type(files)}"
        )
    if not files:
        raise ArgumentError(f"{tool}: argument 'files' must list at least one file path")
    if len(files) > limits.max_entries:
        raise ArgumentError(
            f"{tool}: argument 'files' has {len(files)} entries; the limit is "
            f"{limits.max_entries} (MDSEL_MAX_ENTRIES): name a directory or a glob instead"
        )
    for position, item in enumerate(files):
        if not isinstance(item, str):
            raise ArgumentError(
                f"{tool}: argument 'files[{position}]' must be a string, got {_json_type(item)}"
            )
        if not item.strip():
            raise ArgumentError(f"{tool}: argument 'files[{position}]' is an empty path")
        if len(item) > limits.max_chars:
            raise ArgumentError(
                f"{tool}: argument 'files[{position}]' has {len(item)} characters; the limit is "
                f"{limits.max_chars} (MDSEL_MAX_ENTRY_CHARS)"
            )
        # The OS refuses NUL in paths with an exception; refuse it here with the field's name.
        if "\x00" in item:
            raise ArgumentError(f"{tool}: argument 'files[{position}]' contains a NUL character")
    return tuple(files)


def _selector(tool: str, arguments: dict[str, Any]) -> str:
    # No length check here: the engine's selector parser has its own limit and says so.
    if "selector" not in arguments:
        raise ArgumentError(f"{tool}: missing required argument 'selector' (e.g. 'h2.0')")
    selector = arguments["selector"]
    if not isinstance(selector, str):
        raise ArgumentError(
            f"{tool}: argument 'selector' must be a string, got {_json_type(selector)}"
        )
    if not selector.strip():
        raise ArgumentError(f"{tool}: argument 'selector' is empty (e.g. 'h2.0')")
    if _CONTROL.search(selector):
        # The selector is echoed in problem lines; a line break in it would forge lines.
        raise ArgumentError(
            f"{tool}: argument 'selector' contains a line break or another control character"
        )
    return selector


def parse_arguments(
    name: str, arguments: dict[str, Any] | None, limits: ArgumentLimits = DEFAULT_LIMITS
) -> ToolRequest:
    """Check a tools/call against the tool's schema and the stricter rules the schema cannot say.

    Raises ArgumentError naming the tool and the offending field. Unknown extra arguments are
    ignored, as the published schemas allow them.
    """
    tool = TOOLS_BY_NAME.get(name)
    if tool is None:
        known = ", ".join(TOOLS_BY_NAME)
        raise ArgumentError(f"unknown tool {name!r}; this server has: {known}")
    args = {} if arguments is None else arguments
    selector = _selector(name, args) if tool.command == "select" else None
    return ToolRequest(tool.command, selector, _files(name, args, limits))
