"""Where a warm `mdsel_select` spends its time over stdio: the server with parts swapped out.

    .venv/bin/python bench/bench_server_parts.py [--calls N] [--rounds N] [--json]

Each variant is the real `mdsel-claude` server with one part replaced, opened beside a minimal
server with one trivial tool (the same SDK) under the SDK's own client, as bench_server.py does;
every call of the variant is followed by one call of the trivial tool, and each variant's ratio is
the median of its calls over the median of those. Variants take turns, round by round. Variants:

- `server`: the server as shipped;
- `sdk transport`: the same, but on the SDK's own stdio transport (a worker thread reads each
  line, two more hand-offs write each answer) instead of server/stdio.py's;
- `fixed answer, thread`: no work — a fixed text of the size of a section is the answer — but
  still handed to a worker thread, as every call is;
- `fixed answer, inline`: the same text answered on the event loop (the SDK's floor plus what
  the server adds around a call);
- `server, work twice`: each call's work done twice in a row, the second time timed apart.

Also the median time of the call's own work (`run_tool`) inside the server, first and (from the
last variant) when repeated at once with caches warm: a warm call's cost is mostly caches gone
cold between calls.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_server import MINIMAL_SERVER, make_document, session
from mdsel_claude.server.freshness import RACY_NS

VARIANTS = (
    "server",
    "sdk transport",
    "fixed answer, thread",
    "fixed answer, inline",
    "server, work twice",
)
FIXED_TEXT = "x" * 416 + "\n"
"""As long as the answer for one chapter of the generated document."""


def serve(variant: str, timings: str) -> int:
    """Run the server with `variant`'s part swapped out; run_tool's times go to `timings`."""
    import anyio.to_thread

    import mdsel_claude.server.app as app
    from mdsel_claude.server import calls, stdio

    work = calls.run_tool
    if variant.startswith("fixed answer"):

        def fixed(*_args: Any, **_kwargs: Any) -> calls.ToolResult:
            return calls.ToolResult(FIXED_TEXT, False)

        work = fixed
    if variant == "fixed answer, inline":
        threaded = anyio.to_thread.run_sync

        async def run_sync(function: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(function, functools.partial) and function.func is work:
                return function()
            return await threaded(function, *args, **kwargs)

        anyio.to_thread.run_sync = run_sync  # type: ignore[assignment]
    if variant == "sdk transport":

        @asynccontextmanager
        async def sdk_transport(*_args: Any, **_kwargs: Any) -> AsyncIterator[Any]:
            from mcp.server.stdio import stdio_server

            async with stdio_server() as streams:
                yield streams

        stdio.stdio_transport = sdk_transport
    spent: list[float] = []
    again: list[float] = []

    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        result = work(*args, **kwargs)
        spent.append(time.perf_counter() - started)
        if variant == "server, work twice":
            started = time.perf_counter()
            work(*args, **kwargs)
            again.append(time.perf_counter() - started)
        if len(spent) % 25 == 0:
            # The server ends with os._exit: what it measured is written as it goes.
            Path(timings).write_text(
                f"{statistics.median(spent)} {statistics.median(again or [0])}"
            )
        return result

    setattr(app, "run_tool", timed)  # noqa: B010 (not an attribute it exports)
    return app.main([])


def measure(calls: int, rounds: int) -> dict[str, Any]:
    import anyio

    with tempfile.TemporaryDirectory(prefix="mdsel-parts-") as cwd:
        document = Path(cwd) / "handbook.md"
        selectors = make_document(document)
        minimal_script = Path(cwd) / "minimal_server.py"
        minimal_script.write_text(MINIMAL_SERVER)
        minimal = [sys.executable, str(minimal_script)]
        time.sleep(RACY_NS / 1e9 + 0.5)  # an unchanged file, as bench_server.py explains
        timings = {v: str(Path(cwd) / f"timings-{n}.txt") for n, v in enumerate(VARIANTS)}
        warm: dict[str, list[float]] = {v: [] for v in VARIANTS}
        trivial: dict[str, list[float]] = {v: [] for v in VARIANTS}

        async def run() -> None:
            # One variant at a time beside the trivial server, as bench_server.py measures the
            # shipped one (more servers open at once slow every one of them); variants take
            # turns round by round, so drift hits them alike.
            for _ in range(rounds):
                for variant in VARIANTS:
                    command = [sys.executable, __file__, "--serve", variant]
                    async with AsyncExitStack() as stack:
                        baseline = await stack.enter_async_context(session(minimal, cwd))
                        server = await stack.enter_async_context(
                            session([*command, "--timings", timings[variant]], cwd)
                        )
                        await baseline.call_tool("echo", {})
                        # The cold call (engine import, read, parse): not measured.
                        first = {"selector": selectors[0], "files": [document.name]}
                        await server.call_tool("mdsel_select", first)
                        for number in range(calls):
                            selector = selectors[(number * 37) % len(selectors)]
                            arguments = {"selector": selector, "files": [document.name]}
                            started = time.perf_counter()
                            await server.call_tool("mdsel_select", arguments)
                            warm[variant].append(time.perf_counter() - started)
                            started = time.perf_counter()
                            await baseline.call_tool("echo", {})
                            trivial[variant].append(time.perf_counter() - started)

        anyio.run(run)
        spent = float(Path(timings["server"]).read_text().split()[0])
        again = float(Path(timings["server, work twice"]).read_text().split()[1])
    return {
        "variants": {
            v: {
                "warm_ms": statistics.median(warm[v]) * 1e3,
                "trivial_ms": statistics.median(trivial[v]) * 1e3,
                "ratio": statistics.median(warm[v]) / statistics.median(trivial[v]),
            }
            for v in VARIANTS
        },
        "run_tool_ms": spent * 1e3,
        "run_tool_again_ms": again * 1e3,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--calls", type=int, default=300, help="warm calls per variant per round")
    parser.add_argument("--rounds", type=int, default=2, help="fresh sets of servers")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--serve", choices=VARIANTS, help=argparse.SUPPRESS)
    parser.add_argument("--timings", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        return serve(args.serve, args.timings)
    result = measure(args.calls, args.rounds)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"warm mdsel_select over stdio, {args.rounds} x {args.calls} calls per variant")
    for variant, row in result["variants"].items():
        print(
            f"  {variant:22s} {row['warm_ms']:6.2f} ms  trivial {row['trivial_ms']:5.2f} ms  "
            f"ratio {row['ratio']:5.2f}"
        )
    print(
        f"run_tool inside the server: {result['run_tool_ms']:.3f} ms; "
        f"run again at once: {result['run_tool_again_ms']:.3f} ms"
    )
    return 0


if __name__ == "__main__":
    os.environ.pop("MDSEL_BIN", None)
    sys.exit(main())
