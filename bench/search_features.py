"""The second ranking's features for every candidate of every bench_search question, and the
top-1 / top-3 any weights would give them: weights tried in seconds, not in a bench run.

    .venv/bin/python bench/search_features.py --pypi --more            # the weights in use
    .venv/bin/python bench/search_features.py --pypi --set words=1.5   # one weight changed
    .venv/bin/python bench/search_features.py --pypi --dump out.json   # every candidate's features

The candidates are those `?q=` hands to the second ranking (search.CANDIDATES, loosened as the
search loosens a query that finds nothing); a candidate is right as bench_search judges a hit
(its own first line in the answer's innermost section). With the weights in use, the figures are
bench_search's mdsel row.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import bench_search
from bench_links import TreeSpec, pypi_trees
from mdsel.api import load
from mdsel.search import CANDIDATES, _expression, _loosened, own_lines
from mdsel.search_index import SearchIndex
from mdsel.search_query import parse_query
from mdsel.search_rank import RANK_WEIGHTS, features
from mdsel.selector import parse_request


@dataclass
class Asked:
    tree: str
    question: str
    candidates: list[tuple[dict[str, float], bool]]
    """Each candidate's features, and whether it is the answer, in BM25 order."""


def collect(trees: list[TreeSpec]) -> list[Asked]:
    asked: list[Asked] = []
    for tree in trees:
        corpus = bench_search.Corpus(tree)
        sources, _problems = load([str(corpus.root / name) for name in corpus.files])
        index = SearchIndex(sources)
        names = [os.path.relpath(source.path, corpus.root) for source in sources]
        for question in bench_search.questions_of(tree).questions:
            request = parse_request("?q=" + question.question.replace('"', ""))[0]
            query = parse_query(request.params.q or "")
            found: list[tuple[dict[str, float], bool]] = []
            if not isinstance(query, str):
                candidates, _total = index.ranked(_expression(query), CANDIDATES)
                loose = _loosened(query)
                if not candidates and loose is not None:
                    candidates, _total = index.ranked(_expression(loose), CANDIDATES)
                    query = loose._replace(written=query.written)
                for rowid, values in features(index, query, candidates) if candidates else []:
                    section = index.sections[rowid - 1]
                    first, _last = own_lines(index.documents[section.doc], section)
                    found.append((values, corpus.right(question, (names[section.doc], first))))
            asked.append(Asked(tree.name, question.question, found))
        index.close()
    return asked


def scores(asked: list[Asked], weights: dict[str, float]) -> dict[str, tuple[int, int, int]]:
    """Per tree and in total: (top-1, top-3, questions)."""
    totals: dict[str, tuple[int, int, int]] = {}
    for one in asked:
        ranked = sorted(
            one.candidates, key=lambda c: -sum(weights.get(k, 0.0) * v for k, v in c[0].items())
        )
        right = [is_answer for _values, is_answer in ranked[:3]]
        for key in (one.tree, "total"):
            top1, top3, count = totals.get(key, (0, 0, 0))
            totals[key] = (top1 + bool(right and right[0]), top3 + any(right), count + 1)
    return totals


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pypi", action="store_true", help="add bench_links' pinned sdists")
    parser.add_argument("--more", action="store_true", help="add bench_search's --more sdists")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=WEIGHT")
    parser.add_argument("--dump", type=Path, help="write every candidate's features as JSON")
    args = parser.parse_args()
    trees = list(bench_search.DEFAULT_TREES)
    trees += pypi_trees() if args.pypi else []
    trees += pypi_trees(bench_search.MORE_SOURCES) if args.more else []
    weights = dict(RANK_WEIGHTS)
    for item in args.set:
        name, _, value = item.partition("=")
        if name not in weights:
            parser.error(f"--set {item}: no feature {name!r}; features: {sorted(weights)}")
        try:
            weights[name] = float(value)
        except ValueError:
            parser.error(f"--set {item}: the weight should be a number, as in {name}=1.5")
    asked = collect(trees)
    if args.dump:
        rows = [{"tree": a.tree, "question": a.question, "candidates": a.candidates} for a in asked]
        args.dump.write_text(json.dumps(rows), encoding="utf-8")
    found = scores(asked, weights)
    for key, (top1, top3, count) in sorted(found.items(), key=lambda item: item[0] == "total"):
        print(f"{key:20} {count:5} questions  top-1 {100 * top1 / count:5.1f} %  "
              f"top-3 {100 * top3 / count:5.1f} %")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
