"""Tests for server.tools: published data equals the normative texts; argument errors name
fields."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import mdsel
from mdsel_claude.server.tools import (
    ANNOTATIONS,
    INDEX_TOOL,
    INSTRUCTIONS,
    INSTRUCTIONS_MAX_BYTES,
    SELECT_TOOL,
    TOOLS,
    TOOLS_BY_NAME,
    ArgumentError,
    ArgumentLimits,
    ToolRequest,
    parse_arguments,
)
from tests.conftest import ROOT

SEED = ROOT / "tests" / "cases" / "tool_descriptions.md"


def _seed_blocks() -> dict[str, tuple[str, str]]:
    """Tool name → (normative description, input schema text), cut from the seed's code fences."""
    if not SEED.is_file():
        pytest.skip(f"seed 002 not found at {SEED}")
    text = SEED.read_text(encoding="utf-8")
    blocks: dict[str, tuple[str, str]] = {}
    for section in re.split(r"^## Tool: ", text, flags=re.MULTILINE)[1:]:
        name = section.split("\n", 1)[0].strip()
        fences = re.findall(r"^```[a-z]*\n(.*?)\n```$", section, flags=re.MULTILINE | re.DOTALL)
        blocks[name] = (fences[0], fences[1])
    return blocks


def test_exactly_the_two_tools_in_order() -> None:
    assert [tool.name for tool in TOOLS] == [INDEX_TOOL, SELECT_TOOL]
    assert [tool.command for tool in TOOLS] == ["index", "select"]
    assert set(TOOLS_BY_NAME) == {"mdsel_index", "mdsel_select"}


@pytest.mark.parametrize("name", [INDEX_TOOL, SELECT_TOOL])
def test_description_is_the_normative_text(name: str) -> None:
    description, _ = _seed_blocks()[name]
    assert TOOLS_BY_NAME[name].description == description


@pytest.mark.parametrize("name", [INDEX_TOOL, SELECT_TOOL])
def test_input_schema_is_the_normative_schema(name: str) -> None:
    _, schema_text = _seed_blocks()[name]
    normative = json.loads(schema_text)
    published = TOOLS_BY_NAME[name].input_schema
    assert published == normative
    # Same keys in the same order too, so even a serialisation that keeps order matches.
    assert json.dumps(published) == json.dumps(normative)


def test_annotations_and_titles() -> None:
    assert ANNOTATIONS == {"readOnlyHint": True, "openWorldHint": False}
    assert all(tool.title for tool in TOOLS)


@pytest.mark.parametrize(
    ("name", "arguments", "expected"),
    [
        (INDEX_TOOL, {"files": ["a.md"]}, ToolRequest("index", None, ("a.md",))),
        (
            INDEX_TOOL,
            {"files": ["a.md", "docs"], "extra": 1},
            ToolRequest("index", None, ("a.md", "docs")),
        ),
        (
            SELECT_TOOL,
            {"selector": "h2.0", "files": ["a.md"]},
            ToolRequest("select", "h2.0", ("a.md",)),
        ),
        # The selector travels untouched: whitespace is the engine's to judge.
        (
            SELECT_TOOL,
            {"selector": " h2.0 ", "files": ["a.md"]},
            ToolRequest("select", " h2.0 ", ("a.md",)),
        ),
    ],
)
def test_valid_arguments(name: str, arguments: dict[str, Any], expected: ToolRequest) -> None:
    assert parse_arguments(name, arguments) == expected


@pytest.mark.parametrize(
    ("name", "arguments", "field"),
    [
        (INDEX_TOOL, None, "'files'"),
        (INDEX_TOOL, {}, "'files'"),
        (INDEX_TOOL, {"files": []}, "'files'"),
        (INDEX_TOOL, {"files": 3}, "'files'"),
        (INDEX_TOOL, {"files": None}, "'files'"),
        (INDEX_TOOL, {"files": {"a": 1}}, "'files'"),
        (INDEX_TOOL, {"files": ["a.md", 3]}, "'files[1]'"),
        (INDEX_TOOL, {"files": ["a.md", ""]}, "'files[1]'"),
        (INDEX_TOOL, {"files": ["  "]}, "'files[0]'"),
        (INDEX_TOOL, {"files": ["a\x00.md"]}, "'files[0]'"),
        (SELECT_TOOL, {"files": ["a.md"]}, "'selector'"),
        (SELECT_TOOL, {"selector": "", "files": ["a.md"]}, "'selector'"),
        (SELECT_TOOL, {"selector": "   ", "files": ["a.md"]}, "'selector'"),
        (SELECT_TOOL, {"selector": 3, "files": ["a.md"]}, "'selector'"),
        (SELECT_TOOL, {"selector": ["h2.0"], "files": ["a.md"]}, "'selector'"),
        (SELECT_TOOL, {"selector": "h2.0"}, "'files'"),
        (SELECT_TOOL, {"selector": "h2.0", "files": [True]}, "'files[0]'"),
        ("mdsel_read", {"files": ["a.md"]}, "'mdsel_read'"),
        ("", {}, "''"),
    ],
)
def test_invalid_arguments_name_the_field(
    name: str, arguments: dict[str, Any] | None, field: str
) -> None:
    with pytest.raises(ArgumentError) as caught:
        parse_arguments(name, arguments)
    assert field in str(caught.value)
    if name in TOOLS_BY_NAME:
        assert str(caught.value).startswith(f"{name}: ")


