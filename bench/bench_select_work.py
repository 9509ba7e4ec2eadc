"""Selection work: time and peak memory of a select that names millions of nodes, against the
index of the same document, each in a fresh process; and three such calls at once in one server.

    python bench/bench_select_work.py            # table
    python bench/bench_select_work.py --json     # one JSON object
    python bench/bench_select_work.py --only para --skip-server

Each case is one child process that reads and parses the document (`load`), then selects and
renders the answer as `mdsel select` does; the baseline is the same child indexing the same
document instead (`mdsel index`: read, parse, outline). Times are CPU seconds measured inside the
child (`time.process_time`, interpreter start excluded; wall time on a shared machine mostly
measures the neighbours), split into load and select; peak memory is the child's own
(tests/peak_memory.py: VmHWM where /proc exists, else `ru_maxrss` in its platform's unit). The work
past a page of matches must be counting, not building: the select's own time is its ratio to the
load, and the peak its ratio to the index's. Targets for one call: 5 s and 1 GB; for three calls at
once in one `mdsel-claude` over stdio (three different documents, so the parse cache cannot share
them): 2 GB, the server's VmHWM once the three answers are in.

The server answers a call still parsing after MDSEL_MAX_READ_MS (2 s) that it is still reading,
and the same call asked again selects in the parsed document: a row's server time is the longer
of the two (load and select when the load is shorter), its CLI time load and select (the CLI takes
its time). The three calls at once are asked again until each is answered whole.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

from bench_caps import MAX_CALLS, STILL_READING, Server, call  # noqa: E402
from bench_engine import machine  # noqa: E402
from mdsel.settings import DEFAULT_MAX_BYTES  # noqa: E402
from mdsel_claude.server.config import DEFAULT_MAX_READ_MS  # noqa: E402
from tests.peak_memory import PEAK_BYTES_FUNCTION  # noqa: E402

MIB = 1 << 20
LIMIT_SECONDS = 5.0
LIMIT_BYTES = 1024**3
LIMIT_CONCURRENT_BYTES = 2 * 1024**3


def repeated(line: bytes, size: int) -> bytes:
    """Whole copies of `line` up to `size` bytes."""
    return line * (size // len(line))


DOCUMENTS: dict[str, Callable[[], bytes]] = {
    "paragraphs": lambda: repeated(b"para\n\n", DEFAULT_MAX_BYTES),
    "headings": lambda: repeated(b"# h\n", DEFAULT_MAX_BYTES),
    "small headings": lambda: repeated(b"# h\n", 2_400_000),
    "distinct headings": lambda: b"".join(b"# h %d\n" % n for n in range(240_000)),
}
"""The largest file a call reads by default (MDSEL_MAX_BYTES, 8 MiB) of one-line paragraphs (1.4
million) and of one-line headings (2.1 million), 2.4 MB of
one-line headings (600,000) and of headings each its own title (240,000)."""

CASES: list[tuple[str, str, str]] = [
    # The attacks: every match rendered, then cut to the budget.
    ("paragraphs", "para", "a bare para: a page of 1.4 million"),
    ("paragraphs", "para?full=true", "full=true: at most 10,000 matches"),
    ("headings", "h1", "a bare h1: a page of 2.1 million"),
    ("small headings", "#no-such-anchor", "a missed anchor on 600,000 headings"),
    ("distinct headings", "#no-such-anchor", "a missed anchor on 240,000 titles"),
    # The same work by other ways in.
    ("paragraphs", "json:para", "the JSON envelope of a page of them"),
    ("paragraphs", "para,para", "two selectors naming the same nodes"),
    ("paragraphs", "para.0,L1-1,para", "repeats past the budget looked up"),
    ("paragraphs", "para?page=2", "a page no paragraph has: problems, then counted"),
    ("paragraphs", "para?toc=true", "toc=true on 1.4 million blocks"),
    ("paragraphs", "root", "one match of 8 MiB, in pages"),
    ("paragraphs", "L1-99999999", "a line range of the whole document"),
    ("headings", "h1/para", "2.1 million scopes holding nothing"),
    ("headings", "section/section", "2.1 million sections, none inside another"),
    ("headings", "h1,section", "two selectors naming the same 2.1 million"),
    ("headings", "root?toc=true", "the outline of 2.1 million headings"),
    ("headings", "h1?full=true", "full=true on 2.1 million headings"),
    ("small headings", "#h-599999", "the last of 600,000 repeats, numbered"),
]

_CHILD = (
    PEAK_BYTES_FUNCTION
    + """
