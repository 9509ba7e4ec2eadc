"""Claude Code's Bash payloads: a command that shows a large Markdown file gets the reminder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mdsel_claude.hook import claude

REMINDER = (
    "This is a Markdown file over the configured size threshold.\n"
    "Use mdsel_index and mdsel_select instead of Read."
)


def bash(
    command: object, cwd: object, event: str = "PreToolUse", **extra: object
) -> dict[str, object]:
    return {
        "session_id": "s",
        "hook_event_name": event,
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "Show the guide"},
        "cwd": cwd,
        **extra,
    }


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "guide.md").write_text(("word " * 10 + "\n") * 50)  # 500 words, 50 lines
    (tmp_path / "small.md").write_text("word " * 20)
    return tmp_path


@pytest.mark.parametrize("event", ["PreToolUse", "PostToolUse"])
@pytest.mark.parametrize("mode", ["reminder", "outline"])
def test_a_large_read_through_bash_gets_the_reminder(project: Path, event: str, mode: str) -> None:
    # Outline mode too gives the reminder: the command's output may hold more than the file.
    answer = claude.answer(bash("sed -n '1,400p' guide.md", str(project), event), 200, mode)
    assert answer is not None
    assert json.loads(answer) == {
        "hookSpecificOutput": {"hookEventName": event, "additionalContext": REMINDER}
    }


@pytest.mark.parametrize(
    "command", ["cat small.md", "head -3 guide.md", "grep word guide.md", "cat guide.md > x"]
)
def test_a_small_part_is_silence(project: Path, command: str) -> None:
    assert claude.answer(bash(command, str(project)), 200, "reminder") is None


@pytest.mark.parametrize(
    "payload",
    [
        {"hook_event_name": "PreToolUse", "tool_name": "Bash"},
        {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": "cat guide.md"},
        {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": 5}},
        {"hook_event_name": "Stop", "tool_name": "Bash", "tool_input": {"command": "cat guide.md"}},
        {"hook_event_name": ["PreToolUse"], "tool_name": "Bash"},
        {
            "hook_event_name": "PreToolUse",
            "tool_name": "bash",
            "tool_input": {"command": "cat guide.md"},
        },
    ],
)
def test_malformed_payloads_are_silence(project: Path, payload: dict[str, object]) -> None:
    payload.setdefault("cwd", str(project))
    assert claude.answer(payload, 200, "reminder") is None


@pytest.mark.parametrize("cwd", [None, 7, "", "a\0b", "x" * 5000])
def test_an_unusable_cwd_is_silence_for_relative_paths(project: Path, cwd: object) -> None:
    assert claude.answer(bash("cat guide.md", cwd), 200, "reminder") is None


def test_an_absolute_path_needs_no_cwd(project: Path) -> None:
    payload = bash(f"cat {project / 'guide.md'}", "/")
    assert claude.answer(payload, 200, "reminder") is not None
