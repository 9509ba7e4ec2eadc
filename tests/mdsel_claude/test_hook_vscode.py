"""VS Code's payloads, sent to Claude Code's hook: its `read_file` gets the reminder, nothing else.

The payloads are the vendored ones in tests/fixtures/hook_payloads (SOURCES.md there names
where each shape comes from), run through the whole hook in-process (`hook.main`, no
`--client`: VS Code runs what install wrote for Claude Code).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

import mdsel
from mdsel_claude.hook import claude
from tests.conftest import FIXTURES
from tests.mdsel_claude.conftest import RunHook

PAYLOADS = FIXTURES / "hook_payloads"

REMINDER = (
    "This is a Markdown file over the configured size threshold.\n"
    "Use mdsel_index and mdsel_select instead of Read."
)


def fixture(name: str, cwd: Path, file: str, **tool_input: object) -> dict[str, Any]:
    """The vendored payload `name` about `file` in `cwd`, its `tool_input` updated."""
    text = (PAYLOADS / f"{name}.json").read_text(encoding="utf-8")
    payload: dict[str, Any] = json.loads(text)

    def fill(value: object) -> object:
        if isinstance(value, str):
            return value.replace("{cwd}", str(cwd)).replace("{file}", file)
        if isinstance(value, dict):
            return {key: fill(inner) for key, inner in value.items()}
        if isinstance(value, list):
            return [fill(inner) for inner in value]
        return value

    filled = fill(payload)
    assert isinstance(filled, dict)
    filled["tool_input"].update(tool_input)
    return filled


def context(event: str, text: str = REMINDER) -> str:
    output = {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}
    return json.dumps(output) + "\n"


def guide() -> str:
    parts = ["# Guide", ""]
    for section in range(1, 7):
        parts += [f"## Part {section}", ""]
        parts += [f"Sentence {section}.{n} tells a little about part {section}." for n in range(8)]
        parts.append("")
    return "\n".join(parts)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "guide.md").write_text(guide())  # about 300 words, 62 lines
    (tmp_path / "small.md").write_text("a few words only\n")
    (tmp_path / "notes.txt").write_text(guide())
    return tmp_path


@pytest.mark.parametrize(
    ("name", "event"),
    [
        ("vscode_pre_tool_use_read_file", "PreToolUse"),
        ("vscode_post_tool_use_read_file", "PostToolUse"),
        ("vscode_pre_tool_use_read_file_lines", "PreToolUse"),
        ("vscode_pre_tool_use_read_file_docs_keys", "PreToolUse"),
    ],
)
def test_a_read_of_a_large_markdown_file_gets_the_reminder(
    run_hook: RunHook, project: Path, name: str, event: str
) -> None:
    payload = fixture(name, project, str(project / "guide.md"))
    assert run_hook(payload) == (0, context(event), "")
    # The threshold is the hook's as for any client; and a small file or another kind is silent.
    assert run_hook(payload, "--min-words", "100000") == (0, "", "")
    for other in ("small.md", "notes.txt", "missing.md"):
        assert run_hook(fixture(name, project, str(project / other))) == (0, "", "")


@pytest.mark.parametrize("tool", ["read_file", "readFile"])
def test_both_names_of_the_read_tool_and_relative_paths(
    run_hook: RunHook, project: Path, tool: str
) -> None:
    payload = {**fixture("vscode_pre_tool_use_read_file", project, "guide.md"), "tool_name": tool}
    assert run_hook(payload) == (0, context("PreToolUse"), "")
    uri = (project / "guide.md").as_uri()
    assert run_hook(fixture("vscode_pre_tool_use_read_file", project, uri)) == (
        0,
        context("PreToolUse"),
        "",
    )
    remote = f"file://example.com{project / 'guide.md'}"
    assert run_hook(fixture("vscode_pre_tool_use_read_file", project, remote)) == (0, "", "")


@pytest.mark.parametrize(
    "name",
    [
        "vscode_pre_tool_use_edit_files",
        "vscode_post_tool_use_edit_files",
        "vscode_pre_tool_use_run_in_terminal",
    ],
)
def test_every_other_tool_call_is_silence(run_hook: RunHook, project: Path, name: str) -> None:
    # Matchers ignored: VS Code sends these to the hook registered on Read|Bash.
    payload = fixture(name, project, str(project / "guide.md"))
    for mode in ("reminder", "outline"):
        assert run_hook(payload, "--mode", mode) == (0, "", "")


def test_other_tool_calls_never_load_the_vscode_module(project: Path) -> None:
    sys.modules.pop("mdsel_claude.hook.vscode", None)
    for name in ("vscode_pre_tool_use_edit_files", "vscode_pre_tool_use_run_in_terminal"):
        assert claude.answer(fixture(name, project, "guide.md"), 200, "reminder") is None
    assert "mdsel_claude.hook.vscode" not in sys.modules


def test_claude_codes_own_keys_are_not_vscodes(run_hook: RunHook, project: Path) -> None:
    # `file_path` is Claude Code's (and Gemini CLI's) spelling: VS Code's tool never sends it.
    payload = fixture("vscode_pre_tool_use_read_file", project, "")
    payload["tool_input"] = {"file_path": str(project / "guide.md")}
    assert run_hook(payload) == (0, "", "")
    for event in ("PostToolUseFailure", "UserPromptSubmit", None):
        moved = {**fixture("vscode_pre_tool_use_read_file", project, "guide.md")}
        moved["hook_event_name"] = event
        assert run_hook(moved) == (0, "", "")


@pytest.mark.parametrize(
    "tool_input",
    [None, "guide.md", {"filePath": 7}, {"filePath": ""}, {"filePath": "guide.md\0x"}, {}],
)
def test_malformed_reads_are_silence(run_hook: RunHook, project: Path, tool_input: object) -> None:
    payload = fixture("vscode_pre_tool_use_read_file", project, "guide.md")
    payload["tool_input"] = tool_input
    assert run_hook(payload) == (0, "", "")


def test_outline_mode_adds_the_index_after_a_whole_read(run_hook: RunHook, project: Path) -> None:
    path = project / "guide.md"
    index = mdsel.run_command("index", None, [str(path)]).stdout
    post = fixture("vscode_post_tool_use_read_file", project, str(path))
    status, out, err = run_hook(post, "--mode", "outline")
    # VS Code keeps the tool's result whatever a hook answers: the index goes beside it.
    assert (status, err) == (0, "")
    assert out == context("PostToolUse", f"{index}{REMINDER}")
    assert "## Part 2" not in json.loads(out)["hookSpecificOutput"]["additionalContext"]
    # Lines 1 to the end, in the tool's first form, are the whole file too.
    whole = fixture("vscode_post_tool_use_read_file", project, str(path), startLine=1, endLine=999)
    assert run_hook(whole, "--mode", "outline")[1] == out
    # Before the read there is no result yet: the reminder, as in every mode.
    pre = fixture("vscode_pre_tool_use_read_file", project, str(path))
    assert run_hook(pre, "--mode", "outline") == (0, context("PreToolUse"), "")


@pytest.mark.parametrize(
    "lines", [{"offset": 10}, {"limit": 20}, {"startLine": 5, "endLine": 999}, {"startLine": 1}]
)
def test_outline_mode_leaves_a_read_of_some_lines_alone(
    run_hook: RunHook, project: Path, lines: dict[str, object]
) -> None:
    post = fixture("vscode_post_tool_use_read_file", project, str(project / "guide.md"), **lines)
    assert run_hook(post, "--mode", "outline") == (0, "", "")
    assert run_hook(post) == (0, context("PostToolUse"), "")


def test_outline_mode_falls_back_to_the_reminder(run_hook: RunHook, project: Path) -> None:
    (project / "latin.md").write_bytes(b"caf\xe9 " * 500)  # not UTF-8: the engine refuses it
    post = fixture("vscode_post_tool_use_read_file", project, str(project / "latin.md"))
    assert run_hook(post, "--mode", "outline") == (0, context("PostToolUse"), "")
