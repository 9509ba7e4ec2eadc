"""Tests for server.backend: the MDSEL_BIN command line and relay, and the backend choice."""

from __future__ import annotations

import json
import os
import re
import stat
import sys
import threading
import time
from pathlib import Path

import pytest

from mdsel import Problem
from mdsel.results import Outcome
from mdsel_claude.server.backend import (
    EmbeddedBackend,
    ExternalBackend,
    add_reports,
    external_argv,
    make_backend,
    report_only,
)
from mdsel_claude.server.config import Settings
from mdsel_claude.server.reader import Cancelled

# A stand-in for an external mdsel: reports what it was given, prints what it is told to.
FAKE = """\
import json, os, sys
args = sys.argv[1:]
report = {"argv": args, "stdin": sys.stdin.read(), "cwd": os.getcwd(),
          "page_words": os.environ.get("MDSEL_PAGE_WORDS"), "encoding": sys.stdout.encoding}
behaviour = os.environ.get("FAKE_MDSEL", "report")
if behaviour == "report":
    sys.stdout.write(json.dumps(report) + "\\n")
elif behaviour == "fail":
    sys.stdout.write("partial\\n")
    sys.stderr.write("!h9.9 SELECTOR_NOT_FOUND: nope\\n")
    sys.exit(1)
elif behaviour == "crlf":
    sys.stdout.buffer.write("caf\\u00e9\\r\\nline\\r\\n".encode() + b"\\xff")
elif behaviour == "kill":
    os.kill(os.getpid(), 9)
elif behaviour == "hang":
    import time
    time.sleep(60)
"""


@pytest.fixture
def fake_mdsel(tmp_path: Path) -> str:
    script = tmp_path / "fake-mdsel"
    script.write_text(f"#!{sys.executable}\n{FAKE}")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script)


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


def test_backend_choice(fake_mdsel: str) -> None:
    assert isinstance(make_backend(Settings()), EmbeddedBackend)
    external = make_backend(Settings(bin=fake_mdsel, json=True))
    assert isinstance(external, ExternalBackend)
    assert (external.executable, external.json) == (fake_mdsel, True)


# The real engine, both ways: in process, and as this project's own `mdsel` executable.

MDSEL = Path(sys.executable).with_name("mdsel")
TIMESTAMP = re.compile(r'"timestamp": "[^"]*"')

DOC_A = (
    "# Guide\n\nIntro words here.\n\n## Install\n\nRun it.\n\n"
    "```sh\npip install x\n```\n\n## Use\n\nCall it.\n"
)
DOC_B = "Title\n=====\n\nSome text.\r\n\r\n## Other\r\n\r\n- one\r\n- two\r\n"


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "guide.md").write_text(DOC_A, encoding="utf-8")
    (tmp_path / "b.markdown").write_bytes(DOC_B.encode())
    (tmp_path / "bad.md").write_bytes(b"# Bad\n\xff\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _problems() -> list[Problem]:
    return [
        Problem("PROCESSING_ERROR", "NOT_MARKDOWN", "not a Markdown file name", file="x.txt"),
        Problem("FILE_NOT_FOUND", "NO_MATCH", "no file matches this pattern", file="*.mdx"),
    ]


CASES = [
    ("index", None, ["guide.md"]),
    ("index", None, ["guide.md", "b.markdown"]),
    ("index", None, ["guide.md", "bad.md"]),
    ("select", "h2.0", ["guide.md"]),
    ("select", "h2.0/code.0,h2.1", ["guide.md"]),
    ("select", "h2.9", ["guide.md"]),
    ("select", "h2.0?bogus=1", ["guide.md"]),
    ("select", "b::h2.0", ["guide.md", "b.markdown"]),
    ("select", "-h", ["guide.md"]),
]


@pytest.mark.parametrize("json_mode", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("reports", [False, True], ids=["plain", "with-reports"])
@pytest.mark.parametrize(("command", "selector", "paths"), CASES)
def test_external_own_mdsel_equals_embedded(
    workdir: Path,
    command: str,
    selector: str | None,
    paths: list[str],
    json_mode: bool,
    reports: bool,
) -> None:
    settings = Settings(json=json_mode)
    problems = _problems() if reports else []
    warnings = ["warning: only the first 2 files were read (MDSEL_MAX_FILES)"] if reports else []
    embedded = EmbeddedBackend(settings).run(command, selector, paths, problems, warnings)
    external = ExternalBackend(str(MDSEL), json_mode).run(
        command, selector, paths, problems, warnings
    )
    assert external.exit_code == embedded.exit_code
    assert TIMESTAMP.sub("", external.stdout) == TIMESTAMP.sub("", embedded.stdout)
    assert external.stderr == embedded.stderr
    if json_mode:
        body = json.loads(embedded.stdout)
        assert embedded.stderr == ""
        assert body["success"] is (embedded.exit_code == 0)


def test_add_reports_leaves_a_clean_run_alone() -> None:
    outcome = Outcome("out", "err", 1)
    assert add_reports(outcome, [], [], json_mode=True) is outcome


def test_add_reports_falls_back_to_text_when_stdout_is_not_an_envelope() -> None:
    merged = add_reports(Outcome("plain\n", "", 0), _problems()[:1], ["w"], json_mode=True)
    assert merged == Outcome("w\nplain\n", "!x.txt PROCESSING_ERROR: not a Markdown file name\n", 1)


def test_embedded_parses_each_content_once(workdir: Path) -> None:
    backend = EmbeddedBackend(Settings())
    first = backend.run("select", "h2.0", ["guide.md"], [], [])
    second = backend.run("select", "h2.1", ["guide.md"], [], [])
    assert (first.exit_code, second.exit_code) == (0, 0)
    assert (backend.cache.misses, backend.cache.hits) == (1, 1)
    (workdir / "guide.md").write_text(DOC_A.replace("Run it.", "Run on."), encoding="utf-8")
    third = backend.run("select", "h2.0", ["guide.md"], [], [])
    assert "Run on." in third.stdout and backend.cache.misses == 2


def test_report_only_reads_nothing(workdir: Path) -> None:
    outcome = report_only("select", "h2.0", _problems(), [], Settings())
    assert outcome.stdout == "" and outcome.exit_code == 1
    assert outcome.stderr.splitlines() == [
        "!x.txt PROCESSING_ERROR: not a Markdown file name",
        "!*.mdx FILE_NOT_FOUND: no file matches this pattern",
    ]


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


def test_embedded_parsing_stops_at_a_checkpoint_once_cancelled(tmp_path: Path) -> None:
    (tmp_path / "big.md").write_text("## Part\n\n- a\n- b\n\n" * 20_000)
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        EmbeddedBackend(Settings()).run("index", None, ["big.md"], (), (), str(tmp_path), cancel)


def test_embedded_cache_counts_parsed_trees(workdir: Path) -> None:
    import mdsel

    backend = EmbeddedBackend(Settings())
    assert backend.run("index", None, ["guide.md"], [], []).exit_code == 0
    document = mdsel.parse_document((workdir / "guide.md").read_bytes())
    assert backend.cache.size_bytes == document.resident_bytes()
    assert backend.cache.size_bytes > 2 * len(document.data)


def test_embedded_block_limit(workdir: Path) -> None:
    backend = EmbeddedBackend(Settings(max_blocks=2))
    outcome = backend.run("index", None, ["guide.md"], [], [])
    assert outcome.exit_code == 1
    assert "PARSE_ERROR: more than 2 blocks and headings" in outcome.stderr
    assert "MDSEL_MAX_BLOCKS" in outcome.stderr
