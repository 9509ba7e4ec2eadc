"""Engine speed as ratios against baselines measured in the same run.

    python bench/bench_engine.py            # table
    python bench/bench_engine.py --json     # one JSON object (used by bench/report.py)

- cold index (read + parse + tree + text render) per document size, over the floor: a bare loop
  over every event of `pyromark.events_with_range` on the same text (decoding included: the
  parser needs a str); the same with the bytes already in memory
  (no file read); markdown-it-py's parse time for reference. Each figure is the median over
  PROCESSES fresh processes (a process's memory layout alone moves the 10 KB ratio by a tenth);
- the same for 10 MiB of one-line h1/h2/h3 headings, interleaved (the section loop's worst
  mix of levels), in CPU time;
- linearity: time at 10x the size over time at 1x;
- warm select of one section on an already-parsed 1 MB document, and its ratio to the parse;
- `mdsel index` as a whole process on 10 KB over `python -c "import argparse, json, pyromark"`,
  with modules byte-compiled first as an install would (set-up here sets PYTHONDONTWRITEBYTECODE);
- pathological documents: wall time and peak RSS of `mdsel index` + selecting every heading.

Documents are the real-world test corpus (tests/corpus) concatenated and cut at a line boundary.
Both sides of every in-process ratio run with the cyclic collector off, as `mdsel` itself runs
(cli.main switches it off for the whole call).
"""

from __future__ import annotations

import argparse
import compileall
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pyromark

import mdsel
from mdsel import render_text
from mdsel.parse import OPTIONS

ROOT = Path(__file__).resolve().parent.parent
# The engine's cost class is measured past the default MDSEL_MAX_BYTES (8 MiB) too: 10 MiB
# documents here. What one call may cost under the default caps is bench_select_work's and
# bench_caps' to say.
os.environ["MDSEL_MAX_BYTES"] = str(64 << 20)
sys.path.insert(0, str(ROOT))

from tests.peak_memory import PEAK_BYTES_FUNCTION  # noqa: E402

CORPUS = ROOT / "tests" / "corpus"
SIZES = [10_000, 100_000, 500_000, 1_000_000, 5_000_000]
LEVELS_BYTES = 10 * 1024 * 1024
LEVELS_UNIT = b"# h\n## h\n### h\n"


