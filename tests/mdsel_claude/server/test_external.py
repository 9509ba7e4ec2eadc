"""Tests for server.external: the MDSEL_BIN command line, its output relayed, its reports."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import pytest

from mdsel.results import Outcome
from mdsel_claude.server.external import ExternalBackend, add_reports, external_argv
from mdsel_claude.server.reader import Cancelled
from tests.mdsel_claude.server.conftest import problems


def test_argv_puts_options_before_the_separator() -> None:
    assert external_argv("/x/mdsel", "index", None, ["a.md", "-b.md"], json=False) == [
        "/x/mdsel",
        "index",
        "--",
        "a.md",
        "-b.md",
    ]
    assert external_argv("/x/mdsel", "select", "-h", ["a.md"], json=True) == [
        "/x/mdsel",
        "select",
        "--json",
        "--",
        "-h",
        "a.md",
    ]


def test_external_runs_without_shell_or_stdin(
    fake_mdsel: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("MDSEL_PAGE_WORDS", "77")
    monkeypatch.chdir(tmp_path)
    selector = "h2.0; echo $HOME `id` > pwned"
    outcome = ExternalBackend(fake_mdsel, json=False).execute(
        "select", selector, ["a b.md", "*.md"]
    )
    assert outcome.exit_code == 0 and outcome.stderr == ""
    report = json.loads(outcome.stdout)
    assert report["argv"] == ["select", "--", selector, "a b.md", "*.md"]
    assert report["stdin"] == ""
    assert report["cwd"] == os.getcwd()
    assert report["page_words"] == "77"  # the MDSEL_* environment is inherited
    assert report["encoding"].lower().replace("-", "") == "utf8"
    assert not (tmp_path / "pwned").exists()


def test_external_relays_failure_verbatim(fake_mdsel: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_MDSEL", "fail")
    outcome = ExternalBackend(fake_mdsel, json=True).execute("select", "h9.9", ["a.md"])
    assert outcome == Outcome("partial\n", "!h9.9 SELECTOR_NOT_FOUND: nope\n", 1)


def test_external_output_keeps_line_endings_and_never_fails_to_decode(
    fake_mdsel: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_MDSEL", "crlf")
    outcome = ExternalBackend(fake_mdsel, json=False).execute("index", None, ["a.md"])
    # Undecodable bytes are kept (as surrogates, like the engine's own file names) and become
    # escapes where the server writes the answer.
    assert outcome.stdout == "caf\u00e9\r\nline\r\n\udcff"
    from mdsel_claude.server.app import printable

    assert printable(outcome.stdout) == "caf\u00e9\r\nline\r\n\\xff"


def test_external_killed_by_a_signal_is_an_error_that_says_so(
    fake_mdsel: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_MDSEL", "kill")
    outcome = ExternalBackend(fake_mdsel, json=False).execute("index", None, ["a.md"])
    assert outcome.exit_code == 1 and "SIGKILL" in outcome.stderr


def test_external_timeout(fake_mdsel: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_MDSEL", "hang")
    outcome = ExternalBackend(fake_mdsel, json=False, timeout=0.5).execute("index", None, ["a.md"])
    assert outcome.exit_code == 1 and "did not finish" in outcome.stderr


def test_external_that_cannot_start(tmp_path: Path) -> None:
    outcome = ExternalBackend(str(tmp_path / "gone"), json=False).execute("index", None, ["a.md"])
    assert outcome.exit_code == 1 and "cannot run" in outcome.stderr and outcome.stdout == ""


def test_add_reports_leaves_a_clean_run_alone() -> None:
    outcome = Outcome("out", "err", 1)
    assert add_reports(outcome, [], [], json_mode=True) is outcome


def test_add_reports_falls_back_to_text_when_stdout_is_not_an_envelope() -> None:
    merged = add_reports(Outcome("plain\n", "", 0), problems()[:1], ["w"], json_mode=True)
    assert merged == Outcome("w\nplain\n", "!x.txt PROCESSING_ERROR: not a Markdown file name\n", 1)


def test_external_is_killed_when_the_call_is_cancelled(
    fake_mdsel: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_MDSEL", "hang")
    cancel = threading.Event()
    threading.Timer(0.3, cancel.set).start()
    started = time.monotonic()
    with pytest.raises(Cancelled):
        ExternalBackend(fake_mdsel, json=False).execute("index", None, ["a.md"], cancel=cancel)
    assert time.monotonic() - started < 30  # the hanging child did not run its 60 s