import gc, json, os, sys, time
gc.disable()
import mdsel
from mdsel import render_json, render_text
command, request, path = sys.argv[1:4]
start = time.process_time()
sources, problems = mdsel.load([path])
loaded = time.process_time()
if command == "index":
    out = render_text.index(mdsel.index(sources), problems, [], mdsel.Options())
else:
    as_json = request.startswith("json:")
    options = mdsel.Options(json=as_json)
    result = mdsel.select(request.removeprefix("json:"), sources, options)
    out = (render_json if as_json else render_text).select(result, problems, [])
done = time.process_time()
peak = peak_bytes()
text = out.stdout or out.stderr
print(json.dumps({
    "load_s": loaded - start, "select_s": done - loaded, "peak_bytes": peak,
    "answer_bytes": len(out.stdout.encode()) + len(out.stderr.encode()),
    "last": (text.splitlines() or [""])[-1][:160],
}))
"""
)


def child(command: str, request: str, path: Path) -> dict[str, Any]:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, command, request, str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"child failed ({done.returncode}): {done.stderr.strip()[-300:]}")
    found: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    found["wall_s"] = time.perf_counter() - started
    return found


def median_run(command: str, request: str, path: Path, repeat: int) -> dict[str, Any]:
    runs = [child(command, request, path) for _ in range(repeat)]
    row = {key: statistics.median(run[key] for run in runs) for key in runs[0] if key != "last"}
    row["last"] = runs[0]["last"]
    return row


def _answer_text(answer: dict[str, Any]) -> str:
    content = (answer.get("result") or {}).get("content") or [{}]
    return str(content[0].get("text", ""))


def concurrent(paths: list[Path], requests: list[str], cwd: Path) -> dict[str, Any]:
    """Three tools/call at once in one fresh server, each asked again while its answer says
    the server is still reading (MDSEL_MAX_READ_MS): the slowest single call, wall time until
    the last whole answer, the server's CPU meanwhile, and its VmHWM then."""
    server = Server(cwd)
    slowest = 0.0
    calls = 0
    try:
        cpu = server.cpu_seconds()
        started = time.perf_counter()
        sent: dict[int, tuple[int, float]] = {}  # request id → (which call, when sent)
        final: dict[int, dict[str, Any]] = {}
        number = 1

        def ask(which: int) -> None:
            nonlocal number, calls
            number += 1
            calls += 1
            arguments = {"selector": requests[which], "files": [str(paths[which])]}
            sent[number] = (which, time.perf_counter())
            server.send(call("mdsel_select", arguments, number))

        for which in range(len(paths)):
            ask(which)
        while len(final) < len(paths) and calls < MAX_CALLS:
            answer = server.answer()
            which, when = sent.pop(int(answer.get("id", 0)))
            slowest = max(slowest, time.perf_counter() - when)
            if STILL_READING in _answer_text(answer):
                ask(which)
            else:
                final[which] = answer
        seconds = time.perf_counter() - started
        cpu = server.cpu_seconds() - cpu
        peak = server.status("VmHWM")
    finally:
        server.close()
    lasts = [_answer_text(final[which]).splitlines()[-1:] for which in sorted(final)]
    return {
        "seconds": seconds,
        "slowest_call_seconds": slowest,
        "calls": calls,
        "answered": len(final) == len(paths),
        "cpu_seconds": cpu,
        "peak_bytes": peak,
        "last": lasts,
    }


