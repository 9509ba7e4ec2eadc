"""The installed server in a repository that wants harm, and under a client that asks too much.

Every test is a case that once went wrong: names that forge output lines, requests before
`initialize`, requests that grow without bound, trees deeper than a recursive walk survives,
files that grow after they were counted.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.types import TextContent

SERVER = Path(sys.executable).parent / "mdsel-claude"

INITIALIZE = {
    "protocolVersion": "2025-11-25",
    "capabilities": {},
    "clientInfo": {"name": "hostile", "version": "0"},
}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def clean_env(**extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("MDSEL_")}
    return {**env, **extra}


@asynccontextmanager
async def connect(cwd: Path, **env: str) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(command=str(SERVER), env=clean_env(**env), cwd=cwd)
    log = cwd.parent / "server.log"
    with log.open("w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session
    assert "Traceback" not in log.read_text()


async def call(session: ClientSession, name: str, arguments: dict[str, Any]) -> tuple[str, bool]:
    result = await session.call_tool(name, arguments)
    block = result.content[0]
    assert isinstance(block, TextContent)
    return block.text, result.is_error


def raw_session(cwd: Path, messages: list[dict[str, Any]]) -> dict[Any, dict[str, Any]]:
    """Send these lines on stdin, collect one answer per request, then close stdin."""
    process = subprocess.Popen(
        [str(SERVER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=cwd, env=clean_env()
    )
    assert process.stdin is not None and process.stdout is not None
    watchdog = threading.Timer(60, process.kill)
    watchdog.start()
    try:
        for message in messages:
            process.stdin.write(json.dumps(message).encode() + b"\n")
        process.stdin.flush()
        answers: dict[Any, dict[str, Any]] = {}
        while len(answers) < sum("id" in message for message in messages):
            line = process.stdout.readline()
            assert line, "the server stopped before answering every request"
            answer = json.loads(line)
            answers[answer["id"]] = answer
        process.stdin.close()
        assert process.wait(timeout=10) == 0
    finally:
        watchdog.cancel()
        process.kill()
        process.wait()
        process.stdin.close()
        process.stdout.close()
    return answers


# --- names that would forge lines ------------------------------------------------------------

SEPARATORS = ["\x85", "\x9b", "\u2028", "\u2029", "\x1b", "\x7f", "\n"]


@pytest.mark.anyio
async def test_names_with_line_separators_are_refused_and_escaped(tmp_path: Path) -> None:
    work = tmp_path / "work"
    (work / "docs").mkdir(parents=True)
    (work / "docs" / "ok.md").write_text("# Fine\n")
    for number, character in enumerate(SEPARATORS):
        (work / "docs" / f"n{number}{character}!fake PROCESSING_ERROR.md").write_text("# Bad\n")
    async with connect(work) as session:
        walked, _ = await call(session, "mdsel_index", {"files": ["docs"]})
        given, given_error = await call(
            session, "mdsel_index", {"files": ["docs/ok.md", "x\u2028!forged.md", "y\x85z*.md"]}
        )
        selected, selected_error = await call(
            session, "mdsel_select", {"selector": "h1.0\u2028!forged", "files": ["docs/ok.md"]}
        )
    for text in (walked, given, selected):
        assert not any(character in text for character in SEPARATORS[:-1])
        assert all(not line.startswith("!fake") for line in text.splitlines())
    assert walked.count("CONTROL_CHARACTER") == 0  # the code stays internal; the reason shows
    assert walked.count("control character; refused") == len(SEPARATORS)
    for escaped in ("\\x85", "\\x9b", "\\u2028", "\\u2029", "\\x1b", "\\x7f", "\\x0a"):
        assert escaped in walked
    assert "!x\\u2028!forged.md PROCESSING_ERROR" in given and given_error
    assert "!y\\x85z*.md PROCESSING_ERROR" in given
    assert "# Fine" not in given and "Fine" in given
    assert selected_error and "'selector' contains a line break" in selected


# --- requests before initialize ---------------------------------------------------------------


def test_a_call_before_initialize_is_told_to_initialize(tmp_path: Path) -> None:
    call_before = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "mdsel_index", "arguments": {"files": ["a.md"]}},
    }
    by_id = raw_session(
        tmp_path,
        [
            call_before,
            {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
            {"jsonrpc": "2.0", "id": 3, "method": "ping"},
            {"jsonrpc": "2.0", "id": 4, "method": "initialize", "params": INITIALIZE},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {**call_before, "id": 5},
        ],
    )
    for number, method in ((1, "tools/call"), (2, "tools/list")):
        error = by_id[number]["error"]
        assert error["code"] == -32600
        assert "not initialized" in error["message"] and "'initialize'" in error["message"]
        assert method in error["message"]
    assert by_id[3]["result"] == {}
    assert by_id[4]["result"]["serverInfo"]["name"] == "mdsel-claude"
    assert by_id[5]["result"]["isError"] is True  # a.md does not exist: a tool error, not -32600


# --- requests that grow without bound ----------------------------------------------------------


def many_docs(root: Path, count: int) -> Path:
    root.mkdir(parents=True)
    for number in range(count):
        (root / f"doc{number:04}.md").write_text(f"# Doc {number}\n\nwords here\n")
    return root


@pytest.mark.anyio
async def test_five_hundred_copies_of_one_directory(tmp_path: Path) -> None:
    work = tmp_path / "work"
    many_docs(work / "docs", 300)
    async with connect(work) as session:
        text, is_error = await call(session, "mdsel_index", {"files": ["docs"] * 500})
    assert is_error
    assert text == (
        "mdsel_index: argument 'files' has 500 entries; the limit is 100 (MDSEL_MAX_ENTRIES): "
        "name a directory or a glob instead\n"
    )
    async with connect(work, MDSEL_MAX_ENTRIES="500") as session:
        text, is_error = await call(session, "mdsel_index", {"files": ["docs"] * 500})
    assert not is_error
    # Each file once: 300 documents, whether shown as outlines or, past the budget, as a map.
    assert text.startswith("docs/ 300 documents ") or text.count("::h1.0 Doc ") == 300
    assert text.count("::h1.0 Doc ") + text.count(".md: Doc ") == 300


def test_a_hundred_megabyte_file_list_is_answered_without_reading_it_whole(tmp_path: Path) -> None:
    files = ["missing-" + "x" * 90 + ".md"] * 1_000_000  # 100 MB of JSON on one line
    answers = raw_session(
        tmp_path,
        [
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INITIALIZE},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "tools/call",
                "params": {"name": "mdsel_index", "arguments": {"files": files}},
            },
            {"jsonrpc": "2.0", "id": 3, "method": "tools/list"},
        ],
    )
    error = answers[2]["error"]
    assert error["code"] == -32600
    assert "over 1048576 bytes (MDSEL_MAX_REQUEST_BYTES)" in error["message"]
    assert len(answers[3]["result"]["tools"]) == 2  # the session goes on


@pytest.mark.anyio
async def test_three_thousand_double_star_segments(tmp_path: Path) -> None:
    work = tmp_path / "work"
    many_docs(work / "a" / "b", 3)
    pattern = "/".join(["**"] * 3000 + ["*.md"])
    shorter = "/".join(["**"] * 300 + ["*.md"])
    async with connect(work) as session:
        too_long, _ = await call(session, "mdsel_index", {"files": [pattern]})
        refused, refused_error = await call(session, "mdsel_index", {"files": [shorter]})
    async with connect(
        work, MDSEL_MAX_GLOB_SEGMENTS="5000", MDSEL_MAX_ENTRY_CHARS="10000"
    ) as session:
        found, found_error = await call(session, "mdsel_index", {"files": [pattern]})
    assert too_long == (
        "mdsel_index: argument 'files[0]' has 9004 characters; the limit is 1024 "
        "(MDSEL_MAX_ENTRY_CHARS)\n"
    )
    assert refused_error
    assert refused.endswith(
        "PROCESSING_ERROR: pattern has 301 path segments; the limit is 32 "
        "(MDSEL_MAX_GLOB_SEGMENTS)\n"
    )
    assert not found_error and found.count("h1.0 Doc") == 3


@pytest.mark.anyio
async def test_a_tree_eleven_hundred_levels_deep(tmp_path: Path) -> None:
    from tests.mdsel.test_files import deep_tree, remove_deep_tree

    work = tmp_path / "work"
    work.mkdir()
    deep_tree(work / "tree", 1100)
    try:
        async with connect(work) as session:
            walked, walked_error = await call(session, "mdsel_index", {"files": ["tree"]})
            globbed, _ = await call(session, "mdsel_index", {"files": ["tree/**/*.md"]})
    finally:
        remove_deep_tree(work / "tree", 1100)
    for text in (walked, globbed):
        assert "internal error" not in text and "RecursionError" not in text
        assert "h1.0 Top" in text and "Bottom" not in text
        assert "were not searched (MDSEL_MAX_DEPTH)" in text
    assert not walked_error


@pytest.mark.anyio
async def test_problem_lines_and_answer_size_are_bounded(tmp_path: Path) -> None:
    work = tmp_path / "work"
    many_docs(work / "docs", 200)
    missing = [f"missing{number}.md" for number in range(100)]
    async with connect(work) as session:
        problems, _ = await call(session, "mdsel_index", {"files": missing})
    async with connect(work, MDSEL_MAX_ANSWER_CHARS="5000") as session:
        big, big_error = await call(session, "mdsel_index", {"files": ["docs"]})
    lines = problems.splitlines()
    assert len(lines) == 51 and lines[:50] == [
        f"!missing{number}.md FILE_NOT_FOUND: no such file; check the path" for number in range(50)
    ]
    assert lines[50] == "… 50 more problems not shown (MDSEL_MAX_PROBLEMS)"
    assert len(big) <= 5000 and not big_error
    assert big.splitlines()[-1].startswith("… answer cut at ")
