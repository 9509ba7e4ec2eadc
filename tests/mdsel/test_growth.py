"""Every stage grows linearly on every shape of tests/growth.py: four times the units may cost
at most ten times the CPU (a quadratic stage costs sixteen). The ratios themselves are
bench/bench_growth.py's; this bound is generous so that a loaded machine cannot break it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.growth import SHAPES, STAGES, UNITS, cpu_seconds

FACTOR = 4
BOUND = 10.0


@pytest.mark.slow
@pytest.mark.parametrize("shape", SHAPES)
def test_every_stage_grows_linearly(shape: str, tmp_path: Path) -> None:
    small, large = tmp_path / "small.md", tmp_path / "large.md"
    units = UNITS[shape]
    small.write_bytes(SHAPES[shape](units))
    large.write_bytes(SHAPES[shape](units * FACTOR))
    ratios = {}
    for name, stage in STAGES.items():
        # Small and large in turn, the least of each: a slow spell of the machine then falls on
        # both sides. A floor of a millisecond keeps a stage too fast to time from reading as a
        # big ratio.
        base = grown = float("inf")
        for _ in range(3):
            base = min(base, cpu_seconds(stage, str(small), 1))
            grown = min(grown, cpu_seconds(stage, str(large), 1))
        ratios[name] = grown / max(base, 1e-3)
    assert max(ratios.values()) <= BOUND, ratios
