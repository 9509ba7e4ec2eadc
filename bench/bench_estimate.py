"""The token estimate against the Claude tokenizer, per kind of content, same run.

    python bench/bench_estimate.py            # table
    python bench/bench_estimate.py --json     # one JSON object (used by bench/report.py)

For every text of tests/token_samples.py (the vendored corpus and trees and the fetched trees:
each document whole, in windows of about 8 KB, its fenced code and its paragraphs of English
prose; paragraphs of prose in twelve other languages; and generated pages of dense content:
hashes, base64, numbers, emoji, URLs, CJK and Indic text, capitals, runs of spaces or of one
character, tabs and controls, made-up words), the estimate
over the real count (tests/tokens.py's tokenizer): the minimum, median and maximum per kind,
for mdsel.estimate and for the estimate it replaced (UTF-8 bytes / 2.5), the baseline. Targets:
every minimum at least 1 (no answer over its budget), and English prose at most 1.5 (answers do
not shrink for nothing). Also the estimate's speed over the corpus, in MB/s.

Exit status 1 when a target is missed, 2 without the tokenizer.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mdsel.estimate import estimate_units, estimated_tokens  # noqa: E402
from tests import token_samples  # noqa: E402
from tests.tokens import _tokenizer  # noqa: E402

PROSE_TARGET = 1.5


def bytes_estimate(text: str) -> int:
    """The estimate before this one: one token per 2.5 bytes of UTF-8, rounded up."""
    return -(-len(text.encode("utf-8", "surrogateescape")) * 2 // 5)


def measure() -> dict[str, Any]:
    tokenizer, reason = _tokenizer()
    if tokenizer is None:
        return {"error": reason}
    samples = list(token_samples.real(token_samples.documents()))
    samples += [("languages", text) for _, text in token_samples.languages()]
    samples += list(token_samples.generated(seed=0, each=20))
    counts = [len(e.ids) for e in tokenizer.encode_batch([text for _, text in samples])]
    by_kind: dict[str, tuple[list[float], list[float]]] = {}
    for (kind, text), real in zip(samples, counts, strict=True):
        if not real:
            continue
        after, before = by_kind.setdefault(kind, ([], []))
        after.append(estimated_tokens(text) / real)
        before.append(bytes_estimate(text) / real)
    rows: list[dict[str, Any]] = []
    for kind, (after, before) in by_kind.items():
        rows.append(
            {
                "kind": kind,
                "texts": len(after),
                "before": [min(before), statistics.median(before), max(before)],
                "after": [min(after), statistics.median(after), max(after)],
            }
        )
    corpus = b"".join(p.read_bytes() for p in token_samples.documents()[:40])
    start = time.perf_counter()
    for _ in range(5):
        estimate_units(corpus)
    speed = 5 * len(corpus) / (time.perf_counter() - start) / 1e6
    prose = next(r for r in rows if r["kind"] == "prose")["after"][2]
    return {
        "tokenizer": "the Claude tokenizer of tests/tokens.py",
        "rows": rows,
        "mb_per_s": speed,
        "met": all(r["after"][0] >= 1 for r in rows) and prose <= PROSE_TARGET,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    result = measure()
    if "error" in result:
        print(json.dumps(result) if args.json else result["error"])
        return 2
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"{'kind':10} {'texts':>6}  before min/median/max  after min/median/max")
        for row in result["rows"]:
            before = "/".join(f"{v:.2f}" for v in row["before"])
            after = "/".join(f"{v:.2f}" for v in row["after"])
            print(f"{row['kind']:10} {row['texts']:>6}  {before:>21}  {after:>20}")
        print(f"estimate speed: {result['mb_per_s']:.0f} MB/s")
    return 0 if result["met"] else 1


if __name__ == "__main__":
    sys.exit(main())
