"""Linear growth of every stage on documents of growing shapes (tests/growth.py): for each shape
and stage, the CPU time at 2n units over the time at n, in the same run.

    python bench/bench_growth.py            # table
    python bench/bench_growth.py --json     # one JSON object (used by bench/report.py)

A linear stage gives about 2.0, a quadratic one about 4.0. Each time is the least CPU time of
REPEAT cold calls (read, parse, resolve, render) in this process, run alternately with the
other size's; n is twice the tests' base size (tests/growth.py UNITS), so that a stage's fixed
costs and a cold cache weigh little;
tests/mdsel/test_growth.py holds the same stages to a generous bound at four times the units.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.growth import SHAPES, STAGES, UNITS, cpu_seconds  # noqa: E402

REPEAT = 7
TARGET = 2.5
"""The largest ratio counted as linear: 2.0 plus what caches and the allocator add at 2n."""


def measure(workdir: Path) -> list[dict[str, Any]]:
    rows = []
    for shape, make in SHAPES.items():
        units = 2 * UNITS[shape]
        small, large = workdir / "n.md", workdir / "2n.md"
        small.write_bytes(make(units))
        large.write_bytes(make(2 * units))
        for stage, run in STAGES.items():
            # n and 2n in turn, the least of each: a slow spell of the machine then falls on
            # both sides rather than on one.
            base = grown = float("inf")
            for _ in range(REPEAT):
                base = min(base, cpu_seconds(run, str(small), 1))
                grown = min(grown, cpu_seconds(run, str(large), 1))
            rows.append(
                {"shape": shape, "stage": stage, "units": units, "bytes": small.stat().st_size,
                 "n_ms": base * 1e3, "two_n_ms": grown * 1e3, "ratio": grown / max(base, 1e-9)}
            )  # fmt: skip
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rows = measure(Path(tmp))
    worst = max(row["ratio"] for row in rows)
    if args.json:
        print(json.dumps({"rows": rows, "worst": worst, "target": TARGET}, indent=2))
    else:
        print(f"{'shape':<22} {'stage':<15} {'n':>7} {'n ms':>8} {'2n ms':>8} {'ratio':>6}")
        for r in rows:
            print(
                f"{r['shape']:<22} {r['stage']:<15} {r['units']:>7} {r['n_ms']:>8.1f} "
                f"{r['two_n_ms']:>8.1f} {r['ratio']:>6.2f}"
            )
        print(f"worst ratio {worst:.2f} (linear: 2.0; target ≤ {TARGET})")
    return 0 if worst <= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
