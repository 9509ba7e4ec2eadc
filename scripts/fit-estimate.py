#!/usr/bin/env python3
"""Fit the token estimate's weights (src/mdsel/estimate.py) by linear programming.

Each text of tests/token_samples.py becomes the counts of the estimate's features, and its
real count comes from the tokenizer of tests/tokens.py. The weights found are the smallest
(summed over the texts, each text as its share of its kind, real documents and English prose
thrice) that keep every text at or above its real count (times --margin where the estimate can
move: not for texts priced mostly by their bytes outside ASCII, which are a token each already)
and English prose at most --prose times it. Needs SciPy (`pip install scipy`, not a dependency
of the project); prints the weights to paste into estimate.py, and the ratios per kind.

    python scripts/fit-estimate.py [--margin 1.03] [--prose 1.45] [--hold-out]

--hold-out fits on every other language and seed only, and reports the rest apart: how the
weights do on texts they were not fitted to.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from mdsel import estimate  # noqa: E402
from tests import token_samples  # noqa: E402
from tests.tokens import _tokenizer  # noqa: E402

NAMES = [
    *(f"count {key.decode()!r}" for key in estimate.COUNT_WEIGHTS),
    "LINE_BREAK",
    *(f"run {name}" for name in estimate.RUN_WEIGHTS),
    "UNKNOWN_WORD",
]
REPEATED = ["=", "a", "0", "Z", "\n", "\r\n", "ab", "a ", "1.", "()", "- ", "Ab", "a1"]


def features(data: bytes) -> tuple[list[int], int]:
    """The counts each weight multiplies, and the units no weight changes (NFKC growth)."""
    classes = data.translate(estimate._CLASSES)
    counts = [classes.count(key) for key in estimate.COUNT_WEIGHTS]
    counts.append(classes.count(b"n") - classes.count(b"nn"))
    for name in estimate.RUN_WEIGHTS:
        runs = data.translate(estimate._RUNS[name])
        counts.append(runs.count(b"ba") + (runs[0] == 97))
    words = b" ".join(estimate._WORD.findall(data)).lower().split()
    counts.append(sum(word not in estimate._known_words() for word in words))
    fixed = estimate._expansion_units(data) if not data.isascii() else 0
    return counts, fixed


def samples(hold_out: bool) -> list[tuple[str, str, bool]]:
    """(kind, text, fitted): every text, and whether the fit sees it."""
    found = [(k, t, True) for k, t in token_samples.real(token_samples.documents()[:400])]
    found = [(("english" if k == "prose" else k), t, f) for k, t, f in found]
    for seed in range(5):
        fitted = not hold_out or seed % 2 == 0
        found += [(k, t, fitted) for k, t in token_samples.generated(seed=seed, each=10)]
    found += [("repeats", u * (n // len(u)), True) for u in REPEATED for n in (300, 2000, 12000)]
    languages = sorted({language for language, _ in token_samples.languages()})
    for language, text in token_samples.languages():
        fitted = not hold_out or languages.index(language) % 2 == 0
        found.append((f"language {language}", text, fitted))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--margin", type=float, default=1.03)
    parser.add_argument("--prose", type=float, default=1.45)
    parser.add_argument("--hold-out", action="store_true")
    args = parser.parse_args()
    # Imported by name: neither is a dependency, and they need not be there to type-check.
    np: Any = importlib.import_module("numpy")
    linprog: Any = importlib.import_module("scipy.optimize").linprog

    tokenizer, reason = _tokenizer()
    if tokenizer is None:
        print(reason, file=sys.stderr)
        return 2
    texts = samples(args.hold_out)
    reals = np.array([len(e.ids) for e in tokenizer.encode_batch([t for _, t, _ in texts])], float)
    rows = [features(text.encode("utf-8", "surrogateescape")) for _, text, _ in texts]
    counts = np.array([r[0] for r in rows], float)
    fixed = np.array([r[1] for r in rows], float)
    unit = estimate.UNITS_PER_TOKEN
    kinds = [kind.split()[0] for kind, _, _ in texts]
    fit = [i for i, (_, _, fitted) in enumerate(texts) if fitted and reals[i] > 0]
    share = Counter(kinds[i] for i in fit)
    n = counts.shape[1]
    a_ub, b_ub = [], []
    for i in fit:
        bytes_priced = counts[i][0] * estimate.NON_ASCII_BYTE + fixed[i] >= 0.5 * unit * reals[i]
        margin = 1.0 if bytes_priced else args.margin
        a_ub.append(-counts[i])
        b_ub.append(fixed[i] - unit * reals[i] * margin)  # estimate >= margin * real
    for i in fit:
        if kinds[i] == "english":
            a_ub.append(counts[i])
            b_ub.append(args.prose * unit * reals[i] - fixed[i])  # estimate <= prose * real
    cost = np.zeros(n)
    for i in fit:
        heavy = 3.0 if kinds[i] in ("english", "document", "window", "code") else 1.0
        cost += heavy * counts[i] / (unit * reals[i]) / share[kinds[i]]
    bounds = [(estimate.NON_ASCII_BYTE, estimate.NON_ASCII_BYTE)] + [(0, None)] * (n - 1)
    result = linprog(cost, A_ub=np.array(a_ub), b_ub=np.array(b_ub), bounds=bounds)
    if result.x is None:
        print(f"no weights meet those bounds: {result.message}", file=sys.stderr)
        return 1
    weights = np.round(result.x)
    for name, weight in zip(NAMES, weights, strict=True):
        print(f"{name:24} {int(weight)}")
    ratios = (counts @ weights + fixed) / (unit * np.maximum(reals, 1))
    by_kind: dict[str, list[float]] = {}
    for i, (kind, _, fitted) in enumerate(texts):
        if reals[i] > 0:
            by_kind.setdefault(kind.split()[0] + ("" if fitted else " (held out)"), []).append(
                float(ratios[i])
            )
    for kind, values in sorted(by_kind.items()):
        low, mid, high = min(values), statistics.median(values), max(values)
        print(f"{kind:28} {len(values):5} texts  {low:.2f} / {mid:.2f} / {high:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
