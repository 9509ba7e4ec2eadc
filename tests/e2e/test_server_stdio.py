"""The installed `mdsel-claude` server over real stdio, driven by the SDK's own client."""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.types import CallToolResult, TextContent

from mdsel_claude.server.calls import join_output
from mdsel_claude.server.tools import ANNOTATIONS, INSTRUCTIONS, TOOLS
from tests.answers import body
from tests.conftest import BIN, ROOT, corpus_files

SERVER = BIN / "mdsel-claude"
MDSEL = BIN / "mdsel"
SEED = ROOT / "tests" / "cases" / "tool_descriptions.md"
TIMESTAMP = re.compile(r'"timestamp": "[^"]*"')

GUIDE = """\
# Guide

Intro words for the guide.

## Install

Run the installer.

```sh
pip install thing
```

## Use

Call it like this.

### Options

| name | meaning |
|------|---------|
| a    | first   |

## Limits

> Quoted limits.
"""


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    root = tmp_path / "work"
    root.mkdir()
    (root / "guide.md").write_text(GUIDE, encoding="utf-8")
    (root / "notes.txt").write_text("plain text\n", encoding="utf-8")
    (root / "link.md").symlink_to(root / "notes.txt")
    (root / "API Guide.markdown").write_bytes(b"Title\r\n=====\r\n\r\nText.\r\n\r\n## Call\r\n")
    tree = root / "tree"
    (tree / "deep").mkdir(parents=True)
    (tree / "node_modules").mkdir()
    (tree / ".hidden").mkdir()
    (tree / "a.md").write_text("# A\n\nalpha\n")
    (tree / "deep" / "b.MD").write_text("# B\n\nbeta\n")
    (tree / ".secret.md").write_text("# Secret\n")
    (tree / "node_modules" / "dep.md").write_text("# Dep\n")
    (tree / ".hidden" / "h.md").write_text("# H\n")
    (tree / "skip.txt").write_text("not markdown\n")
    return root


