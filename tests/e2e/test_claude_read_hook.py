"""The Read hook inside the real Claude Code CLI: what reaches the model after a Read.

`claude -p` (the version pinned in tools/clients) runs against a stand-in Messages API on
127.0.0.1 (anthropic_stub.py) whose first answer asks for a Read of a large Markdown file; the
next request the CLI sends is what the model would see. The hook is registered in a temporary
HOME's settings, as install writes it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import mdsel
from tests.conftest import environ_without
from tests.e2e.anthropic_stub import Stub, messages_api, run_claude
from tests.e2e.test_claude_cli import client

REMINDER = (
    "This is a Markdown file over the configured size threshold.\n"
    "Use mdsel_index and mdsel_select instead of Read."
)
TOPICS = ("Installation", "Configuration", "Routing", "Templates", "Testing", "Deployment")


def guide() -> str:
    """A user guide of about 2,000 words: headings on three levels, prose, lists and code."""
    parts = ["# Guide", "", "An introduction to the project and what this guide covers.", ""]
    for number, topic in enumerate(TOPICS, start=1):
        parts += [f"## {topic}", ""]
        for part in range(1, 4):
            parts += [f"### {topic} step {part}", ""]
            parts += [
                f"Paragraph {number}.{part}.{line} explains how {topic.lower()} behaves when "
                f"the option number {line} is set, and what to check before moving on."
                for line in range(1, 6)
            ]
            parts += ["", f"- item {part}a of {topic}", f"- item {part}b of {topic}", ""]
            parts += ["```sh", f"run --{topic.lower()} {part}", "```", ""]
    return "\n".join(parts)


@pytest.fixture(scope="module")
def claude_cli() -> str:
    return client("claude")


def hook_command(*args: str) -> str:
    script = Path(sys.executable).parent / "mdsel-claude"
    if not script.exists():
        pytest.skip("the mdsel-claude script is not installed (pip install -e .)")
    return " ".join([str(script), "hook", "--min-words", "200", *args])


def read_turn(
    claude_cli: str, tmp_path: Path, event: str, command: str, read: Path, **slice_: int
) -> Stub:
    """One `claude -p` turn with our hook on `event`; the recorded API traffic."""
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    hooks = {event: [{"matcher": "Read", "hooks": [{"type": "command", "command": command}]}]}
    (home / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}))
    project = tmp_path / "project"
    project.mkdir()
    env = environ_without("ANTHROPIC_", "CLAUDE_", "MDSEL_")
    env["HOME"] = str(home)
    with messages_api(str(read), **slice_) as (url, stub):
        run_claude(claude_cli, url, env, project, "Read the document.", "--allowedTools", "Read")
    assert stub.read_result(), "the session never ran the Read"
    return stub


def body_lines(path: Path) -> list[str]:
    """Long lines of prose from the document (not headings): what reading the file shows."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if len(line) > 60 and not line.startswith(("#", "<", "|"))]


@pytest.fixture
def document(tmp_path: Path) -> Path:
    target = tmp_path / "guide.md"
    target.write_text(guide(), encoding="utf-8")
    return target


def test_outline_mode_replaces_the_read_result(
    claude_cli: str, tmp_path: Path, document: Path
) -> None:
    command = hook_command("--mode", "outline")
    stub = read_turn(claude_cli, tmp_path, "PostToolUse", command, document)
    shown = stub.read_result()
    index = mdsel.run_command("index", None, [str(document)]).stdout
    # Claude Code numbers the lines of any Read result; every index line is there, in order.
    position = 0
    for line in index.splitlines():
        found = shown.find(f"\t{line}\n", position)
        assert found >= 0, f"index line missing from the result: {line!r}"
        position = found
    assert shown.rstrip().endswith(REMINDER.splitlines()[1])
    assert REMINDER.splitlines()[0] in shown
    prose = body_lines(document)
    assert len(prose) > 20
    assert not [line for line in prose if line in shown]


def test_outline_mode_leaves_a_partial_read_alone(
    claude_cli: str, tmp_path: Path, document: Path
) -> None:
    command = hook_command("--mode", "outline")
    stub = read_turn(claude_cli, tmp_path, "PostToolUse", command, document, offset=40, limit=30)
    shown = stub.read_result()
    lines = document.read_text(encoding="utf-8").splitlines()
    for number in (40, 55, 69):
        assert f"{number}\t{lines[number - 1]}" in shown
    assert "70\t" not in shown
    assert "Use mdsel_index" not in stub.after_read()


