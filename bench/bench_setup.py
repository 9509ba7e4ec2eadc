"""Worst cases of the settings-file limits: time and peak memory of install, uninstall, doctor.

A repository controls its `.claude/settings*.json`, so setup must stay bounded whatever they hold:
the largest file it reads (16 MiB, just under the cap), the deepest (100 levels), one just over
the cap, and a link to `/dev/zero`. Each command runs as its own process; its wall time is
reported as a ratio over the same command in an empty project measured in the same run, and
its peak RSS from the kernel's accounting of that process. Budget (absolute, as the limits are
about harm, not speed): every case under 5 s and 1 GB.

    .venv/bin/python bench/bench_setup.py [--runs N]

Exit status 1 when a case is over budget.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.peak_memory import maxrss_bytes  # noqa: E402

MAX_SECONDS = 5.0
MAX_RSS_BYTES = 1 << 30
CAP = 16 * 1024 * 1024
SCRIPT = Path(sys.executable).parent / "mdsel-claude"


def big_settings(size: int) -> str:
    """A valid settings file of about `size` bytes: a long permission list, as a user might."""
    rule = '    "Bash(./scripts/check-%08d.sh:*)",\n'
    count = (size - 64) // len(rule % 0)
    rules = "".join(rule % i for i in range(count)).rstrip(",\n")
    return '{\n  "permissions": {\n    "allow": [\n' + rules + "\n    ]\n  }\n}\n"


def deep_settings() -> str:
    return '{"a": ' + "[" * 99 + "]" * 99 + ', "b": "' + "x" * (CAP - 1024) + '"}'


def run_once(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, int, int]:
    """Wall seconds, peak RSS in bytes and exit status of one run (os.wait4 for its rusage)."""
    start = time.perf_counter()
    process = subprocess.Popen(
        argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return time.perf_counter() - start, maxrss_bytes(usage.ru_maxrss), process.returncode


def case(name: str, content: str | None, link: str | None, root: Path) -> Path:
    project = root / name
    (project / ".claude").mkdir(parents=True)
    settings = project / ".claude" / "settings.local.json"  # the default (local) scope's
    if content is not None:
        settings.write_text(content)
    if link is not None:
        settings.symlink_to(link)
    return project


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    if not SCRIPT.exists():
        sys.exit("mdsel-claude is not installed in this environment (pip install -e .)")
    worst_ok = True
    with tempfile.TemporaryDirectory() as temp:
        root = Path(temp)
        env = {**os.environ, "HOME": str(root / "home"), "XDG_STATE_HOME": str(root / "state")}
        env.pop("CLAUDE_CONFIG_DIR", None)
        (root / "home").mkdir()
        cases = {
            "empty project (baseline)": case("empty", None, None, root),
            "16 MiB settings": case("big", big_settings(CAP - 4096), None, root),
            "16 MiB, 100 levels deep": case("deep", deep_settings(), None, root),
            "just over 16 MiB": case("over", big_settings(CAP + 4096), None, root),
            "link to /dev/zero": case("zero", None, "/dev/zero", root),
        }
        rows = []
        for command in (["install"], ["uninstall"], ["doctor"]):
            base = None
            for label, project in cases.items():
                times, peaks, status = [], [], 0
                for _ in range(runs):
                    seconds, rss, status = run_once([str(SCRIPT), *command], project, env)
                    times.append(seconds)
                    peaks.append(rss)
                if command == ["install"] and status == 0:
                    run_once([str(SCRIPT), "uninstall"], project, env)  # next run starts clean
                median = statistics.median(times)
                base = base or median
                ok = max(times) < MAX_SECONDS and max(peaks) < MAX_RSS_BYTES
                worst_ok &= ok
                rows.append((command[0], label, median, median / base, max(peaks), status, ok))
    print(f"{'command':9} {'case':26} {'median s':>9} {'ratio':>6} {'peak RSS':>9} exit budget")
    for command_name, label, median, ratio, peak, status, ok in rows:
        print(
            f"{command_name:9} {label:26} {median:9.3f} {ratio:6.2f} "
            f"{peak / 2**20:7.0f} MB {status:>4} {'ok' if ok else 'OVER'}"
        )
    print(json.dumps({"budget_seconds": MAX_SECONDS, "budget_rss_mb": MAX_RSS_BYTES >> 20}))
    return 0 if worst_ok else 1


if __name__ == "__main__":
    sys.exit(main())
