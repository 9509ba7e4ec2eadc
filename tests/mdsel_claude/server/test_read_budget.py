"""Tests for server.read_budget: a call still reading when its time is up says so at once, its
reading goes on into the parse cache, and the same call asked again answers in full.

No test here measures time: parses are held at a gate the test opens, and the time for reading
is a millisecond, so which side of the deadline a call is on never depends on the machine.
"""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

import mdsel
from mdsel.cli import run as cli_run
from mdsel.tree import parse_document
from mdsel_claude.server.calls import ToolResult, run_tool, still_reading_answer
from mdsel_claude.server.config import Settings
from mdsel_claude.server.embedded import EmbeddedBackend
from mdsel_claude.server.read_budget import (
    MAX_READING_ON,
    Answered,
    ReadingOn,
    ReadProgress,
    Verdict,
    answer_in_time,
)

STILL_READING = re.compile(
    r"mdsel-claude: after [0-9.]+ s this call is still reading and parsing (\S+) \((.+?)\), "
    r"so nothing of it is shown yet\. Call again with the same arguments: the server goes on "
    r"reading and keeps what it parsed, so a later call answers from it \(MDSEL_MAX_READ_MS\)\.\n"
)


class Gate:
    """`mdsel.parse_document` held until `release` is set, counting the parses begun."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.release = threading.Event()
        self.parses = 0
        real = mdsel.parse_document

        def held(*args: Any, **kwargs: Any) -> mdsel.Document:
            self.parses += 1
            self.release.wait()
            return real(*args, **kwargs)

        monkeypatch.setattr(mdsel, "parse_document", held)


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    """A Gate, opened when the test ends whatever happened (a held worker would keep the
    interpreter from exiting)."""
    held = Gate(monkeypatch)
    try:
        yield held
    finally:
        held.release.set()


def ask(
    backend: EmbeddedBackend,
    settings: Settings,
    reading_on: ReadingOn,
    selector: str,
    files: list[str],
    cwd: Path,
    cancel: threading.Event | None = None,
) -> ToolResult:
    """One mdsel_select as the server runs it, with the settings' time for reading."""
    flag = threading.Event() if cancel is None else cancel
    arguments = {"selector": selector, "files": files}
    run = functools.partial(run_tool, "mdsel_select", arguments, settings, backend, str(cwd), flag)
    answer = functools.partial(still_reading_answer, json_mode=settings.json, command="select")

    async def main() -> ToolResult:
        return await answer_in_time(run, settings.read_seconds, reading_on, flag, answer)

    return anyio.run(main)


def wait_until_idle(reading_on: ReadingOn) -> None:
    """Until no call reads on (their threads are daemon-free workers: poll, bounded)."""
    for _ in range(6000):
        if reading_on.count == 0:
            return
        threading.Event().wait(0.01)
    raise AssertionError("a call still reads on a minute after its parse was released")


def test_a_call_still_reading_says_so_and_the_same_call_asked_again_answers_in_full(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gate: Gate
) -> None:
    (tmp_path / "guide.md").write_text("# Guide\n\nIntro.\n\n## Install\n\nRun it.\n")
    settings = Settings(max_read_ms=1)
    backend = EmbeddedBackend(settings)
    reading_on = ReadingOn()
    selected: list[str] = []
    real_select = mdsel.api.select

    def counted(request: str, *args: Any, **kwargs: Any) -> mdsel.SelectResult:
        selected.append(request)
        return real_select(request, *args, **kwargs)

    monkeypatch.setattr(mdsel.api, "select", counted)

    first = ask(backend, settings, reading_on, "h2", ["guide.md"], tmp_path)
    assert first.is_error
    found = STILL_READING.fullmatch(first.text)
    assert found is not None, first.text
    assert found.groups() == ("guide.md", "37 bytes")
    assert reading_on.count == 1  # its reading goes on

    gate.release.set()
    wait_until_idle(reading_on)
    assert backend.cache.count == 1  # what it read on is kept
    assert selected == []  # and no answer was built for a call that had answered

    again = ask(backend, settings, reading_on, "h2", ["guide.md"], tmp_path)
    assert gate.parses == 1
    assert selected == ["h2"]
    cli = cli_run(["select", "h2", "guide.md"], {}, str(tmp_path))
    assert (again.text, again.is_error) == (cli.stdout, False)


