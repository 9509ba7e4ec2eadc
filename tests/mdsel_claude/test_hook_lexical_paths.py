"""A path with `..` after a symlinked folder, as the Node clients resolve it.

Claude Code's `Read`, Gemini CLI's `read_file` and OpenCode's `read` (and the `workdir` of its
`bash`) resolve a path with `path.resolve`, which takes `lnk/..` out of the text before the file
is opened: `lnk/../notes.md` is the project's own `notes.md`, never the one beside the link's
target (where the system's own resolution would land). The hook must judge the file the client
reads.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mdsel_claude.hook import claude, gemini, opencode

REMINDER = (
    "This is a Markdown file over the configured size threshold.\n"
    "Use mdsel_index and mdsel_select instead of Read."
)
APPEND = json.dumps({"append": "\n\n" + REMINDER}) + "\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """`proj/notes.md` (3 words) and `proj/lnk` → `elsewhere/deep`, with `elsewhere/notes.md`
    (500 words): the system reads `proj/lnk/../notes.md` as the large one."""
    root = tmp_path / "proj"
    (tmp_path / "elsewhere" / "deep").mkdir(parents=True)
    root.mkdir()
    (tmp_path / "elsewhere" / "notes.md").write_text(" ".join(["word"] * 500) + "\n")
    (root / "notes.md").write_text("# Notes\n\nhi\n")
    (root / "lnk").symlink_to(tmp_path / "elsewhere" / "deep")
    (tmp_path / "elsewhere" / "big").mkdir()
    (tmp_path / "elsewhere" / "big" / "guide.md").write_text(" ".join(["w"] * 500) + "\n")
    (root / "biglnk").symlink_to(tmp_path / "elsewhere" / "big")
    return root


@pytest.mark.parametrize("relative", [True, False], ids=["relative", "absolute"])
@pytest.mark.parametrize("mode", ["reminder", "outline"])
def test_dotdot_after_a_symlink_is_the_lexical_parent(
    project: Path, relative: bool, mode: str
) -> None:
    path = "lnk/../notes.md" if relative else f"{project}/lnk/../notes.md"
    claude_payload = {
        "hook_event_name": "PostToolUse",
        "tool_name": "Read",
        "tool_input": {"file_path": path},
        "tool_response": {"type": "text", "file": {"filePath": path, "content": "x"}},
        "cwd": str(project),
    }
    gemini_payload = read_file(path, project, "# Notes\n\nhi\n")
    opencode_payload = {"tool": "read", "args": {"filePath": path}, "directory": str(project)}
    assert claude.answer(claude_payload, 200, mode) is None
    assert gemini.answer(gemini_payload, 200, mode) is None
    assert opencode.answer(opencode_payload, 200, mode) is None


def read_file(path: str, cwd: Path, content: str) -> dict[str, object]:
    """Gemini CLI's AfterTool payload for a `read_file` of `path` that returned `content`."""
    return {
        "hook_event_name": "AfterTool",
        "tool_name": "read_file",
        "tool_input": {"file_path": path},
        "tool_response": {"llmContent": content, "returnDisplay": ""},
        "cwd": str(cwd),
    }


def test_a_large_file_through_a_symlinked_folder_is_still_found(project: Path) -> None:
    """Only `..` is taken out of the text: a symlinked folder on the way is still followed."""
    payload = {"tool": "read", "args": {"filePath": "biglnk/guide.md"}, "directory": str(project)}
    assert opencode.answer(payload, 200, "reminder") == APPEND


def test_opencode_workdir_dotdot_after_a_symlink(project: Path) -> None:
    """OpenCode runs the command in `path.resolve(directory, workdir)`: `lnk/..` is the project."""
    payload = {
        "tool": "bash",
        "args": {"command": "cat notes.md", "workdir": "lnk/.."},
        "directory": str(project),
    }
    assert opencode.answer(payload, 200, "reminder") is None
    # In the command itself, `..` is the system's: `cat lnk/../notes.md` reads the large one.
    payload["args"] = {"command": "cat lnk/../notes.md"}
    assert opencode.answer(payload, 200, "reminder") == APPEND


@pytest.mark.parametrize(
    ("name", "written", "reminded"),
    [
        ("my guide.md", "my%20guide.md", True),  # as a Markdown link writes it
        ("100%.md", "100%.md", True),  # decodeURIComponent throws: kept as written
        ("a%ff.md", "a%ff.md", True),  # %ff is no UTF-8: kept as written
    ],
)
def test_gemini_decodes_the_path_as_the_cli_does(
    tmp_path: Path, name: str, written: str, reminded: bool
) -> None:
    """Gemini CLI's `read_file` opens `decodeURIComponent(path.resolve(dir, file_path))`."""
    (tmp_path / name).write_text(" ".join(["word"] * 300) + "\n")
    answered = gemini.answer(read_file(written, tmp_path, "word word"), 200, "reminder")
    assert (answered is not None) is reminded


def test_gemini_decoded_name_wins_over_a_literal_one(tmp_path: Path) -> None:
    """`my%20guide.md` is read as `my guide.md` even when a file of the literal name exists."""
    (tmp_path / "my guide.md").write_text("# Guide\n\nfew words\n")
    (tmp_path / "my%20guide.md").write_text(" ".join(["word"] * 300) + "\n")
    payload = {
        "hook_event_name": "AfterTool",
        "tool_name": "read_file",
        "tool_input": {"file_path": "my%20guide.md"},
        "tool_response": {"llmContent": "# Guide", "returnDisplay": ""},
        "cwd": str(tmp_path),
    }
    assert gemini.answer(payload, 200, "reminder") is None
