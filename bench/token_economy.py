"""Token economy on real Markdown from PyPI sdists: index and index + one section against Read.

    .venv/bin/pip install -r bench/requirements-report.txt
    .venv/bin/python bench/token_economy.py [--seed N] [--json]

Each run fetches the pinned source distributions below with `pip download` into
bench/.cache/token-economy/ (never committed), checks that each project's license is
permissive, and takes every Markdown file in them. For each document over 2,000 words it counts
the tokens of:

- the whole file (what reading it costs; Claude Code's Read also numbers every line, so the
  real cost is higher still);
- `mdsel index FILE` (text output, exactly as the tool returns it);
- that index plus the one `mdsel select` call returning a line chosen at random (seeded): the
  innermost heading section containing the line, at the page that holds it
  (`h3.4?page=2`), or the page of `root` holding it when the line comes before the first
  heading;
- `docgraphical toc FILE` (docgraphical==1.0.0, a peer on PyPI, pinned in
  bench/requirements-report.txt): its text outline, exactly as its command prints it, counted
  with the same tokenizer in the same run. The target: a median index no larger than it.

Tokens come from the Claude tokenizer shipped in the anthropic 0.34.2 wheel
(`anthropic/tokenizer.json`, loaded with `tokenizers`, without installing anthropic), taken from
.wheelhouse where scripts/test.sh puts it (downloaded there if missing; tests/tokens.py counts
with the same file). It is the tokenizer of the models before Claude 3, so counts approximate
today's. If it cannot be loaded, counts fall back to an estimate (UTF-8 bytes / 4), labelled
as such in every output.

Writes bench/out/token_economy.json and the plot (default docs/benchmarks/token_economy.png).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from random import Random
from typing import Any

import mdsel
from mdsel import Options
from mdsel.names import MARKDOWN_SUFFIXES

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "bench" / ".cache" / "token-economy"
OUT = ROOT / "bench" / "out"
PLOT = ROOT / "docs" / "benchmarks" / "token_economy.png"

# Pinned, so every run measures the same documents. Chosen for the Markdown their sdists carry
# (changelogs, API references, user guides) under permissive licenses.
SOURCES = [
    "anthropic==2.12.0",
    "attrs==26.1.0",
    "black==26.10.1",
    "griffe==2.4.1",
    "hatch==1.18.2",
    "httpx==0.28.1",
    "markdown==3.11.3",
    "mkdocstrings==1.0.8",
    "openai==3.54.0",
    "pip==26.3",
    "pydantic==2.14.3",
    "pymdown-extensions==13.1",
    "requests==2.34.2",
    "starlette==1.10.0",
]
TOKENIZER_WHEEL = "anthropic==0.34.2"
WHEELHOUSE = ROOT / ".wheelhouse"
"""Where scripts/test.sh downloads that wheel (the tests count tokens with it too)."""

MIN_WORDS = 2000
INDEX_TARGET = 0.10
"""Median index cost, as a share of the whole document (documents over MIN_WORDS words)."""
INDEX_SELECT_TARGET = 0.20
"""Median cost of the index plus one section."""
INDEX_TOKEN_LIMIT = 10_000
"""No index may exceed this: where Claude Code starts warning about a tool result's size."""
PEER = "docgraphical==1.0.0"
"""The outline it prints (`docgraphical toc FILE`) is what the median index must not exceed."""

PERMISSIVE = re.compile(
    r"\b(MIT|BSD|Apache|ISC|PSF|Python Software Foundation|0BSD|Zlib|Unlicense)\b", re.I
)


