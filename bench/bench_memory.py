"""Peak memory and time of a cold index against the bare parser loop, each in a fresh process.

    python bench/bench_memory.py            # table
    python bench/bench_memory.py --json     # one JSON object (used by bench/report.py)

For each document, two child processes are run in turn, a few times each:

- floor: read the file, decode it and iterate every event of `pyromark.events_with_range`
  (the parser alone: it holds every event of the document until the loop ends);
- ours: what `mdsel index FILE` does: read, parse, tree, text render (as bench_engine.py).

Peak memory is the child's maximum resident set, from wait4's rusage; time is the CPU time
the child spends (time.process_time, interpreter start excluded): on a shared machine, wall time
mostly measures the neighbours. Both children run with the cyclic collector off, as `mdsel`
does. Ratios are medians of per-pair ratios, so drift on a shared machine hits both sides alike.
Targets: peak ≤ 1.5 × floor + 30 MB, time ≤ 2 × floor.
Bytes per node: what the parsed Document keeps for its blocks and headings, as
Document.resident_bytes() counts it (columns, line table, block ordinals; the file's bytes and
their word mask excluded), per block or heading.
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
# The engine's cost class is measured past the default MDSEL_MAX_BYTES (8 MiB) too: 10 MiB
# documents here. What one call may cost under the default caps is bench_select_work's and
# bench_caps' to say.
os.environ["MDSEL_MAX_BYTES"] = str(64 << 20)
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

from bench_engine import corpus_text, machine  # noqa: E402
from tests.peak_memory import maxrss_bytes  # noqa: E402

MIB = 1 << 20
SLACK_MB = 30
PEAK_FACTOR = 1.5
TIME_FACTOR = 2.0


def repeated(line: bytes, size: int) -> bytes:
    """Whole copies of `line` up to `size` bytes."""
    return line * (size // len(line))


CASES: dict[str, Callable[[], bytes]] = {
    "real documents, 10 KB": lambda: corpus_text(10_000),
    "real documents, 100 KB": lambda: corpus_text(100_000),
    "real documents, 1 MB": lambda: corpus_text(1_000_000),
    "real documents, 5 MB": lambda: corpus_text(5_000_000),
    "100,000 headings": lambda: b"".join(b"## H%d\n\ntext\n\n" % i for i in range(100_000)),
    "10 MiB of one-line paragraphs": lambda: repeated(b"p\n\n", 10 * MIB),
    "10 MiB of one-line headings": lambda: repeated(b"# h\n", 10 * MIB),
    # Just under the default MDSEL_MAX_BYTES (8 MiB).
    "8 MiB list": lambda: repeated(b"- item\n", 8 * MIB),
}

# Both children run with the cyclic collector off, as `mdsel` does (cli.main): the same
# setting on both sides of each ratio.
_FLOOR = """
import gc, sys, time
gc.disable()
import pyromark
options = pyromark.Options.ENABLE_TABLES | pyromark.Options.ENABLE_STRIKETHROUGH
start = time.process_time()
with open(sys.argv[1], "rb") as file:
    data = file.read()
for _event, _span in pyromark.events_with_range(data.decode("utf-8"), options=options):
    pass
print(time.process_time() - start)
"""

_OURS = """
import gc, sys, time
gc.disable()
import mdsel
from mdsel import render_text
start = time.process_time()
sources, problems = mdsel.load([sys.argv[1]])
render_text.index(mdsel.index(sources), problems, [], mdsel.Options())
elapsed = time.process_time() - start
if problems:
    sys.exit(str(problems))
print(elapsed)
"""


def child(script: str, path: Path) -> tuple[float, float]:
    """(CPU seconds measured inside, peak resident MB) of one fresh process."""
    process = subprocess.Popen(
        [sys.executable, "-c", script, str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # wait4 rather than RUSAGE_CHILDREN: the peak of this child alone, not of every child so far.
    out = process.stdout.read() if process.stdout else ""
    err = process.stderr.read() if process.stderr else ""
    _pid, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"child failed ({process.returncode}): {err.strip()[-300:]}")
    return float(out.split()[-1]), maxrss_bytes(usage.ru_maxrss) / MIB


def tree_bytes(data: bytes) -> tuple[int, int, int]:
    """(blocks, headings, bytes the Document keeps beyond the file's bytes and word mask)."""
    import mdsel

    document = mdsel.parse_document(data)
    extra = document.resident_bytes() - sys.getsizeof(document.data) * 2
    return len(document.blocks), len(document.headings), extra


def measure(name: str, data: bytes, workdir: Path, repeat: int) -> dict[str, Any]:
    path = workdir / "doc.md"
    path.write_bytes(data)
    floors: list[tuple[float, float]] = []
    ours: list[tuple[float, float]] = []
    for _ in range(repeat):
        floors.append(child(_FLOOR, path))
        ours.append(child(_OURS, path))
    floor_s = statistics.median(t for t, _ in floors)
    ours_s = statistics.median(t for t, _ in ours)
    floor_mb = statistics.median(m for _, m in floors)
    ours_mb = statistics.median(m for _, m in ours)
    blocks, headings, extra = tree_bytes(data)
    nodes = blocks + headings
    limit = PEAK_FACTOR * floor_mb + SLACK_MB
    time_ratio = statistics.median(o[0] / f[0] for o, f in zip(ours, floors, strict=True))
    return {
        "case": name, "bytes": len(data), "blocks": blocks, "headings": headings,
        "floor_s": floor_s, "index_s": ours_s, "time_ratio": time_ratio,
        "floor_peak_mb": floor_mb, "index_peak_mb": ours_mb, "peak_ratio": ours_mb / floor_mb,
        "peak_limit_mb": limit, "peak_ok": ours_mb <= limit, "time_ok": time_ratio <= TIME_FACTOR,
        "tree_bytes": extra, "bytes_per_node": extra / nodes if nodes else 0.0,
    }  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--only", help="run only the cases whose name contains this")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, make in CASES.items():
            if args.only and args.only not in name:
                continue
            data = make()
            repeat = 5 if len(data) < 2 * MIB else 3
            started = time.perf_counter()
            try:
                rows.append(measure(name, data, Path(tmp), repeat))
            except RuntimeError as exc:
                rows.append({"case": name, "bytes": len(data), "error": str(exc)})
            print(f"{name}: {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    results = {"machine": machine(), "rows": rows}
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"machine: {results['machine']}")
    print(
        f"{'case':<32} {'floor MB':>9} {'ours MB':>8} {'ratio':>6} {'limit':>6} "
        f"{'floor s':>8} {'ours s':>7} {'t ratio':>7} {'B/node':>7}"
    )
    for r in rows:
        if "error" in r:
            print(f"{r['case']:<32} failed: {r['error']}")
            continue
        print(
            f"{r['case']:<32} {r['floor_peak_mb']:>9.0f} {r['index_peak_mb']:>8.0f} "
            f"{r['peak_ratio']:>6.2f} {r['peak_limit_mb']:>6.0f} {r['floor_s']:>8.2f} "
            f"{r['index_s']:>7.2f} {r['time_ratio']:>7.2f} {r['bytes_per_node']:>7.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
