"""jsonc: comments and trailing commas blanked outside strings, the rest parsed strictly."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mdsel_claude.setup import jsonc
from mdsel_claude.setup.jsonfile import ConfigFileError

PATH = Path("opencode.jsonc")

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)
COMMENT_TEXT = st.text(st.characters(blacklist_characters="\n\r\u2028\u2029"), max_size=12)


def load_text(tmp_path: Path, text: str) -> object:
    path = tmp_path / "opencode.jsonc"
    path.write_text(text, encoding="utf-8")
    return jsonc.load(path)


def test_comments_and_trailing_commas_are_read_past(tmp_path: Path) -> None:
    text = """// OpenCode settings
{
  "$schema": "https://opencode.ai/config.json", /* the schema */
  "mcp": {
    "mdsel": {"type": "local", "command": ["mdsel-claude", "serve",], "enabled": false,},
    // "other": {},
  },
}
"""
    assert load_text(tmp_path, text) == {
        "$schema": "https://opencode.ai/config.json",
        "mcp": {"mdsel": {"type": "local", "command": ["mdsel-claude", "serve"], "enabled": False}},
    }


def test_what_looks_like_a_comment_inside_a_string_is_kept(tmp_path: Path) -> None:
    text = r'{"a": "http://x/*y*/", "b": "say \"// no\",}", "c": ",]"}'
    assert load_text(tmp_path, text) == {"a": "http://x/*y*/", "b": 'say "// no",}', "c": ",]"}


def test_positions_in_errors_stay_where_the_file_has_them(tmp_path: Path) -> None:
    text = '{\n  /* one\n  two */ "a": 1,\n  "b": oops\n}\n'
    with pytest.raises(ConfigFileError, match=r"line 4, column 8"):
        load_text(tmp_path, text)


@pytest.mark.parametrize("text", ['{"a": 1} /* open', "{/*/}", '{"a": /* x'])
def test_a_comment_never_closed_is_refused_by_line(tmp_path: Path, text: str) -> None:
    with pytest.raises(ConfigFileError, match=r"a /\* comment on line 1 is never closed"):
        load_text(tmp_path, text)


def test_duplicate_keys_and_a_missing_file_are_as_for_json(tmp_path: Path) -> None:
    with pytest.raises(ConfigFileError, match="duplicate key 'a'"):
        load_text(tmp_path, '{"a": 1, // first\n "a": 2}')
    assert jsonc.load(tmp_path / "absent.jsonc") is None


def test_hostile_text_is_read_in_one_pass(tmp_path: Path) -> None:
    """Unclosed comments and strings by the ten thousand: each pattern's match ends at its line's
    end or the text's, so no pass goes back over the text (a quadratic one would not finish)."""
    with pytest.raises(ConfigFileError):
        load_text(tmp_path, '{"a": [' + ',"x\n/*,' * 20_000)
    with pytest.raises(ConfigFileError, match="never closed"):
        load_text(tmp_path, "{" + "/*x" * 20_000)


@given(JSON_VALUES, COMMENT_TEXT, st.booleans())
def test_commented_json_reads_as_the_json(value: object, note: str, commas: bool) -> None:
    document = {"value": value}
    text = json.dumps(document, indent=1)
    if commas:  # a trailing comma after every last member or item
        text = re.sub(r"(?<=[^\[{,\s])\n(\s*[}\]])", r",\n\1", text)
    text = "\n".join(f"{line} // {note}" if i % 2 else f"/* {note.replace('*/', '')} */{line}"
                     for i, line in enumerate(text.split("\n")))  # fmt: skip
    assert jsonc.parse_text(text, PATH) == document
