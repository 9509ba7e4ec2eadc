"""Claude Code's PostToolUseFailure: a Read too large to return gets the reminder (or the index).

The payload is the one Claude Code 2.1.330 sent after a Read of a 296 KB Markdown file failed
(tests/fixtures/hook_payloads/claude_post_tool_use_failure_read.json, SOURCES.md there).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import mdsel
from tests.conftest import FIXTURES
from tests.mdsel_claude.conftest import RunHook

REMINDER = (
    "This is a Markdown file over the configured size threshold.\n"
    "Use mdsel_index and mdsel_select instead of Read."
)
TOKENS = (
    "File content (31022 tokens) exceeds maximum allowed tokens (25000). Use offset and limit "
    "parameters to read specific portions of the file, or search for specific content instead "
    "of reading the whole file."
)
RANGE = (
    "The requested line range contains over 256KB of text, more than a read can return. Use a "
    "smaller limit — or, if a single line is this large, no limit will fit it: search for "
    "specific content instead."
)


def failed(cwd: Path, file: str, **changes: object) -> dict[str, Any]:
    text = (FIXTURES / "hook_payloads" / "claude_post_tool_use_failure_read.json").read_text()
    payload: dict[str, Any] = json.loads(text.replace("{cwd}", str(cwd)).replace("{file}", file))
    tool_input = changes.pop("tool_input", None)
    if isinstance(tool_input, dict):
        payload["tool_input"].update(tool_input)
    payload.update(changes)
    return payload


def context(text: str = REMINDER) -> str:
    output = {
        "hookSpecificOutput": {"hookEventName": "PostToolUseFailure", "additionalContext": text}
    }
    return json.dumps(output) + "\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    parts = ["# Handbook", ""]
    for chapter in range(1, 5):
        parts += [f"## Chapter {chapter}", "", f"Words about chapter {chapter}. " * 30, ""]
    (tmp_path / "handbook.md").write_text("\n".join(parts))
    (tmp_path / "small.md").write_text("a few words\n")
    (tmp_path / "data.txt").write_text("word " * 1000)
    return tmp_path


@pytest.mark.parametrize("error", ["size", TOKENS, RANGE])
def test_a_read_too_large_gets_the_reminder(run_hook: RunHook, project: Path, error: str) -> None:
    payload = failed(project, "handbook.md")
    if error != "size":
        payload["error"] = error
    assert run_hook(payload) == (0, context(), "")
    assert run_hook(payload, "--min-words", "100000") == (0, "", "")


@pytest.mark.parametrize(
    "error",
    [
        "File does not exist. Note: your current working directory is /tmp/project.",
        "The user doesn't want to proceed with this tool use.",
        "Interrupted by user",
        None,
        7,
    ],
)
def test_any_other_failure_is_silence(run_hook: RunHook, project: Path, error: object) -> None:
    # A read the user refused or stopped showed the model nothing, and was not meant to.
    payload = failed(project, str(project / "handbook.md"), error=error)
    for mode in ("reminder", "outline"):
        assert run_hook(payload, "--mode", mode) == (0, "", "")


@pytest.mark.parametrize("name", ["small.md", "data.txt", "missing.md"])
def test_only_a_large_markdown_file_is_answered(
    run_hook: RunHook, project: Path, name: str
) -> None:
    assert run_hook(failed(project, name)) == (0, "", "")


def test_only_a_read_is_answered(run_hook: RunHook, project: Path) -> None:
    command = {"command": "cat handbook.md"}
    bash = failed(project, "handbook.md", tool_name="Bash", tool_input=command)
    assert run_hook(bash) == (0, "", "")
    assert run_hook(failed(project, "handbook.md", tool_name="Write")) == (0, "", "")


def test_outline_mode_gives_the_index_for_a_whole_file_read(
    run_hook: RunHook, project: Path
) -> None:
    path = project / "handbook.md"
    index = mdsel.run_command("index", None, [str(path)]).stdout
    assert run_hook(failed(project, str(path)), "--mode", "outline") == (
        0,
        context(f"{index}{REMINDER}"),
        "",
    )
    # A slice asked for that was still too large: the reminder, no index in its place.
    sliced = failed(project, str(path), error=RANGE, tool_input={"offset": 5, "limit": 900})
    assert run_hook(sliced, "--mode", "outline") == (0, context(), "")


def test_outline_mode_falls_back_to_the_reminder(run_hook: RunHook, project: Path) -> None:
    (project / "latin.md").write_bytes(b"caf\xe9 " * 500)  # not UTF-8: the engine refuses it
    payload = failed(project, str(project / "latin.md"))
    assert run_hook(payload, "--mode", "outline") == (0, context(), "")
