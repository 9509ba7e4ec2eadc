"""The hook's outline mode: which Reads are replaced, the exact replacement, and every fallback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import mdsel
from mdsel import Options
from mdsel_claude import hook
from mdsel_claude.hook import claude

REMINDER = (
    "This is a Markdown file over the configured size threshold.\n"
    "Use mdsel_index and mdsel_select instead of Read."
)
REMINDER_LINE = (
    '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": '
    '"This is a Markdown file over the configured size threshold.\\n'
    'Use mdsel_index and mdsel_select instead of Read."}}\n'
)


def document() -> str:
    parts = ["# Manual", ""]
    for section in range(1, 9):
        parts += [f"## Part {section}", ""]
        parts += [
            f"Sentence {section}.{n} says a few words about part {section}." for n in range(6)
        ]
        parts += ["", "```", f"example {section}", "```", ""]
    return "\n".join(parts) + "\n"


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("MDSEL_HOOK_MODE", "MDSEL_PAGE_WORDS", "MDSEL_INDEX_MAX_HEADINGS"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def manual(tmp_path: Path) -> Path:
    path = tmp_path / "manual.md"
    path.write_text(document(), encoding="utf-8")
    return path


def post_read(path: Path | str, **tool_input: Any) -> dict[str, Any]:
    return {
        "session_id": "s",
        "hook_event_name": "PostToolUse",
        "tool_name": "Read",
        "tool_input": {"file_path": str(path), **tool_input},
        "cwd": "/",
    }


def with_response(payload: dict[str, Any], file: dict[str, Any]) -> dict[str, Any]:
    return {**payload, "tool_response": {"type": "text", "file": file}}


def replaced(output: str | None) -> dict[str, Any]:
    assert output is not None and output.endswith("\n") and output.count("\n") == 1
    decoded = json.loads(output)
    assert list(decoded) == ["hookSpecificOutput"]
    inner = decoded["hookSpecificOutput"]
    assert set(inner) == {"hookEventName", "updatedToolOutput"}
    assert inner["hookEventName"] == "PostToolUse"
    result: dict[str, Any] = inner["updatedToolOutput"]
    return result


def test_a_whole_read_becomes_the_index_and_the_reminder(manual: Path) -> None:
    payload = with_response(
        post_read(manual),
        {"filePath": str(manual), "content": "…", "numLines": 5, "startLine": 1, "totalLines": 64},
    )
    result = replaced(claude.answer(payload, 200, "outline"))
    index = mdsel.run_command("index", None, [str(manual)]).stdout
    content = index + REMINDER
    # Read's own output shape (FileReadOutput in sdk-tools.d.ts), or Claude Code rejects it.
    assert result == {
        "type": "text",
        "file": {
            "filePath": str(manual),
            "content": content,
            "numLines": len(content.split("\n")),
            "startLine": 1,
            "totalLines": 64,
        },
    }
    assert "h2.7 Part 8" in content and "Sentence 3.2" not in content


def test_without_a_tool_response_the_lines_are_counted(manual: Path) -> None:
    result = replaced(claude.answer(post_read(manual), 200, "outline"))
    assert result["file"]["filePath"] == str(manual)
    assert result["file"]["totalLines"] == len(document().split("\n"))


def test_a_relative_path_is_indexed_against_the_payload_cwd(manual: Path) -> None:
    payload = {**post_read("manual.md"), "cwd": str(manual.parent)}
    result = replaced(claude.answer(payload, 200, "outline"))
    index = mdsel.run_command("index", None, [str(manual)]).stdout
    assert result["file"]["content"] == index + REMINDER
    assert result["file"]["filePath"] == str(manual)


@pytest.mark.parametrize(
    "slice_",
    [{"offset": 10}, {"limit": 20}, {"offset": 1, "limit": 2000}, {"offset": 0}],
    ids=["offset", "limit", "both", "offset-zero"],
)
def test_a_partial_read_is_left_alone(manual: Path, slice_: dict[str, int]) -> None:
    assert claude.answer(post_read(manual, **slice_), 200, "outline") is None


def test_null_offset_and_limit_are_a_whole_read(manual: Path) -> None:
    output = claude.answer(post_read(manual, offset=None, limit=None), 200, "outline")
    assert replaced(output)["file"]["startLine"] == 1


def test_before_the_read_outline_mode_reminds(manual: Path) -> None:
    payload = {**post_read(manual), "hook_event_name": "PreToolUse"}
    assert claude.answer(payload, 200, "outline") == claude.answer(payload, 200, "reminder")
    # A slice requested before the Read still gets the reminder: nothing is replaced there.
    sliced = {**post_read(manual, offset=5), "hook_event_name": "PreToolUse"}
    assert claude.answer(sliced, 200, "outline") == claude.answer(sliced, 200, "reminder")


def test_the_default_mode_is_the_reminder_byte_for_byte(manual: Path) -> None:
    assert claude.answer(post_read(manual), 200, "reminder") == REMINDER_LINE
    assert claude.answer(post_read(manual, offset=3), 200, "reminder") == REMINDER_LINE


def test_small_and_other_files_stay_silent(manual: Path, tmp_path: Path) -> None:
    assert claude.answer(post_read(manual), 10_000, "outline") is None
    text = tmp_path / "notes.txt"
    text.write_text(document())
    assert claude.answer(post_read(text), 200, "outline") is None
    grep = {**post_read(manual), "tool_name": "Grep"}
    assert claude.answer(grep, 200, "outline") is None


def test_a_file_the_engine_refuses_gets_the_reminder(tmp_path: Path) -> None:
    latin1 = tmp_path / "latin1.md"
    latin1.write_bytes(document().encode() + "caf\xe9 ".encode("latin-1") * 300)
    assert claude.answer(post_read(latin1), 200, "outline") == REMINDER_LINE


def test_a_result_that_is_not_text_is_not_replaced(manual: Path) -> None:
    payload = {**post_read(manual), "tool_response": {"type": "image", "file": {}}}
    assert claude.answer(payload, 200, "outline") == REMINDER_LINE


def test_the_outline_follows_the_index_settings(
    manual: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MDSEL_INDEX_MAX_HEADINGS", "3")
    content = replaced(claude.answer(post_read(manual), 200, "outline"))["file"]["content"]
    expected = mdsel.run_command("index", None, [str(manual)], Options(max_headings=3)).stdout
    assert content == expected + REMINDER
    assert expected != mdsel.run_command("index", None, [str(manual)]).stdout
    # An unusable value cannot stop the hook: the defaults apply.
    monkeypatch.setenv("MDSEL_INDEX_MAX_HEADINGS", "many")
    content = replaced(claude.answer(post_read(manual), 200, "outline"))["file"]["content"]
    assert content == mdsel.run_command("index", None, [str(manual)]).stdout + REMINDER


# -- choosing the mode ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "env", "mode", "note"),
    [
        ((), None, "reminder", ""),
        (("--mode", "outline"), None, "outline", ""),
        (("--mode=outline",), None, "outline", ""),
        ((), "outline", "outline", ""),
        ((), " Outline ", "outline", ""),
        ((), "", "reminder", ""),
        (("--mode", "reminder"), "outline", "reminder", ""),
        (("--mode", "summary"), "outline", "outline", "--mode='summary' is not one of"),
        (("--mode",), None, "reminder", "--mode='' is not one of"),
        ((), "tree", "reminder", "MDSEL_HOOK_MODE='tree' is not one of"),
    ],
)
def test_mode_from_flag_then_environment(
    capsys: pytest.CaptureFixture[str],
    args: tuple[str, ...],
    env: str | None,
    mode: str,
    note: str,
) -> None:
    environ = {} if env is None else {"MDSEL_HOOK_MODE": env}
    assert hook.parse_mode(args, environ) == mode
    err = capsys.readouterr().err
    assert (note in err and f"using {mode}" in err) if note else err == ""


def test_the_mode_flag_is_not_an_unknown_argument(capsys: pytest.CaptureFixture[str]) -> None:
    assert hook.parse_threshold(["--mode", "outline", "--min-words", "7"], {}) == 7
    assert hook.parse_threshold(["--mode=outline"], {}) == 200
    assert capsys.readouterr().err == ""
