"""The hook's Cline adapter: PostToolUse payloads after read_files / run_commands → stdout.

`cli()` is the payload the Cline CLI 3.0.65 (pinned in tools/clients) sent a `PostToolUse` hook
file after a `read_files` and a `run_commands` call, captured by a hook that saved its stdin
(only the ids, times and the tool's output shortened). `extension()` is the form the VS Code
extension's documentation gives (docs.cline.bot, "Hook Reference": the base fields, then
`postToolUse: {toolName, parameters, result, success, executionTimeMs}`), with its `read_file`
tool. The whole hook also runs in-process (`hook.main` with `--client cline`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import mdsel
from mdsel_claude.hook import cline
from tests.mdsel_claude.conftest import RunHook

# Typed out here on purpose, not imported: the test must fail if the module's text drifts.
REMINDER = (
    "This is a Markdown file over the configured size threshold.\n"
    "Use mdsel_index and mdsel_select instead of Read."
)
CONTEXT = json.dumps({"cancel": False, "contextModification": REMINDER}) + "\n"


def cli(tool: str, tool_input: object, root: Path, error: object = None) -> dict[str, object]:
    """What the Cline CLI sends after a call of `tool` with `tool_input` in workspace `root`."""
    parameters = {
        key: value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
        for key, value in (tool_input.items() if isinstance(tool_input, dict) else {}.items())
    }
    return {
        "clineVersion": "",
        "timestamp": "2026-12-02T04:00:31.404Z",
        "taskId": "conv_1796184028961_ebha0u0",
        "sessionContext": {"rootSessionId": "1796184015810_3hdl0"},
        "workspaceRoots": [str(root)],
        "workspaceInfo": {"rootPath": str(root), "hint": root.name},
        "userId": "unknown",
        "agent_id": "agent_1796184028760_sny4j2",
        "parent_agent_id": None,
        "hookName": "tool_result",
        "iteration": 1,
        "tool_result": {
            "id": "call_stub",
            "name": tool,
            "input": tool_input,
            "output": [{"query": "docs/guide.md", "result": "1 | # Guide", "success": True}],
            "error": error,
            "durationMs": 556,
            "startedAt": "2026-12-02T04:00:30.720Z",
            "endedAt": "2026-12-02T04:00:31.276Z",
        },
        "postToolUse": {
            "toolName": tool,
            "parameters": parameters,
            "result": '[{"query":"docs/guide.md","result":"1 | # Guide","success":true}]',
            "success": error is None,
            "executionTimeMs": 556,
        },
    }


def reads(root: Path, *files: object) -> dict[str, object]:
    return cli("read_files", {"files": list(files)}, root)


def extension(tool: str, parameters: dict[str, str], root: Path) -> dict[str, object]:
    return {
        "clineVersion": "3.36.0",
        "hookName": "PostToolUse",
        "timestamp": "1730000000000",
        "taskId": "task-1",
        "workspaceRoots": [str(root)],
        "userId": "user-1",
        "postToolUse": {
            "toolName": tool,
            "parameters": parameters,
            "result": "the file",
            "success": True,
            "executionTimeMs": 12,
        },
    }


@pytest.mark.parametrize(
    "request_",
    [
        {"path": "guide.md"},
        {"path": "guide.md", "start_line": None, "end_line": None},
        {"path": "docs/../guide.md"},
        "guide.md",
        {"file_path": "guide.md"},
        {"filePath": "guide.md"},
    ],
)
def test_a_large_markdown_read_gets_the_reminder(files: Path, request_: object) -> None:
    assert cline.answer(reads(files, request_), 200, "reminder") == CONTEXT


@pytest.mark.parametrize(
    "tool_input",
    [
        "guide.md",
        ["small.md", "guide.md"],
        {"file_paths": ["guide.md"]},
        {"paths": "guide.md"},
        {"files": "guide.md"},
        {"files": {"path": "guide.md"}},
    ],
)
def test_every_shape_read_files_takes(files: Path, tool_input: object) -> None:
    assert cline.answer(cli("read_files", tool_input, files), 200, "reminder") == CONTEXT


@pytest.mark.parametrize(
    "name", ["small.md", "big.txt", "link-to-txt.md", "dir.md", "fifo.md", "binary.md", "no.md"]
)
def test_anything_else_gets_nothing(files: Path, name: str) -> None:
    assert cline.answer(reads(files, {"path": name}), 200, "reminder") is None


def test_the_parameters_strings_alone_are_read(files: Path) -> None:
    # Without `tool_result` (a version that sends only the documented part), the CLI's string
    # form of the list is read back.
    payload = reads(files, {"path": "guide.md"})
    del payload["tool_result"]
    assert cline.answer(payload, 200, "reminder") == CONTEXT


def test_the_extension_read_file(files: Path) -> None:
    payload = extension("read_file", {"path": "guide.md"}, files)
    assert cline.answer(payload, 200, "reminder") == CONTEXT
    payload = extension("read_file", {"path": "small.md"}, files)
    assert cline.answer(payload, 200, "reminder") is None


@pytest.mark.parametrize(
    ("tool", "tool_input"),
    [
        ("run_commands", {"commands": ["cat guide.md"]}),
        ("run_commands", {"commands": ["ls", "sed -n '1,400p' docs/deep.md"]}),
        ("run_commands", "cat guide.md"),
    ],
)
def test_a_command_that_prints_one(files: Path, tool: str, tool_input: object) -> None:
    assert cline.answer(cli(tool, tool_input, files), 200, "outline") == CONTEXT


def test_the_extension_execute_command(files: Path) -> None:
    payload = extension("execute_command", {"command": "cat guide.md"}, files)
    assert cline.answer(payload, 200, "reminder") == CONTEXT
    payload = extension("execute_command", {"command": "wc -w guide.md"}, files)
    assert cline.answer(payload, 200, "reminder") is None


def test_a_failed_call_another_tool_or_event_gets_nothing(files: Path) -> None:
    failed = cli("read_files", {"files": [{"path": "guide.md"}]}, files, error="Error reading")
    assert cline.answer(failed, 200, "reminder") is None
    assert cline.answer(cli("editor", {"path": "guide.md"}, files), 200, "reminder") is None
    before = {**reads(files, {"path": "guide.md"}), "hookName": "tool_call"}
    assert cline.answer(before, 200, "reminder") is None


def test_threshold_is_the_one_given(files: Path) -> None:
    assert cline.answer(reads(files, {"path": "small.md"}), 9, "reminder") == CONTEXT
    assert cline.answer(reads(files, {"path": "guide.md"}), 10_000, "reminder") is None


def test_outline_mode_adds_the_index_to_a_whole_read(files: Path) -> None:
    out = cline.answer(reads(files, {"path": "guide.md", "start_line": None}), 200, "outline")
    assert out is not None and out.endswith("\n") and out.count("\n") == 1
    index = mdsel.run_command("index", None, [str(files / "guide.md")]).stdout
    assert json.loads(out) == {"cancel": False, "contextModification": f"{index}{REMINDER}"}
    assert "h2.0 Install" in index


@pytest.mark.parametrize(
    "tool_input",
    [
        {"files": [{"path": "guide.md", "start_line": 1, "end_line": 3}]},
        {"files": [{"path": "guide.md", "end_line": 40}]},
        {"files": [{"path": "guide.md"}, {"path": "small.md"}]},
    ],
)
def test_outline_mode_reminds_of_some_lines_or_several_files(
    files: Path, tool_input: object
) -> None:
    assert cline.answer(cli("read_files", tool_input, files), 200, "outline") == CONTEXT


def test_outline_mode_falls_back_to_the_reminder(files: Path) -> None:
    (files / "latin.md").write_bytes(b"caf\xe9 " * 500)
    assert cline.answer(reads(files, {"path": "latin.md"}), 200, "outline") == CONTEXT


def test_an_index_past_what_cline_passes_on_gives_the_reminder(
    files: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mdsel_claude.hook import outline

    monkeypatch.setattr(outline, "index_text", lambda path: "x" * cline.MAX_CONTEXT)
    assert cline.answer(reads(files, {"path": "guide.md"}), 200, "outline") == CONTEXT


def test_reminder_mode_imports_no_engine(files: Path) -> None:
    sys.modules.pop("mdsel_claude.hook.outline", None)
    cline.answer(reads(files, {"path": "guide.md"}), 200, "reminder")
    assert "mdsel_claude.hook.outline" not in sys.modules


def test_main_routes_cline_payloads(files: Path, run_hook: RunHook) -> None:
    payload = reads(files, {"path": "guide.md"})
    assert run_hook(payload, "--client", "cline") == (0, CONTEXT, "")
    assert run_hook(payload, "--client", "cline", "--min-words", "100000") == (0, "", "")
    status, out, err = run_hook(payload, "--client=cline", "--mode", "outline")
    assert (status, err) == (0, "") and "h2.0 Install" in json.loads(out)["contextModification"]
    assert run_hook(payload) == (0, "", "")  # Claude Code's adapter does not read them


@pytest.mark.parametrize(
    "stdin",
    [b"", b"\0\0", b"{", b"[1, 2]", b'"read_files"', b"\xff\xfe", b"null",
     b'{"hookName": "tool_result", "postToolUse": {"toolName": "read_files"}}',
     b'{"hookName": "tool_result", "tool_result": {"name": "read_files", "input": [[[]]]}}'],
)  # fmt: skip
def test_main_is_silent_on_junk(run_hook: RunHook, stdin: bytes) -> None:
    assert run_hook(stdin, "--client", "cline") == (0, "", "")