def pip(*args: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", *args, "--quiet", "--disable-pip-version-check"],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def fetch(requirement: str, directory: Path, binary: bool = False) -> Path:
    """The archive of one pinned requirement, downloaded once into `directory`."""
    name, version = requirement.split("==")
    directory.mkdir(parents=True, exist_ok=True)

    def find() -> Path | None:
        for path in sorted(directory.iterdir()):
            # name-version then a separator: "-py3-none-any.whl", ".tar.gz"
            if normalized(path.name).startswith(normalized(f"{name}-{version}") + "_"):
                return path
        return None

    found = find()
    if found is None:
        kind = ["--only-binary", ":all:"] if binary else ["--no-binary", ":all:"]
        pip("download", *kind, "--no-deps", requirement, "-d", str(directory))
        found = find()
    if found is None:
        raise RuntimeError(f"pip download {requirement} left no archive in {directory}")
    return found


Counter = Callable[[str], int]


def load_counter() -> tuple[Counter, str, bool]:
    """A token counter, its description, and whether it is a real Claude tokenizer."""
    try:
        from tokenizers import Tokenizer

        wheel = fetch(TOKENIZER_WHEEL, WHEELHOUSE, binary=True)
        with zipfile.ZipFile(wheel) as archive:
            tokenizer = Tokenizer.from_str(archive.read("anthropic/tokenizer.json").decode())
    except Exception as error:  # any failure means the labelled estimate below
        print(f"tokenizer unavailable ({error}); using an estimate", file=sys.stderr)
        return (
            lambda text: (len(text.encode()) + 3) // 4,
            "estimate: UTF-8 bytes / 4 (the Claude tokenizer could not be loaded)",
            False,
        )
    description = (
        f"Claude tokenizer from the {TOKENIZER_WHEEL} wheel (pre-Claude-3; a close "
        "approximation of today's counts)"
    )
    return (lambda text: len(tokenizer.encode(text).ids)), description, True


def license_of(metadata: str) -> str:
    fields: dict[str, str] = {}
    classifiers: list[str] = []
    for line in metadata.split("\n\n", 1)[0].splitlines():
        key, _, value = line.partition(": ")
        if key == "Classifier" and value.startswith("License ::"):
            classifiers.append(value.rsplit(" :: ", 1)[-1])
        elif key in ("License-Expression", "License") and key not in fields:
            fields[key] = value.strip()
    if "License-Expression" in fields:
        return fields["License-Expression"]
    license_field = fields.get("License", "").splitlines()[0] if fields.get("License") else ""
    if license_field and len(license_field) < 40:
        return license_field
    return ", ".join(classifiers) or license_field or "unknown"


def unpack(archive: Path, target: Path) -> tuple[str, list[Path]]:
    """The project's license and its Markdown files, written below `target`."""
    markdown: list[Path] = []
    license_text = "unknown"
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            parts = member.name.split("/")
            if not member.isfile() or ".." in parts or member.name.startswith("/"):
                continue
            if len(parts) == 2 and parts[1] == "PKG-INFO":
                handle = tar.extractfile(member)
                if handle is not None:
                    license_text = license_of(handle.read().decode("utf-8", "replace"))
            if len(parts) > 1 and member.name.lower().endswith(MARKDOWN_SUFFIXES):
                handle = tar.extractfile(member)
                if handle is None:
                    continue
                path = target.joinpath(*parts[1:])
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(handle.read())
                markdown.append(path)
    return license_text, sorted(markdown)


def run(command: str, selector: str | None, path: str, cwd: Path, json_mode: bool) -> str:
    outcome = mdsel.run_command(command, selector, [path], Options(json=json_mode), cwd=str(cwd))
    if outcome.exit_code != 0:
        raise RuntimeError(f"mdsel {command} {selector or ''} {path}: {outcome.stderr.strip()}")
    return outcome.stdout


def peer_toc(path: Path) -> str | None:
    """What `docgraphical toc FILE` prints, or None when the peer is not installed."""
    result = subprocess.run(
        [sys.executable, "-m", "docgraphical.cli", "toc", str(path)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        check=False,
    )
    if result.returncode != 0:
        if "No module named" in result.stderr:
            return None
        raise RuntimeError(f"docgraphical toc {path}: {result.stderr.strip()[-200:]}")
    return result.stdout


def section_for(document: mdsel.Document, line: int) -> str:
    """The innermost heading section containing `line`, or `root` before the first heading."""
    best = None
    for heading in document.headings:
        if heading.line_start > line:
            break
        if heading.section_line_end >= line:
            best = heading
    return "root" if best is None else f"h{best.level}.{best.ordinal}"


def page_holding(selector: str, line: int, relative: str, cwd: Path) -> str:
    """`selector` at the page whose lines include `line` (as selected through the engine)."""
    page = 1
    while True:
        query = f"{selector}?page={page}"
        match = json.loads(run("select", query, relative, cwd, True))["data"]["matches"][0]
        pagination = match.get("pagination")
        if match["line_start"] <= line <= match["line_end"] or pagination is None:
            return selector if page == 1 else query
        if page >= pagination["total_pages"]:
            raise RuntimeError(f"line {line} not on any page of {selector} in {relative}")
        page += 1


def measure(path: Path, project_dir: Path, count: Counter, rng: Random) -> dict[str, Any]:
    data = path.read_bytes()
    relative = path.relative_to(project_dir).as_posix()
    sources, problems = mdsel.load([relative], cwd=str(project_dir))
    if problems:
        raise RuntimeError(f"{relative}: {problems[0].message}")
    document = sources[0].document
    lines = data.splitlines()
    candidates = [number for number, text in enumerate(lines, start=1) if text.strip()]
    line = rng.choice(candidates)
    selector = page_holding(section_for(document, line), line, relative, project_dir)
    whole = count(data.decode("utf-8-sig"))
    index = count(run("index", None, relative, project_dir, False))
    answer = run("select", selector, relative, project_dir, False)
    # The one call must really return the chosen line, or the comparison would flatter us.
    wanted = lines[line - 1].decode("utf-8-sig").strip()[:60]
    if wanted not in answer:
        raise RuntimeError(f"{relative}: {selector} does not hold line {line}")
    selected = count(answer)
    toc = peer_toc(path)
    return {
        "file": relative,
        "words": len(data.split()),
        "bytes": len(data),
        "lines": len(lines),
        "headings": len(document.headings),
        "tokens_whole": whole,
        "tokens_index": index,
        "tokens_select": selected,
        "tokens_peer_toc": None if toc is None else count(toc),
        "line": line,
        "selector": selector,
        "index_share": index / whole,
        "index_select_share": (index + selected) / whole,
    }


def summarize(documents: list[dict[str, Any]]) -> dict[str, Any]:
    def worst(key: str) -> dict[str, Any]:
        document = max(documents, key=lambda d: d[key])
        return {"value": document[key], "project": document["project"], "file": document["file"]}

    index_median = statistics.median(d["index_share"] for d in documents)
    pair_median = statistics.median(d["index_select_share"] for d in documents)
    peer = [d["tokens_peer_toc"] for d in documents if d["tokens_peer_toc"] is not None]
    peer_median = statistics.median(peer) if len(peer) == len(documents) else None
    index_tokens_median = statistics.median(d["tokens_index"] for d in documents)
    over_limit = [
        {"project": d["project"], "file": d["file"], "tokens_index": d["tokens_index"]}
        for d in documents
        if d["tokens_index"] > INDEX_TOKEN_LIMIT
    ]
    return {
        "documents": len(documents),
        "projects": len({d["project"] for d in documents}),
        "index_share_median": index_median,
        "index_share_worst": worst("index_share"),
        "index_select_share_median": pair_median,
        "index_select_share_worst": worst("index_select_share"),
        "tokens_whole_median": statistics.median(d["tokens_whole"] for d in documents),
        "tokens_index_median": index_tokens_median,
        "peer": PEER,
        "tokens_peer_toc_median": peer_median,
        "documents_index_at_most_peer_toc": sum(
            d["tokens_index"] <= d["tokens_peer_toc"]
            for d in documents
            if d["tokens_peer_toc"] is not None
        ),
        "tokens_index_total": sum(d["tokens_index"] for d in documents),
        "tokens_peer_toc_total": sum(peer) if peer_median is not None else None,
        "tokens_index_worst": worst("tokens_index"),
        "indexes_over_limit": over_limit,
        "targets": {
            "index_median_at_most_10_percent": index_median <= INDEX_TARGET,
            "index_select_median_at_most_20_percent": pair_median <= INDEX_SELECT_TARGET,
            "no_index_over_10000_tokens": not over_limit,
            # Not measured (peer not installed) counts as missed: the comparison is a target.
            "index_median_at_most_peer_toc": peer_median is not None
            and index_tokens_median <= peer_median,
        },
    }


def plot(documents: list[dict[str, Any]], target: Path, tokenizer: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, axes = pyplot.subplots(figsize=(8, 4.5), dpi=100)
    sizes = [d["tokens_whole"] for d in documents]
    axes.scatter(sizes, [100 * d["index_share"] for d in documents], label="index", marker="o")
    axes.scatter(
        sizes,
        [100 * d["index_select_share"] for d in documents],
        label="index + the section holding a random line",
        marker="^",
    )
    axes.axhline(100 * INDEX_TARGET, linestyle="--", linewidth=1, color="C0")
    axes.axhline(100 * INDEX_SELECT_TARGET, linestyle="--", linewidth=1, color="C1")
    axes.set_xscale("log")
    axes.set_xlabel("document size (tokens of the whole file, log scale)")
    axes.set_ylabel("cost, % of reading the whole file")
    axes.set_title(f"{len(documents)} documents over {MIN_WORDS:,} words from PyPI sdists")
    axes.legend(loc="upper right")
    axes.grid(True, which="major", alpha=0.3)
    figure.text(0.01, 0.01, tokenizer.split(" (")[0], fontsize=7, alpha=0.7)
    figure.tight_layout()
    target.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(target)
    pyplot.close(figure)


def collect(seed: int) -> dict[str, Any]:
    count, tokenizer, exact = load_counter()
    projects: list[dict[str, Any]] = []
    documents: list[dict[str, Any]] = []
    for requirement in SOURCES:
        name, version = requirement.split("==")
        archive = fetch(requirement, CACHE / "sdists")
        project_dir = CACHE / "docs" / f"{normalized(name)}-{version}"
        license_text, files = unpack(archive, project_dir)
        entry: dict[str, Any] = {
            "project": name,
            "version": version,
            "license": license_text,
            "markdown_files": len(files),
        }
        projects.append(entry)
        if not PERMISSIVE.search(license_text):
            entry["skipped"] = "license not known to be permissive"
            continue
        measured = 0
        for path in files:
            if len(path.read_bytes().split()) <= MIN_WORDS:
                continue
            # One generator per document, so a document's line does not depend on the others.
            rng = Random(f"{seed}:{name}:{path.relative_to(project_dir).as_posix()}")
            try:
                result = measure(path, project_dir, count, rng)
            except RuntimeError as error:  # e.g. not UTF-8: mdsel refuses it, Read would not
                entry.setdefault("errors", []).append(str(error))
                continue
            documents.append({"project": name, "license": license_text, **result})
            measured += 1
        entry["documents_over_threshold"] = measured
    return {
        "tokenizer": tokenizer,
        "tokenizer_exact": exact,
        "seed": seed,
        "min_words": MIN_WORDS,
        "projects": projects,
        "documents": documents,
        "summary": summarize(documents),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seed", type=int, default=5, help="chooses the random lines (default 5)")
    parser.add_argument("--plot", type=Path, default=PLOT, help=f"PNG to write (default {PLOT})")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    results = collect(args.seed)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "token_economy.json").write_text(json.dumps(results, indent=2, ensure_ascii=False))
    plot(results["documents"], args.plot, results["tokenizer"])
    if args.json:
        print(json.dumps(results, indent=2, ensure_ascii=False))
    else:
        summary = results["summary"]
        print(f"tokenizer: {results['tokenizer']}")
        print(f"{summary['documents']} documents from {summary['projects']} projects")
        print(f"index: median {summary['index_share_median']:.1%}, worst "
              f"{summary['index_share_worst']['value']:.1%}")  # fmt: skip
        print(f"index + one section: median {summary['index_select_share_median']:.1%}, worst "
              f"{summary['index_select_share_worst']['value']:.1%}")  # fmt: skip
        print(f"largest index: {summary['tokens_index_worst']['value']} tokens")
        peer_median = summary["tokens_peer_toc_median"]
        print(f"median index: {summary['tokens_index_median']} tokens; {PEER} toc: "
              f"{'not installed' if peer_median is None else f'{peer_median} tokens'}")  # fmt: skip
        print(f"targets: {summary['targets']}")
    return 0 if all(results["summary"]["targets"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
