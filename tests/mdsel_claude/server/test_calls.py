"""Tests for server.calls, without the SDK: argument errors, file checks, relay, caps, cancel."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from mdsel import Problem
from mdsel.cli import run as cli_run
from mdsel.estimate import estimated_tokens
from mdsel.results import Outcome
from mdsel_claude.server.calls import ToolResult, join_output, relay, run_tool
from mdsel_claude.server.config import EngineSettings, Settings
from mdsel_claude.server.embedded import EmbeddedBackend
from mdsel_claude.server.read_budget import ReadProgress
from tests.tokens import count_tokens

DOC = "# Guide\n\nIntro.\n\n## Install\n\nRun it.\n\n## Use\n\nCall it.\n"


class Spy:
    """A backend that records its calls and answers with a fixed outcome."""

    def __init__(self) -> None:
        self.outcome = Outcome("out\n", "", 0)
        self.calls: list[tuple[str, str | None, tuple[str, ...], int, int]] = []

    def run(
        self,
        command: str,
        selector: str | None,
        paths: Sequence[str],
        problems: Sequence[Problem],
        warnings: Sequence[str],
        cwd: str | None = None,
        cancel: threading.Event | None = None,
        refused: Mapping[str, Problem] | None = None,
        left_out: Sequence[str] = (),
        progress: ReadProgress | None = None,
    ) -> Outcome:
        self.calls.append((command, selector, tuple(paths), len(problems), len(warnings)))
        return self.outcome


class Exploding:
    def run(self, *args: object, **kwargs: object) -> Outcome:
        raise RuntimeError("engine bug")


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    (tmp_path / "guide.md").write_text(DOC)
    (tmp_path / "notes.txt").write_text("plain\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "one.md").write_text("# One\n")
    (tmp_path / "sub" / "two.MD").write_text("# Two\n")
    (tmp_path / "sub" / ".hidden.md").write_text("# Hidden\n")
    (tmp_path / "sub" / "node_modules").mkdir()
    (tmp_path / "sub" / "node_modules" / "dep.md").write_text("# Dep\n")
    return tmp_path


def cli(docs: Path, *argv: str) -> Outcome:
    outcome = cli_run(list(argv), {}, cwd=str(docs))
    return Outcome(outcome.stdout, outcome.stderr, outcome.exit_code)


@pytest.mark.parametrize(
    ("parts", "joined"),
    [
        ([], ""),
        (["a\n", "b\n"], "a\nb\n"),
        (["a", "b"], "a\nb"),
        (["", "b\n", ""], "b\n"),
        (["a\r\n", "b"], "a\r\nb"),
    ],
)
def test_join_output(parts: list[str], joined: str) -> None:
    assert join_output(parts) == joined


def test_relay_is_verbatim_on_success_and_keeps_everything_on_failure() -> None:
    assert relay(Outcome("  text\r\n", "ignored on success", 0)) == ToolResult("  text\r\n", False)
    assert relay(Outcome("partial", "!h9 X: y\n", 1)) == ToolResult("partial\n!h9 X: y\n", True)
    assert relay(Outcome("", "!a.md X: y\n", 1)) == ToolResult("!a.md X: y\n", True)


@pytest.mark.parametrize(
    ("name", "arguments", "needle"),
    [
        ("mdsel_index", {}, "'files'"),
        ("mdsel_index", {"files": []}, "'files'"),
        ("mdsel_select", {"files": ["guide.md"]}, "'selector'"),
        ("mdsel_select", {"selector": "", "files": ["guide.md"]}, "'selector'"),
        ("mdsel_select", {"selector": "h2.0", "files": [1]}, "'files[0]'"),
        ("mdsel_nope", {"files": ["guide.md"]}, "'mdsel_nope'"),
    ],
)
def test_argument_errors_never_reach_the_backend(
    docs: Path, name: str, arguments: dict[str, object], needle: str
) -> None:
    spy = Spy()
    result = run_tool(name, arguments, Settings(), spy, cwd=str(docs))
    assert result.is_error and needle in result.text and spy.calls == []


def test_index_and_select_relay_exactly_what_the_cli_prints(docs: Path) -> None:
    backend = EmbeddedBackend(Settings())
    calls: list[tuple[str, dict[str, Any], list[str]]] = [
        ("mdsel_index", {"files": ["guide.md"]}, ["index", "guide.md"]),
        ("mdsel_index", {"files": ["sub"]}, ["index", "sub"]),
        ("mdsel_index", {"files": ["sub/*.md", "guide.md"]}, ["index", "sub/*.md", "guide.md"]),
        (
            "mdsel_select",
            {"selector": "h2.1", "files": ["guide.md"]},
            ["select", "h2.1", "guide.md"],
        ),
        (
            "mdsel_select",
            {"selector": "h2.7", "files": ["guide.md"]},
            ["select", "h2.7", "guide.md"],
        ),
        ("mdsel_select", {"selector": "h2.0", "files": ["gone.md"]}, ["select", "h2.0", "gone.md"]),
        # Files neither can read: refused by the server's checks, failed by the CLI's read.
        ("mdsel_index", {"files": ["fifo.md", "guide.md"]}, ["index", "fifo.md", "guide.md"]),
        (
            "mdsel_select",
            {"selector": "h1.0", "files": ["loop1.md"]},
            ["select", "h1.0", "loop1.md"],
        ),
    ]
    os.mkfifo(docs / "fifo.md")
    (docs / "loop1.md").symlink_to(docs / "loop2.md")
    (docs / "loop2.md").symlink_to(docs / "loop1.md")
    for name, arguments, argv in calls:
        expected = relay(cli(docs, *argv))
        assert run_tool(name, arguments, Settings(), backend, cwd=str(docs)) == expected, argv


def test_a_directory_expands_to_visible_markdown_files(docs: Path) -> None:
    spy = Spy()
    run_tool("mdsel_index", {"files": ["sub"]}, Settings(), spy, cwd=str(docs))
    [(_, _, paths, _, _)] = spy.calls
    # Shown as given (relative), read against the working directory.
    assert paths == (os.path.join("sub", "one.md"), os.path.join("sub", "two.MD"))


def test_refusals_do_not_stop_the_other_files(docs: Path) -> None:
    (docs / "link.md").symlink_to(docs / "notes.txt")
    os.mkfifo(docs / "x.md")
    arguments = {"files": ["link.md", "guide.md", "x.md", "notes.txt"]}
    result = run_tool("mdsel_index", arguments, Settings(), EmbeddedBackend(Settings()), str(docs))
    assert result.is_error
    body, *refusals = result.text.split("\n!")
    # Four files named, so selectors are qualified, as mdsel qualifies them.
    assert body.startswith("guide guide.md 11 lines 11 words; para 3\nguide::h1.0 Guide 1 11\n")
    # Each refusal where mdsel would print its file's problem: in file order.
    assert [line.split(" ", 2)[:2] for line in refusals] == [
        ["link.md", "PROCESSING_ERROR:"],
        ["x.md", "PROCESSING_ERROR:"],
        ["notes.txt", "PROCESSING_ERROR:"],
    ]


def test_a_refused_file_keeps_its_namespace_as_a_file_mdsel_cannot_read(docs: Path) -> None:
    # d/a/README.md points nowhere: refused by the server, unreadable for mdsel. Either way it
    # was named first, so `readme` is its namespace and d/b/README.md is `readme-2`.
    (docs / "d" / "a").mkdir(parents=True)
    (docs / "d" / "b").mkdir()
    (docs / "d" / "a" / "README.md").symlink_to(docs / "d" / "nowhere.md")
    (docs / "d" / "b" / "README.md").write_text("# Beta\n\nsmall text\n")
    backend = EmbeddedBackend(Settings())
    for selector in ("readme::h1.0", "readme-2::h1.0"):
        arguments = {"selector": selector, "files": ["d/a/README.md", "d/b/README.md"]}
        result = run_tool("mdsel_select", arguments, Settings(), backend, cwd=str(docs))
        argv = ["select", selector, "d/a/README.md", "d/b/README.md"]
        assert result.text == relay(cli(docs, *argv)).text, selector
    miss = run_tool(
        "mdsel_select", {"selector": "readme::h1.0", "files": ["d"]}, Settings(), backend, str(docs)
    )
    assert "small text" not in miss.text and "NAMESPACE_NOT_FOUND" in miss.text


def test_roots_confine_and_nothing_runs_when_nothing_is_accepted(
    docs: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    outside = tmp_path_factory.mktemp("outside")
    (outside / "secret.md").write_text("# Secret\n")
    spy = Spy()
    settings = Settings(roots=(os.path.realpath(docs),))
    result = run_tool("mdsel_index", {"files": [str(outside / "secret.md")]}, settings, spy)
    assert spy.calls == []
    assert result == ToolResult(
        f"!{outside / 'secret.md'} PROCESSING_ERROR: outside the directories allowed by "
        "MDSEL_ROOTS\n",
        True,
    )
    run_tool("mdsel_index", {"files": ["guide.md"]}, settings, spy, cwd=str(docs))
    assert len(spy.calls) == 1


def test_caps_warn_on_stdout_and_the_result_is_not_an_error(docs: Path) -> None:
    settings = Settings(engine=EngineSettings(max_files=1))
    result = run_tool(
        "mdsel_index", {"files": ["sub"]}, settings, EmbeddedBackend(settings), str(docs)
    )
    assert not result.is_error
    first, second = result.text.split("\n", 2)[:2]
    assert first.startswith("warning: only the first 1 files") and "MDSEL_MAX_FILES" in first
    assert second.startswith("1 lines")  # one document shown: no namespace or path
    assert result.text.endswith("\nh1.0 One 1 2\n")


def test_a_link_to_a_file_the_caps_left_out_is_a_miss_as_in_the_cli(tmp_path: Path) -> None:
    for folder, word in (("a", "alpha"), ("b", "beta")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "guide.md").write_text(f"# G\n\n## Setup\n\n{word}\n")
    settings = Settings(engine=EngineSettings(max_files=1))
    arguments = {"selector": "guide.md#setup", "files": ["a", "b"]}
    result = run_tool("mdsel_select", arguments, settings, EmbeddedBackend(settings), str(tmp_path))
    assert result.is_error and "alpha" not in result.text
    assert "the link also names b/guide.md, which this call did not read" in result.text
    expected = cli_run(
        ["select", "guide.md#setup", "a", "b"], {"MDSEL_MAX_FILES": "1"}, str(tmp_path)
    )
    assert result == relay(expected)


def test_json_mode_keeps_one_valid_envelope_with_the_refusals(docs: Path) -> None:
    settings = Settings(json=True)
    arguments = {"selector": "h2.0", "files": ["guide.md", "notes.txt"]}
    result = run_tool("mdsel_select", arguments, settings, EmbeddedBackend(settings), str(docs))
    body = json.loads(result.text)
    assert result.is_error and body["success"] is False
    assert body["data"]["matches"][0]["content"].startswith("## Install")
    assert [error["file"] for error in body["errors"]] == ["notes.txt"]


def test_an_unexpected_failure_is_a_tool_error(docs: Path) -> None:
    result = run_tool("mdsel_index", {"files": ["guide.md"]}, Settings(), Exploding(), str(docs))
    assert result.is_error
    assert result.text == "mdsel-claude: internal error in mdsel_index: RuntimeError: engine bug\n"


class Growing:
    """The embedded engine, with files growing between the server's expansion and its reads."""

    def __init__(self, settings: Settings, grow: dict[Path, bytes]) -> None:
        self.engine = EmbeddedBackend(settings)
        self.grow = grow

    def run(
        self,
        command: str,
        selector: str | None,
        paths: Sequence[str],
        problems: Sequence[Problem],
        warnings: Sequence[str],
        cwd: str | None = None,
        cancel: threading.Event | None = None,
        refused: Mapping[str, Problem] | None = None,
        left_out: Sequence[str] = (),
        progress: ReadProgress | None = None,
    ) -> Outcome:
        for path, data in self.grow.items():
            with path.open("ab") as handle:
                handle.write(data)
        return self.engine.run(
            command, selector, paths, problems, warnings, cwd, cancel, refused, left_out, progress
        )


