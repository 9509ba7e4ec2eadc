"""Checked files swapped for links to secrets while the installed server reads them: zero leaks.

A separate process swaps names in a tight loop for the whole session, while the SDK client makes
at least 1,000 calls over at least 5 s, four at a time. Each call first reads a large document
(a long window between the server's check and its read of the next file), then the raced ones:

- `x.md`, a regular file, alternates with a link to `../outside/secret.txt`;
- `y.md` alternates with a link to `../outside/secret.md` (a Markdown name outside MDSEL_ROOTS);
- `sub` alternates between a link to `sub_real` (inside) and `../outside/sub` (a directory
  above the file swapped, not the file itself).

No answer may ever hold a byte of the secrets.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.types import TextContent

SERVER = Path(sys.executable).parent / "mdsel-claude"

MIN_CALLS = 1000
MIN_SECONDS = 5.0
CONCURRENT = 4
SECRET = "SECRET-7f3a9c-do-not-leak"

SWAPPER = """
import os, sys, time
work, stop = sys.argv[1], sys.argv[2]
os.chdir(work)
pairs = [("x.md", "x.regular", "x.link"), ("y.md", "y.regular", "y.link"),
         ("sub", "sub.inside", "sub.outside")]
swaps = 0
while not os.path.exists(stop):
    for name, first, second in pairs:
        # Each form is kept as a spare link made afresh, then renamed over the name: the name
        # always exists, and flips atomically between the two.
        for source in (first, second):
            spare = name + ".spare"
            if source.endswith(".regular"):
                with open(spare, "w") as handle:
                    handle.write("# Plain\\n\\nNothing to see.\\n")
            else:
                os.symlink(os.readlink(source), spare)
            os.replace(spare, name)
            swaps += 1
print(swaps)
"""


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def hostile_repository(root: Path) -> Path:
    work = root / "work"
    outside = root / "outside"
    (outside / "sub").mkdir(parents=True)
    (work / "sub_real").mkdir(parents=True)
    secret = f"# {SECRET}\n\n{SECRET} {SECRET}\n"
    (outside / "secret.txt").write_text(secret)
    (outside / "secret.md").write_text(secret)
    (outside / "sub" / "z.md").write_text(secret)
    (work / "sub_real" / "z.md").write_text("# Inside\n\nplain words\n")
    # A large document read first: reading and hashing it widens the window after the check.
    (work / "big.md").write_text("".join(f"## Part {n}\n\n{'word ' * 60}\n\n" for n in range(3000)))
    (work / "x.md").write_text("# Plain\n")
    (work / "y.md").write_text("# Plain\n")
    (work / "x.link").symlink_to("../outside/secret.txt")
    (work / "y.link").symlink_to("../outside/secret.md")
    (work / "sub").symlink_to("sub_real")
    (work / "sub.inside").symlink_to("sub_real")
    (work / "sub.outside").symlink_to("../outside/sub")
    return work


@asynccontextmanager
async def session_in(work: Path) -> AsyncIterator[ClientSession]:
    env = {"MDSEL_ROOTS": str(work), "PATH": os.environ.get("PATH", "")}
    params = StdioServerParameters(command=str(SERVER), env=env, cwd=work)
    with (work.parent / "server.log").open("w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session


@pytest.mark.anyio
async def test_swapped_names_never_leak(tmp_path: Path) -> None:
    work = hostile_repository(tmp_path)
    stop = tmp_path / "stop"
    swapper = subprocess.Popen(
        [sys.executable, "-c", SWAPPER, str(work), str(stop)], stdout=subprocess.PIPE, text=True
    )
    answers: list[str] = []
    started = time.monotonic()
    try:
        async with session_in(work) as session:

            async def caller() -> None:
                while len(answers) < MIN_CALLS or time.monotonic() - started < MIN_SECONDS:
                    select = len(answers) % 2 == 0
                    files = ["big.md", "x.md", "y.md", "sub/z.md"]
                    if select:
                        arguments = {"selector": "h1.0", "files": files[1:]}
                        result = await session.call_tool("mdsel_select", arguments)
                    else:
                        result = await session.call_tool("mdsel_index", {"files": files})
                    block = result.content[0]
                    assert isinstance(block, TextContent)
                    answers.append(block.text)

            async with anyio.create_task_group() as group:
                for _ in range(CONCURRENT):
                    group.start_soon(caller)
    finally:
        stop.touch()
        out, _ = swapper.communicate(timeout=30)
    elapsed = time.monotonic() - started
    swaps = int(out.strip() or 0)
    leaks = [answer for answer in answers if "7f3a9c" in answer]
    refused = sum("x.md" in a and "PROCESSING_ERROR" in a for a in answers)
    print(f"{len(answers)} calls, {elapsed:.1f} s, {swaps} swaps, {len(leaks)} leaks")
    assert len(answers) >= MIN_CALLS and elapsed >= MIN_SECONDS
    assert swaps > len(answers)  # the names really moved under every call
    assert refused > 0  # and some calls did meet a link
    assert leaks == []
