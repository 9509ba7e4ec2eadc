"""The hook's OpenCode adapter: what our plugin sends after `read` / `bash` → stdout.

The payload is the plugin's own (`setup/clients/opencode/plugin.js`): `{tool, args, directory}`,
with `args` as OpenCode 1.18 hands them to `tool.execute.after` (`read`: `filePath`, `offset`,
`limit`; `bash`: `command`, `workdir`, `description`). The answer is one JSON line, `{"append":
TEXT}` or `{"replace": TEXT}`, or nothing. The whole hook also runs in-process (`hook.main` with
`--client opencode`), so argument handling and the swallowing of errors are covered too.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import mdsel
from mdsel_claude.hook import opencode
from tests.mdsel_claude.conftest import RunHook

# Typed out here on purpose, not imported: the test must fail if the module's text drifts.
REMINDER = (
    "This is a Markdown file over the configured size threshold.\n"
    "Use mdsel_index and mdsel_select instead of Read."
)
APPEND = json.dumps({"append": "\n\n" + REMINDER}) + "\n"


def read(path: object, directory: object = "/", **args: object) -> dict[str, object]:
    return {"tool": "read", "args": {"filePath": path, **args}, "directory": directory}


def bash(command: object, directory: object, **args: object) -> dict[str, object]:
    arguments = {"command": command, "description": "Show the guide", **args}
    return {"tool": "bash", "args": arguments, "directory": directory}


# (id, payload built from the files directory, expected stdout in reminder mode)
PAYLOADS: list[tuple[str, Callable[[Path], object], str]] = [
    ("read-large", lambda d: read(str(d / "guide.md")), APPEND),
    ("read-small", lambda d: read(str(d / "small.md")), ""),
    ("read-txt", lambda d: read(str(d / "big.txt")), ""),
    ("read-uppercase-extension", lambda d: read(str(d / "BIG.MARKDOWN")), APPEND),
    ("read-relative-to-project", lambda d: read("guide.md", str(d)), APPEND),
    ("read-relative-subfolder", lambda d: read("docs/deep.md", str(d)), APPEND),
    ("read-symlink-to-md", lambda d: read(str(d / "link.md")), APPEND),
    ("read-md-link-to-txt", lambda d: read(str(d / "link-to-txt.md")), ""),
    ("read-directory", lambda d: read(str(d / "dir.md")), ""),
    ("read-fifo", lambda d: read(str(d / "fifo.md")), ""),
    ("read-nul-first", lambda d: read(str(d / "binary.md")), ""),
    ("read-missing", lambda d: read(str(d / "missing.md")), ""),
    ("read-lines-reminded", lambda d: read(str(d / "guide.md"), offset=3, limit=9), APPEND),
    ("bash-cat", lambda d: bash("cat guide.md", str(d)), APPEND),
    ("bash-cat-absolute", lambda d: bash(f"cat {d / 'guide.md'}", "/"), APPEND),
    ("bash-workdir-relative", lambda d: bash("cat deep.md", str(d), workdir="docs"), APPEND),
    ("bash-workdir-absolute", lambda d: bash("cat deep.md", "/", workdir=str(d / "docs")), APPEND),
    ("bash-pipe-nl", lambda d: bash("cat guide.md | nl", str(d)), APPEND),
    ("bash-small", lambda d: bash("cat small.md", str(d)), ""),
    ("bash-head", lambda d: bash("head -3 guide.md", str(d)), ""),
    ("bash-grep", lambda d: bash("grep w1 guide.md", str(d)), ""),
    ("bash-redirect", lambda d: bash("cat guide.md > copy.md", str(d)), ""),
    ("bash-txt", lambda d: bash("cat big.txt", str(d)), ""),
    # Hostile shapes: each is silence.
    ("not-a-dict", lambda d: [read(str(d / "guide.md"))], ""),
    ("string", lambda d: "read", ""),
    ("null", lambda d: None, ""),
    ("no-tool", lambda d: {"args": {"filePath": str(d / "guide.md")}}, ""),
    ("tool-not-string", lambda d: {**read(str(d / "guide.md")), "tool": ["read"]}, ""),
    ("tool-claude-name", lambda d: {**read(str(d / "guide.md")), "tool": "Read"}, ""),
    ("tool-write", lambda d: {**read(str(d / "guide.md")), "tool": "write"}, ""),
    ("tool-grep", lambda d: {**bash("cat guide.md", str(d)), "tool": "grep"}, ""),
    ("args-missing", lambda d: {"tool": "read", "directory": str(d)}, ""),
    ("args-list", lambda d: {"tool": "read", "args": [str(d / "guide.md")]}, ""),
    ("args-string", lambda d: {"tool": "bash", "args": "cat guide.md", "directory": str(d)}, ""),
    ("path-int", lambda d: read(7), ""),
    ("path-list", lambda d: read([str(d / "guide.md")]), ""),
    ("path-empty", lambda d: read(""), ""),
    ("path-nul", lambda d: read(str(d / "guide.md") + "\0.txt"), ""),
    ("path-huge", lambda d: read("a" * 1_000_000 + ".md"), ""),
    ("command-int", lambda d: bash(5, str(d)), ""),
    ("command-nul", lambda d: bash("cat guide.md\0", str(d)), ""),
    ("command-huge", lambda d: bash("cat guide.md " + "x" * 1_000_000, str(d)), ""),
    ("bash-directory-missing", lambda d: {"tool": "bash", "args": {"command": "cat guide.md"}}, ""),
    ("bash-directory-int", lambda d: bash("cat guide.md", 5), ""),
    ("bash-directory-nul", lambda d: bash("cat guide.md", str(d) + "\0"), ""),
    ("bash-workdir-int", lambda d: bash("cat guide.md", str(d), workdir=3), ""),
    ("bash-workdir-missing", lambda d: bash("cat guide.md", str(d), workdir="nowhere"), ""),
]


@pytest.mark.parametrize(
    ("payload", "expected"),
    [pytest.param(build, out, id=name) for name, build, out in PAYLOADS],
)
def test_reminder_mode(files: Path, payload: Callable[[Path], object], expected: str) -> None:
    assert (opencode.answer(payload(files), 200, "reminder") or "") == expected


def test_threshold_is_the_one_given(files: Path) -> None:
    assert opencode.answer(read(str(files / "small.md")), 9, "reminder") == APPEND
    assert opencode.answer(read(str(files / "guide.md")), 10_000, "reminder") is None
    assert opencode.answer(bash("cat small.md", str(files)), 9, "reminder") == APPEND


def test_outline_mode_replaces_a_whole_read_with_the_index(files: Path) -> None:
    out = opencode.answer(read(str(files / "guide.md")), 200, "outline")
    assert out is not None and out.endswith("\n") and out.count("\n") == 1
    answer = json.loads(out)
    index = mdsel.run_command("index", None, [str(files / "guide.md")]).stdout
    assert answer == {"replace": f"{index}{REMINDER}"}
    assert "h2.0 Install" in index and "w149" not in answer["replace"]


@pytest.mark.parametrize("slice_", [{"offset": 3}, {"limit": 9}, {"offset": 1, "limit": 2000}])
def test_outline_mode_leaves_some_lines_alone(files: Path, slice_: dict[str, object]) -> None:
    assert opencode.answer(read(str(files / "guide.md"), **slice_), 200, "outline") is None


def test_outline_mode_null_slice_is_a_whole_read(files: Path) -> None:
    out = opencode.answer(read(str(files / "guide.md"), offset=None), 200, "outline")
    assert out is not None and "replace" in json.loads(out)


def test_outline_mode_bash_gets_the_reminder(files: Path) -> None:
    # A command's output may hold more than the file: it is never replaced.
    assert opencode.answer(bash("cat guide.md", str(files)), 200, "outline") == APPEND


def test_outline_mode_falls_back_to_the_reminder(files: Path) -> None:
    # Not UTF-8: the engine refuses the file, and the read keeps its reminder.
    (files / "latin.md").write_bytes(b"caf\xe9 " * 500)
    assert opencode.answer(read(str(files / "latin.md")), 200, "outline") == APPEND


def test_reminder_mode_imports_no_engine(files: Path) -> None:
    for name in [m for m in sys.modules if m == "mdsel_claude.hook.outline"]:
        del sys.modules[name]
    opencode.answer(read(str(files / "guide.md")), 200, "reminder")
    assert "mdsel_claude.hook.outline" not in sys.modules


def test_main_routes_opencode_payloads(files: Path, run_hook: RunHook) -> None:
    payload = read(str(files / "guide.md"))
    assert run_hook(payload, "--client", "opencode") == (0, APPEND, "")
    assert run_hook(payload, "--client", "opencode", "--min-words", "100000") == (0, "", "")
    status, out, err = run_hook(payload, "--client=opencode", "--mode", "outline")
    assert (status, err) == (0, "") and "replace" in json.loads(out)
    # Claude Code's adapter does not read the plugin's payloads.
    assert run_hook(payload) == (0, "", "")


def test_main_takes_the_mode_from_the_environment(
    files: Path, run_hook: RunHook, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MDSEL_HOOK_MODE", "outline")
    status, out, _ = run_hook(read(str(files / "guide.md")), "--client", "opencode")
    assert status == 0 and "replace" in json.loads(out)


@pytest.mark.parametrize(
    "stdin",
    [b"", b"\0\0", b"{", b"[1, 2]", b'"read"', b"\xff\xfe", b"{}" + b" " * 100, b"null"],
)
def test_main_is_silent_on_junk(run_hook: RunHook, stdin: bytes) -> None:
    assert run_hook(stdin, "--client", "opencode") == (0, "", "")