def test_wrong_types_are_named_in_json_terms() -> None:
    with pytest.raises(ArgumentError, match="got object"):
        parse_arguments(INDEX_TOOL, {"files": {"a.md": 1}})
    with pytest.raises(ArgumentError, match="got number"):
        parse_arguments(SELECT_TOOL, {"selector": 1.5, "files": ["a.md"]})
    with pytest.raises(ArgumentError, match="got boolean"):
        parse_arguments(INDEX_TOOL, {"files": [False]})


def test_entries_beyond_the_limit_are_an_argument_error() -> None:
    limits = ArgumentLimits(max_entries=3, max_chars=10)
    assert parse_arguments("mdsel_index", {"files": ["a.md"] * 3}, limits).files == ("a.md",) * 3
    with pytest.raises(ArgumentError, match=r"'files' has 4 entries; the limit is 3 \(MDSEL_MAX"):
        parse_arguments("mdsel_index", {"files": ["a.md"] * 4}, limits)
    with pytest.raises(ArgumentError, match=r"'files\[1\]' has 11 characters; the limit is 10"):
        parse_arguments("mdsel_index", {"files": ["a.md", "x" * 11]}, limits)


def test_a_selector_with_a_line_separator_is_an_argument_error() -> None:
    for character in ("\n", "\x85", "\u2028", "\u2029", "\x1b"):
        with pytest.raises(ArgumentError, match="'selector' contains a line break"):
            parse_arguments("mdsel_select", {"selector": f"h2.0{character}", "files": ["a.md"]})


# -- server instructions ----------------------------------------------------------------------


def test_instructions_are_short_and_name_both_tools() -> None:
    size = len(INSTRUCTIONS.encode("utf-8"))
    assert 0 < size <= INSTRUCTIONS_MAX_BYTES < 2048 + 1
    assert INDEX_TOOL in INSTRUCTIONS and SELECT_TOOL in INSTRUCTIONS
    assert INSTRUCTIONS.strip() == INSTRUCTIONS and "\t" not in INSTRUCTIONS


def test_the_server_page_shows_the_instructions_as_sent() -> None:
    page = ROOT / "docs" / "server.md"
    assert f"```\n{INSTRUCTIONS}\n```" in page.read_text(encoding="utf-8")


QUOTED = re.findall(r'"([^"]+)"', INSTRUCTIONS)


def readme() -> str:
    """A README every quoted selector can address: sections with code, a heading whose anchor
    is `install-steps`, a section two pages long, and more than 850 lines."""
    parts = ["# Project", "", "Intro."]
    titles = ["Overview", "Install steps", "Usage", "Reference", "Changes"]
    for number, title in enumerate(titles):
        parts += ["", f"## {title}", "", f"About {title.lower()}.", "", "```sh", "run", "```"]
        paragraphs = 350 if title == "Reference" else 20
        parts += [
            f"\nEntry {number}.{n} has ten words to count in this line." for n in range(paragraphs)
        ]
    return "\n".join(parts) + "\n"


@pytest.mark.parametrize("selector", QUOTED)
def test_every_quoted_selector_selects(tmp_path: Path, selector: str) -> None:
    (tmp_path / "README.md").write_text(readme(), encoding="utf-8")
    assert len(QUOTED) >= 8 and readme().count("\n") > 850
    outcome = mdsel.run_command("select", selector, ["README.md"], cwd=str(tmp_path))
    assert (outcome.exit_code, outcome.stderr) == (0, "")
    assert outcome.stdout.strip()


def test_one_path_sent_as_a_string_is_that_one_file() -> None:
    # Agents send a lone path without the array; it can only mean that file.
    assert parse_arguments(INDEX_TOOL, {"files": "docs/a.md"}).files == ("docs/a.md",)
    with pytest.raises(ArgumentError, match="empty path"):
        parse_arguments(INDEX_TOOL, {"files": ""})
