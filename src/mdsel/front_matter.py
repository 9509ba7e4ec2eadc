"""YAML and TOML front matter: where it ends (the parser starts after it) and its `title:`.

Found by hand rather than by pulldown-cmark's metadata options, which also swallow a
mid-document `---\nTitle\n---` (a setext heading); the title is read with a few of YAML's and
TOML's rules rather than a parser of either.
"""

from __future__ import annotations

import re

from mdsel.source import lone_cr_to_lf_bytes


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
_YAML_TITLE = rb"(?m)^(?:title|\"title\"|'title')[ \t]*:[ \t]*(.*?)[ \t]*\r?$"
_TOML_TITLE = rb"(?m)^title[ \t]*=[ \t]*(.*?)[ \t]*\r?$"
_TOML_TABLE = rb"(?m)^[ \t]*\["
_CONTINUED = rb"(?:\r?\n[ \t]+[^ \t\r\n#][^\r\n]*)+"
"""Lines of a plain YAML scalar that go on below its key, indented."""
_INDENTED = rb"(?:\r?\n(?:[ \t]+[^\r\n]*|[ \t]*(?=\r?\n)))+"
"""Lines of a block scalar (`|`, `>-`…) below its key: indented, or blank between them."""
_BLOCK_HEADER = rb"[|>](?:[1-9]?[+-]?|[+-][1-9])(?:[ \t]+#.*)?"
_NULLS = ("null", "Null", "NULL", "~")
_PROPERTIES = rb"(?:[&!][^ \t]*[ \t]+)+"
"""An anchor (`&name`) or a tag (`!!str`) before a YAML value: not part of it."""


def front_matter_title(block: bytes) -> str | None:
    """The `title:` of a YAML front matter block (or `title =` of a TOML one, before any table),
    unquoted; None when there is none, or it is empty, null, a block scalar or not text.

    Read with a few rules rather than a YAML parser: the title is all the index needs, and a
    parser of the whole block is a dependency and a cost on every document of a tree."""
    # A lone CR ends a line too (old Mac files); the rules below know `\n` and `\r\n`.
    block = lone_cr_to_lf_bytes(block)
    if block.startswith(b"+++"):
        return _toml_title(block)
    # The last: YAML loaders keep the last of a repeated key.
    found = next(reversed(list(re.finditer(_YAML_TITLE, block))), None)
    if found is None:
        return None
    raw, end = _without_properties(found.group(1)), found.end()
    if raw.startswith(b"#"):
        raw = b""  # a comment: the value, if any, is below
    while not raw:
        # The value starts on a line below the key, indented (after the anchor or tag, if
        # they stand alone): a scalar, or (`- x`, `en: …`) a sequence or a mapping, no title.
        below = _value_below(block, end)
        if below is None:
            return None  # nothing: null
        raw, end = below
        if _is_collection_line(raw):
            return None
        raw = _without_properties(raw)
    if re.fullmatch(_BLOCK_HEADER, raw):
        return _block_scalar(block, end)
    scalar = _yaml_scalar(block, raw, end)
    if scalar is None:
        return None
    value = scalar.decode("utf-8", "replace")
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        if value[0] == "'":
            value = value[1:-1].replace("''", "'")
        else:
            import json  # a double-quoted scalar's escapes are JSON's, nearly enough

            try:
                value = str(json.loads(value))
            except ValueError:
                value = value[1:-1]
    elif value.startswith(("|", ">", "#", "[", "{", "&", "!", "*")) or value in _NULLS:
        return None  # a comment, a collection, an alias, a lone property or null: no text
    else:
        value = value.split(" #", 1)[0]  # a plain scalar ends at a comment
    value = " ".join(value.split())
    return value or None


def _without_properties(raw: bytes) -> bytes:
    """A value without the anchor or tag before it (`&name Text`, `!!str Text`); b"" where
    there is nothing else on the line."""
    properties = re.match(_PROPERTIES, raw + b" ")
    return raw[properties.end() :] if properties is not None else raw


def _value_below(block: bytes, end: int) -> tuple[bytes, int] | None:
    """The first indented line below a key with no value on its own line (blank and comment
    lines skipped), stripped, and where it ends; None where the next line is not indented."""
    while end < len(block):
        start = end + 1 if block[end : end + 1] == b"\r" else end
        start += block[start : start + 1] == b"\n"
        found = block.find(b"\n", start)
        end = len(block) if found < 0 else found
        line = block[start:end].rstrip(b"\r")
        stripped = line.strip(b" \t")
        if not stripped or stripped.startswith(b"#"):
            continue
        if line[:1] not in (b" ", b"\t"):
            return None
        return stripped, start + len(line)
    return None


def _yaml_scalar(block: bytes, raw: bytes, end: int) -> bytes | None:
    """The title's scalar whole, on one line: a quoted one up to its closing quote (on a later
    line if need be; a comment after it dropped), a plain one with the indented lines that
    continue it (None where they are a mapping's). `raw`: the rest of the key's line; `end`:
    where that line ends in `block`."""
    quote = raw[:1]
    if quote in (b"'", b'"'):
        # Each line is searched once: the lines join with a space, so no escape or doubled
        # quote spans two of them (joining and searching all again per line would take time
        # quadratic in a front matter that never closes its quote).
        pieces = [raw]
        close = _closing(raw, quote, 1)
        more = re.compile(_INDENTED).match(block, end) if close < 0 else None
        for line in more.group().splitlines() if more is not None else []:
            piece = line.strip()
            if piece:
                pieces.append(piece)
                close = _closing(piece, quote, 0)
                if close >= 0:
                    break
        if close >= 0:
            pieces[-1] = pieces[-1][: close + 1]
        return b" ".join(pieces)
    continued = re.compile(_CONTINUED).match(block, end)
    if continued is not None:
        lines = [line.strip() for line in continued.group().splitlines() if line]
        if any(_is_entry(line) for line in lines):
            return None  # `title:` over a mapping (YAML allows no `key: v` in a plain scalar)
        raw += b" " + b" ".join(lines)
    return raw


