"""The installed server over real stdio answers a file rewritten again and again with what was just
written: same size, same inode or a new one, within one second or after the file sat unchanged."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.types import TextContent

from mdsel_claude.server.freshness import RACY_NS
from tests.answers import body
from tests.conftest import BIN

SERVER = BIN / "mdsel-claude"
REWRITES = 150


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def version(number: int) -> bytes:
    return b"# Version %06d\n\nSame size every time.\n" % number


async def title(session: ClientSession) -> str:
    result = await session.call_tool("mdsel_select", {"selector": "h1.0", "files": ["notes.md"]})
    assert not result.is_error
    [block] = result.content
    assert isinstance(block, TextContent)
    return body(block.text).split("\n", 1)[0]  # the first line of the file, below the header


@asynccontextmanager
async def serving(folder: Path) -> AsyncIterator[ClientSession]:
    """An initialized session with the installed server working in `folder`; its stderr goes
    to folder/server.log, which must hold no traceback when the session ends."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("MDSEL_")}
    params = StdioServerParameters(command=str(SERVER), args=["serve"], env=env, cwd=folder)
    with (folder / "server.log").open("w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session
    assert "Traceback" not in (folder / "server.log").read_text()


@pytest.mark.anyio
async def test_every_answer_is_the_content_just_written(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_bytes(version(0))
    async with serving(tmp_path) as session:
        for number in range(REWRITES):  # in place: same inode, same size
            with path.open("r+b") as handle:
                handle.write(version(number))
            assert await title(session) == f"# Version {number:06d}", number
        spare = tmp_path / "notes.md.new"
        for number in range(REWRITES, 2 * REWRITES):  # an editor's atomic save
            spare.write_bytes(version(number))
            os.replace(spare, path)
            assert await title(session) == f"# Version {number:06d}", number
        # Left alone past the racy window, the file is answered from its signature...
        await anyio.sleep(RACY_NS / 1e9 + 0.5)
        for _ in range(3):
            assert await title(session) == f"# Version {2 * REWRITES - 1:06d}"
        # ...until it changes, even at the same size, in place, and straight after.
        for number in range(2 * REWRITES, 2 * REWRITES + 20):
            with path.open("r+b") as handle:
                handle.write(version(number))
            assert await title(session) == f"# Version {number:06d}", number


async def searched(session: ClientSession, words: str) -> str:
    result = await session.call_tool("mdsel_select", {"selector": f"?q={words}", "files": ["."]})
    [block] = result.content
    assert isinstance(block, TextContent)
    return block.text


@pytest.mark.anyio
async def test_a_search_answers_from_the_files_as_they_are_now(tmp_path: Path) -> None:
    """The search index is reused while the documents are unchanged, and never serves a file
    as it was: a word written into one is found at the next call, and gone once removed."""
    (tmp_path / "a.md").write_bytes(b"# Alpha\n\n## Setup\n\nInstall the tool.\n")
    (tmp_path / "b.md").write_bytes(b"# Beta\n\n## Usage\n\nRun the tool.\n")
    async with serving(tmp_path) as session:
        assert "2 sections match" in await searched(session, "tool")
        assert "1 section matches" in await searched(session, "install")
        for round_ in range(5):
            (tmp_path / "b.md").write_bytes(
                b"# Beta\n\n## Usage\n\nRun the tool, then install plugin %d.\n" % round_
            )
            answer = await searched(session, "install")
            assert "2 sections match" in answer and f"plugin {round_}" in answer, answer
            (tmp_path / "b.md").write_bytes(b"# Beta\n\n## Usage\n\nRun the tool.\n")
            assert "1 section matches" in await searched(session, "install")
