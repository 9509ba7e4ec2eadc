"""`mdsel-claude hook` as Claude Code runs it: a subprocess fed JSON on stdin."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import BIN

REMINDER = (
    "This is a Markdown file over the configured size threshold.\n"
    "Use mdsel_index and mdsel_select instead of Read."
)


def script() -> str:
    """The installed console script, as install writes it into the hook command."""
    beside = BIN / "mdsel-claude"
    found = str(beside) if beside.exists() else shutil.which("mdsel-claude")
    if found is None:
        pytest.skip("the mdsel-claude script is not installed (pip install -e .)")
    return found


def run(payload: object | bytes, *args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    result = subprocess.run(
        [script(), "hook", *args],
        input=data,
        capture_output=True,
        timeout=30,  # a FIFO opened by mistake would hang here
        env={**os.environ, **(env or {})},
        check=False,
    )
    return result.returncode, result.stdout.decode()


def payload(path: Path | str, event: str = "PreToolUse", tool: str = "Read") -> dict[str, object]:
    return {
        "session_id": "e2e",
        "hook_event_name": event,
        "tool_name": tool,
        "tool_input": {"file_path": str(path)},
        "cwd": "/",
    }


def test_reminder_for_large_markdown(tmp_path: Path) -> None:
    big = tmp_path / "big.md"
    big.write_text("word " * 201)
    status, out = run(payload(big))
    assert status == 0
    assert out.endswith("\n") and out.count("\n") == 1
    assert json.loads(out) == {
        "hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": REMINDER}
    }


def test_threshold_on_the_command_line(tmp_path: Path) -> None:
    doc = tmp_path / "doc.markdown"
    doc.write_text("word " * 50)
    assert run(payload(doc), "--min-words", "49")[1] != ""
    assert run(payload(doc), "--min-words", "50") == (0, "")
    assert run(payload(doc), env={"MDSEL_MIN_WORDS": "49"})[1] != ""


@pytest.mark.parametrize("stdin", [b"", b"{", b"null", b"\xff", b'{"tool_name": "Read"}'], ids=repr)
def test_silent_exit_zero_on_bad_input(stdin: bytes) -> None:
    assert run(stdin) == (0, "")


def test_fifo_does_not_hang(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    assert run(payload(fifo)) == (0, "")


def test_other_tools_and_small_files(tmp_path: Path) -> None:
    big = tmp_path / "big.md"
    big.write_text("word " * 500)
    small = tmp_path / "small.md"
    small.write_text("word " * 5)
    assert run(payload(big, tool="Grep")) == (0, "")
    assert run(payload(small)) == (0, "")
    status, out = run(payload(big, event="PostToolUse"))
    assert status == 0 and json.loads(out)["hookSpecificOutput"]["hookEventName"] == "PostToolUse"


def imported_modules(argv: list[str], stdin: bytes, env: dict[str, str] | None = None) -> set[str]:
    result = subprocess.run(
        [str(BIN / "python"), "-X", "importtime", *argv],
        input=stdin,
        capture_output=True,
        timeout=30,
        env={**os.environ, **(env or {})},
        check=True,
    )
    names = set()
    for line in result.stderr.decode().splitlines():
        if line.startswith("import time:") and "|" in line:
            name = line.rsplit("|", 1)[1].strip()
            if name != "imported package":
                names.add(name)
    return names


def shell_payload(command: str, cwd: Path) -> dict[str, object]:
    return {
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "cwd": str(cwd),
    }


@pytest.mark.parametrize(
    ("client", "shape"),
    [
        ("claude", "read"),
        ("claude", "shell"),
        ("claude", "vscode"),
        ("claude", "failure"),
        ("codex", "shell"),
        ("gemini", "gemini"),
        ("opencode", "opencode"),
        ("qwen", "qwen"),
        ("factory", "factory"),
    ],
)
def test_hook_imports_only_the_standard_library(tmp_path: Path, client: str, shape: str) -> None:
    big = tmp_path / "big.md"
    big.write_text("word " * 500)
    shapes = {
        "read": payload(big),
        "shell": shell_payload("cat big.md | nl -ba", tmp_path),
        "gemini": {
            "hook_event_name": "AfterTool",
            "tool_name": "read_file",
            "tool_input": {"file_path": str(big)},
            "tool_response": {"llmContent": "word"},
            "cwd": str(tmp_path),
        },
        "opencode": {"tool": "read", "args": {"filePath": str(big)}, "directory": str(tmp_path)},
        "qwen": payload(big, event="PostToolUse", tool="read_file"),
        "factory": payload(big, event="PostToolUse"),
        "vscode": {
            "hook_event_name": "PreToolUse",
            "tool_name": "read_file",
            "tool_input": {"filePath": str(big)},
            "tool_use_id": "t",
            "cwd": str(tmp_path),
        },
        "failure": {
            **payload(big, event="PostToolUseFailure"),
            "error": "File content (300KB) exceeds maximum allowed size (256KB).",
        },
    }
    stdin = json.dumps(shapes[shape]).encode()
    modules = imported_modules([script(), "hook", "--client", client], stdin)
    assert f"mdsel_claude.hook.{client}" in modules  # the measurement did see our imports
    assert (shape == "shell") == ("mdsel_claude.hook.shell" in modules)  # only for a command
    assert run(shapes[shape], "--client", client)[1] != ""  # the large file was found
    top_level = {name.split(".")[0] for name in modules}
    for forbidden in ("mcp", "pydantic", "pyromark", "anyio", "typing", "argparse"):
        assert forbidden not in top_level, forbidden
    # Of the engine, only the leaves that use the standard library alone.
    engine = {name for name in modules if name.split(".")[0] == "mdsel"}
    assert engine == {"mdsel", "mdsel._version", "mdsel.names", "mdsel.settings", "mdsel._record"}
    # Beyond what the interpreter loads at startup, only the standard library and us.
    startup = {name.split(".")[0] for name in imported_modules(["-c", "pass"], b"")}
    extra = top_level - startup - set(sys.stdlib_module_names) - {"mdsel_claude", "mdsel"}
    assert extra == set()


def test_outline_mode_replaces_a_whole_read(tmp_path: Path) -> None:
    big = tmp_path / "big.md"
    big.write_text("# Title\n\n" + "word " * 500 + "\n\n## Next\n\nmore words\n")
    for args, env in (((), {"MDSEL_HOOK_MODE": "outline"}), (("--mode", "outline"), None)):
        status, out = run(payload(big, event="PostToolUse"), *args, env=env)
        assert status == 0
        result = json.loads(out)["hookSpecificOutput"]["updatedToolOutput"]
        assert result["type"] == "text"
        assert result["file"]["content"].endswith("\n" + REMINDER)
        assert "h2.0 Next" in result["file"]["content"]
        assert "word word" not in result["file"]["content"]
    # Before the Read there is nothing to replace: the reminder, as in the default mode.
    status, out = run(payload(big), "--mode", "outline")
    assert json.loads(out)["hookSpecificOutput"]["additionalContext"] == REMINDER


def test_outline_mode_imports_the_engine_only_for_a_replaced_read(tmp_path: Path) -> None:
    big = tmp_path / "big.md"
    big.write_text("word " * 500)
    small = tmp_path / "small.md"
    small.write_text("word " * 5)
    outline = {"MDSEL_HOOK_MODE": "outline"}

    def modules(path: Path, event: str) -> set[str]:
        stdin = json.dumps(payload(path, event=event)).encode()
        return imported_modules([script(), "hook"], stdin, outline)

    # Without a Read to replace, outline mode loads what the default mode loads: no parser.
    leaves = {"mdsel", "mdsel._version", "mdsel.names", "mdsel.settings", "mdsel._record"}
    for quiet in (modules(small, "PostToolUse"), modules(big, "PreToolUse")):
        assert "mdsel_claude.hook" in quiet
        assert {name for name in quiet if name.split(".")[0] == "mdsel"} <= leaves
        assert "pyromark" not in quiet and "mdsel_claude.hook.outline" not in quiet
    replacing = modules(big, "PostToolUse")
    assert {"pyromark", "mdsel_claude.hook.outline"} <= replacing
    assert not {"mcp", "pydantic", "anyio"} & {name.split(".")[0] for name in replacing}
