"""Tokens to see the section holding a given line: Claude Code Read, docgraphical, mdsel.

    .venv/bin/pip install -r bench/requirements-report.txt
    .venv/bin/python bench/workflow.py [--seed N] [--lines N] [--json] [--mdsel PATH]

The task: an agent knows a line of a large Markdown document (from a search, a link, an error
message) and needs the section around it. Documents and tokenizer are those of
bench/token_economy.py (the same pinned PyPI sdists, documents over 2,000 words). For each
document, `--lines` non-blank lines are sampled (seeded), and for each line the tokens the model
reads are counted along five routes:

a. **Read**: Claude Code's Read from the top, in 2,000-line pages, up to the page holding the
   line; lines numbered as Read shows them (`812<TAB>text`).
b. **docgraphical**: `docg toc FILE`, then a numbered Read of the section holding the line (the
   innermost toc heading at or before it, up to the next heading of the same or a higher level;
   the lines before the first heading when it comes before any), at most one 2,000-line page:
   the one holding the line.
c. **index + select**: `mdsel index FILE`, then `mdsel select` of the innermost section holding
   the line, at the page holding it (as in bench/token_economy.py).
d. **L select**: `mdsel select L<line> FILE` alone: no index needed when the line is known.
   Measured through the `mdsel` CLI; when this checkout's selector grammar has no `L<line>`
   form, the column is reported as not available.
e. **outline Read + select**: the Read result as the hook's outline mode replaces it (the
   index and the reminder, numbered by Claude Code like any Read), then the select of (c).

Every answer is checked to hold the line's text, or the run stops: a route that does not reach
the line would flatter it. Targets: median (d) ≤ 0.5 × median (b); median (c) ≤ median (b).

Writes bench/out/workflow.json.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
from pathlib import Path
from random import Random
from typing import Any

import mdsel
import token_economy as te
from mdsel_claude.hook.files import REMINDER
from mdsel_claude.hook.outline import index_text

OUT = te.OUT
READ_PAGE_LINES = 2000
"""Lines per Read page: Claude Code's default `limit`."""
D_OVER_B_TARGET = 0.5
C_OVER_B_TARGET = 1.0
ROUTES = ("read", "docg", "index_select", "line_select", "outline_select")


def numbered(lines: list[str], first: int) -> str:
    """Lines as Claude Code's Read shows them: `N<TAB>text`, carriage returns dropped."""
    return "\n".join(
        f"{number}\t{line.rstrip(chr(13))}" for number, line in enumerate(lines, first)
    )


