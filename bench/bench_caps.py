"""Worst cases of the server's request caps: time and peak memory of one call at each cap.

    .venv/bin/python bench/bench_caps.py [--json]

Each case runs one fresh `mdsel-claude` over stdio (raw JSON-RPC lines on pipes) with the default
configuration and sends the request that costs the most its cap allows (or the cap's own
repro from the hostile-repository cases: a 100 MB message, 3,000 `**` segments, a tree 1,100
levels deep). Time: from writing the request to reading its answer, and the server's CPU time
meanwhile (steadier than wall time on a shared machine). Peak memory: the server's VmHWM when
the answer has arrived. The baseline, measured in the same run, is one `mdsel_index`
of a small file; every case must stay under 5 s and 1 GB.

A call still parsing after MDSEL_MAX_READ_MS answers so, and is asked again (as its answer says)
until the whole answer comes: the time of a case is its slowest call, and its row also gives the
calls and the time until the whole answer. The dense cases are also run without that bound
(MDSEL_MAX_READ_MS of a day: one call reads everything, as before the bound), in the same run.
Cancellation: CPU the server spends
after `notifications/cancelled` for a call with seconds of parsing ahead, and how long it takes
to exit once stdin closes with that call in flight.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

SERVER = str(Path(sys.executable).parent / "mdsel-claude")
LIMIT_SECONDS = 5.0
LIMIT_BYTES = 1024**3

INITIALIZE = {
    "protocolVersion": "2025-11-25",
    "capabilities": {},
    "clientInfo": {"name": "bench", "version": "0"},
}


def line(body: dict[str, Any]) -> bytes:
    return json.dumps(body, separators=(",", ":")).encode() + b"\n"


def call(tool: str, arguments: dict[str, Any], number: int = 2) -> bytes:
    params = {"name": tool, "arguments": arguments}
    return line({"jsonrpc": "2.0", "id": number, "method": "tools/call", "params": params})


class Server:
    """One server process, initialized, on raw pipes."""

    def __init__(self, cwd: Path, settings: dict[str, str] | None = None) -> None:
        env = {key: value for key, value in os.environ.items() if not key.startswith("MDSEL_")}
        env.update(settings or {})
        self.process = subprocess.Popen(
            [SERVER],
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.send(line({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INITIALIZE}))
        self.answer()
        self.send(line({"jsonrpc": "2.0", "method": "notifications/initialized"}))

    def send(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def answer(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        found: dict[str, Any] = json.loads(self.process.stdout.readline())
        return found

    def status(self, field: str) -> int:
        # Another process's peak and CPU time are read from /proc: say so where there is none,
        # rather than report a made-up figure.
        if not Path("/proc/self/status").is_file():
            raise RuntimeError("needs /proc to read the server's peak memory and CPU time")
        for row in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if row.startswith(field + ":"):
                return int(row.split()[1]) * 1024
        return 0

    def cpu_seconds(self) -> float:
        if not Path("/proc/self/stat").is_file():
            raise RuntimeError("needs /proc to read the server's peak memory and CPU time")
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self) -> None:
        self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()


STILL_READING = "this call is still reading and parsing"
"""What an answer given before the call's files were parsed says (MDSEL_MAX_READ_MS)."""

UNBOUNDED_MS = 86_400_000
"""MDSEL_MAX_READ_MS of a day: a call reads and parses everything before it answers."""

MAX_CALLS = 200
"""Calls of one request asked again until it is answered whole; more is a failure."""


def _text(answer: dict[str, Any]) -> str:
    result = answer.get("result") or {}
    return "".join(block.get("text", "") for block in result.get("content", []))


def measure(cwd: Path, request: bytes, settings: dict[str, str] | None = None) -> dict[str, Any]:
    """One request in a fresh server, asked again while its answer says the server is still
    reading (as an agent told to call again does): the slowest of those calls (the bound is per
    call), their number, the time until the whole answer, the server's CPU and its peak."""
    server = Server(cwd, settings)
    calls: list[float] = []
    try:
        cpu = server.cpu_seconds()
        started = time.perf_counter()
        while True:
            sent = time.perf_counter()
            server.send(request)
            answer = server.answer()
            calls.append(time.perf_counter() - sent)
            if STILL_READING not in _text(answer) or len(calls) >= MAX_CALLS:
                break
        until_answer = time.perf_counter() - started
        cpu = server.cpu_seconds() - cpu
        peak = server.status("VmHWM")
    finally:
        server.close()
    text = _text(answer)
    summary = text.splitlines()[-1] if text else json.dumps(answer.get("error"))
    return {
        "seconds": max(calls),
        "first_seconds": calls[0],
        "calls": len(calls),
        "answered": STILL_READING not in text,
        "until_answer_seconds": until_answer,
        "cpu_seconds": cpu,
        "peak_bytes": peak,
        "answer_chars": len(text),
        "last": summary,
    }