@asynccontextmanager
async def connect(
    cwd: Path, env: dict[str, str] | None = None, args: Sequence[str] = ()
) -> AsyncIterator[ClientSession]:
    """A session with a freshly spawned server; its stderr must hold no traceback afterwards."""
    params = StdioServerParameters(command=str(SERVER), args=list(args), env=env or {}, cwd=cwd)
    log = cwd.parent / f"server-{os.getpid()}-{id(params)}.log"
    with log.open("w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session
    assert "Traceback" not in log.read_text()


def text_of(result: CallToolResult) -> str:
    assert result.structured_content is None
    assert len(result.content) == 1
    block = result.content[0]
    assert isinstance(block, TextContent)
    return block.text


async def call(
    session: ClientSession, name: str, arguments: dict[str, Any] | None
) -> tuple[str, bool]:
    result = await session.call_tool(name, arguments)
    return text_of(result), result.is_error


def cli(cwd: Path, *argv: str, env: dict[str, str] | None = None) -> tuple[str, bool]:
    """What the tool must answer: `mdsel` itself, stdout on success, else stdout then stderr."""
    clean = {key: value for key, value in os.environ.items() if not key.startswith("MDSEL_")}
    done = subprocess.run(
        [str(MDSEL), *argv], cwd=cwd, capture_output=True, env={**clean, **(env or {})}, check=False
    )
    stdout, stderr = done.stdout.decode(), done.stderr.decode()
    if done.returncode == 0:
        return stdout, False
    return join_output([stdout, stderr]), True


def seed_tools() -> dict[str, tuple[str, Any]]:
    """Seed 002's normative description and schema per tool, or tools.py when it is absent."""
    if not SEED.is_file():
        return {tool.name: (tool.description, tool.input_schema) for tool in TOOLS}
    found: dict[str, tuple[str, Any]] = {}
    text = SEED.read_text(encoding="utf-8")
    for section in re.split(r"^## Tool: ", text, flags=re.MULTILINE)[1:]:
        name = section.split("\n", 1)[0].strip()
        fences = re.findall(r"^```[a-z]*\n(.*?)\n```$", section, flags=re.MULTILINE | re.DOTALL)
        found[name] = (fences[0], json.loads(fences[1]))
    return found


# --- handshake and tool listing ----------------------------------------------------------------


@pytest.mark.anyio
@pytest.mark.parametrize("args", [(), ("serve",)], ids=["no-args", "serve"])
async def test_initialize_and_list_tools(docs: Path, args: tuple[str, ...]) -> None:
    async with connect(docs, args=args) as session:
        info = session.server_info
        assert info is not None and info.name == "mdsel-claude"
        capabilities = session.server_capabilities
        assert capabilities is not None and capabilities.tools is not None
        # The instructions travel in the initialize result, whole and under 2 KB.
        assert session.instructions == INSTRUCTIONS
        assert 0 < len(session.instructions.encode("utf-8")) < 2048
        listing = await session.list_tools()
    normative = seed_tools()
    assert [tool.name for tool in listing.tools] == ["mdsel_index", "mdsel_select"]
    for tool in listing.tools:
        description, schema = normative[tool.name]
        assert tool.description == description
        assert json.dumps(tool.input_schema, sort_keys=True) == json.dumps(schema, sort_keys=True)
        assert tool.output_schema is None
        assert tool.title
        assert tool.annotations is not None
        assert tool.annotations.read_only_hint is ANNOTATIONS["readOnlyHint"] is True
        assert tool.annotations.open_world_hint is ANNOTATIONS["openWorldHint"] is False


# --- relaying the engine -----------------------------------------------------------------------


CALLS: list[tuple[str, dict[str, Any], list[str]]] = [
    ("mdsel_index", {"files": ["guide.md"]}, ["index", "guide.md"]),
    (
        "mdsel_index",
        {"files": ["guide.md", "API Guide.markdown"]},
        ["index", "guide.md", "API Guide.markdown"],
    ),
    ("mdsel_index", {"files": ["tree"]}, ["index", "tree"]),
    ("mdsel_index", {"files": ["tree/**/*.md"]}, ["index", "tree/**/*.md"]),
    ("mdsel_index", {"files": ["missing.md", "guide.md"]}, ["index", "missing.md", "guide.md"]),
    ("mdsel_select", {"selector": "h2.0", "files": ["guide.md"]}, ["select", "h2.0", "guide.md"]),
    (
        "mdsel_select",
        {"selector": "h2.0/code.0", "files": ["guide.md"]},
        ["select", "h2.0/code.0", "guide.md"],
    ),
    (
        "mdsel_select",
        {"selector": "h2.0-2", "files": ["guide.md"]},
        ["select", "h2.0-2", "guide.md"],
    ),
    (
        "mdsel_select",
        {"selector": "h2.1?head=2", "files": ["guide.md"]},
        ["select", "h2.1?head=2", "guide.md"],
    ),
    (
        "mdsel_select",
        {"selector": "api_guide::h2.0", "files": ["guide.md", "API Guide.markdown"]},
        ["select", "api_guide::h2.0", "guide.md", "API Guide.markdown"],
    ),
    ("mdsel_select", {"selector": "h2.9", "files": ["guide.md"]}, ["select", "h2.9", "guide.md"]),
    (
        "mdsel_select",
        {"selector": "install", "files": ["guide.md"]},
        ["select", "install", "guide.md"],
    ),
    ("mdsel_select", {"selector": "h2.0#", "files": ["guide.md"]}, ["select", "h2.0#", "guide.md"]),
    ("mdsel_select", {"selector": "-h", "files": ["guide.md"]}, ["select", "--", "-h", "guide.md"]),
    (
        "mdsel_select",
        {"selector": "root", "files": ["API Guide.markdown"]},
        ["select", "root", "API Guide.markdown"],
    ),
]


@pytest.mark.anyio
async def test_index_and_select_relay_exactly_what_mdsel_prints(docs: Path) -> None:
    async with connect(docs) as session:
        for name, arguments, argv in CALLS:
            assert await call(session, name, arguments) == cli(docs, *argv), argv


@pytest.mark.anyio
async def test_real_world_corpus(docs: Path) -> None:
    async with connect(docs) as session:
        for path in corpus_files():
            calls: list[tuple[str, dict[str, Any], list[str]]] = [
                ("mdsel_index", {"files": [str(path)]}, ["index", str(path)]),
                (
                    "mdsel_select",
                    {"selector": "h2.0", "files": [str(path)]},
                    ["select", "h2.0", str(path)],
                ),
                (
                    "mdsel_select",
                    {"selector": "para.1,code.0", "files": [str(path)]},
                    ["select", "para.1,code.0", str(path)],
                ),
            ]
            for name, arguments, argv in calls:
                assert await call(session, name, arguments) == cli(docs, *argv), (path, argv)
        everything = [str(path) for path in corpus_files()]
        assert await call(session, "mdsel_index", {"files": everything}) == cli(
            docs, "index", *everything
        )


@pytest.mark.anyio
async def test_directory_argument_expands_to_visible_markdown(docs: Path) -> None:
    async with connect(docs) as session:
        text, is_error = await call(session, "mdsel_index", {"files": ["tree"]})
    assert not is_error
    headers = [line.split(" ")[1] for line in text.splitlines() if " lines " in line]
    assert headers == [os.path.join("tree", "a.md"), os.path.join("tree", "deep", "b.MD")]


@pytest.mark.anyio
async def test_per_call_caps_warn_and_go_on(docs: Path) -> None:
    async with connect(docs, env={"MDSEL_MAX_FILES": "1"}) as session:
        text, is_error = await call(session, "mdsel_index", {"files": ["tree"]})
    assert not is_error
    assert text.startswith("warning: only the first 1 files were read (MDSEL_MAX_FILES)")
    assert text == cli(docs, "index", "tree", env={"MDSEL_MAX_FILES": "1"})[0]


# --- argument errors ---------------------------------------------------------------------------


ARGUMENT_ERRORS: list[tuple[str, dict[str, Any] | None, str]] = [
    ("mdsel_index", None, "'files'"),
    ("mdsel_index", {}, "'files'"),
    ("mdsel_index", {"files": []}, "'files'"),
    ("mdsel_index", {"files": 3}, "'files'"),
    ("mdsel_index", {"files": [3]}, "'files[0]'"),
    ("mdsel_index", {"files": ["guide.md", ""]}, "'files[1]'"),
    ("mdsel_select", {"files": ["guide.md"]}, "'selector'"),
    ("mdsel_select", {"selector": "", "files": ["guide.md"]}, "'selector'"),
    ("mdsel_select", {"selector": "  ", "files": ["guide.md"]}, "'selector'"),
    ("mdsel_select", {"selector": 7, "files": ["guide.md"]}, "'selector'"),
    ("mdsel_select", {"selector": "h2.0"}, "'files'"),
    ("mdsel_select", {"selector": "h2.0", "files": {"0": "guide.md"}}, "'files'"),
    ("mdsel_read", {"files": ["guide.md"]}, "'mdsel_read'"),
]


@pytest.mark.anyio
async def test_argument_errors_are_tool_errors_naming_the_field(docs: Path) -> None:
    async with connect(docs) as session:
        for name, arguments, field in ARGUMENT_ERRORS:
            text, is_error = await call(session, name, arguments)
            assert is_error and field in text, (name, arguments, text)
        # Still serving after all of that.
        text, _ = await call(session, "mdsel_select", {"selector": "h2.0", "files": ["guide.md"]})
        assert body(text).startswith("## Install")


# --- the read policy ---------------------------------------------------------------------------


@pytest.mark.anyio
async def test_access_policy_refusals_do_not_stop_other_files(docs: Path) -> None:
    outside = docs.parent / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("# Secret\n\nkey\n")
    os.mkfifo(docs / "x.md")
    env = {"MDSEL_ROOTS": str(docs)}
    files = ["link.md", "guide.md", str(outside / "secret.md"), "x.md", "notes.txt", "tree"]
    async with connect(docs, env=env) as session:
        text, is_error = await call(session, "mdsel_index", {"files": files})
        only_refused, all_refused = await call(
            session, "mdsel_select", {"selector": "h1.0", "files": ["x.md", "link.md"]}
        )
    assert is_error and all_refused
    lines = text.splitlines()
    refusals = [line for line in lines if line.startswith("!")]
    assert refusals == [
        f"!link.md PROCESSING_ERROR: resolves to {os.path.realpath(docs / 'notes.txt')}, "
        "not a Markdown file name; only .md .markdown .mdx .mdown .mkd .mkdn files are read",
        f"!{outside / 'secret.md'} PROCESSING_ERROR: outside the directories allowed by "
        "MDSEL_ROOTS",
        "!x.md PROCESSING_ERROR: not a regular file (a FIFO); refused",
        "!notes.txt PROCESSING_ERROR: not a Markdown file name; only .md .markdown .mdx .mdown "
        ".mkd .mkdn files are read",
    ]
    # The accepted files are indexed as mdsel indexes them, before the refusals.
    expected = cli(docs, "index", "guide.md", "tree")[0]
    assert text == expected + "".join(line + "\n" for line in refusals)
    assert "secret" not in expected and "key" not in text
    assert only_refused.splitlines() == [
        "!x.md PROCESSING_ERROR: not a regular file (a FIFO); refused",
        refusals[0],
    ]


@pytest.mark.anyio
async def test_dash_never_reads_the_servers_own_stdin(docs: Path) -> None:
    # For the CLI `-` is standard input; for the server that is the MCP channel itself.
    async with connect(docs) as session:
        text, is_error = await call(session, "mdsel_index", {"files": ["-", "guide.md"]})
        again, _ = await call(session, "mdsel_index", {"files": ["guide.md"]})
    assert is_error
    assert text.splitlines()[-1].startswith("!- PROCESSING_ERROR: not a Markdown file name")
    # Two files named, as for mdsel: guide.md's outline, qualified.
    first, *outline = again.splitlines()
    assert text.startswith(f"guide guide.md {first}\n")
    assert "guide::h2.0 Install" in text and "  h2.0 Install 5 10" in outline


@pytest.mark.anyio
async def test_size_limit_refuses_large_files(docs: Path) -> None:
    (docs / "big.md").write_text("# Big\n\n" + "word " * 100 + "\n")
    async with connect(docs, env={"MDSEL_MAX_BYTES": "100"}) as session:
        text, is_error = await call(session, "mdsel_index", {"files": ["big.md"]})
    assert is_error and text.startswith("!big.md PROCESSING_ERROR: ")
    assert "MDSEL_MAX_BYTES" in text


# --- formats and backends ----------------------------------------------------------------------


@pytest.mark.anyio
async def test_json_format_relays_the_envelope(docs: Path) -> None:
    async with connect(docs, env={"MDSEL_FORMAT": "json"}) as session:
        index_text, index_error = await call(session, "mdsel_index", {"files": ["guide.md"]})
        select_text, select_error = await call(
            session, "mdsel_select", {"selector": "h2.1", "files": ["guide.md", "link.md"]}
        )
    assert not index_error
    index = json.loads(index_text)
    assert index["success"] is True and index["command"] == "index"
    assert index["data"]["documents"][0]["namespace"] == "guide"
    assert select_error
    selected = json.loads(select_text)
    assert selected["success"] is False
    assert selected["data"]["matches"][0]["content"].startswith("## Use")
    assert [(error["file"], error["type"]) for error in selected["errors"]] == [
        ("link.md", "PROCESSING_ERROR")
    ]


BACKEND_CALLS: list[tuple[str, dict[str, Any]]] = [
    *[(name, arguments) for name, arguments, _ in CALLS],
    # (A refused file is counted as named by the embedded engine only: see the next test.)
    ("mdsel_index", {"files": ["guide.md", "nothing*.md"]}),
    ("mdsel_select", {"selector": "h2.0", "files": ["notes.txt"]}),
    ("mdsel_select", {"selector": "h2.0,h9.9", "files": ["tree", "link.md"]}),
    ("mdsel_index", {"files": []}),
]


@pytest.mark.anyio
@pytest.mark.parametrize("output", ["text", "json"])
async def test_mdsel_bin_gives_the_same_results_as_the_embedded_engine(
    docs: Path, output: str
) -> None:
    answers: dict[str, list[tuple[str, bool]]] = {}
    for backend, extra in [("embedded", {}), ("external", {"MDSEL_BIN": str(MDSEL)})]:
        async with connect(docs, env={"MDSEL_FORMAT": output, **extra}) as session:
            answers[backend] = [
                (TIMESTAMP.sub('"timestamp": ""', text), is_error)
                for text, is_error in [
                    await call(session, name, arguments) for name, arguments in BACKEND_CALLS
                ]
            ]
    for number, (embedded, external) in enumerate(
        zip(answers["embedded"], answers["external"], strict=True)
    ):
        assert external == embedded, BACKEND_CALLS[number]
    if output == "json":
        for (text, _), (name, _) in zip(answers["embedded"], BACKEND_CALLS, strict=True):
            if name in ("mdsel_index", "mdsel_select") and text.startswith("{"):
                json.loads(text)


@pytest.mark.anyio
async def test_mdsel_bin_is_never_given_a_refused_file_so_it_numbers_without_it(
    docs: Path,
) -> None:
    # link.md is refused (it resolves to a .txt file). The embedded engine counts it as named,
    # as mdsel counts a file it cannot read; MDSEL_BIN never gets it (docs/server.md).
    arguments = {"files": ["link.md", "guide.md"]}
    answers = []
    for extra in ({}, {"MDSEL_BIN": str(MDSEL)}):
        async with connect(docs, env=extra) as session:
            answers.append(await call(session, "mdsel_index", arguments))
    (embedded, embedded_error), (external, external_error) = answers
    assert embedded_error and external_error
    assert embedded.startswith("guide guide.md 25 lines") and "guide::h2.0 Install" in embedded
    assert external.startswith("25 lines") and "\n  h2.0 Install" in external


# --- the parse cache ---------------------------------------------------------------------------


@pytest.mark.anyio
async def test_cache_is_never_stale(docs: Path) -> None:
    path = docs / "guide.md"
    arguments = {"selector": "h2.0", "files": ["guide.md"]}
    async with connect(docs) as session:
        before, _ = await call(session, "mdsel_select", arguments)
        stat = path.stat()
        changed = GUIDE.replace("Run the installer.", "Run the uploaders!")
        assert len(changed) == len(GUIDE)
        path.write_text(changed, encoding="utf-8")
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
        after_stat = path.stat()
        assert (after_stat.st_size, after_stat.st_mtime_ns) == (stat.st_size, stat.st_mtime_ns)
        after, _ = await call(session, "mdsel_select", arguments)
        # And back again: the first tree is still right for the first bytes.
        path.write_text(GUIDE, encoding="utf-8")
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
        again, _ = await call(session, "mdsel_select", arguments)
    assert "Run the installer." in before and "Run the uploaders!" in after
    assert again == before


# --- concurrency -------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_200_concurrent_requests_on_one_session(docs: Path) -> None:
    sections = [cli(docs, "select", f"h2.{n}", "guide.md")[0] for n in range(3)]
    unresolved = cli(docs, "select", "h2.9", "guide.md")
    index = cli(docs, "index", "tree")[0]
    cases: list[tuple[str, dict[str, Any] | None, str | None, bool]] = []
    for n in range(200):
        kind = n % 8
        if kind in (0, 1, 2):
            cases.append(
                (
                    "mdsel_select",
                    {"selector": f"h2.{kind}", "files": ["guide.md"]},
                    sections[kind],
                    False,
                )
            )
        elif kind == 3:
            cases.append(("mdsel_index", {"files": ["tree"]}, index, False))
        elif kind == 4:
            cases.append(("mdsel_select", {"selector": "h2.9", "files": ["guide.md"]}, *unresolved))
        elif kind == 5:
            cases.append(("mdsel_select", {"selector": "", "files": ["guide.md"]}, None, True))
        elif kind == 6:
            cases.append(("mdsel_unknown", {}, None, True))
        else:
            cases.append(("mdsel_index", {"files": ["link.md"]}, None, True))
    answers: list[tuple[str, bool] | None] = [None] * len(cases)

    async with connect(docs) as session:

        async def one(position: int) -> None:
            name, arguments, _, _ = cases[position]
            answers[position] = await call(session, name, arguments)

        async with anyio.create_task_group() as group:
            for position in range(len(cases)):
                group.start_soon(one, position)
        listing = await session.list_tools()
    assert len(listing.tools) == 2
    for (name, arguments, expected_text, expected_error), answer in zip(
        cases, answers, strict=True
    ):
        assert answer is not None
        text, is_error = answer
        assert is_error is expected_error, (name, arguments, text)
        if expected_text is not None:
            assert text == expected_text
        elif name == "mdsel_unknown":
            assert "'mdsel_unknown'" in text
        elif name == "mdsel_select":
            assert "'selector'" in text
        else:
            assert text.startswith("!link.md PROCESSING_ERROR")


# --- process-level behaviour -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("MDSEL_FORMAT", "yaml"),
        ("MDSEL_PAGE_WORDS", "many"),
        ("MDSEL_MAX_FILES", "0"),
        ("MDSEL_ROOTS", "/no/such/dir"),
        ("MDSEL_BIN", "/no/such/mdsel"),
    ],
)
def test_invalid_configuration_stops_the_server_at_start(
    docs: Path, variable: str, value: str
) -> None:
    done = subprocess.run(
        [str(SERVER)],
        cwd=docs,
        env={"PATH": os.environ.get("PATH", ""), variable: value},
        stdin=subprocess.PIPE,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert done.stdout == b""
    assert variable.encode() in done.stderr


def _rpc(number: int, method: str, params: dict[str, Any] | None = None) -> bytes:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": number, "method": method}
    if params is not None:
        message["params"] = params
    return (json.dumps(message) + "\n").encode()


def test_stdout_carries_only_protocol_messages_and_no_structured_content(docs: Path) -> None:
    calls = [
        {"name": "mdsel_index", "arguments": {"files": ["guide.md", "tree", "link.md"]}},
        {"name": "mdsel_select", "arguments": {"selector": "h2.0,h2.9", "files": ["guide.md"]}},
        {"name": "mdsel_select", "arguments": {"selector": "h2.1", "files": ["guide.md"]}},
        {"name": "mdsel_select", "arguments": {"files": ["guide.md"]}},
        {"name": "nope", "arguments": {}},
    ]
    initialize = {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"},
    }
    process = subprocess.Popen(
        [str(SERVER)],
        cwd=docs,
        env={"PATH": os.environ.get("PATH", "")},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(_rpc(1, "initialize", initialize))
        process.stdin.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
        process.stdin.write(_rpc(2, "tools/list"))
        for number, params in enumerate(calls, start=3):
            process.stdin.write(_rpc(number, "tools/call", params))
        process.stdin.flush()
        pending = set(range(1, 3 + len(calls)))
        lines: list[bytes] = []
        while pending:
            line = process.stdout.readline()
            assert line, "server closed stdout early"
            lines.append(line)
            message = json.loads(line)
            assert message["jsonrpc"] == "2.0"
            if "id" in message:
                pending.discard(message["id"])
        process.stdin.close()
        assert process.wait(timeout=30) == 0
        assert process.stdout.read() == b""
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stdout.close()
        assert process.stderr is not None
        stderr = process.stderr.read()
        process.stderr.close()
    wire = b"".join(lines)
    assert b"structuredContent" not in wire and b"outputSchema" not in wire
    assert b"Traceback" not in stderr
    results = {json.loads(line)["id"]: json.loads(line) for line in lines}
    assert all("result" in results[number] for number in results)
    assert [results[n]["result"]["isError"] for n in range(3, 3 + len(calls))] == [
        True,
        True,
        False,
        True,
        True,
    ]