def test_many_files_say_which_one_is_being_read_and_how_far(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gate: Gate
) -> None:
    for name in ("a", "b", "c"):
        (tmp_path / f"{name}.md").write_text(f"# {name}\n")
    settings = Settings(max_read_ms=1)
    backend = EmbeddedBackend(settings)
    for name in ("a", "b"):  # the first two parsed already, past the gate
        backend.cache((tmp_path / f"{name}.md").read_bytes(), parse_document)
    reading_on = ReadingOn()
    answer = ask(backend, settings, reading_on, "h1", ["a.md", "b.md", "c.md"], tmp_path)
    found = STILL_READING.fullmatch(answer.text)
    assert found is not None, answer.text
    assert found.groups() == ("c.md", "file 3 of 3; 12 bytes read so far")
    gate.release.set()
    wait_until_idle(reading_on)


def test_past_the_calls_that_may_read_on_a_call_stops_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gate: Gate
) -> None:
    settings = Settings(max_read_ms=1)
    backend = EmbeddedBackend(settings)
    backend.cache  # noqa: B018 (the engine loaded before the gate replaces its parse)
    reading_on = ReadingOn()
    answers = []
    flags = []
    for number in range(MAX_READING_ON + 1):
        (tmp_path / f"d{number}.md").write_text(f"# Document {number}\n")  # each its own bytes
        flags.append(threading.Event())
        answers.append(
            ask(backend, settings, reading_on, "h1", [f"d{number}.md"], tmp_path, flags[-1])
        )
    assert all(STILL_READING.fullmatch(answer.text) for answer in answers[:-1])
    assert answers[-1].is_error
    assert answers[-1].text.endswith(
        f"The server is already reading on for {MAX_READING_ON} earlier calls, so this one "
        "stopped; call again in a few seconds, or with fewer or smaller files "
        "(MDSEL_MAX_READ_MS).\n"
    )
    assert [flag.is_set() for flag in flags] == [False] * MAX_READING_ON + [True]
    gate.release.set()
    wait_until_idle(reading_on)


def test_a_call_whose_documents_the_cache_cannot_keep_says_asking_again_cannot_help(
    tmp_path: Path, gate: Gate
) -> None:
    (tmp_path / "guide.md").write_text("# Guide\n\nIntro.\n")
    settings = Settings(max_read_ms=1, cache_bytes=1000)  # less than any parsed document
    backend = EmbeddedBackend(settings)
    reading_on = ReadingOn()
    first = ask(backend, settings, reading_on, "h1", ["guide.md"], tmp_path)
    assert STILL_READING.fullmatch(first.text), first.text
    gate.release.set()
    wait_until_idle(reading_on)
    assert backend.cache.count == 0
    gate.release.clear()  # the next parse is held again
    flag = threading.Event()
    again = ask(backend, settings, reading_on, "h1", ["guide.md"], tmp_path, flag)
    assert again.is_error
    assert re.fullmatch(
        r"mdsel-claude: after [0-9.]+ s this call is still reading and parsing guide.md "
        r"\(16 bytes\), so nothing of it is shown yet\. Its documents take [0-9.]+ KB parsed, "
        r"more than the server keeps between calls, so calling again cannot help: ask for "
        r"fewer files, or smaller ones \(MDSEL_MAX_READ_MS\)\.\n",
        again.text,
    ), again.text
    assert flag.is_set() and reading_on.count == 0  # it stops: reading on cannot help