def test_files_that_grow_after_expansion_stay_within_the_call_budget(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_bytes(b"# A\n\n" + b"alpha " * 65)
    (tmp_path / "b.md").write_bytes(b"# B\n\n" + b"beta " * 79)
    settings = Settings(engine=EngineSettings(max_total_bytes=1000, max_bytes=10_000))
    backend = Growing(settings, {tmp_path / "b.md": b"more " * 140})
    result = run_tool("mdsel_index", {"files": ["a.md", "b.md"]}, settings, backend, str(tmp_path))
    assert result.is_error
    assert "a::h1.0 A" in result.text and "b::h1.0" not in result.text
    assert (
        "!b.md PROCESSING_ERROR: grew past the 1000 bytes a call may read "
        "(MDSEL_MAX_TOTAL_BYTES) after it was listed; left out"
    ) in result.text


def test_a_cancelled_call_stops_and_says_so(docs: Path) -> None:
    cancel = threading.Event()
    cancel.set()
    settings = Settings()
    result = run_tool(
        "mdsel_index", {"files": ["."]}, settings, EmbeddedBackend(settings), str(docs), cancel
    )
    assert result == ToolResult("mdsel-claude: mdsel_index was cancelled\n", True)


def test_a_decoded_fragment_cannot_forge_lines_in_the_tool_result(docs: Path) -> None:
    backend = EmbeddedBackend(Settings())
    for selector in ("#x%0A~h2.0%1b[31m", "#x&#10;~h2.0", "guide.md#a%E2%80%AEb"):
        arguments = {"selector": selector, "files": ["guide.md"]}
        result = run_tool("mdsel_select", arguments, Settings(), backend, cwd=str(docs))
        assert result == relay(cli(docs, "select", selector, "guide.md"))
        assert result.is_error
        first, *rest = result.text.splitlines()
        assert first.startswith(f"!{selector} INVALID_SELECTOR: the anchor decodes to a control")
        assert all(line.isprintable() for line in (first, *rest))
        assert not {"~h2.0", "~h2.0%1b[31m", "~h2.0\x1b[31m"} & set(rest)  # no forged line


def test_many_long_missing_paths_stay_within_the_answer_budget(docs: Path) -> None:
    """Sixty missing paths of a thousand characters: problems past the answer's budget are
    counted, not shown; the first is always shown."""
    files = [f"{'d' * 990}{n:04}.md" for n in range(60)]
    settings = Settings()
    backend = EmbeddedBackend(settings)
    result = run_tool("mdsel_index", {"files": files}, settings, backend, str(docs))
    assert result.is_error
    budget = settings.engine.max_answer_tokens * 5 // 2
    assert len(result.text) < budget + 2000, len(result.text)
    assert result.text.count("FILE_NOT_FOUND") >= 1
    assert "more problems not shown (MDSEL_MAX_PROBLEMS)" in result.text


def test_a_deleted_working_directory_refuses_relative_paths_and_reads_absolute_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The server's directory removed under it (a worktree deleted, a clone redone): every
    # os.getcwd() fails. That is no internal error: absolute paths are still read, and a
    # relative one is refused with what to do.
    (tmp_path / "doc.md").write_text(DOC)
    absolute = str(tmp_path / "doc.md")
    expected = cli_run(["index", absolute], {}).stdout
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    settings = Settings()
    result = run_tool(
        "mdsel_select", {"selector": "h2.0", "files": ["doc.md", absolute]}, settings,
        EmbeddedBackend(settings),
    )  # fmt: skip
    assert result.is_error
    assert "internal error" not in result.text
    header = f"==> {absolute} h2.0 Guide › Install L5-7 <==\n"
    assert result.text.startswith(header + "## Install\n\nRun it.\n")
    assert "!doc.md PROCESSING_ERROR: is a relative path, and the server's working directory" in (
        result.text
    )
    alone = run_tool("mdsel_index", {"files": [absolute]}, settings, EmbeddedBackend(settings))
    assert alone == ToolResult(expected, False)


def test_a_full_answer_of_dense_text_is_cut_at_the_result_tokens(tmp_path: Path) -> None:
    """`full=true` on hashes or base64: within MDSEL_MAX_ANSWER_CHARS, yet far over what
    Claude Code shows the model (25,000 tokens); cut there, at a line, and saying so."""
    import base64

    lines = [base64.b64encode(bytes([n % 251]) * 60 + n.to_bytes(4, "big")).decode() for n in
             range(1000)]  # fmt: skip
    (tmp_path / "dense.md").write_text("# Keys\n\n" + "\n".join(lines) + "\n")
    settings = Settings()
    arguments = {"selector": "root?full=true", "files": ["dense.md"]}
    result = run_tool("mdsel_select", arguments, settings, EmbeddedBackend(settings), str(tmp_path))
    assert not result.is_error
    assert len(result.text) < settings.max_answer_chars
    last = result.text.rstrip("\n").rsplit("\n", 1)[-1]
    assert last.startswith("… answer cut at ") and "(MDSEL_MAX_RESULT_TOKENS)" in last
    assert estimated_tokens(result.text) <= settings.result_tokens
    assert count_tokens(result.text) <= 25_000
    # Each line shown is whole: the cut falls between lines.
    shown = result.text.split("<==\n", 1)[1].rsplit("\n… answer cut", 1)[0].splitlines()
    assert shown[0] == "# Keys" and all(line in lines for line in shown[2:])
    json_settings = Settings(json=True)
    body = run_tool(
        "mdsel_select", arguments, json_settings, EmbeddedBackend(json_settings), str(tmp_path)
    )
    assert body.is_error and "is over MDSEL_MAX_RESULT_TOKENS" in body.text


def test_a_cut_answer_still_says_why_the_call_failed(tmp_path: Path) -> None:
    (tmp_path / "long.md").write_text("# Long\n\n" + "".join(f"line {n}\n\n" for n in range(400)))
    settings = Settings(max_answer_chars=1000)
    arguments = {"selector": "root", "files": ["long.md", "missing.md"]}
    result = run_tool("mdsel_select", arguments, settings, EmbeddedBackend(settings), str(tmp_path))
    assert result.is_error and len(result.text) <= 1000
    assert "answer cut at" in result.text
    last = result.text.rstrip("\n").rsplit("\n", 1)[-1]  # after the cut notice
    assert last.startswith("!missing.md FILE_NOT_FOUND: ")