# --- fixtures ------------------------------------------------------------------------------------


def wide_tree(root: Path, dirs: int = 100, files: int = 100) -> None:
    """`dirs` directories of `files` small documents: 10,000 names for globs to match."""
    for d in range(dirs):
        folder = root / f"d{d:03}"
        folder.mkdir(parents=True)
        for f in range(files):
            (folder / f"doc{f:03}.md").write_text(f"# Doc {d}.{f}\n\nwords\n")


def deep_tree(root: Path, levels: int) -> None:
    """A chain of `levels` directories, made through descriptors (no path grows too long)."""
    root.mkdir(parents=True)
    (root / "top.md").write_text("# Top\n")
    fd = os.open(root, os.O_RDONLY)
    for _ in range(levels):
        os.mkdir("d", dir_fd=fd)
        below = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = below
    os.close(fd)


def outline_docs(root: Path, count: int, headings: int) -> None:
    root.mkdir(parents=True)
    body = "".join(f"## Heading number {n}\n\nshort text\n\n" for n in range(headings))
    for number in range(count):
        (root / f"o{number:03}.md").write_text(f"# Outline {number}\n\n{body}")


def bulk_docs(root: Path, count: int, size: int) -> None:
    """`count` different documents of about `size` bytes (different: the cache cannot help)."""
    root.mkdir(parents=True)
    for number in range(count):
        unit = f"## Part {number}\n\n{'word ' * 30}\n\n- item\n- item\n\n"
        (root / f"b{number:04}.md").write_text(unit * (size // len(unit)))


def dense_docs(root: Path, count: int, size: int) -> None:
    """`count` different documents of `size` bytes of one-line headings (`# h`), the densest
    common Markdown: each byte costs the parser and the tree the most."""
    root.mkdir(parents=True)
    for number in range(count):
        last = b"# %d\n" % number
        (root / f"h{number:04}.md").write_bytes(b"# h\n" * ((size - len(last)) // 4) + last)


def build(work: Path) -> None:
    wide_tree(work / "tree")
    deep_tree(work / "deep", 1100)
    outline_docs(work / "outlines", 500, 260)
    bulk_docs(work / "bulk", 2000, 50 * 1024)
    dense_docs(work / "dense", 2000, 16 * 1024)
    dense_docs(work / "one", 1, 8 * 1024 * 1024)
    (work / "small.md").write_text("# Small\n\nA few words.\n")


# --- cases ---------------------------------------------------------------------------------------

CASES: list[tuple[str, str, Callable[[], bytes]]] = [
    ("baseline", "one small file", lambda: call("mdsel_index", {"files": ["small.md"]})),
    (
        "MDSEL_MAX_NAMES=200000",
        "100 `**` globs over 10,000 names: the names budget runs out",
        lambda: call("mdsel_index", {"files": [f"tree/**/x{n:03}*.md" for n in range(100)]}),
    ),
    (
        "MDSEL_MAX_ENTRIES=100",
        "100 different globs, each over 10,000 names",
        lambda: call("mdsel_index", {"files": [f"tree/**/doc{n:03}.md" for n in range(100)]}),
    ),
    (
        "MDSEL_MAX_ENTRY_CHARS=1024",
        "100 globs of 1,024 characters (`*a` × 504) over 10,000 names",
        lambda: call("mdsel_index", {"files": [f"tree/*/{'*a' * 504}{n:04}" for n in range(100)]}),
    ),
    (
        "MDSEL_MAX_GLOB_SEGMENTS=32",
        "100 globs of 32 segments (`**` and `*` alternating) over 10,000 names",
        lambda: call(
            "mdsel_index",
            {
                "files": [
                    "tree/" + "/".join(["**", "*"] * 15 + [f"doc{n:03}.md"]) for n in range(100)
                ]
            },
        ),
    ),
    (
        "MDSEL_MAX_GLOB_SEGMENTS=32, one long pattern",
        "one glob of 300 `**` segments: refused before expansion",
        lambda: call("mdsel_index", {"files": ["/".join(["**"] * 300 + ["*.md"])]}),
    ),
    (
        "MDSEL_MAX_DEPTH=64",
        "a directory and a `**` glob over a tree 1,100 levels deep",
        lambda: call("mdsel_index", {"files": ["deep", "deep/**/*.md"]}),
    ),
    (
        "MDSEL_MAX_PROBLEMS=50",
        "a 4,096-character selector of unresolved items on 100 files",
        lambda: call(
            "mdsel_select",
            {
                "selector": ",".join(f"h6.{n}" for n in range(700))[:4090].rstrip(","),
                "files": [f"outlines/o{n:03}.md" for n in range(100)],
            },
        ),
    ),
    (
        "MDSEL_MAX_ANSWER_CHARS=100000",
        "every document of 500 files with 260 headings each, full=true (MBs of answer, cut)",
        lambda: call("mdsel_select", {"selector": "root?full=true", "files": ["outlines"]}),
    ),
    (
        "MDSEL_MAX_REQUEST_BYTES=1048576",
        "a 100 MB message (1,000,000 file names), skipped unread",
        lambda: call("mdsel_index", {"files": ["missing-" + "x" * 90 + ".md"] * 1_000_000}),
    ),
    (
        "MDSEL_MAX_FILES=2000, MDSEL_MAX_TOTAL_BYTES=33554432",
        "index of 2,000 different 50 KB files (100 MB): 32 MiB read and parsed, the rest named",
        lambda: call("mdsel_index", {"files": ["bulk"]}),
    ),
    (
        "MDSEL_MAX_FILES=2000, MDSEL_MAX_TOTAL_BYTES=33554432, dense",
        "index of 2,000 different 16 KiB files of one-line headings (32 MiB, 8.4 M headings)",
        lambda: call("mdsel_index", {"files": ["dense"]}),
    ),
    (
        "MDSEL_MAX_BYTES=8388608, dense",
        "`section/section` on one 8 MiB file of one-line headings (2.1 M sections)",
        lambda: call("mdsel_select", {"selector": "section/section", "files": ["one"]}),
    ),
]


def cancellation(work: Path) -> dict[str, float]:
    """CPU after notifications/cancelled, and exit time after stdin closes, mid-way through
    the most expensive call (the 2,000 files)."""
    request = call("mdsel_index", {"files": ["bulk"]})
    server = Server(work)
    try:
        server.send(request)
        time.sleep(1.0)
        cancel = {"requestId": 2}
        server.send(line({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": cancel}))
        time.sleep(0.2)
        before = server.cpu_seconds()
        time.sleep(1.0)
        cpu_after = server.cpu_seconds() - before
    finally:
        server.close()
    server = Server(work)
    try:
        server.send(request)
        time.sleep(1.0)
        assert server.process.stdin is not None
        server.process.stdin.close()
        closed = time.perf_counter()
        server.process.wait(timeout=60)
        exit_seconds = time.perf_counter() - closed
    finally:
        server.close()
    return {"cpu_in_1s_after_cancel": cpu_after, "exit_after_stdin_closed": exit_seconds}


def run() -> dict[str, Any]:
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="mdsel-caps-") as temp:
        work = Path(temp)
        build(work)
        rows = []
        for name, what, request in CASES:
            result = measure(work, request())
            if "dense" in name:
                unbounded = measure(work, request(), {"MDSEL_MAX_READ_MS": str(UNBOUNDED_MS)})
                result["unbounded"] = unbounded
            rows.append({"cap": name, "case": what, **result})
        shutdown = cancellation(work)
        # The deep tree: bottom up without recursion, so the directory can be removed.
        for level in range(1100, 0, -1):
            os.rmdir(work.joinpath("deep", *["d"] * level))
    base = rows[0]
    for row in rows:
        row["time_ratio"] = row["seconds"] / base["seconds"]
        row["within"] = (
            row["seconds"] < LIMIT_SECONDS and row["peak_bytes"] < LIMIT_BYTES and row["answered"]
        )
    return {
        "cases": rows,
        "shutdown": shutdown,
        "limits": [LIMIT_SECONDS, LIMIT_BYTES],
        "load_average": load,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    results = run()
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print(
            f"{'cap':58} {'time':>8} {'calls':>5} {'answer':>8} {'CPU':>8} {'×base':>7} "
            f"{'peak RSS':>10}  case"
        )
        for row in results["cases"]:
            print(
                f"{row['cap']:58} {row['seconds']:7.2f}s {row['calls']:5} "
                f"{row['until_answer_seconds']:7.2f}s {row['cpu_seconds']:7.2f}s "
                f"{row['time_ratio']:7.1f} {row['peak_bytes'] / 2**20:8.0f}MB  {row['case']}"
            )
            if "unbounded" in row:
                other = row["unbounded"]
                ratio = other["seconds"] / results["cases"][0]["seconds"]
                print(
                    f"{'  without MDSEL_MAX_READ_MS':58} {other['seconds']:7.2f}s "
                    f"{other['calls']:5} {other['until_answer_seconds']:7.2f}s "
                    f"{other['cpu_seconds']:7.2f}s {ratio:7.1f} "
                    f"{other['peak_bytes'] / 2**20:8.0f}MB"
                )
        shutdown = results["shutdown"]
        print(
            "CPU in the second after notifications/cancelled: "
            f"{shutdown['cpu_in_1s_after_cancel']:.2f} s"
        )
        print(
            f"exit after stdin closed, call in flight: {shutdown['exit_after_stdin_closed']:.2f} s"
        )
    return 0 if all(row["within"] for row in results["cases"]) else 1


if __name__ == "__main__":
    sys.exit(main())
