"""The index of a documentation tree: its time against parsing the same documents, same run.

    python bench/bench_tree.py            # table
    python bench/bench_tree.py --json     # one JSON object (used by bench/report.py)

For each tree, the time of the whole index as `mdsel index DIR` computes it (directory walk,
reads, parse, tree, the map fitted to the answer budget, text) against two baselines run
alternately with it in the same run (medians compared):

- parsing them: reading every file and parsing it into a Document (`mdsel.parse_document`),
  what any answer about these documents costs; the target is at most 1.5 times;
- the floor: reading every file and a bare loop over every event of `pyromark.events_with_range`
  on its text, for reference (what the parse itself costs over the parser is bench_engine's).

The answer's size is reported in bytes and in estimated tokens (mdsel.budget).

Trees: the vendored Vite and Vue documentation (tests/trees, 177 files), the first 1,000 READMEs
of @stdlib/stats (fetched into .trees/ by scripts/test.sh), and 1,000 generated documents (the
test suite's generator).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyromark

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mdsel.cli import run  # noqa: E402
from mdsel.estimate import estimated_tokens  # noqa: E402
from mdsel.files import expand_paths  # noqa: E402
from mdsel.parse import OPTIONS  # noqa: E402
from mdsel.tree import parse_document  # noqa: E402
from tests.mdsel.test_catalog import write_tree  # noqa: E402

STDLIB = ROOT / ".trees" / "stdlib-stats-0.4.1"
TARGET = 1.5


def floor(paths: list[str], cwd: str) -> None:
    """Read every file and iterate over every parser event of it: the least an index costs."""
    for path in paths:
        with open(os.path.join(cwd, path), "rb") as handle:
            text = handle.read().decode("utf-8", "replace")
        for _event in pyromark.events_with_range(text, options=OPTIONS):
            pass


def parsing(paths: list[str], cwd: str) -> None:
    """Read and parse every file into a Document: what any answer about them costs."""
    for path in paths:
        with open(os.path.join(cwd, path), "rb") as handle:
            parse_document(handle.read())


def interleaved(functions: list[Callable[[], object]], repeat: int) -> list[float]:
    """Median times of the functions run in turn, so drift hits them alike. The cyclic
    collector is off, as `mdsel` itself runs (mdsel.cli.main): otherwise each function would
    pay for collecting what the one before it left."""
    gc.disable()
    samples: list[list[float]] = [[] for _ in functions]
    for _ in range(repeat):
        for function, times in zip(functions, samples, strict=True):
            start = time.perf_counter()
            function()
            times.append(time.perf_counter() - start)
    gc.enable()
    gc.collect()
    return [statistics.median(times) for times in samples]


def measure(name: str, directory: Path, limit: int | None, repeat: int) -> dict[str, Any]:
    cwd = str(directory)
    paths = list(expand_paths(["."], cwd=cwd).paths)
    environ = {}
    if limit is not None and len(paths) > limit:
        paths = paths[:limit]
        environ["MDSEL_MAX_FILES"] = str(limit)
    out = run(["index", "."], environ, cwd)
    size = len((out.stdout + out.stderr).encode())
    index_time, parse_time, floor_time = interleaved(
        [
            lambda: run(["index", "."], environ, cwd),
            lambda: parsing(paths, cwd),
            lambda: floor(paths, cwd),
        ],
        repeat,
    )
    total_bytes = sum(os.path.getsize(os.path.join(cwd, p)) for p in paths)
    return {
        "tree": name,
        "documents": len(paths),
        "bytes": total_bytes,
        "answer_bytes": size,
        "answer_tokens_estimate": estimated_tokens(out.stdout + out.stderr),
        "index_ms": 1000 * index_time,
        "parse_ms": 1000 * parse_time,
        "floor_ms": 1000 * floor_time,
        "ratio": index_time / parse_time,
        "ratio_floor": index_time / floor_time,
        "target": TARGET,
        "first_line": out.stdout.splitlines()[0][:120] if out.stdout else "",
        "closing_line": out.stdout.splitlines()[-1][:200] if out.stdout else "",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    trees = ROOT / "tests" / "trees"
    results = [measure("tests/trees (Vite + Vue docs)", trees, None, args.repeat)]
    if STDLIB.is_dir():
        results.append(measure("@stdlib/stats READMEs", STDLIB, 1000, args.repeat))
    with tempfile.TemporaryDirectory() as scratch:
        write_tree(Path(scratch), 1000)
        results.append(measure("1,000 generated documents", Path(scratch), None, args.repeat))
    if args.json:
        print(json.dumps({"trees": results}, indent=2))
        return 0
    print(
        f"{'tree':32} {'docs':>5} {'MB':>5} {'answer':>7} {'index':>8} {'parse':>8} "
        f"{'floor':>8} {'/parse':>6} {'/floor':>6}"
    )
    for r in results:
        print(
            f"{r['tree']:32} {r['documents']:5} {r['bytes'] / 1e6:5.2f} "
            f"{r['answer_tokens_estimate']:6}t {r['index_ms']:6.1f}ms {r['parse_ms']:6.1f}ms "
            f"{r['floor_ms']:6.1f}ms {r['ratio']:5.2f}x {r['ratio_floor']:5.2f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
