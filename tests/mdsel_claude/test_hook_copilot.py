"""The hook's Copilot CLI adapter: its `postToolUse` / `postToolUseFailure` payloads → stdout.

The payloads are the shapes Copilot CLI 1.0.102 sent a command hook configured under the
camelCase event names (recorded in a real session, and as its hooks reference gives them):
`{sessionId, timestamp, cwd, toolName, toolArgs}` plus `toolResult: {resultType,
textResultForLlm}` after a success or `error` (a string) after a failure. `view` takes `path`
and, for some lines, `view_range`; `bash` takes `command`. The answer is one JSON line,
`{"additionalContext": TEXT}` or `{"modifiedResult": {...}}`, or nothing.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import mdsel
from mdsel_claude.hook import copilot
from tests.mdsel_claude.conftest import RunHook

# Typed out here on purpose, not imported: the test must fail if the module's text drifts.
REMINDER = (
    "This is a Markdown file over the configured size threshold.\n"
    "Use mdsel_index and mdsel_select instead of Read."
)
CONTEXT = json.dumps({"additionalContext": REMINDER}) + "\n"


def after(tool: str, args: object, cwd: object = "/", **more: object) -> dict[str, object]:
    """A `postToolUse` payload (a successful call)."""
    result = {"resultType": "success", "textResultForLlm": "# Guide\n\nw1 w2"}
    return {
        "sessionId": "0cb916db-26aa-40f2-86b5-1ba81b225fd2",
        "timestamp": 1796183011681,
        "cwd": cwd,
        "toolName": tool,
        "toolArgs": args,
        "toolResult": result,
        **more,
    }


def view(path: object, cwd: object = "/", **args: object) -> dict[str, object]:
    return after("view", {"path": path, **args}, cwd)


def failed(path: object, cwd: object = "/", **args: object) -> dict[str, object]:
    """A `postToolUseFailure` payload after a `view`."""
    payload = view(path, cwd, **args)
    del payload["toolResult"]
    return {**payload, "error": "view_range out of bounds"}


def bash(command: object, cwd: object) -> dict[str, object]:
    return after("bash", {"command": command, "description": "Show the guide"}, cwd)


# (id, payload built from the files directory, expected stdout in reminder mode)
PAYLOADS: list[tuple[str, Callable[[Path], object], str]] = [
    ("view-large", lambda d: view(str(d / "guide.md")), CONTEXT),
    ("view-small", lambda d: view(str(d / "small.md")), ""),
    ("view-txt", lambda d: view(str(d / "big.txt")), ""),
    ("view-uppercase-extension", lambda d: view(str(d / "BIG.MARKDOWN")), CONTEXT),
    ("view-relative-to-cwd", lambda d: view("guide.md", str(d)), CONTEXT),
    ("view-relative-subfolder", lambda d: view("docs/deep.md", str(d)), CONTEXT),
    ("view-symlink-to-md", lambda d: view(str(d / "link.md")), CONTEXT),
    ("view-md-link-to-txt", lambda d: view(str(d / "link-to-txt.md")), ""),
    ("view-directory", lambda d: view(str(d / "dir.md")), ""),
    ("view-fifo", lambda d: view(str(d / "fifo.md")), ""),
    ("view-nul-first", lambda d: view(str(d / "binary.md")), ""),
    ("view-missing", lambda d: view(str(d / "missing.md")), ""),
    ("view-lines-reminded", lambda d: view(str(d / "guide.md"), view_range=[3, 9]), CONTEXT),
    (
        "view-args-as-json-text",
        lambda d: after("view", json.dumps({"path": "guide.md"}), str(d)),
        CONTEXT,
    ),
    ("failed-view-large", lambda d: failed(str(d / "guide.md"), view_range=[5000, 5100]), CONTEXT),
    ("failed-view-small", lambda d: failed(str(d / "small.md")), ""),
    ("failed-view-missing", lambda d: failed(str(d / "missing.md")), ""),
    ("bash-cat", lambda d: bash("cat guide.md", str(d)), CONTEXT),
    ("bash-cat-absolute", lambda d: bash(f"cat {d / 'guide.md'}", "/"), CONTEXT),
    ("bash-small", lambda d: bash("cat small.md", str(d)), ""),
    ("bash-head", lambda d: bash("head -3 guide.md", str(d)), ""),
    (
        "bash-failed",
        lambda d: {
            **failed("x", str(d)),
            "toolName": "bash",
            "toolArgs": {"command": "cat guide.md"},
        },
        "",
    ),
    # Before the tool (preToolUse), and hostile shapes: each is silence.
    (
        "before-the-view",
        lambda d: {k: v for k, v in view(str(d / "guide.md")).items() if k != "toolResult"},
        "",
    ),
    (
        "result-failure-type",
        lambda d: {**view(str(d / "guide.md")), "toolResult": {"resultType": "failure"}},
        "",
    ),
    (
        "result-and-error",
        lambda d: {**view(str(d / "guide.md")), "error": "x", "toolResult": "x"},
        "",
    ),
    ("error-not-string", lambda d: {**failed(str(d / "guide.md")), "error": {"message": 1}}, ""),
    ("not-a-dict", lambda d: [view(str(d / "guide.md"))], ""),
    ("string", lambda d: "view", ""),
    ("null", lambda d: None, ""),
    ("tool-claude-name", lambda d: {**view(str(d / "guide.md")), "toolName": "Read"}, ""),
    ("tool-edit", lambda d: {**view(str(d / "guide.md")), "toolName": "edit"}, ""),
    ("tool-not-string", lambda d: {**view(str(d / "guide.md")), "toolName": ["view"]}, ""),
    ("args-missing", lambda d: {"toolName": "view", "cwd": str(d), "toolResult": {}}, ""),
    ("args-list", lambda d: after("view", [str(d / "guide.md")]), ""),
    ("args-bad-json-text", lambda d: after("view", "{path", str(d)), ""),
    (
        "args-huge-json-text",
        lambda d: after("view", " " * 100_000 + '{"path": "guide.md"}', str(d)),
        "",
    ),
    ("path-int", lambda d: view(7), ""),
    ("path-empty", lambda d: view(""), ""),
    ("path-nul", lambda d: view(str(d / "guide.md") + "\0.txt"), ""),
    ("path-huge", lambda d: view("a" * 1_000_000 + ".md"), ""),
    ("cwd-int", lambda d: view("guide.md", 5), ""),
    ("command-int", lambda d: bash(5, str(d)), ""),
]


@pytest.mark.parametrize(
    ("payload", "expected"),
    [pytest.param(build, out, id=name) for name, build, out in PAYLOADS],
)
def test_reminder_mode(files: Path, payload: Callable[[Path], object], expected: str) -> None:
    assert (copilot.answer(payload(files), 200, "reminder") or "") == expected


def test_threshold_is_the_one_given(files: Path) -> None:
    assert copilot.answer(view(str(files / "small.md")), 9, "reminder") == CONTEXT
    assert copilot.answer(view(str(files / "guide.md")), 10_000, "reminder") is None


def test_outline_mode_replaces_a_whole_view_with_the_index(files: Path) -> None:
    out = copilot.answer(view(str(files / "guide.md")), 200, "outline")
    assert out is not None and out.endswith("\n") and out.count("\n") == 1
    index = mdsel.run_command("index", None, [str(files / "guide.md")]).stdout
    text = f"{index}{REMINDER}"
    assert json.loads(out) == {
        "modifiedResult": {"resultType": "success", "textResultForLlm": text}
    }
    assert "h2.0 Install" in index


def test_outline_mode_leaves_some_lines_alone(files: Path) -> None:
    assert copilot.answer(view(str(files / "guide.md"), view_range=[1, 40]), 200, "outline") is None


def test_outline_mode_reminds_after_a_failure_and_a_command(files: Path) -> None:
    # No result to replace after a failure; a command's output may hold more than the file.
    path = str(files / "guide.md")
    assert copilot.answer(failed(path, view_range=[5000, 5100]), 200, "outline") == CONTEXT
    assert copilot.answer(bash("cat guide.md", str(files)), 200, "outline") == CONTEXT


def test_outline_mode_falls_back_to_the_reminder(files: Path) -> None:
    # Not UTF-8: the engine refuses the file, and the view keeps its reminder.
    (files / "latin.md").write_bytes(b"caf\xe9 " * 500)
    assert copilot.answer(view(str(files / "latin.md")), 200, "outline") == CONTEXT


def test_reminder_mode_imports_no_engine(files: Path) -> None:
    for name in [m for m in sys.modules if m == "mdsel_claude.hook.outline"]:
        del sys.modules[name]
    copilot.answer(view(str(files / "guide.md")), 200, "reminder")
    assert "mdsel_claude.hook.outline" not in sys.modules


def test_main_routes_copilot_payloads(files: Path, run_hook: RunHook) -> None:
    payload = view(str(files / "guide.md"))
    assert run_hook(payload, "--client", "copilot") == (0, CONTEXT, "")
    assert run_hook(payload, "--client", "copilot", "--min-words", "100000") == (0, "", "")
    status, out, err = run_hook(payload, "--client=copilot", "--mode", "outline")
    assert (status, err) == (0, "") and "modifiedResult" in json.loads(out)
    # Claude Code's adapter does not read Copilot CLI's payloads.
    assert run_hook(payload) == (0, "", "")


@pytest.mark.parametrize(
    "stdin",
    [b"", b"\0\0", b"{", b"[1, 2]", b'"view"', b"\xff\xfe", b"{}" + b" " * 100, b"null"],
)
def test_main_is_silent_on_junk(run_hook: RunHook, stdin: bytes) -> None:
    assert run_hook(stdin, "--client", "copilot") == (0, "", "")