def corpus_text(size: int) -> bytes:
    parts = [p.read_bytes() for p in sorted(CORPUS.glob("*.md")) if p.name != "README.md"]
    blob = b"\n\n".join(part.removeprefix(b"\xef\xbb\xbf") for part in parts)
    data = blob * (size // len(blob) + 1)
    cut = data.rfind(b"\n", 0, size)
    return data[: cut + 1]


@contextmanager
def collector_off() -> Iterator[None]:
    """The cyclic collector off, as `mdsel` runs (cli.main): for both sides of a ratio alike."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def median_time(function: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def paired(
    first: Callable[[], object],
    second: Callable[[], object],
    repeat: int,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[float, float]:
    """Median times of two functions run alternately, so drift hits both alike."""
    a: list[float] = []
    b: list[float] = []
    for _ in range(repeat):
        start = clock()
        first()
        a.append(clock() - start)
        start = clock()
        second()
        b.append(clock() - start)
    return statistics.median(a), statistics.median(b)


def floor_loop(data: bytes) -> None:
    """The floor: decode and iterate every event of the parser, doing nothing with them."""
    for _event, _span in pyromark.events_with_range(data.decode("utf-8"), options=OPTIONS):
        pass


def cold(path: Path) -> None:
    """What `mdsel index FILE` does in-process: read, parse, text render."""
    sources, _ = mdsel.load([str(path)])
    render_text.index(mdsel.index(sources), [], [], mdsel.Options())


def cold_from_memory(path: Path, data: bytes) -> None:
    """cold() with the file's bytes already in memory: parse and render, no file read."""
    sources, _ = mdsel.load([str(path)], read=lambda _path: data)
    render_text.index(mdsel.index(sources), [], [], mdsel.Options())


PROCESSES = 5
"""Fresh processes the cold index is measured in: at 10 KB a process's memory layout alone moves
the ratio by a tenth, so each figure is the median over several."""


def cold_index(workdir: Path) -> list[dict[str, Any]]:
    """cold_index_here() in PROCESSES fresh processes, one after another: per size, the median
    of each figure, and the lowest and highest ratio."""
    runs: list[list[dict[str, Any]]] = []
    for _ in range(PROCESSES):
        done = subprocess.run(
            [sys.executable, __file__, "--cold-rows", str(workdir)],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        runs.append(json.loads(done.stdout))
    rows = []
    for measured in zip(*runs, strict=True):
        row = {key: statistics.median(r[key] for r in measured) for key in NUMERIC}
        ratios = [r["ratio"] for r in measured]
        row.update(
            bytes=measured[0]["bytes"],
            ratio_low=min(ratios), ratio_high=max(ratios), processes=len(measured),
        )  # fmt: skip
        rows.append(row)
    return rows


NUMERIC = (
    "floor_ms", "index_ms", "ratio", "memory_ratio", "markdown_it_ms",
)  # fmt: skip
"""The figures of a cold_index row that are medians over the processes."""


def cold_index_here(workdir: Path) -> list[dict[str, Any]]:
    """Per size, in this process: the cold index and the floor paired; the same with the
    document's bytes already in memory (what the file read adds is the difference);
    markdown-it-py's parse."""
    from markdown_it import MarkdownIt

    rows = []
    for size in SIZES:
        data = corpus_text(size)
        path = workdir / f"doc_{size}.md"
        path.write_bytes(data)
        repeat = max(5, min(200, 20_000_000 // size))

        def floor(data: bytes = data) -> None:
            floor_loop(data)

        def ours(path: Path = path) -> None:
            cold(path)

        def in_memory(path: Path = path, data: bytes = data) -> None:
            cold_from_memory(path, data)

        with collector_off():
            floor()
            ours()
            base, mine = paired(floor, ours, repeat)
            memory_base, memory = paired(floor, in_memory, repeat)
        parser = MarkdownIt("commonmark").enable("table")
        text = data.decode("utf-8")
        mdit = median_time(lambda: parser.parse(text), max(3, repeat // 10))  # noqa: B023
        rows.append(
            {"bytes": len(data), "floor_ms": base * 1e3, "index_ms": mine * 1e3,
             "ratio": mine / base, "memory_ratio": memory / memory_base,
             "markdown_it_ms": mdit * 1e3}
        )  # fmt: skip
    return rows


def heading_levels(workdir: Path, repeat: int = 5) -> dict[str, Any]:
    """10 MiB of one-line headings, h1 h2 h3 in turn: every heading opens and closes sections,
    the section loop's most work per byte. CPU time (on shared cores, wall time mostly measures
    the neighbours), pairs run alternately; the ratio is the median of per-pair ratios."""
    data = LEVELS_UNIT * (LEVELS_BYTES // len(LEVELS_UNIT))
    path = workdir / "levels.md"
    path.write_bytes(data)
    floors: list[float] = []
    ours: list[float] = []
    with collector_off():
        for _ in range(repeat):
            base, mine = paired(
                lambda: floor_loop(data), lambda: cold(path), 1, clock=time.process_time
            )
            floors.append(base)
            ours.append(mine)
    return {
        "bytes": len(data), "headings": data.count(b"\n"),
        "floor_s": statistics.median(floors), "index_s": statistics.median(ours),
        "ratio": statistics.median(o / f for o, f in zip(ours, floors, strict=True)),
    }  # fmt: skip


def linearity(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    by_size = {round(r["bytes"], -3): r for r in rows}
    result = []
    for small, large in ((100_000, 1_000_000), (500_000, 5_000_000)):
        a = min(by_size.items(), key=lambda kv: abs(kv[0] - small))[1]
        b = min(by_size.items(), key=lambda kv: abs(kv[0] - large))[1]
        result.append(
            {"from_bytes": a["bytes"], "to_bytes": b["bytes"],
             "size_factor": b["bytes"] / a["bytes"], "time_factor": b["index_ms"] / a["index_ms"],
             "floor_factor": b["floor_ms"] / a["floor_ms"]}
        )  # fmt: skip
    return result


def warm_select(workdir: Path) -> list[dict[str, Any]]:
    """One section (the middle heading's) selected and rendered from an already-parsed document."""
    rows: list[dict[str, Any]] = []
    for size in SIZES:
        data = corpus_text(size)
        document = mdsel.parse_document(data)
        source = mdsel.Source("doc", "doc.md", document)
        middle = document.headings[len(document.headings) // 2]
        selector = f"h{middle.level}.{middle.ordinal}"

        def parse_it(data: bytes = data) -> None:
            mdsel.parse_document(data)

        parse = median_time(parse_it, 7)

        def one(selector: str = selector, source: mdsel.Source = source) -> None:
            render_text.select(mdsel.select(selector, [source]), [], [])

        one()
        select = median_time(one, 300)
        rows.append(
            {"bytes": len(data), "selector": selector, "select_ms": select * 1e3,
             "parse_ms": parse * 1e3, "select_over_parse": select / parse}
        )  # fmt: skip
    return rows


def process(workdir: Path) -> dict[str, Any]:
    compileall.compile_dir(str(ROOT / "src"), quiet=1)
    path = workdir / "small.md"
    path.write_bytes(corpus_text(10_000))
    mdsel_bin = str(Path(sys.executable).with_name("mdsel"))
    base_cmd = [sys.executable, "-c", "import argparse, json, pyromark"]
    ours_cmd = [mdsel_bin, "index", str(path)]
    bare_cmd = [sys.executable, "-c", "pass"]

    def run(cmd: list[str]) -> Callable[[], object]:
        return lambda: subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)

    # Whole processes on 2 noisy cores: the ratio is the median of per-pair ratios (each pair
    # run back to back), which drift between pairs cannot skew.
    base_times: list[float] = []
    ours_times: list[float] = []
    for _ in range(60):
        base_times.append(median_time(run(base_cmd), 1))
        ours_times.append(median_time(run(ours_cmd), 1))
    base, ours = statistics.median(base_times), statistics.median(ours_times)
    ratio = statistics.median(o / b for o, b in zip(ours_times, base_times, strict=True))
    bare = median_time(run(bare_cmd), 20)
    trace = subprocess.run(
        [sys.executable, "-X", "importtime", mdsel_bin, "index", str(path)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    own = 0
    for line in trace.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[2].strip().startswith("mdsel"):
            own += int(parts[0].split(":")[1])
    return {"bare_ms": bare * 1e3, "baseline_ms": base * 1e3, "mdsel_index_ms": ours * 1e3,
            "ratio": ratio, "own_import_self_ms": own / 1e3,
            "typing_imported": " typing" in trace.stderr}  # fmt: skip


PATHOLOGICAL: dict[str, Callable[[], bytes]] = {
    "10,000 nested lists": lambda: b"- " * 10_000 + b"x\n",
    "10,000 nested quotes": lambda: b"> " * 10_000 + b"x\n",
    "50,000 nested quotes": lambda: b"> " * 50_000 + b"x\n",
    "5 MB single line": lambda: (b"word " * 1_048_576)[:5_000_000] + b"\n",
    "5 MB line, no spaces": lambda: b"x" * 5_000_000 + b"\n",
    "100,000 headings": lambda: b"".join(b"## H%d\n\ntext\n\n" % i for i in range(100_000)),
    "50,000 table rows": lambda: b"| a | b |\n|---|---|\n" + b"| 1 | 2 |\n" * 50_000,
    "unclosed fence": lambda: b"# T\n\n```\n" + b"code line\n" * 100_000,
    "mixed line endings": lambda: b"".join(b"# H%d\r\ntext\rmore\n\n" % i for i in range(50_000)),
}

_CHILD = (
    PEAK_BYTES_FUNCTION
    + """
import sys, time
import mdsel
from mdsel import render_text
start = time.perf_counter()
sources, problems = mdsel.load([sys.argv[1]])
render_text.index(mdsel.index(sources), problems, [], mdsel.Options())
headings = len(sources[0].document.headings) if sources else 0
if headings:
    render_text.select(mdsel.select("section", sources, mdsel.Options(full=True)), [], [])
elapsed = time.perf_counter() - start
print(elapsed, peak_bytes(), headings)
"""
)


def pathological(workdir: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for name, make in PATHOLOGICAL.items():
        path = workdir / "p.md"
        path.write_bytes(make())
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, str(path)], capture_output=True, text=True, timeout=120
        )
        if done.returncode != 0:
            rows.append({"case": name, "error": done.stderr.strip()[-300:]})
            continue
        seconds, peak, headings = done.stdout.split()
        rows.append(
            {"case": name, "bytes": path.stat().st_size, "seconds": float(seconds),
             "peak_rss_mb": int(peak) / 2**20, "headings": int(headings)}
        )  # fmt: skip
    return rows


def machine() -> dict[str, Any]:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": model or platform.processor(), "cores": os.cpu_count(),
            "python": platform.python_version(), "pyromark": pyromark.__version__}  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--skip-pathological", action="store_true")
    parser.add_argument("--cold-rows", metavar="DIR", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cold_rows:  # one of cold_index's processes
        print(json.dumps(cold_index_here(Path(args.cold_rows))))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        rows = cold_index(workdir)
        results: dict[str, Any] = {
            "machine": machine(),
            "cold_index": rows,
            "linearity": linearity(rows),
            "heading_levels": heading_levels(workdir),
            "warm_select": warm_select(workdir),
            "process": process(workdir),
        }
        if not args.skip_pathological:
            results["pathological"] = pathological(workdir)
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"machine: {results['machine']}")
    print("\ncold index (read + parse + render) over the bare event loop")
    print(f"(medians over {PROCESSES} processes; 'low-high': the ratio's range over them; "
          "'in memory': without the file read)")  # fmt: skip
    print(f"{'bytes':>10} {'floor ms':>9} {'index ms':>9} {'ratio':>6} {'low-high':>10} "
          f"{'in memory':>9} {'markdown-it ms':>15}")  # fmt: skip
    for r in rows:
        print(
            f"{r['bytes']:>10.0f} {r['floor_ms']:>9.2f} {r['index_ms']:>9.2f} "
            f"{r['ratio']:>6.2f} {r['ratio_low']:>4.2f}-{r['ratio_high']:<4.2f} "
            f"{r['memory_ratio']:>9.2f} {r['markdown_it_ms']:>15.1f}"
        )
    lv = results["heading_levels"]
    print(
        f"\n{lv['bytes'] / 2**20:.0f} MiB of h1/h2/h3 lines ({lv['headings']:,} headings), CPU: "
        f"{lv['index_s']:.2f} s vs the floor's {lv['floor_s']:.2f} s -> {lv['ratio']:.2f}x"
    )
    for lin in results["linearity"]:
        print(
            f"\nlinearity: {lin['size_factor']:.1f}x the bytes -> "
            f"{lin['time_factor']:.2f}x the time (the floor itself: {lin['floor_factor']:.2f}x)"
        )
    for ws in results["warm_select"]:
        print(
            f"warm select of one section, {ws['bytes']:>9} bytes: {ws['select_ms']:.3f} ms "
            f"({ws['select_over_parse']:.4f} of a parse)"
        )
    pr = results["process"]
    print(
        f"\nmdsel index 10 KB as a process: {pr['mdsel_index_ms']:.1f} ms vs baseline "
        f"{pr['baseline_ms']:.1f} ms -> {pr['ratio']:.2f}x; own import self-time "
        f"{pr['own_import_self_ms']:.1f} ms; typing imported: {pr['typing_imported']}"
    )
    for p in results.get("pathological", []):
        print(f"pathological {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