def read_pages(lines: list[str], start: int, end: int, line: int) -> tuple[str, int]:
    """The one page of lines `start..end` (1-based, inclusive) that holds `line`, and its first
    line number; pages start every READ_PAGE_LINES lines from `start`."""
    first = start + READ_PAGE_LINES * ((line - start) // READ_PAGE_LINES)
    last = min(end, first + READ_PAGE_LINES - 1)
    return numbered(lines[first - 1 : last], first), first


def read_route(lines: list[str], line: int, count: te.Counter) -> int:
    """Read from the top, page after page, until the page holding `line` has been read."""
    total = 0
    for first in range(1, line + 1, READ_PAGE_LINES):
        last = min(len(lines), first + READ_PAGE_LINES - 1)
        total += count(numbered(lines[first - 1 : last], first))
    return total


def docg(*args: str, cwd: Path) -> str:
    executable = shutil.which("docg", path=str(Path(sys.executable).parent)) or "docg"
    done = subprocess.run(
        [executable, *args], cwd=cwd, capture_output=True, text=True, check=False, timeout=120
    )
    if done.returncode != 0:
        raise RuntimeError(f"docg {' '.join(args)}: {done.stderr.strip()[-300:]}")
    return done.stdout


def toc_headings(output: str) -> list[dict[str, Any]]:
    """`docg toc --json` output as a list; a document without ATX headings gets a sentence."""
    try:
        headings: list[dict[str, Any]] = json.loads(output)
    except ValueError:
        if "No Markdown headings found" in output:
            return []
        raise RuntimeError(f"docg toc --json: unexpected output {output[:200]!r}") from None
    return headings


def docg_section(headings: list[dict[str, Any]], line: int, last_line: int) -> tuple[int, int]:
    """Lines of the innermost toc section holding `line`, read off the toc as an agent would."""
    best: tuple[int, int] | None = None
    for position, heading in enumerate(headings):
        if heading["line"] > line:
            break
        later = [h for h in headings[position + 1 :] if h["level"] <= heading["level"]]
        end = later[0]["line"] - 1 if later else last_line
        if end >= line:
            best = (heading["line"], end)
    if best is not None:
        return best
    following = [h["line"] for h in headings if h["line"] > line]
    return 1, (following[0] - 1 if following else last_line)


def line_selector_supported(mdsel_cli: str, path: Path) -> tuple[bool, str]:
    """Whether `mdsel select L1` is a selector here; the CLI's own words when it is not."""
    done = subprocess.run(
        [mdsel_cli, "select", "L1", str(path)], capture_output=True, text=True, check=False
    )
    return done.returncode == 0, done.stderr.strip().splitlines()[0] if done.stderr else ""


def line_select(mdsel_cli: str, line: int, relative: str, cwd: Path) -> str:
    done = subprocess.run(
        [mdsel_cli, "select", f"L{line}", relative],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    if done.returncode != 0:
        raise RuntimeError(f"mdsel select L{line} {relative}: {done.stderr.strip()[-300:]}")
    return done.stdout


def outline_read(path: Path) -> str:
    """What the model sees of a whole-file Read replaced by the hook's outline mode."""
    index = index_text(str(path))
    if index is None:
        raise RuntimeError(f"{path}: the outline mode would not replace this Read")
    return numbered(f"{index}{REMINDER}".split("\n"), 1)


def holds(answer: str, wanted: str, what: str) -> None:
    if wanted not in answer:
        raise RuntimeError(f"{what} does not hold the line {wanted!r}")


def measure(
    path: Path,
    project_dir: Path,
    count: te.Counter,
    rng: Random,
    samples: int,
    mdsel_cli: str | None,
) -> dict[str, Any]:
    """One document: its fixed costs (toc, index, outline) and the routes for sampled lines."""
    data = path.read_bytes()
    relative = path.relative_to(project_dir).as_posix()
    text = data.decode("utf-8-sig")
    sources, problems = mdsel.load([relative], cwd=str(project_dir))
    if problems:
        raise RuntimeError(f"{relative}: {problems[0].message}")
    document = sources[0].document
    lines = text.split("\n")
    candidates = [n for n, content in enumerate(lines, start=1) if content.strip()]
    chosen = sorted(rng.sample(candidates, min(samples, len(candidates))))
    toc = count(docg("toc", relative, cwd=project_dir))
    headings = toc_headings(docg("toc", "--json", relative, cwd=project_dir))
    index = count(te.run("index", None, relative, project_dir, False))
    outline = count(outline_read(path))
    rows = []
    for line in chosen:
        wanted = lines[line - 1].strip()[:60]
        start, end = docg_section(headings, line, len(lines))
        section_read, _ = read_pages(lines, start, end, line)
        holds(section_read, wanted, f"{relative} lines {start}-{end}")
        selector = te.page_holding(te.section_for(document, line), line, relative, project_dir)
        answer = te.run("select", selector, relative, project_dir, False)
        holds(answer, wanted, f"{relative} {selector}")
        select = count(answer)
        row: dict[str, Any] = {
            "line": line,
            "docg_section": [start, end],
            "selector": selector,
            "read": read_route(lines, line, count),
            "docg": toc + count(section_read),
            "index_select": index + select,
            "line_select": None,
            "outline_select": outline + select,
        }
        if mdsel_cli is not None:
            by_line = line_select(mdsel_cli, line, relative, project_dir)
            holds(by_line, wanted, f"{relative} L{line}")
            row["line_select"] = count(by_line)
        rows.append(row)
    return {
        "file": relative,
        "words": len(data.split()),
        "lines": len(lines),
        "headings": len(document.headings),
        "docg_headings": len(headings),
        "tokens_whole": count(text),
        "tokens_toc": toc,
        "tokens_index": index,
        "tokens_outline_read": outline,
        "samples": rows,
    }


def summarize(documents: list[dict[str, Any]], line_supported: bool) -> dict[str, Any]:
    rows = [(d, row) for d in documents for row in d["samples"]]
    medians: dict[str, float | None] = {}
    shares: dict[str, float | None] = {}
    for route in ROUTES:
        values = [row[route] for _, row in rows if row[route] is not None]
        medians[route] = statistics.median(values) if values else None
        shares[route] = (
            statistics.median(row[route] / d["tokens_whole"] for d, row in rows) if values else None
        )
    docg_median = medians["docg"] or 0
    d_over_b = medians["line_select"] / docg_median if medians["line_select"] else None
    c_over_b = (medians["index_select"] or 0) / docg_median if docg_median else None
    return {
        "documents": len(documents),
        "samples": len(rows),
        "median_tokens": medians,
        "median_share_of_document": shares,
        "median_tokens_whole": statistics.median(d["tokens_whole"] for d in documents),
        "median_tokens_toc": statistics.median(d["tokens_toc"] for d in documents),
        "median_tokens_index": statistics.median(d["tokens_index"] for d in documents),
        "line_select_over_docg": d_over_b,
        "index_select_over_docg": c_over_b,
        "line_selector_available": line_supported,
        "targets": {
            "line_select_at_most_half_of_docg": (
                None if d_over_b is None else d_over_b <= D_OVER_B_TARGET
            ),
            "index_select_at_most_docg": None if c_over_b is None else c_over_b <= C_OVER_B_TARGET,
        },
    }


def collect(seed: int, samples: int, mdsel_cli: str | None = None) -> dict[str, Any]:
    count, tokenizer, exact = te.load_counter()
    beside = shutil.which("mdsel", path=str(Path(sys.executable).parent))
    found = mdsel_cli or beside or shutil.which("mdsel")
    if found is None:
        raise RuntimeError("the mdsel command is not installed (pip install -e .)")
    documents: list[dict[str, Any]] = []
    errors: list[str] = []
    support: tuple[bool, str] | None = None
    for requirement in te.SOURCES:
        name, version = requirement.split("==")
        archive = te.fetch(requirement, te.CACHE / "sdists")
        project_dir = te.CACHE / "docs" / f"{te.normalized(name)}-{version}"
        license_text, files = te.unpack(archive, project_dir)
        if not te.PERMISSIVE.search(license_text):
            continue
        for path in files:
            if len(path.read_bytes().split()) <= te.MIN_WORDS:
                continue
            if support is None:
                support = line_selector_supported(found, path)
            relative = path.relative_to(project_dir).as_posix()
            rng = Random(f"{seed}:{name}:{relative}")
            try:
                result = measure(
                    path, project_dir, count, rng, samples, found if support[0] else None
                )
            except RuntimeError as error:  # e.g. not UTF-8: mdsel refuses it (as token_economy)
                errors.append(f"{name}: {error}")
                continue
            documents.append({"project": name, **result})
    supported, refusal = support or (False, "no document")
    return {
        "tokenizer": tokenizer,
        "tokenizer_exact": exact,
        "seed": seed,
        "lines_per_document": samples,
        "min_words": te.MIN_WORDS,
        "read_page_lines": READ_PAGE_LINES,
        "docgraphical": _version("docgraphical"),
        "line_selector": "available" if supported else f"not available: {refusal}",
        "line_selector_cli": found,
        "errors": errors,
        "documents": documents,
        "summary": summarize(documents, supported),
    }


def _version(package: str) -> str:
    from importlib import metadata

    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seed", type=int, default=5, help="chooses the lines (default 5)")
    parser.add_argument("--lines", type=int, default=5, help="lines per document (default 5)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument(
        "--mdsel", help="the mdsel command for route (d) (default: the one beside this Python)"
    )
    args = parser.parse_args(argv)
    results = collect(args.seed, args.lines, args.mdsel)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "workflow.json").write_text(json.dumps(results, indent=2, ensure_ascii=False))
    summary = results["summary"]
    if args.json:
        print(json.dumps(results, indent=2, ensure_ascii=False))
    else:
        print(f"tokenizer: {results['tokenizer']}")
        print(f"{summary['documents']} documents, {summary['samples']} lines")
        for route in ROUTES:
            tokens = summary["median_tokens"][route]
            share = summary["median_share_of_document"][route]
            shown = "not available" if tokens is None else f"{tokens:,.0f} tokens ({share:.1%})"
            print(f"{route:>15}: median {shown}")
        print(f"line selector: {results['line_selector']}")
        print(f"targets: {summary['targets']}")
    return 0 if all(v is not False for v in summary["targets"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
