"""The hook's Gemini CLI adapter: AfterTool payloads on read_file / read_many_files → stdout.

Payload shapes are Gemini CLI 0.61's (hookEventHandler.fireAfterToolEvent in its bundle):
`tool_input` is the model's arguments as sent, `tool_response` is `{llmContent, returnDisplay,
error?}`. The whole hook runs in-process (`hook.main` with `--client gemini`), so argument
handling, the payload cap and the swallowing of errors are covered too.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from mdsel_claude.hook import gemini
from tests.mdsel_claude.conftest import RunHook

# Typed out here on purpose, not imported: the test must fail if the module's text drifts.
REMINDER = (
    "This is a Markdown file over the configured size threshold.\n"
    "Use mdsel_index and mdsel_select instead of Read."
)
CONTEXT = (
    json.dumps(
        {"hookSpecificOutput": {"hookEventName": "AfterTool", "additionalContext": REMINDER}}
    )
    + "\n"
)


def after(tool_input: object, tool: str = "read_file", **extra: object) -> dict[str, object]:
    payload: dict[str, object] = {
        "session_id": "s",
        "transcript_path": "/dev/null",
        "hook_event_name": "AfterTool",
        "timestamp": "2026-01-01T00:00:00.000Z",
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_response": {"llmContent": "the file", "returnDisplay": ""},
    }
    payload.update(extra)
    return payload


def read(path: str, **args: object) -> dict[str, object]:
    return after({"file_path": path, **args})


def many(*paths: str, include: object = None) -> dict[str, object]:
    """A read_many_files result naming `paths` the way the CLI separates files."""
    parts: list[object] = [f"--- {p} ---\n\ntext\n\n" for p in paths]
    parts.append("\n--- End of content ---")
    response = {"llmContent": parts, "returnDisplay": ""}
    return after({"include": include or ["**/*.md"]}, "read_many_files", tool_response=response)


# (id, payload built from the files directory, expected stdout)
PAYLOADS: list[tuple[str, Callable[[Path], object], str]] = [
    ("read-large", lambda d: read(str(d / "guide.md")), CONTEXT),
    ("read-small", lambda d: read(str(d / "small.md")), ""),
    ("read-txt", lambda d: read(str(d / "big.txt")), ""),
    ("read-uppercase-extension", lambda d: read(str(d / "BIG.MARKDOWN")), CONTEXT),
    ("read-relative-to-cwd", lambda d: {**read("guide.md"), "cwd": str(d)}, CONTEXT),
    ("read-at-prefixed", lambda d: {**read("@guide.md"), "cwd": str(d)}, CONTEXT),
    ("read-symlink-to-md", lambda d: read(str(d / "link.md")), CONTEXT),
    ("read-md-link-to-txt", lambda d: read(str(d / "link-to-txt.md")), ""),
    ("read-directory", lambda d: read(str(d / "dir.md")), ""),
    ("read-fifo", lambda d: read(str(d / "fifo.md")), ""),
    ("read-nul-first", lambda d: read(str(d / "binary.md")), ""),
    ("read-missing", lambda d: read(str(d / "missing.md")), ""),
    ("read-lines-reminded", lambda d: read(str(d / "guide.md"), start_line=1, end_line=9), CONTEXT),
    (
        "read-failed",
        lambda d: {
            **read(str(d / "guide.md")),
            "tool_response": {"llmContent": "no", "error": {"message": "outside workspace"}},
        },
        "",
    ),
    ("before-tool", lambda d: {**read(str(d / "guide.md")), "hook_event_name": "BeforeTool"}, ""),
    ("claude-event", lambda d: {**read(str(d / "guide.md")), "hook_event_name": "PostToolUse"}, ""),
    ("other-tool", lambda d: after({"file_path": str(d / "guide.md")}, "write_file"), ""),
    ("claude-read-tool", lambda d: after({"file_path": str(d / "guide.md")}, "Read"), ""),
    ("many-with-large", lambda d: many(str(d / "small.md"), str(d / "guide.md")), CONTEXT),
    ("many-small-only", lambda d: many(str(d / "small.md"), str(d / "big.txt")), ""),
    ("many-relative-separator", lambda d: {**many("guide.md"), "cwd": str(d)}, ""),
    (
        "many-include-alone",
        lambda d: after({"include": [str(d / "guide.md")]}, "read_many_files"),
        "",
    ),
    # Hostile shapes: each is silence.
    ("not-a-dict", lambda d: [read(str(d / "guide.md"))], ""),
    ("string", lambda d: "AfterTool", ""),
    ("null", lambda d: None, ""),
    (
        "no-event",
        lambda d: {k: v for k, v in read(str(d / "guide.md")).items() if k != "hook_event_name"},
        "",
    ),
    (
        "event-not-string",
        lambda d: {**read(str(d / "guide.md")), "hook_event_name": ["AfterTool"]},
        "",
    ),
    ("tool-input-list", lambda d: after([str(d / "guide.md")]), ""),
    (
        "tool-input-missing",
        lambda d: {k: v for k, v in read(str(d / "guide.md")).items() if k != "tool_input"},
        "",
    ),
    (
        "response-missing",
        lambda d: {k: v for k, v in read(str(d / "guide.md")).items() if k != "tool_response"},
        "",
    ),
    ("response-string", lambda d: {**read(str(d / "guide.md")), "tool_response": "ok"}, ""),
    ("path-int", lambda d: read(7), ""),  # type: ignore[arg-type]
    ("path-list", lambda d: read([str(d / "guide.md")]), ""),  # type: ignore[arg-type]
    ("path-empty", lambda d: read(""), ""),
    ("path-at-only", lambda d: {**read("@"), "cwd": str(d)}, ""),
    ("path-nul", lambda d: read(str(d / "guide.md") + "\0.txt"), ""),
    ("path-huge", lambda d: read("a" * 1_000_000 + ".md"), ""),
    ("cwd-not-string", lambda d: {**read("guide.md"), "cwd": 5}, ""),
    (
        "many-content-string",
        lambda d: {
            **many(str(d / "guide.md")),
            "tool_response": {"llmContent": f"--- {d / 'guide.md'} ---\n\nx"},
        },
        "",
    ),
    (
        "many-parts-junk",
        lambda d: {**many(), "tool_response": {"llmContent": [None, 3, {"text": "x"}, "--- ---"]}},
        "",
    ),
    ("many-path-nul", lambda d: many(str(d / "guide.md") + "\0"), ""),
]


@pytest.mark.parametrize(
    ("payload", "expected"),
    [pytest.param(build, out, id=name) for name, build, out in PAYLOADS],
)
def test_reminder_mode(files: Path, payload: Callable[[Path], object], expected: str) -> None:
    assert (gemini.answer(payload(files), 200, "reminder") or "") == expected


def test_threshold_is_the_one_given(files: Path) -> None:
    assert gemini.answer(read(str(files / "small.md")), 9, "reminder") == CONTEXT
    assert gemini.answer(read(str(files / "guide.md")), 10_000, "reminder") is None


def test_outline_mode_denies_the_read_with_the_index(files: Path) -> None:
    out = gemini.answer(read(str(files / "guide.md")), 200, "outline")
    assert out is not None and out.endswith("\n") and out.count("\n") == 1
    answer = json.loads(out)
    assert set(answer) == {"decision", "reason"}
    assert answer["decision"] == "deny"
    reason = answer["reason"]
    assert reason.endswith("\n" + REMINDER)
    index = reason[: -len(REMINDER)]
    assert "h2.0 Install" in index and "h2.1 Use" in index
    assert "w149" not in reason


@pytest.mark.parametrize(
    "slice_",
    [{"start_line": 3}, {"end_line": 9}, {"start_line": 1, "end_line": 400}, {"offset": 0}],
)
def test_outline_mode_leaves_some_lines_alone(files: Path, slice_: dict[str, object]) -> None:
    assert gemini.answer(read(str(files / "guide.md"), **slice_), 200, "outline") is None


def test_outline_mode_null_slice_is_a_whole_read(files: Path) -> None:
    out = gemini.answer(read(str(files / "guide.md"), start_line=None), 200, "outline")
    assert out is not None and json.loads(out)["decision"] == "deny"


def test_outline_mode_read_many_files_gets_the_reminder(files: Path) -> None:
    assert gemini.answer(many(str(files / "guide.md")), 200, "outline") == CONTEXT


def test_outline_mode_falls_back_to_the_reminder(files: Path) -> None:
    # Not UTF-8: the engine refuses the file, and the read keeps its reminder.
    (files / "latin.md").write_bytes(b"caf\xe9 " * 500)
    assert gemini.answer(read(str(files / "latin.md")), 200, "outline") == CONTEXT


def test_reminder_mode_imports_no_engine(files: Path) -> None:
    for name in [m for m in sys.modules if m == "mdsel_claude.hook.outline"]:
        del sys.modules[name]
    gemini.answer(read(str(files / "guide.md")), 200, "reminder")
    assert "mdsel_claude.hook.outline" not in sys.modules


def test_main_routes_gemini_payloads(files: Path, run_hook: RunHook) -> None:
    payload = read(str(files / "guide.md"))
    assert run_hook(payload, "--client", "gemini") == (0, CONTEXT, "")
    assert run_hook(payload, "--client", "gemini", "--min-words", "100000") == (0, "", "")
    status, out, err = run_hook(payload, "--client=gemini", "--mode", "outline")
    assert (status, err) == (0, "") and json.loads(out)["decision"] == "deny"
    # Claude Code's adapter does not read Gemini CLI's payloads, and the reverse.
    assert run_hook(payload) == (0, "", "")


@pytest.mark.parametrize(
    "stdin",
    [b"", b"\0\0", b"{", b"[1, 2]", b'"AfterTool"', b"\xff\xfe", b"{}" + b" " * 100, b"null"],
)
def test_main_is_silent_on_junk(run_hook: RunHook, stdin: bytes) -> None:
    assert run_hook(stdin, "--client", "gemini") == (0, "", "")
