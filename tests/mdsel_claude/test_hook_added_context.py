"""The hook's Qwen Code and Factory Droid adapters: a `PostToolUse` payload → added context.

The payloads are the ones the real CLIs sent a hook in this suite's end-to-end runs (Qwen Code
0.24.4: `read_file`, `tool_response` `{llmContent, returnDisplay}`; Droid 0.225.2: `Read`,
`tool_response` the text), trimmed to the fields the adapters read and the ones beside them.
Both answer `hookSpecificOutput.additionalContext` after the read, never before it, and add the
index in outline mode (neither lets a hook replace the result).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

import mdsel
from mdsel_claude.hook import factory, qwen
from tests.mdsel_claude.conftest import RunHook

# Typed out here on purpose, not imported: the test must fail if the module's text drifts.
REMINDER = (
    "This is a Markdown file over the configured size threshold.\n"
    "Use mdsel_index and mdsel_select instead of Read."
)


def added(text: str = REMINDER) -> str:
    output = {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": text}}
    return json.dumps(output) + "\n"


def qwen_read(
    path: object, cwd: object = "/", event: str = "PostToolUse", **args: object
) -> dict[str, object]:
    return {
        "session_id": "s",
        "transcript_path": "/t.jsonl",
        "cwd": cwd,
        "hook_event_name": event,
        "permission_mode": "yolo",
        "tool_name": "read_file",
        "tool_input": {"file_path": path, **args},
        "tool_response": {"llmContent": "# Guide", "returnDisplay": ""},
        "tool_use_id": "toolu_1",
        "tool_call_id": "call_1",
    }


def droid_read(
    path: object, cwd: object = "/", event: str = "PostToolUse", **args: object
) -> dict[str, object]:
    return {
        "session_id": "s",
        "transcript_path": "/t.jsonl",
        "cwd": cwd,
        "permission_mode": "auto-high",
        "hook_event_name": event,
        "tool_name": "Read",
        "tool_input": {"file_path": path, **args},
        "tool_response": "# Guide",
    }


Build = Callable[..., dict[str, object]]
ADAPTERS = [
    pytest.param(qwen, qwen_read, id="qwen"),
    pytest.param(factory, droid_read, id="factory"),
]

# (id, payload from the adapter's builder and the files directory, added context expected)
CASES: list[tuple[str, Callable[[Build, Path], object], bool]] = [
    ("large", lambda r, d: r(str(d / "guide.md")), True),
    ("small", lambda r, d: r(str(d / "small.md")), False),
    ("txt", lambda r, d: r(str(d / "big.txt")), False),
    ("uppercase-extension", lambda r, d: r(str(d / "BIG.MARKDOWN")), True),
    ("relative-to-cwd", lambda r, d: r("guide.md", str(d)), True),
    ("symlink-to-md", lambda r, d: r(str(d / "link.md")), True),
    ("md-link-to-txt", lambda r, d: r(str(d / "link-to-txt.md")), False),
    ("directory", lambda r, d: r(str(d / "dir.md")), False),
    ("fifo", lambda r, d: r(str(d / "fifo.md")), False),
    ("nul-first", lambda r, d: r(str(d / "binary.md")), False),
    ("missing", lambda r, d: r(str(d / "missing.md")), False),
    ("lines-reminded", lambda r, d: r(str(d / "guide.md"), offset=3, limit=9), True),
    # Before the read: the CLI drops what a PreToolUse hook adds, so nothing is said.
    ("pre-tool-use", lambda r, d: r(str(d / "guide.md"), event="PreToolUse"), False),
    ("other-event", lambda r, d: r(str(d / "guide.md"), event="PostToolUseFailure"), False),
    # Hostile shapes: each is silence.
    ("not-a-dict", lambda r, d: [r(str(d / "guide.md"))], False),
    ("null", lambda r, d: None, False),
    ("path-int", lambda r, d: r(7), False),
    ("path-list", lambda r, d: r([str(d / "guide.md")]), False),
    ("path-empty", lambda r, d: r(""), False),
    ("path-nul", lambda r, d: r(str(d / "guide.md") + "\0.txt"), False),
    ("path-huge", lambda r, d: r("a" * 1_000_000 + ".md"), False),
    ("cwd-int", lambda r, d: r("guide.md", 5), False),
    ("input-string", lambda r, d: {**r(str(d / "guide.md")), "tool_input": "guide.md"}, False),
    ("event-list", lambda r, d: {**r(str(d / "guide.md")), "hook_event_name": ["x"]}, False),
]


@pytest.mark.parametrize(("adapter", "read"), ADAPTERS)
@pytest.mark.parametrize(
    ("payload", "expected"), [pytest.param(build, out, id=name) for name, build, out in CASES]
)
def test_reminder_mode(
    files: Path,
    adapter: ModuleType,
    read: Build,
    payload: Callable[[Build, Path], object],
    expected: bool,
) -> None:
    answer = adapter.answer(payload(read, files), 200, "reminder")
    assert (answer or "") == (added() if expected else "")


def test_each_reads_only_its_own_tool(files: Path) -> None:
    # Qwen Code's tool is `read_file`, Droid's `Read`: the other's name (or the shell) is not
    # a read of theirs.
    assert (
        qwen.answer({**qwen_read(str(files / "guide.md")), "tool_name": "Read"}, 200, "x") is None
    )
    assert (
        factory.answer({**droid_read(str(files / "guide.md")), "tool_name": "read_file"}, 200, "x")
        is None
    )
    shell = {**droid_read(str(files / "guide.md")), "tool_name": "Execute"}
    assert factory.answer({**shell, "tool_input": {"command": "cat guide.md"}}, 200, "x") is None


@pytest.mark.parametrize(("adapter", "read"), ADAPTERS)
def test_threshold_is_the_one_given(files: Path, adapter: ModuleType, read: Build) -> None:
    assert adapter.answer(read(str(files / "small.md")), 9, "reminder") == added()
    assert adapter.answer(read(str(files / "guide.md")), 10_000, "reminder") is None


@pytest.mark.parametrize(("adapter", "read"), ADAPTERS)
def test_outline_mode_adds_the_index_to_a_whole_read(
    files: Path, adapter: ModuleType, read: Build
) -> None:
    out = adapter.answer(read(str(files / "guide.md")), 200, "outline")
    index = mdsel.run_command("index", None, [str(files / "guide.md")]).stdout
    assert out == added(f"{index}{REMINDER}")
    assert "h2.0 Install" in index and "w149" not in index


@pytest.mark.parametrize(("adapter", "read"), ADAPTERS)
@pytest.mark.parametrize("slice_", [{"offset": 3}, {"limit": 9}, {"offset": 1, "limit": 2000}])
def test_outline_mode_reminds_a_slice(
    files: Path, adapter: ModuleType, read: Build, slice_: dict[str, object]
) -> None:
    # Some lines only: a deliberate choice, reminded but not outlined.
    out = adapter.answer(read(str(files / "guide.md"), **slice_), 200, "outline")
    assert out == added()


def test_outline_mode_a_pdf_page_range_is_a_slice(files: Path) -> None:
    assert qwen.answer(qwen_read(str(files / "guide.md"), pages="1-2"), 200, "outline") == added()
    whole = qwen.answer(qwen_read(str(files / "guide.md"), offset=None), 200, "outline")
    assert whole is not None and "h2.0 Install" in whole


@pytest.mark.parametrize(("adapter", "read"), ADAPTERS)
def test_outline_mode_falls_back_to_the_reminder(
    files: Path, adapter: ModuleType, read: Build
) -> None:
    # Not UTF-8: the engine refuses the file, and the read keeps its reminder.
    (files / "latin.md").write_bytes(b"caf\xe9 " * 500)
    assert adapter.answer(read(str(files / "latin.md")), 200, "outline") == added()


@pytest.mark.parametrize(("adapter", "read"), ADAPTERS)
def test_reminder_mode_imports_no_engine(files: Path, adapter: ModuleType, read: Build) -> None:
    sys.modules.pop("mdsel_claude.hook.outline", None)
    adapter.answer(read(str(files / "guide.md")), 200, "reminder")
    assert "mdsel_claude.hook.outline" not in sys.modules


@pytest.mark.parametrize(("name", "read"), [("qwen", qwen_read), ("factory", droid_read)])
def test_the_whole_hook_answers_for_the_client(
    files: Path, run_hook: RunHook, name: str, read: Build
) -> None:
    status, out, err = run_hook(read(str(files / "guide.md")), "--client", name)
    assert (status, out, err) == (0, added(), "")
    # A bad setting is not said on stderr (these CLIs may show it): the default is used.
    status, out, err = run_hook(read(str(files / "guide.md")), "--client", name, "--min-words", "x")
    assert (status, out, err) == (0, added(), "")
