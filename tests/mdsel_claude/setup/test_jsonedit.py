"""Writing a changed value over its old text: the user's text is kept byte for byte."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mdsel_claude.setup import cli, jsonedit, jsonfile

SAMPLES = Path(__file__).resolve().parents[2] / "cases" / "claude_files"
SAMPLE_FILES = sorted(SAMPLES.glob("*.json"))


def test_there_are_a_few_dozen_samples() -> None:
    assert len(SAMPLE_FILES) >= 30


@pytest.mark.parametrize("sample", SAMPLE_FILES, ids=lambda p: p.name)
def test_install_then_uninstall_gives_back_the_same_bytes(
    on_path: str, sample: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = Path(".mcp.json") if sample.name.startswith("mcp-") else Path(".claude/settings.json")
    target.parent.mkdir(exist_ok=True)
    original = sample.read_bytes()
    target.write_bytes(original)
    before = jsonfile.parse(original, target)
    install = ["install", "--scope", "project", "--min-words", "321"]
    assert cli.main(install) == 0, capsys.readouterr().err
    installed = target.read_bytes()
    after = jsonfile.parse(installed, target)
    # Everything of the user's is still there with the same value; the text around it too:
    # the original's first line and last line are untouched (no reformatting).
    for key, value in before.items():
        if key not in ("mcpServers", "hooks"):
            assert json.dumps(after[key]) == json.dumps(value)
    if len(original.splitlines()) > 2:
        assert installed.splitlines()[0] == original.splitlines()[0]
    assert installed.endswith(b"\n") == original.endswith(b"\n")
    assert cli.main(install) == 0  # again: no change at all
    assert target.read_bytes() == installed
    assert cli.main(["uninstall", "--scope", "project"]) == 0
    assert target.read_bytes() == original
    assert sorted(p.name for p in Path.cwd().rglob("*")) == sorted(
        [target.name] + ([".claude"] if target.parent.name == ".claude" else [])
    )


@pytest.mark.parametrize(
    ("text", "change", "expected"),
    [
        ('{"a": 1E2}', {"a": 100.0, "b": 1}, '{"a": 1E2, "b": 1}'),
        ('{\n  "a": [1, 2]\n}\n', {"a": [1, 2, 3]}, '{\n  "a": [1, 2, 3]\n}\n'),
        (
            '{\n    "x": -0,\n    "l": [\n        "a"\n    ]\n}',
            {"x": 0, "l": ["a", "b"]},
            '{\n    "x": -0,\n    "l": [\n        "a",\n        "b"\n    ]\n}',
        ),
        ('{"a": 1, "b": 2, "c": 3}', {"a": 1, "c": 3}, '{"a": 1, "c": 3}'),
        ('{"a": 1, "b": 2, "c": 3}', {"b": 2, "c": 3}, '{"b": 2, "c": 3}'),
        ('{"a": 1, "b": 2}', {"a": 1}, '{"a": 1}'),
        ('{"a": {"k": 1}}', {"a": {}}, '{"a": {}}'),
        ('{"a": true}', {"a": 1}, '{"a": 1}'),
        ('{"g": [{"h": [1, 2]}, 3]}', {"g": [{"h": [2]}, 3]}, '{"g": [{"h": [2]}, 3]}'),
    ],
)
def test_render_changes_only_what_changed(text: str, change: object, expected: str) -> None:
    assert jsonfile.render(text, change, Path("x.json")) == expected  # type: ignore[arg-type]


def test_new_containers_follow_the_file_layout() -> None:
    text = '{\r\n\t"a": 1\r\n}\r\n'
    assert jsonfile.render(text, {"a": 1, "b": {"c": [1]}}, Path("x.json")) == (
        '{\r\n\t"a": 1,\r\n\t"b": {\r\n\t\t"c": [\r\n\t\t\t1\r\n\t\t]\r\n\t}\r\n}\r\n'
    )


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=15,
)
OBJECTS = st.dictionaries(st.text(max_size=4), JSON_VALUES, max_size=5)


def edit(value: object, data: st.DataObject) -> object:
    """A random small change: drop, add or change one member or element somewhere."""
    if isinstance(value, dict) and value and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(value)))
        choice = data.draw(st.sampled_from(["drop", "deeper", "add"]))
        if choice == "drop":
            del value[key]
        elif choice == "deeper":
            value[key] = edit(value[key], data)
        else:
            value[data.draw(st.text(max_size=4))] = data.draw(JSON_VALUES)
        return value
    if isinstance(value, list) and value and data.draw(st.booleans()):
        index = data.draw(st.integers(0, len(value) - 1))
        if data.draw(st.booleans()):
            value[index] = edit(value[index], data)
        else:
            del value[index]
        return value
    return data.draw(JSON_VALUES)


def add(value: object, data: st.DataObject) -> None:
    """Add one member or element somewhere inside `value`, as install adds its entries."""
    if isinstance(value, dict):
        inner = [v for v in value.values() if isinstance(v, (dict, list))]
        # bool(): mypy would take the list on the left of `and` as the type the draw must return.
        if bool(inner) and data.draw(st.booleans()):
            add(data.draw(st.sampled_from(inner)), data)
        else:
            key = data.draw(st.text(max_size=4).filter(lambda k: k not in value))
            value[key] = data.draw(JSON_VALUES)
    elif isinstance(value, list):
        inner = [v for v in value if isinstance(v, (dict, list))]
        if bool(inner) and data.draw(st.booleans()):
            add(data.draw(st.sampled_from(inner)), data)
        else:
            value.append(data.draw(JSON_VALUES))


@settings(max_examples=300, deadline=None)
@given(value=OBJECTS, indent=st.sampled_from([None, 2, 4, "\t"]), data=st.data())
def test_render_gives_the_new_value(
    value: dict[str, object], indent: int | str | None, data: st.DataObject
) -> None:
    text = json.dumps(value, indent=indent)
    changed = edit(copy.deepcopy(value), data)
    if isinstance(changed, dict):
        new_text = jsonfile.render(text, changed, Path("x.json"))
        assert json.dumps(json.loads(new_text)) == json.dumps(changed)


@settings(max_examples=300, deadline=None)
@given(
    value=OBJECTS,
    indent=st.sampled_from([None, 2, 4, "\t"]),
    ascii_only=st.booleans(),
    data=st.data(),
)
def test_removing_what_was_added_gives_back_the_same_text(
    value: dict[str, object], indent: int | str | None, ascii_only: bool, data: st.DataObject
) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    grown = copy.deepcopy(value)
    add(grown, data)
    new_text = jsonfile.render(text, grown, Path("x.json"))
    assert json.dumps(json.loads(new_text)) == json.dumps(grown)
    back = jsonfile.render(new_text, value, Path("x.json"))
    # An emptied container is written `{}` or `[]`: what was between its brackets before it
    # was filled (`{ }`, a line break) cannot be known again. Anything else comes back as it was.
    assert back == text or re.search(r"\{\s+\}|\[\s+\]", text)


def test_an_object_of_only_whitespace_comes_back_empty(home: Path) -> None:
    Path(".claude").mkdir()
    Path(".claude/settings.local.json").write_text("{\n}\n")
    assert cli.main(["install"]) == 0
    assert cli.main(["uninstall"]) == 0
    assert Path(".claude/settings.local.json").read_text() == "{}\n"


def test_numbers_keep_their_literal() -> None:
    assert jsonedit.dumps({"n": jsonedit.Float("1E2"), "z": jsonedit.Int("-0")}) == (
        '{\n  "n": 1E2,\n  "z": -0\n}'
    )
