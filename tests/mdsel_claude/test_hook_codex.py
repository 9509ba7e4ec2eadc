"""Codex CLI's payloads: each shape Codex sends (and hostile ones) → the exact stdout."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from mdsel_claude import hook
from mdsel_claude.hook import codex
from tests.mdsel_claude.conftest import RunHook

# Typed out here on purpose, not imported: the test must fail if the module's text drifts.
REMINDER = (
    "This is a Markdown file over the configured size threshold.\n"
    "Use mdsel_index and mdsel_select instead of Read."
)


def reminder(event: str) -> str:
    output = {"hookSpecificOutput": {"hookEventName": event, "additionalContext": REMINDER}}
    return json.dumps(output) + "\n"


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    """A project: `big.md` (300 words over 300 lines), `small.md`, `notes.txt` (300 words),
    `docs/inner.md` (300 words), `link.md` → `notes.txt`."""
    lines = "".join(f"word{i}\n" for i in range(300))
    (tmp_path / "big.md").write_text(lines)
    (tmp_path / "small.md").write_text("# Small\n\nfew words\n")
    (tmp_path / "notes.txt").write_text(lines)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "inner.md").write_text(lines)
    (tmp_path / "link.md").symlink_to(tmp_path / "notes.txt")
    return tmp_path


def payload(command: object, cwd: object, event: str = "PreToolUse", **more: object) -> object:
    """A payload as Codex 0.169 sends it (recorded from the real CLI), `command` as given."""
    sent: dict[str, object] = {
        "session_id": "01a21366-58f3-75e0-a755-5c4ae88f2f1d",
        "turn_id": "01a21366-590d-78e0-9051-71a5362660fe",
        "transcript_path": None,
        "cwd": cwd,
        "hook_event_name": event,
        "model": "gpt-5.5",
        "permission_mode": "bypassPermissions",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "call_stub",
    }
    if event == "PostToolUse":
        sent["tool_response"] = "the command's output"
    sent.update(more)
    return sent


ANSWERS = [
    # (command, event, answered): the command lines agents read files with.
    ("cat big.md", "PreToolUse", True),
    ("cat big.md", "PostToolUse", True),
    ("sed -n '1,400p' big.md", "PreToolUse", True),
    ("nl -ba big.md | sed -n '1,300p'", "PostToolUse", True),
    ("cd docs && cat inner.md", "PreToolUse", True),
    ("cat docs/inner.md", "PreToolUse", True),
    ("head -5 big.md", "PreToolUse", False),
    ("sed -n '1,20p' big.md", "PostToolUse", False),
    ("cat small.md", "PreToolUse", False),
    ("cat notes.txt", "PreToolUse", False),
    ("cat link.md", "PreToolUse", False),
    ("grep word big.md", "PreToolUse", False),
    ("cat missing.md", "PreToolUse", False),
    (["bash", "-lc", "cat big.md"], "PreToolUse", True),
    (["/bin/sh", "-e", "-c", "cat big.md"], "PostToolUse", True),
    (["zsh", "-c", "cat big.md", "name", "arg"], "PreToolUse", True),
    (["cat", "big.md"], "PreToolUse", True),
    (["bash", "-lc", "head -5 big.md"], "PreToolUse", False),
    (["cat", "small.md"], "PreToolUse", False),
    (["bash", "big.md"], "PreToolUse", False),
]


@pytest.mark.parametrize(("command", "event", "answered"), ANSWERS)
def test_commands(docs: Path, command: object, event: str, answered: bool) -> None:
    expected = reminder(event) if answered else None
    assert codex.answer(payload(command, str(docs), event), 200, "reminder") == expected


def test_outline_mode_gives_the_reminder(docs: Path) -> None:
    # Codex cannot replace a shell command's output: the reminder is all it can carry.
    sent = payload("cat big.md", str(docs), "PostToolUse")
    assert codex.answer(sent, 200, "outline") == reminder("PostToolUse")


def test_the_threshold_counts(docs: Path) -> None:
    sent = payload("cat big.md", str(docs))
    assert codex.answer(sent, 299, "reminder") == reminder("PreToolUse")
    assert codex.answer(sent, 300, "reminder") is None


def test_a_workdir_in_the_input_is_taken_against_cwd(docs: Path) -> None:
    sent = payload("cat inner.md", str(docs), tool_input={"command": "cat inner.md"})
    assert codex.answer(sent, 200, "reminder") is None
    sent = payload("", str(docs), tool_input={"command": "cat inner.md", "workdir": "docs"})
    assert codex.answer(sent, 200, "reminder") == reminder("PreToolUse")


@pytest.mark.parametrize("name", ["exec_command", "shell", "shell_command", "local_shell"])
def test_the_model_side_names_of_the_shell_tool(docs: Path, name: str) -> None:
    sent = payload("cat big.md", str(docs), tool_name=name)
    assert codex.answer(sent, 200, "reminder") == reminder("PreToolUse")


HOSTILE: list[Callable[[Path], object]] = [
    lambda d: None,
    lambda d: [],
    lambda d: "cat big.md",
    lambda d: 7,
    lambda d: {},
    lambda d: payload("cat big.md", str(d), "Stop"),
    lambda d: payload("cat big.md", str(d), "UserPromptSubmit"),
    lambda d: payload("cat big.md", str(d), hook_event_name=["PreToolUse"]),
    lambda d: payload("cat big.md", str(d), hook_event_name={"x": 1}),
    lambda d: payload("cat big.md", str(d), tool_name="apply_patch"),
    lambda d: payload("cat big.md", str(d), tool_name="Read"),
    lambda d: payload("cat big.md", str(d), tool_name=["Bash"]),
    lambda d: payload("cat big.md", str(d), tool_name={"Bash": 1}),
    lambda d: payload("cat big.md", str(d), tool_name=None),
    lambda d: payload("cat big.md", str(d), tool_input="cat big.md"),
    lambda d: payload("cat big.md", str(d), tool_input=["cat", "big.md"]),
    lambda d: payload("cat big.md", str(d), tool_input=None),
    lambda d: payload(None, str(d)),
    lambda d: payload(12, str(d)),
    lambda d: payload({"cmd": "cat big.md"}, str(d)),
    lambda d: payload([], str(d)),
    lambda d: payload(["bash", "-lc", 5], str(d)),
    lambda d: payload([["cat"], "big.md"], str(d)),
    lambda d: payload(["cat"] * 100_000 + ["big.md"], str(d)),
    lambda d: payload("cat big.md" + " " * 10_000_000, str(d)),
    lambda d: payload("cat big.md\0", str(d)),
    lambda d: payload(["cat", "big.md\0"], str(d)),
    lambda d: payload("cat big.md", str(d) + "\0"),
    lambda d: payload("cat big.md", None),
    lambda d: payload("cat big.md", 3),
    lambda d: payload("cat big.md", ""),
    lambda d: payload("cat big.md", "x" * 100_000),
    lambda d: payload("cat big.md", str(d), tool_input={"command": "cat big.md", "workdir": 5}),
    lambda d: payload("cat $(echo big.md)", str(d)),
    lambda d: payload("cat '", str(d)),
]


@pytest.mark.parametrize("make", HOSTILE)
def test_hostile_payloads_are_silence(docs: Path, make: Callable[[Path], object]) -> None:
    assert codex.answer(make(docs), 200, "reminder") is None


def test_a_fifo_is_never_opened(docs: Path) -> None:
    os.mkfifo(docs / "pipe.md")
    done: list[object] = []
    worker = threading.Thread(
        target=lambda: done.append(codex.answer(payload("cat pipe.md", str(docs)), 0, "x")),
        daemon=True,
    )
    worker.start()
    worker.join(timeout=10)
    assert done == [None]


def test_the_command_install_writes(run_hook: RunHook, docs: Path) -> None:
    sent = json.dumps(payload("cat big.md", str(docs), "PostToolUse"))
    args = ("--client", "codex", "--min-words", "200")
    assert run_hook(sent, *args) == (0, reminder("PostToolUse"), "")
    assert run_hook(sent, "--client", "codex", "--min-words", "300") == (0, "", "")
    small = json.dumps(payload("cat small.md", str(docs)))
    assert run_hook(small, *args) == (0, "", "")


@pytest.mark.parametrize(
    "stdin", [b"", b"not json", b"\xff\xfe", b"[1, 2]", b'"text"', b"null", b"{" * 100_000]
)
def test_broken_stdin_is_silence(run_hook: RunHook, stdin: bytes) -> None:
    assert run_hook(stdin, "--client", "codex") == (0, "", "")


def test_codex_is_a_client_of_the_hook() -> None:
    assert "codex" in hook.CLIENTS