def run(only: str | None, repeat: int, server: bool) -> dict[str, Any]:
    load = os.getloadavg()[0]
    rows = []
    with tempfile.TemporaryDirectory(prefix="mdsel-select-work-") as temp:
        work = Path(temp)
        paths = {}
        for name, make in DOCUMENTS.items():
            paths[name] = work / f"{name.replace(' ', '-')}.md"
            paths[name].write_bytes(make())
        baselines: dict[str, dict[str, Any]] = {}
        for document, request, what in CASES:
            if only and only not in request and only not in document:
                continue
            if document not in baselines:
                baselines[document] = median_run("index", "", paths[document], repeat)
            base = baselines[document]
            row = median_run("select", request, paths[document], repeat)
            total = row["load_s"] + row["select_s"]
            # In the server a call still parsing after MDSEL_MAX_READ_MS answers then, and the
            # same call asked again selects in the parsed document: its slowest call is the
            # longer of the two. The CLI takes its time (load and select).
            read_s = DEFAULT_MAX_READ_MS / 1000
            server_s = total if row["load_s"] < read_s else max(read_s, row["select_s"])
            row.update(
                document=document,
                request=request,
                case=what,
                index_s=base["load_s"] + base["select_s"],
                index_peak_bytes=base["peak_bytes"],
                select_over_load=row["select_s"] / max(row["load_s"], 1e-9),
                peak_over_index=row["peak_bytes"] / base["peak_bytes"],
                cli_s=total,
                server_s=server_s,
                within=server_s < LIMIT_SECONDS and row["peak_bytes"] < LIMIT_BYTES,
            )
            rows.append(row)
            print(f"{document} {request}: {row['wall_s']:.1f} s", file=sys.stderr, flush=True)
        together = None
        if server:
            # Three different documents: the worst calls of the table, none answered from the
            # parse cache (a copy of the paragraphs with one byte changed is another document).
            other = work / "paragraphs-2.md"
            other.write_bytes(paths["paragraphs"].read_bytes()[:-1] + b"q")
            together = concurrent(
                [paths["paragraphs"], other, paths["headings"]],
                ["para", "para?full=true", "h1"],
                work,
            )
            together["within"] = (
                together["peak_bytes"] < LIMIT_CONCURRENT_BYTES
                and together["slowest_call_seconds"] < LIMIT_SECONDS
                and together["answered"]
            )
    return {
        "machine": machine(),
        "load_average": load,
        "rows": rows,
        "concurrent": together,
        "limits": [LIMIT_SECONDS, LIMIT_BYTES, LIMIT_CONCURRENT_BYTES],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--only", help="run only the cases whose request or document has this")
    parser.add_argument("--repeat", type=int, default=1, help="runs per case (median)")
    parser.add_argument("--skip-server", action="store_true", help="no concurrent calls")
    args = parser.parse_args()
    results = run(args.only, args.repeat, not args.skip_server)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print(f"machine: {results['machine']}, load average {results['load_average']:.1f}")
        print(
            f"{'document':<18} {'request':<18} {'load s':>7} {'select s':>9} {'sel/load':>9} "
            f"{'peak MB':>8} {'/index':>7} {'answer':>8}  last line"
        )
        for row in results["rows"]:
            print(
                f"{row['document']:<18} {row['request']:<18} {row['load_s']:>7.2f} "
                f"{row['select_s']:>9.2f} {row['select_over_load']:>9.2f} "
                f"{row['peak_bytes'] / 2**20:>8.0f} {row['peak_over_index']:>7.2f} "
                f"{row['answer_bytes']:>8}  {row['last'][:70]}"
            )
        together = results["concurrent"]
        if together:
            print(
                f"three calls at once in one server: slowest call "
                f"{together['slowest_call_seconds']:.1f} s, {together['calls']} calls, all "
                f"answered after {together['seconds']:.1f} s "
                f"(CPU {together['cpu_seconds']:.1f} s), "
                f"peak {together['peak_bytes'] / 2**20:.0f} MB"
            )
    rows_ok = all(row["within"] for row in results["rows"])
    together = results["concurrent"]
    return 0 if rows_ok and (together is None or together["within"]) else 1


if __name__ == "__main__":
    sys.exit(main())