@pytest.mark.parametrize("event", ["PreToolUse", "PostToolUse"])
def test_default_mode_adds_the_reminder_and_keeps_the_file(
    claude_cli: str, tmp_path: Path, document: Path, event: str
) -> None:
    stub = read_turn(claude_cli, tmp_path, event, hook_command(), document)
    shown = stub.read_result()
    prose = body_lines(document)
    assert all(line in shown for line in prose)
    turn = stub.after_read()
    assert json.dumps(REMINDER)[1:-1] in turn
    assert json.dumps(REMINDER)[1:-1] not in json.dumps(shown)


def large_guide() -> str:
    """Over 256 KB of Markdown: more than Claude Code's Read returns, so the Read fails."""
    parts = ["# Handbook", ""]
    for chapter in range(1, 51):
        parts += [f"## Chapter {chapter}", ""]
        for section in range(1, 4):
            parts += [f"### Chapter {chapter} section {section}", ""]
            parts += [
                f"Line {line} of section {chapter}.{section} says what the option does, when "
                "it applies, and what to check before moving on to the next one."
                for line in range(1, 16)
            ]
            parts.append("")
    return "\n".join(parts)


def failed_read_turn(claude_cli: str, tmp_path: Path, groups: dict[str, str], read: Path) -> Stub:
    """One `claude -p` turn whose Read of `read` fails for its size, with our hook under each
    event of `groups` (event → matcher), as install writes it; the recorded API traffic."""
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    command = hook_command(*(["--mode", "outline"] if "outline" in groups else []))
    hooks = {
        event: [{"matcher": matcher, "hooks": [{"type": "command", "command": command}]}]
        for event, matcher in groups.items()
        if event != "outline"
    }
    (home / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}))
    project = tmp_path / "project"
    project.mkdir()
    env = environ_without("ANTHROPIC_", "CLAUDE_", "MDSEL_")
    env["HOME"] = str(home)
    with messages_api(str(read)) as (url, stub):
        run_claude(claude_cli, url, env, project, "Read the document.", "--allowedTools", "Read")
    assert "exceeds maximum allowed size" in stub.read_result(), "the Read did not fail"
    return stub


@pytest.fixture
def large_document(tmp_path: Path) -> Path:
    target = tmp_path / "handbook.md"
    target.write_text(large_guide(), encoding="utf-8")
    assert target.stat().st_size > 256 * 1024
    return target


def test_a_read_too_large_gets_the_index_in_outline_mode(
    claude_cli: str, tmp_path: Path, large_document: Path
) -> None:
    # What install writes with --mode outline: PostToolUse, which a failed Read never reaches,
    # and PostToolUseFailure on Read.
    groups = {"PostToolUse": "Read|Bash", "PostToolUseFailure": "Read", "outline": ""}
    stub = failed_read_turn(claude_cli, tmp_path, groups, large_document)
    turn = json.loads(stub.after_read())
    added = [
        block["text"]
        for message in turn
        if message.get("role") != "assistant" and isinstance(message.get("content"), list)
        for block in message["content"]
        if block.get("type") == "text" and "PostToolUseFailure" in block.get("text", "")
    ]
    assert len(added) == 1, turn
    index = mdsel.run_command("index", None, [str(large_document)]).stdout
    for line in index.splitlines():
        assert line in added[0], f"index line missing: {line!r}"
    assert added[0].rstrip().endswith(REMINDER)
    assert "Line 3 of section 2.1" not in stub.after_read()  # the index, not the file


@pytest.mark.parametrize(
    "groups",
    [
        {"PostToolUse": "Read|Bash", "PostToolUseFailure": "Read"},
        {"PreToolUse": "Read|Bash"},  # the default: its reminder reaches a failed Read too
    ],
    ids=["post-tool-use", "pre-tool-use"],
)
def test_a_read_too_large_gets_the_reminder_once(
    claude_cli: str, tmp_path: Path, large_document: Path, groups: dict[str, str]
) -> None:
    stub = failed_read_turn(claude_cli, tmp_path, groups, large_document)
    assert stub.after_read().count(json.dumps(REMINDER)[1:-1]) == 1