_ITEM_OR_KEY = rb"[-?](?:[ \t]|$)"
"""A line that starts a sequence's item (`- x`) or a complex key (`? k`)."""


def _is_collection_line(line: bytes) -> bool:
    """Whether a value's first line below its key starts a sequence or a mapping."""
    return re.match(_ITEM_OR_KEY, line) is not None or _is_entry(line)


def _is_entry(line: bytes) -> bool:
    """Whether a line (stripped) is a mapping's entry (`en: English`, `"k": v`): in a plain
    scalar, `: ` is not allowed. Found with `find`, not a pattern: a lazy one backtracks over
    a long run of spaces (minutes for 200 KB)."""
    if not line or line[:1] == b"#":
        return False
    if line[:1] in (b"'", b'"'):
        close = line.find(line[:1], 1)
        rest = line[close + 1 :].lstrip(b" \t") if close > 0 else b""
        return rest[:1] == b":" and rest[1:2] in (b"", b" ", b"\t")
    text = re.split(rb"[ \t]#", line, maxsplit=1)[0].rstrip(b" \t")  # a comment is no part
    if text.endswith(b":"):
        return True
    return any(text.find(mark) > 0 for mark in (b": ", b":\t"))


def _toml_title(block: bytes) -> str | None:
    """`title =` of a TOML block, before any table and outside any multi-line string (whose
    lines may read like keys); TOML allows a key once, so the first is the one."""
    inside = b""  # the delimiter of the multi-line string a line is in
    position = 0
    for line in block.splitlines(keepends=True):
        start, position = position, position + len(line)
        if not inside:
            if re.match(_TOML_TABLE, line):
                return None
            found = re.compile(_TOML_TITLE).match(block, start)
            if found is not None and found.start() == start:
                title = _toml_string(block, found.group(1), found.end())
                return (" ".join(title.split()) or None) if title is not None else None
        for delimiter in _TOML_MULTILINE:
            if (inside or delimiter) == delimiter and line.count(delimiter) % 2:
                inside = b"" if inside else delimiter
    return None


_TOML_MULTILINE = (b'"' * 3, b"'" * 3)
_LINE_ENDING_BACKSLASH = re.compile(r"\\[ \t]*\r?\n\s*")


def _toml_string(block: bytes, raw: bytes, end: int) -> str | None:
    """A TOML title's string, whatever follows it on its line (a `# comment`): basic (`"…"`,
    JSON's escapes nearly enough), literal (`'…'`, no escapes), or either multi-line form
    (three quotes each side, possibly on later lines); None for any other value (a number, an
    array), which is no title. `raw`: the rest of the key's line; `end`: where it ends."""
    for delimiter in _TOML_MULTILINE:
        if raw.startswith(delimiter):
            rest = raw[3:] + block[end:]  # a multi-line string may close on a later line
            close = rest.find(delimiter)
            if close < 0:
                return None
            text = rest[:close].decode("utf-8", "replace")
            if delimiter == _TOML_MULTILINE[0]:
                text = _basic(_LINE_ENDING_BACKSLASH.sub("", text))
            return text
    quote = raw[:1]
    if quote == b"'":
        close = raw.find(b"'", 1)
        return raw[1:close].decode("utf-8", "replace") if close > 0 else None
    if quote == b'"':
        close = _closing(raw, quote, 1)
        return _basic(raw[1:close].decode("utf-8", "replace")) if close > 0 else None
    return None


def _basic(text: str) -> str:
    """A basic string's text with its escapes read (JSON's, nearly enough); as written where
    they are not JSON's."""
    import json

    try:
        return str(json.loads(f'"{text}"'))
    except ValueError:
        return text


def _closing(text: bytes, quote: bytes, start: int) -> int:
    """Where a quoted scalar's `quote` closes in `text` from `start`, or -1: a `"` not escaped
    by a backslash, a `'` not doubled."""
    pos = start
    while (pos := text.find(quote, pos)) >= 0:
        if quote == b'"':
            before = pos
            while before and text[before - 1] == 0x5C:  # the backslashes right before it
                before -= 1
            if (pos - before) % 2:
                pos += 1
                continue
        elif text[pos + 1 : pos + 2] == b"'":
            pos += 2
            continue
        return pos
    return -1


def _block_scalar(block: bytes, end: int) -> str | None:
    """A block scalar's (`|`, `>-`…) lines below its key, folded into one line of text (a
    title is shown on one), or None when it has none."""
    more = re.compile(_INDENTED).match(block, end)
    lines = (more.group() if more is not None else b"").splitlines()
    text = b" ".join(b" ".join(line.split()) for line in lines if line.strip())
    return text.decode("utf-8", "replace") or None
