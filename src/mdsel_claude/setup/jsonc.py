"""JSON with comments (JSONC), read only: OpenCode's `opencode.jsonc` and its kin.

Comments (`//`, `/* */`) and trailing commas are blanked out outside strings, keeping every
line and column where it was, and the rest is parsed as strictly as any settings file
(`jsonfile.parse`: no duplicate keys, bounded depth). Setup never writes such a file: it only
looks for an entry of ours there that would override the one install wrote. Hand-written
rather than a dependency: two patterns serve that one look, where a JSON5 library would be
one more package to pin and ship for a read that changes nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

from mdsel_claude.setup.jsonfile import ConfigFileError, JSONObject, parse, read_bytes

# Every pattern consumes what it matches and no match can fail after scanning far (a string
# stops at its line's end, an unclosed comment runs to the end of the text), so each pass is
# linear in the file's length whatever it holds.
_STRING = r'"(?:[^"\\\n]|\\.)*"'
_COMMENTS = re.compile(rf"{_STRING}|//[^\n]*|/\*[\s\S]*?(?:\*/|\Z)")
_TRAILING_COMMA = re.compile(rf"{_STRING}|,(?=\s*[}}\]])")


def _blank(text: str) -> str:
    """`text` as spaces, its line breaks kept (so error positions stay true)."""
    return re.sub(r"[^\n]", " ", text)


def strip(text: str, path: Path) -> str:
    """`text` with its comments and trailing commas blanked; ConfigFileError for a comment that
    is never closed."""

    def comment(match: re.Match[str]) -> str:
        found = match.group()
        if found.startswith('"'):
            return found
        if found.startswith("/*") and (len(found) < 4 or not found.endswith("*/")):
            line = text.count("\n", 0, match.start()) + 1
            raise ConfigFileError(path, f"a /* comment on line {line} is never closed")
        return _blank(found)

    without_comments = _COMMENTS.sub(comment, text)
    return _TRAILING_COMMA.sub(
        lambda match: match.group() if match.group().startswith('"') else " ", without_comments
    )


def parse_text(text: str, path: Path) -> JSONObject:
    """The object in JSONC `text` (read from `path`, which errors name)."""
    return parse(strip(text, path), path)


def load(path: Path) -> JSONObject | None:
    """The object in the JSONC file at `path`, or None if there is no file; read under the
    same bounds as every settings file (`jsonfile.read_bytes`)."""
    data = read_bytes(path)
    if data is None:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ConfigFileError(path, f"not UTF-8 text (byte {error.start})") from None
    return parse_text(text, path)
