"""YAML and TOML front matter: where it ends (the parser starts after it) and its `title:`.

Found by hand rather than by pulldown-cmark's metadata options, which also swallow a
mid-document `---\nTitle\n---` (a setext heading); the title is read with a few of YAML's and
TOML's rules rather than a parser of either.
"""

from __future__ import annotations

import re


def front_matter_end(data: bytes) -> int:
    """Byte length of a YAML or TOML front matter block at the very start (line ending of its
    closing line included), or 0.

    YAML opens with a `---` line immediately followed by a non-blank line and closes on the
    first `---` or `...` line (YAML's document end); TOML is `+++` … `+++`. An opening line
    followed by a blank line is a thematic break, not front matter; `---` right after `---` is
    empty front matter. Trailing spaces or tabs are allowed on the delimiter lines. Found by hand
    because pulldown-cmark's metadata options also swallow a mid-document `---\nTitle\n---` (a
    setext heading).
    """
    fence = data[:3]
    if fence == b"---":
        closers: tuple[bytes, ...] = (b"---", b"...")
    elif fence == b"+++":
        closers = (b"+++",)
    else:
        return 0
    pos = _line_end(data, 0)
    if _bare_line(data, 0, pos) != fence:
        return 0
    following = _line_end(data, pos)
    if not data[pos:following].strip(b" \t\r\n"):
        return 0  # end of file or a blank line (spaces and tabs only, as CommonMark defines it)
    while pos < len(data):
        end = _line_end(data, pos)
        if _bare_line(data, pos, end) in closers:
            return end
        pos = end
    return 0


def _bare_line(data: bytes, start: int, end: int) -> bytes:
    """The line in [start, end) without its line ending and trailing spaces or tabs."""
    return data[start:end].rstrip(b"\r\n").rstrip(b" \t")


def _line_end(data: bytes, pos: int) -> int:
    """Offset just past the line ending of the line starting at pos (or len(data))."""
    lf = data.find(b"\n", pos)
    cr = data.find(b"\r", pos, lf if lf >= 0 else len(data))
    if cr >= 0:
        return cr + 2 if data[cr + 1 : cr + 2] == b"\n" else cr + 1
    return lf + 1 if lf >= 0 else len(data)


# Patterns passed to `re` by their text, so compiled (and cached by `re`) when a title is first
# read, not whenever a document is parsed.
_YAML_TITLE = rb"(?m)^title[ \t]*:[ \t]*(.*?)[ \t]*\r?$"
_TOML_TITLE = rb"(?m)^title[ \t]*=[ \t]*(.*?)[ \t]*\r?$"
_TOML_TABLE = rb"(?m)^[ \t]*\["
_CONTINUED = rb"(?:\r?\n[ \t]+[^ \t\r\n#][^\r\n]*)+"
"""Lines of a plain YAML scalar that go on below its key, indented."""
_NULLS = ("null", "Null", "NULL", "~")


def front_matter_title(block: bytes) -> str | None:
    """The `title:` of a YAML front matter block (or `title =` of a TOML one, before any table),
    unquoted; None when there is none, or it is empty, null, a block scalar or not text.

    Read with a few rules rather than a YAML parser: the title is all the index needs, and a
    parser of the whole block is a dependency and a cost on every document of a tree."""
    toml = block.startswith(b"+++")
    if toml:
        table = re.search(_TOML_TABLE, block)
        block = block if table is None else block[: table.start()]
    found = re.search(_TOML_TITLE if toml else _YAML_TITLE, block)
    if found is None:
        return None
    raw = found.group(1)
    if not toml:
        continued = re.compile(_CONTINUED).match(block, found.end())
        if continued is not None and raw[:1] not in (b"'", b'"'):
            raw += b" " + b" ".join(line.strip() for line in continued.group().splitlines() if line)
    value = raw.decode("utf-8", "replace")
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        if value[0] == "'":
            value = value[1:-1].replace("''", "'")
        else:
            import json  # a double-quoted scalar's escapes are JSON's, nearly enough

            try:
                value = str(json.loads(value))
            except ValueError:
                value = value[1:-1]
    elif value.startswith(("|", ">", "#", "[", "{", "&", "*")) or value in _NULLS:
        return None  # a block scalar, a comment, a collection, an alias or null: no one-line text
    else:
        value = value.split(" #", 1)[0]  # a plain scalar ends at a comment
    value = " ".join(value.split())
    return value or None