def test_a_call_whose_reading_is_done_waits_for_its_answer() -> None:
    """Only reading is bounded: the answer of documents already parsed comes whole."""
    reading_on = ReadingOn()
    progress = ReadProgress(reading_on)
    release = threading.Event()

    def run(given: ReadProgress | None) -> ToolResult:
        assert given is progress
        release.wait()
        return ToolResult("the answer\n", False)

    progress.loaded()  # as the engine reports once every file is parsed
    # The answer is held until the call's time is surely up (the loop waits once it is).
    threading.Timer(0.05, release.set).start()

    async def main() -> ToolResult:
        answer = functools.partial(still_reading_answer, json_mode=False, command="select")
        return await answer_in_time(run, 0.001, reading_on, threading.Event(), answer, progress)

    assert anyio.run(main) == ToolResult("the answer\n", False)
    assert reading_on.count == 0


def test_what_becomes_of_a_call_answered_while_still_reading() -> None:
    reading_on = ReadingOn(limit=1)
    waiting = ReadProgress(reading_on)
    waiting.waiting(True)  # for another call's parse of the same bytes, which goes on
    assert waiting.answer_now() is Verdict.OTHERS_READ_ON
    assert reading_on.count == 0
    reading = ReadProgress(reading_on)
    assert reading.answer_now() is None  # listing or reading files: nothing kept, it goes on
    reading.parsing(True)
    assert reading.answer_now() is Verdict.READS_ON
    assert reading_on.count == 1
    other = ReadProgress(reading_on)
    other.parsing(True)
    assert other.answer_now() is Verdict.NO_ROOM
    with pytest.raises(Answered):
        reading.loaded()  # its files read: it stops before building an answer
    reading.ended()
    assert reading_on.count == 0
    done = ReadProgress(reading_on)
    done.loaded()
    assert done.answer_now() is None


def test_json_format_answers_an_error_envelope() -> None:
    result = still_reading_answer("after 2.0 s this call is still reading", True, "index")
    assert result.is_error
    assert json.loads(result.text) == {
        "success": False,
        "command": "index",
        "errors": [
            {
                "type": "PROCESSING_ERROR",
                "code": "STILL_READING",
                "message": "after 2.0 s this call is still reading",
            }
        ],
    }


def test_over_stdio_calls_asked_again_converge_on_the_cli_answer(tmp_path: Path) -> None:
    """A document no machine parses in a millisecond: the first answer says it is still being
    read, and asking again ends with exactly what the CLI prints."""
    (tmp_path / "big.md").write_bytes(b"# h\n" * 262_144)
    import mdsel_claude

    source = str(Path(mdsel_claude.__file__).parent.parent)  # this checkout
    env = {key: value for key, value in os.environ.items() if not key.startswith("MDSEL_")}
    env.update(PYTHONPATH=os.pathsep.join([source, env.get("PYTHONPATH", "")]))
    env["MDSEL_MAX_READ_MS"] = "1"
    process = subprocess.Popen(
        [sys.executable, "-m", "mdsel_claude", "serve"],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert process.stdin is not None and process.stdout is not None

    def send(body: dict[str, Any]) -> None:
        assert process.stdin is not None
        process.stdin.write(json.dumps(body).encode() + b"\n")
        process.stdin.flush()

    def answer() -> dict[str, Any]:
        assert process.stdout is not None
        found: dict[str, Any] = json.loads(process.stdout.readline())
        return found

    send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}})  # fmt: skip
    answer()
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    texts = []
    try:
        for number in range(1, 1001):
            arguments = {"selector": "h1.7", "files": ["big.md"]}
            params = {"name": "mdsel_select", "arguments": arguments}
            send({"jsonrpc": "2.0", "id": number, "method": "tools/call", "params": params})
            result = answer()["result"]
            texts.append((result["content"][0]["text"], result["isError"]))
            if not result["isError"]:
                break
            threading.Event().wait(0.02)
    finally:
        process.stdin.close()
        process.wait(timeout=60)
        process.stdout.close()
    assert STILL_READING.fullmatch(texts[0][0]), texts[0][0]
    assert all(STILL_READING.fullmatch(text) for text, _ in texts[:-1])
    cli = cli_run(["select", "h1.7", "big.md"], {}, str(tmp_path))
    assert texts[-1] == (cli.stdout, False)
