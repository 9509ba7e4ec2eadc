"""Runs every benchmark in one go and writes docs/benchmarks.md: machine, tokens, speed ratios.

    .venv/bin/pip install -r bench/requirements-report.txt
    .venv/bin/python bench/report.py            # run everything (several minutes), write the page
    .venv/bin/python bench/report.py --reuse    # rewrite the page from bench/out/*.json

Each benchmark runs as its own process, as a user would run it; raw results are kept in
bench/out/ (not committed). Speed figures are ratios over a baseline measured in the same run,
so the page can be compared across machines; the machine is described at the top anyway.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import sys
import textwrap
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
OUT = BENCH / "out"
PAGE = ROOT / "docs" / "benchmarks.md"
PLOT = ROOT / "docs" / "benchmarks" / "token_economy.png"
TIMEOUT = 3600


def run_script(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(BENCH / name), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


def json_script(name: str, *args: str) -> dict[str, Any]:
    """A script that prints one JSON object; its exit status only says whether targets were met."""
    if not (BENCH / name).is_file():
        return {"error": f"bench/{name} is not in this checkout"}
    done = run_script(name, *args)
    try:
        result: dict[str, Any] = json.loads(done.stdout)
    except ValueError:
        return {"error": f"bench/{name} exited {done.returncode}: {done.stderr.strip()[-500:]}"}
    return result


def text_script(name: str, parse: Callable[[str], dict[str, Any]]) -> dict[str, Any]:
    """A script that prints a table: its numbers, read back by `parse`."""
    done = run_script(name)
    try:
        result = parse(done.stdout)
    except (AttributeError, ValueError) as error:
        return {"error": f"bench/{name}: cannot read its output ({error}): {done.stdout[-500:]}"}
    result["output"] = done.stdout
    return result


def number(pattern: str, text: str) -> float:
    found = re.search(pattern, text, re.MULTILINE)
    if found is None:
        raise ValueError(f"no match for {pattern!r}")
    return float(found.group(1))


def parse_server(text: str) -> dict[str, Any]:
    return {
        "start_ms": number(r"^\s*mdsel-claude\s+([\d.]+) ms", text),
        "minimal_start_ms": number(r"^\s*minimal SDK server\s+([\d.]+) ms", text),
        "start_ratio": number(r"^\s*ratio\s+([\d.]+)", text),
        "cold_select_ms": number(r"^\s*cold \(first call\)\s+([\d.]+) ms", text),
        "warm_select_p50_ms": number(r"^\s*warm p50\s+([\d.]+) ms", text),
        "warm_select_p90_ms": number(r"^\s*warm p90\s+([\d.]+) ms", text),
        "cold_over_warm": number(r"^\s*cold / warm p50\s+([\d.]+)", text),
        "trivial_p50_ms": number(r"^\s*trivial tool p50\s+([\d.]+) ms", text),
        "warm_over_trivial": number(r"^\s*warm / trivial\s+([\d.]+)", text),
    }


def parse_hook(text: str) -> dict[str, Any]:
    rows = [
        {"case": case, "ms": float(ms), "ratio": float(ratio)}
        for case, ms, ratio in re.findall(
            r"^mdsel-claude hook, (.+?)\s+([\d.]+) ms\s+ratio ([\d.]+)", text, re.MULTILINE
        )
    ]
    if not rows:
        raise ValueError("no hook rows")
    result: dict[str, Any] = {
        "baseline_ms": number(r"^baseline: .*?\s([\d.]+) ms", text),
        "rows": rows,
    }
    # VS Code's other tool calls, also over Claude Code's silent Read of the same run.
    result["silent"] = [
        {"case": case, "ratio": float(ratio), "silent_ms": float(silent_ms)}
        for case, ratio, silent_ms in re.findall(
            r"^(VS Code .+?): ratio ([\d.]+) over Claude Code's silent Read \(10 words\): "
            r"([\d.]+) ms",
            text,
            re.MULTILINE,
        )
    ]
    result["in_process"] = [
        {"case": case, "us": float(us), "ratio": float(ratio), "silent_us": float(silent_us)}
        for case, us, ratio, silent_us in re.findall(
            r"^in process, (VS Code .+?): ([\d.]+) µs\s+ratio ([\d.]+) over Claude Code's "
            r"silent Read \(10 words\): ([\d.]+) µs",
            text,
            re.MULTILINE,
        )
    ]
    outline = re.search(
        r"^outline mode, (\d+) KB Markdown:\s+([\d.]+) ms\s+ratio ([\d.]+) over "
        r"`mdsel index` of it: ([\d.]+) ms",
        text,
        re.MULTILINE,
    )
    if outline is not None:
        kb, hook_ms, ratio, index_ms = outline.groups()
        result["outline"] = {
            "kb": int(kb),
            "ms": float(hook_ms),
            "ratio": float(ratio),
            "index_ms": float(index_ms),
        }
    return result


def first_line(path: str, prefix: str) -> str:
    try:
        for line in Path(path).read_text().splitlines():
            if line.startswith(prefix):
                return line.split(":" if ":" in line else "=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return ""


def version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def machine() -> dict[str, Any]:
    memory = first_line("/proc/meminfo", "MemTotal")
    commit = subprocess.run(
        ["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    affinity = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    return {
        "cpu": first_line("/proc/cpuinfo", "model name") or platform.processor() or "unknown",
        "cores": os.cpu_count(),
        "cores_usable": affinity,
        "memory": f"{int(memory.split()[0]) / 1024 / 1024:.1f} GiB" if memory else "unknown",
        "system": first_line("/etc/os-release", "PRETTY_NAME") or platform.system(),
        "kernel": platform.release(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "packages": {
            name: version(name)
            for name in (
                "mdsel-claude",
                "pyromark",
                "mcp",
                "tokenizers",
                "matplotlib",
                "docgraphical",
            )
        },
        "commit": commit or "unknown",
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }


def collect(reuse: bool) -> dict[str, Any]:
    OUT.mkdir(parents=True, exist_ok=True)
    steps: dict[str, Callable[[], dict[str, Any]]] = {
        "machine": machine,
        "tokens": lambda: json_script("token_economy.py", "--json", "--plot", str(PLOT)),
        "workflow": lambda: json_script("workflow.py", "--json"),
        # bench_engine.py: cold index by size over the bare parser loop, warm select, CLI start.
        "engine": lambda: json_script("bench_engine.py", "--json"),
        # bench_memory.py: peak memory and time of a cold index over the bare parser loop.
        "memory": lambda: json_script("bench_memory.py", "--json"),
        # bench_growth.py: every stage at 2n units of a growing shape over n.
        "growth": lambda: json_script("bench_growth.py", "--json"),
        "server": lambda: text_script("bench_server.py", parse_server),
        # bench_server_parts.py: the warm select with parts of the server swapped out.
        "server_parts": lambda: json_script("bench_server_parts.py", "--rounds", "3", "--json"),
        "hook": lambda: text_script("bench_hook.py", parse_hook),
        "caps": lambda: json_script("bench_caps.py", "--json"),
        # bench_select_work.py: selects naming millions of nodes against the index of the same.
        "select_work": lambda: json_script("bench_select_work.py", "--json"),
        # bench_tree.py: the index of whole trees against parsing their documents.
        "tree": lambda: json_script("bench_tree.py", "--json"),
        # bench_links.py: in-repository links with a fragment resolved, against a reference.
        "links": lambda: json_script("bench_links.py", "--pypi", "--json"),
        # bench_search.py: labelled questions from the trees' links, mdsel's ?q= and the routes
        # beside it (grep, plain FTS5, heading titles, the peers on PyPI that install here).
        "search": lambda: json_script("bench_search.py", "--pypi", "--more", "--peers", "--json"),
        # bench_search_speed.py: cold and warm searches of 1,000 documents, and memory.
        "search_speed": lambda: json_script("bench_search_speed.py", "--json"),
        # bench_skill.py: the Agent Skill's session-start tokens against the MCP tools'.
        "skill": lambda: json_script("bench_skill.py"),
        # bench_estimate.py: the token estimate over the Claude tokenizer's count, per kind.
        "estimate": lambda: json_script("bench_estimate.py", "--json"),
    }
    results: dict[str, Any] = {}
    for name, step in steps.items():
        saved = OUT / f"report_{name}.json"
        if reuse and saved.is_file():
            results[name] = json.loads(saved.read_text())
            continue
        print(f"running {name} …", file=sys.stderr, flush=True)
        results[name] = step()
        saved.write_text(json.dumps(results[name], indent=2, ensure_ascii=False))
    return results


# --- the page ----------------------------------------------------------------------------------


def pct(value: float) -> str:
    return f"{100 * value:.1f} %"


def ms(value: float) -> str:
    return f"{value:.2f} ms" if value < 10 else f"{value:.1f} ms"


def size(count: float) -> str:
    for unit, scale in (("MB", 1e6), ("KB", 1e3)):
        if count >= scale:
            shown = f"{count / scale:g}" if count % scale == 0 else f"{count / scale:.1f}"
            return f"{shown} {unit}"
    return f"{count:.0f} B"


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    return lines + ["| " + " | ".join(row) + " |" for row in rows]


def machine_section(m: dict[str, Any]) -> list[str]:
    packages = ", ".join(f"{name} {value}" for name, value in m["packages"].items())
    usable = f" ({m['cores_usable']} usable)" if m.get("cores_usable") else ""
    return [
        "## Machine",
        "",
        f"- CPU: {m['cpu']}, {m['cores']} cores{usable}; memory {m['memory']}",
        f"- System: {m['system']}, Linux {m['kernel']}",
        f"- {m['python']}; {packages}",
        f"- Measured {m['date']} at commit `{m['commit']}`",
        "",
    ]


def token_section(t: dict[str, Any]) -> list[str]:
    if "error" in t:
        return ["## Token economy", "", f"Not measured: {t['error']}", ""]
    s = t["summary"]
    yes = {True: "met", False: "**missed**"}
    targets = s["targets"]
    worst_index = s["index_share_worst"]
    worst_pair = s["index_select_share_worst"]
    biggest = s["tokens_index_worst"]
    worst_doc = next(
        d
        for d in t["documents"]
        if (d["project"], d["file"]) == (worst_index["project"], worst_index["file"])
    )
    over = s["indexes_over_limit"]
    lines = [
        "## Token economy",
        "",
        f"{s['documents']} Markdown documents of more than {t['min_words']:,} words, from "
        f"{s['projects']} permissively licensed projects on PyPI: every Markdown file in their "
        "source distributions (changelogs, API references, guides), fetched by "
        "`bench/token_economy.py` at run time and not kept in this repository. For each "
        "document, three costs in tokens:",
        "",
        "- **whole file**: its text, what reading it costs (Claude Code's Read also numbers "
        "every line, so reading really costs more);",
        "- **index**: what `mdsel_index` returns for it;",
        "- **index + section**: the index plus the one `mdsel_select` answer holding a line "
        f"picked at random (seed {t['seed']}, non-blank lines): the innermost heading section "
        "containing that line, at the page that holds it (`h3.4?page=2`), or the page of "
        "`root` holding it when the line comes before the first heading;",
        f"- **peer outline**: what `docgraphical toc` ({s.get('peer', 'docgraphical')}, a peer "
        "on PyPI) prints for it: heading lines with their line numbers, no selectors, sizes or "
        "block counts.",
        "",
        f"Tokens: {t['tokenizer']}.",
        "",
        *table(
            ["Target", "Result", ""],
            [
                [
                    "median index ≤ 10 % of the whole file",
                    f"{pct(s['index_share_median'])} (worst {pct(worst_index['value'])}: "
                    f"{worst_index['project']} `{worst_index['file']}`)",
                    yes[targets["index_median_at_most_10_percent"]],
                ],
                [
                    "median index + one section ≤ 20 %",
                    f"{pct(s['index_select_share_median'])} (worst {pct(worst_pair['value'])}: "
                    f"{worst_pair['project']} `{worst_pair['file']}`)",
                    yes[targets["index_select_median_at_most_20_percent"]],
                ],
                [
                    "median index ≤ the peer's outline",
                    _peer_result(s),
                    yes[targets.get("index_median_at_most_peer_toc", False)],
                ],
                [
                    "no index over 10,000 tokens",
                    f"largest {biggest['value']:,} tokens ({biggest['project']} "
                    f"`{biggest['file']}`)" + (f"; {len(over)} over the limit" if over else ""),
                    yes[targets["no_index_over_10000_tokens"]],
                ],
            ],
        ),
        "",
        f"Median document: {s['tokens_whole_median']:,.0f} tokens whole, "
        f"{s['tokens_index_median']:,.0f} tokens of index. Each index line gives a heading's "
        "selector, title, start line and section words (`h2.1 Opinions 76 300`); the JSON index "
        "keeps full spans.",
        "",
        "![Cost of the index and of index + one section, as a share of reading the whole "
        "file, against document size](benchmarks/token_economy.png)",
        "",
        "The index costs most where sections are short: "
        f"{worst_index['project']} `{worst_index['file']}` has {worst_doc['headings']} headings "
        f"for {worst_doc['words']:,} words, so its outline is a large part of its text. The "
        "worst shares of index + section come from lines that fall in a section as long as a "
        "page (2,000 words): the answer is then most of the file, still paginated. The index's "
        "share falls as documents grow, because the outline is capped at 250 headings (deeper "
        "levels collapse into counts such as `+14`).",
        "",
        "### Sources",
        "",
    ]
    lines += table(
        ["Project", "Version", "License", "Markdown files", "Over 2,000 words"],
        [
            [
                p["project"],
                p["version"],
                p["license"],
                str(p["markdown_files"]),
                str(p.get("documents_over_threshold", p.get("skipped", ""))),
            ]
            for p in t["projects"]
        ],
    )
    lines += ["", "### Every document", ""]
    lines += table(
        [
            "Project",
            "File",
            "Words",
            "Whole",
            "Index",
            "Peer outline",
            "Index %",
            "Section",
            "Index + section %",
        ],
        [
            [
                d["project"],
                f"`{d['file']}`",
                f"{d['words']:,}",
                f"{d['tokens_whole']:,}",
                f"{d['tokens_index']:,}",
                "–" if d.get("tokens_peer_toc") is None else f"{d['tokens_peer_toc']:,}",
                pct(d["index_share"]),
                f"`{d['selector']}` {d['tokens_select']:,}",
                pct(d["index_select_share"]),
            ]
            for d in sorted(t["documents"], key=lambda d: d["tokens_whole"])
        ],
    )
    return [*lines, ""]


def _peer_result(s: dict[str, Any]) -> str:
    peer = s.get("tokens_peer_toc_median")
    if peer is None:
        return "not measured (docgraphical not installed)"
    return (
        f"{s['tokens_index_median']:,.0f} against {peer:,.0f} tokens; index no larger on "
        f"{s['documents_index_at_most_peer_toc']} of {s['documents']} documents; in all "
        f"{s['tokens_index_total']:,} against {s['tokens_peer_toc_total']:,} tokens"
    )


WORKFLOW_ROUTES = [
    ("read", "(a) Claude Code Read from the top, 2,000-line pages, up to the line"),
    ("docg", "(b) docgraphical `toc` + numbered Read of the section"),
    ("index_select", "(c) `mdsel_index` + `mdsel_select` of the section"),
    ("line_select", "(d) `mdsel_select` of `L<line>` alone"),
    ("outline_select", "(e) outline mode's replaced Read + `mdsel_select` of the section"),
]


def workflow_section(w: dict[str, Any]) -> list[str]:
    title = "## Reaching the section that holds a line"
    if "error" in w:
        return [title, "", f"Not measured: {w['error']}", ""]
    s = w["summary"]
    yes = {True: "met", False: "**missed**", None: "not measured"}
    rows = []
    for key, label in WORKFLOW_ROUTES:
        tokens = s["median_tokens"][key]
        share = s["median_share_of_document"][key]
        if tokens is None:
            rows.append([label, "not available", "—"])
        else:
            rows.append([label, f"{tokens:,.0f}", pct(share)])
    d_over_b, c_over_b = s["line_select_over_docg"], s["index_select_over_docg"]
    targets = [
        [
            "median (d) ≤ 0.5 × median (b)",
            "not available" if d_over_b is None else f"{d_over_b:.2f} ×",
            yes[s["targets"]["line_select_at_most_half_of_docg"]],
        ],
        [
            "median (c) ≤ median (b)",
            "—" if c_over_b is None else f"{c_over_b:.2f} ×",
            yes[s["targets"]["index_select_at_most_docg"]],
        ],
    ]
    lines = [
        title,
        "",
        "An agent often knows a line of a large document before it knows its section: Grep "
        "found it, a link or an error message named it. `bench/workflow.py` counts the tokens "
        "the model reads to see the section holding such a line, along five routes, on the "
        f"documents of the token economy above ({s['documents']} documents, "
        f"{w['lines_per_document']} non-blank lines each picked at random with seed "
        f"{w['seed']}: {s['samples']} lines). Claude Code shows a Read's lines numbered "
        "(`812<TAB>text`), so the Read routes count those numbers too. docgraphical "
        f"{w['docgraphical']} is a peer on PyPI: its `toc` lists the ATX headings with their "
        "lines, and the section is then read from its heading to the next heading of the same "
        "or a higher level (one 2,000-line page at most: the one with the line). Each answer is "
        "checked to hold the line.",
        "",
        *table(["Route", "Median tokens", "Median share of the document"], rows),
        "",
        *table(["Target", "Result", ""], targets),
        "",
        f"Median document: {s['median_tokens_whole']:,.0f} tokens; its docgraphical `toc` "
        f"{s['median_tokens_toc']:,.0f}, its mdsel index {s['median_tokens_index']:,.0f}. "
        "Route (e) is what the hook's outline mode costs: the index in place of the file "
        "(numbered by Claude Code like any Read, and followed by the reminder), then one "
        "select.",
        "",
    ]
    if not s["line_selector_available"]:
        refusal = w["line_selector"].partition(": ")[2]
        lines += [
            "Route (d) was not measured: this checkout's `mdsel select` has no `L<line>` "
            f"selector (`mdsel select L1` answers `{refusal}`).",
            "",
        ]
    return lines


def cold_verdict(rows: list[dict[str, Any]]) -> str:
    """The cold index's ratios in this run against the 1.3 the compiled scan met."""
    low = min(row["ratio"] for row in rows)
    high = max(row["ratio"] for row in rows)
    return (
        f"In this run the cold index takes {low:.2f}–{high:.2f} times the floor; the 1.3 that "
        "the compiled scan met is not a target of the Python one, whose fixed costs weigh most "
        "on the smallest document."
    )


def performance_section(results: dict[str, Any]) -> list[str]:
    engine, server, hook = results["engine"], results["server"], results["hook"]
    rows: list[list[str]] = []
    notes: list[str] = []
    if "error" in engine:
        notes.append(f"Engine figures not measured: {engine['error']}.")
    else:
        for row in engine["cold_index"]:
            spread = (
                f" ({row['ratio_low']:.2f}–{row['ratio_high']:.2f} over {row['processes']} "
                "processes)" if "ratio_low" in row else ""
            )  # fmt: skip
            rows.append([
                f"cold `mdsel index`, {size(row['bytes'])} (read, parse, render)",
                ms(row["index_ms"]),
                f"bare pyromark event loop on the same text: {ms(row['floor_ms'])}",
                f"{row['ratio']:.2f}{spread}",
            ])  # fmt: skip
        for row in engine["cold_index"][:1] if "memory_ratio" in engine["cold_index"][0] else []:
            rows.append([
                f"the same, {size(row['bytes'])}, the file's bytes already in memory (parse and "
                "render: what the file read adds is the difference)",
                "—",
                "bare pyromark event loop on the same text",
                f"{row['memory_ratio']:.2f}",
            ])  # fmt: skip
        if "heading_levels" in engine:
            levels = engine["heading_levels"]
            rows.append([
                f"cold `mdsel index`, {levels['bytes'] / 2**20:.0f} MiB of interleaved one-line "
                "h1/h2/h3 headings, CPU time (target ≤ 2.0)",
                f"{levels['index_s']:.2f} s",
                f"bare pyromark event loop on the same text: {levels['floor_s']:.2f} s",
                f"{levels['ratio']:.2f}",
            ])  # fmt: skip
        for warm in engine["warm_select"]:
            rows.append([
                f"warm select of one section, {size(warm['bytes'])} document already parsed",
                ms(warm["select_ms"]),
                f"parsing that document: {ms(warm['parse_ms'])}",
                f"{warm['select_over_parse']:.4f}",
            ])  # fmt: skip
        process = engine["process"]
        rows.append([
            "`mdsel index` on 10 KB, whole process (target ≤ 1.2)",
            ms(process["mdsel_index_ms"]),
            f"`python -c \"import argparse, json, pyromark\"`: {ms(process['baseline_ms'])}",
            f"{process['ratio']:.2f}",
        ])  # fmt: skip
    if "error" in server:
        notes.append(f"Server figures not measured: {server['error']}.")
    else:
        rows.append([
            "`mdsel-claude` start → `initialize` answered",
            ms(server["start_ms"]),
            f"minimal server on the same SDK: {ms(server['minimal_start_ms'])}",
            f"{server['start_ratio']:.2f}",
        ])  # fmt: skip
        rows.append([
            "warm `mdsel_select` over stdio, 1.5 MB document, SDK client (target ≤ 1.5)",
            ms(server["warm_select_p50_ms"]),
            f"the same SDK's trivial tool: {ms(server['trivial_p50_ms'])}",
            f"{server['warm_over_trivial']:.2f}",
        ])  # fmt: skip
        rows.append([
            "`mdsel_select` over stdio, 1.5 MB document, warm p50 (cached parse)",
            ms(server["warm_select_p50_ms"]),
            f"the first (cold) call: {ms(server['cold_select_ms'])}",
            f"{1 / server['cold_over_warm']:.3f}",
        ])  # fmt: skip
    if "error" in hook:
        notes.append(f"Hook figures not measured: {hook['error']}.")
    else:
        for row in hook["rows"]:
            # "10 words", "1 GB NULs" are Claude Code Reads; the others name their payload.
            what = f"Read of {row['case']}" if row["case"][:1].isdigit() else row["case"]
            rows.append([
                f"`mdsel-claude hook`, {what} (budget ≤ 1.25)",
                ms(row["ms"]),
                f"`python -c \"import json\"`: {ms(hook['baseline_ms'])}",
                f"{row['ratio']:.2f}",
            ])  # fmt: skip
        by_case = {row["case"]: row for row in hook["rows"]}
        for silent in hook.get("silent", []):
            rows.append([
                f"`mdsel-claude hook`, {silent['case']}, over Claude Code's silent Read",
                ms(by_case[silent["case"]]["ms"]) if silent["case"] in by_case else "—",
                f"`mdsel-claude hook`, Read of 10 words: {ms(silent['silent_ms'])}",
                f"{silent['ratio']:.2f}",
            ])  # fmt: skip
        for done in hook.get("in_process", []):
            rows.append([
                f"Claude Code's hook adapter in process, {done['case']}",
                f"{done['us']:.1f} µs",
                f"the same for Claude Code's silent Read of 10 words: {done['silent_us']:.1f} µs",
                f"{done['ratio']:.2f}",
            ])  # fmt: skip
        if "outline" in hook:
            outline = hook["outline"]
            rows.append([
                f"`mdsel-claude hook --mode outline`, Read of {outline['kb']} KB replaced",
                ms(outline["ms"]),
                f"`mdsel index` of that file: {ms(outline['index_ms'])}",
                f"{outline['ratio']:.2f}",
            ])  # fmt: skip
    lines = [
        "## Speed",
        "",
        "Every figure is a median over repeated runs, divided by a baseline measured in the same "
        "run (interleaved with it where both are processes), so ratios carry across machines "
        "better than milliseconds do. Below 1 means faster than the baseline.",
        "",
        *table(["What", "Time", "Baseline (same run)", "Ratio"], rows),
        "",
        *notes,
    ]
    if "error" not in engine:
        lines += [
            "",
            "Where the cold index's time goes (profiled with cProfile and line_profiler, and "
            "counted in machine instructions with callgrind, which neighbours on shared cores do "
            "not disturb): the floor is pulldown-cmark's events made into Python dicts, some "
            "3,300 instructions each. In Python, mdsel added about half as much again: a quarter "
            "of the floor in the scan loop (a dict test per event to find the Start events, a few"
            " appends per block and heading, each heading's inline events read for its title), an"
            " eighth in passes over the bytes for what the index prints (the word mask, its "
            "words, the newlines), and about a tenth in the section stack, the few hundred "
            "headings an outline shows and reading the file. Until 050c8e0 the scan and the word "
            "and line counts had a compiled twin (src/mdsel/_scan.c, built where a C compiler was "
            "at install), which took the cold index to 1.28 times the floor at 10 KB and 1.11–1.17 "
            "from 100 KB to 5 MB on the same bench; it is gone. It was quadratic in the pieces of "
            "one heading (a 1 MB file that is one setext heading took 184 s to index, against "
            "about a second in Python), it made an install's speed depend on whether a compiler "
            "happened to be there, and it was a second implementation of the hot loop to keep "
            "equal to the first. The one scan is the Python one, and the rows above are its "
            "figures: what it costs over the compiled twin is milliseconds on a megabyte, which "
            "no agent feels. The growing shapes below hold every stage to linear growth. The "
            "read's share is the difference between the 10 KB row and the row 'already in "
            "memory': two checks (the stat before the open, so that a device is never opened, "
            "and the fstat after it, so that the file checked is the file read) and their system "
            "calls, which cost about what `Path.read_bytes` does. Which process runs the "
            "measurement moves the 10 KB ratio by a tenth (its memory layout), so each figure is "
            "the median of several. "
            + cold_verdict(engine["cold_index"])
            + " Interleaved h1/h2/h3 headings cost the"
            " most per byte: three events per heading, and for each a step of the section stack. "
            "A whole `mdsel index` process is mostly start-up: the usual command lines are read "
            "without argparse, patterns are compiled on first use, and records are made without "
            "compiling code per class.",
        ]
        lines += ["", "Scaling of the cold index with document size:", ""]
        lines += [
            f"- {lin['size_factor']:.0f}× the bytes ({size(lin['from_bytes'])} → "
            f"{size(lin['to_bytes'])}): {lin['time_factor']:.2f}× the time "
            f"(the bare parser loop: {lin['floor_factor']:.2f}×)"
            for lin in engine["linearity"]
        ]
        growth = results.get("growth", {})
        if growth.get("rows"):
            lines += [
                "",
                "Growing shapes (bench/bench_growth.py): each stage's CPU time at 2n units over "
                f"its time at n (linear: 2.0, quadratic: 4.0; target ≤ {growth['target']}); "
                f"the worst is {growth['worst']:.2f}.",
                "",
            ]
            stages = list(dict.fromkeys(row["stage"] for row in growth["rows"]))
            shapes = list(dict.fromkeys(row["shape"] for row in growth["rows"]))
            ratio = {(row["shape"], row["stage"]): row["ratio"] for row in growth["rows"]}
            units = {row["shape"]: row["units"] for row in growth["rows"]}
            lines += table(
                ["Shape (n units)", *stages],
                [
                    [f"{shape} ({units[shape]:,})"]
                    + [f"{ratio[shape, stage]:.2f}" for stage in stages]
                    for shape in shapes
                ],
            )
        if engine.get("pathological"):
            lines += [
                "",
                "Pathological documents (`mdsel index`, then every section selected):",
                "",
            ]
            lines += table(
                ["Document", "Size", "Headings", "Time", "Peak memory"],
                [
                    [p["case"], "—", "—", "failed: " + p["error"], "—"]
                    if "error" in p
                    else [
                        p["case"],
                        size(p["bytes"]),
                        f"{p['headings']:,}",
                        f"{p['seconds']:.2f} s",
                        f"{p['peak_rss_mb']:.0f} MB",
                    ]
                    for p in engine["pathological"]
                ],
            )
    if "error" not in server:
        lines += [
            "",
            "Where a warm `mdsel_select` goes (profiled in the server process, and by swapping "
            "parts of the server out over real stdio): on a 1.5 MB document, three quarters of "
            "the server's own time was SHA-256 of the whole file, needed before the parse cache "
            "could answer. An unchanged file is now recognised by the fstat signature of the "
            "descriptor the read policy opened (device, inode, size, mtime, ctime), trusted only "
            "once its last change is more than 3 s old, as git treats its racy window; until "
            "then, and whenever the signature changes, the file is read and hashed as before. "
            "Measured next by swapping parts of the server out (`bench/bench_server_parts.py`, "
            "table below): the call's own work took a third of a millisecond in the server but "
            "half that when repeated at once, so a warm call is mostly caches gone cold between "
            "calls, and saving a few microseconds here and there did not show over stdio. What "
            "did: the SDK's own transport reads every line in a worker thread and writes every "
            "answer in two more hand-offs (write, then flush), and those hand-offs cost as much "
            "as the work. The server now reads a pipe or socket on stdin when the event loop sees "
            "it ready and gives answers to one writer thread that the loop never waits for "
            "(server/stdio.py). Also: paths resolved by the kernel (an `O_PATH` open and "
            "`/proc/self/fd`) instead of `os.path.realpath`'s walk in Python (server/where.py), "
            "and the usual numbered selectors (`h2.1/code.0`) read by one pattern, held equal to "
            "the parser's answer by a test. The worker thread for the call itself stays: it "
            "keeps a call cancellable and a slow file system from stalling the others.",
        ]
    parts = results.get("server_parts", {"error": "not run"})
    if "error" not in parts:
        names = {
            "server": "the server as shipped",
            "sdk transport": "the same on the SDK's own stdio transport",
            "fixed answer, thread": "no work (a fixed answer of the same size), worker thread",
            "fixed answer, inline": "no work, answered on the event loop",
            "server, work twice": "each call's work done twice",
        }
        lines += ["", *table(
            ["Warm `mdsel_select`, 1.5 MB", "Time", "Trivial tool (same run)", "Ratio"],
            [
                [names.get(name, name), ms(row["warm_ms"]), ms(row["trivial_ms"]),
                 f"{row['ratio']:.2f}"]
                for name, row in parts["variants"].items()
            ],
        )]  # fmt: skip
        lines += [
            "",
            f"The call's own work (`run_tool`) inside the server: {parts['run_tool_ms']:.3f} ms; "
            f"done again at once, with caches warm: {parts['run_tool_again_ms']:.3f} ms.",
        ]
    return [*lines, ""]


def caps_section(c: dict[str, Any]) -> list[str]:
    """The worst case of each request cap of the server, against the issue's bounds."""
    if "error" in c:
        return ["## Request caps", "", f"Not measured: {c['error']}", ""]
    seconds, memory = c["limits"]

    def cells(row: dict[str, Any], within: bool) -> list[str]:
        return [
            f"{row['seconds']:.2f} s",
            str(row.get("calls", 1)),
            f"{row.get('until_answer_seconds', row['seconds']):.2f} s",
            f"{row['cpu_seconds']:.2f} s",
            f"{row['peak_bytes'] / 2**20:.0f} MB",
            "yes" if within else "**no**",
        ]

    rows = []
    for row in c["cases"]:
        cap = f"`{row['cap']}`" if row["cap"] != "baseline" else "baseline"
        rows.append([cap, row["case"], *cells(row, row["within"])])
        other = row.get("unbounded")
        if other:
            within = other["seconds"] < seconds and other["peak_bytes"] < memory
            rows.append(["", "the same without `MDSEL_MAX_READ_MS`", *cells(other, within)])
    shutdown = c["shutdown"]
    return [
        "## Request caps",
        "",
        "The most one call can cost at each cap of the server, with the default configuration: "
        "one fresh server per case, the request sent over stdio and asked again while the "
        "answer says the server is still reading (`MDSEL_MAX_READ_MS`), as that answer tells an "
        "agent to. Time: the slowest of those calls (wall); then the calls, the time until the "
        "whole answer, the server's CPU, and its peak resident memory. "
        f"Bound for every call: {seconds:g} s and {memory / 2**30:g} GB. Load average when the "
        f"run started: {c.get('load_average', 0):.1f} (other work shared the cores).",
        "",
        *table(
            ["Cap", "Worst case", "Time", "Calls", "Answered", "CPU", "Peak RSS", "Within"], rows
        ),
        "",
        "`MDSEL_MAX_TOTAL_BYTES` and `MDSEL_MAX_BYTES` are the caps whose worst case is the "
        "engine's own work: parsing that many bytes of dense Markdown, seconds past the 5 s "
        "bound for one-line headings. With `MDSEL_MAX_READ_MS` a call still parsing after 2 s "
        "says so at once; the parse goes on into the parse cache, and the same call asked again "
        'is answered from it. The rows "without" are the same request in one call that reads '
        "everything first (`MDSEL_MAX_READ_MS` of a day), in the same run.",
        "",
        "After `notifications/cancelled` for a call with seconds of parsing ahead, the server "
        f"spent {shutdown['cpu_in_1s_after_cancel']:.2f} s of CPU in the following second; with "
        f"such a call in flight it exited {shutdown['exit_after_stdin_closed']:.2f} s after stdin "
        "closed.",
        "",
    ]


def select_work_section(w: dict[str, Any]) -> list[str]:
    """Selects that name millions of nodes: the work past the first page must be counting."""
    if "error" in w:
        return ["## Work per select", "", f"Not measured: {w['error']}", ""]
    seconds, memory, together_memory = w["limits"]
    rows = [
        [
            f"`{row['request']}`",
            row["case"],
            f"{row['load_s']:.2f} s",
            f"{row['select_s']:.2f} s",
            f"{row.get('server_s', row['load_s'] + row['select_s']):.2f} s",
            f"{row['peak_bytes'] / 2**20:.0f} MB",
            f"{row['peak_over_index']:.2f}",
            "yes" if row["within"] else "**no**",
        ]
        for row in w["rows"]
    ]
    lines = [
        "## Work per select",
        "",
        "Selects naming millions of nodes of documents of the largest size a call reads by default "
        "(`MDSEL_MAX_BYTES`, 8 MiB; `bench/bench_select_work.py`): "
        "one child process per case reads and parses the document, then selects and renders "
        "the answer; CPU seconds of each part, and the peak resident memory over that of "
        "`mdsel index` on the same document. Past the first page, matches are counted, not "
        f"built. Bound for one call: {seconds:g} s and {memory / 2**30:g} GB; parsing alone "
        "takes most of the time at this size, so the server answers a call still parsing after "
        "`MDSEL_MAX_READ_MS` (2 s) that it is still reading, and the same call asked again "
        "selects in the parsed document: the slowest server call is the longer of the two "
        "(Server; parse and select where the parse is shorter). The CLI takes its time: parse "
        "and select. Load average when the run started: "
        f"{w.get('load_average', 0):.1f}.",
        "",
        *table(
            ["Request", "Case", "Parse", "Select", "Server", "Peak RSS", "/ index", "Within"],
            rows,
        ),
        "",
    ]
    together = w.get("concurrent")
    if together and "slowest_call_seconds" in together:
        lines += [
            f"Three such calls at once in one server (`para`, `para?full=true`, `h1` on three "
            f"documents), each asked again while it is still reading: slowest call "
            f"{together['slowest_call_seconds']:.2f} s, {together['calls']} calls, every answer "
            f"whole after {together['seconds']:.1f} s, {together['peak_bytes'] / 2**20:.0f} MB "
            f"peak (bounds {seconds:g} s a call and {together_memory / 2**30:g} GB: "
            f"{'within' if together['within'] else 'over'}).",
            "",
        ]
    elif together:
        lines += [
            f"Three such calls at once in one server (`para`, `para?full=true`, `h1` on three "
            f"documents): {together['seconds']:.1f} s until the last answer, "
            f"{together['peak_bytes'] / 2**20:.0f} MB peak (bound "
            f"{together_memory / 2**30:g} GB: {'within' if together['within'] else 'over'}).",
            "",
        ]
    return lines


def memory_section(memory: dict[str, Any]) -> list[str]:
    lines = ["## Memory", ""]
    if "error" in memory:
        return [*lines, f"Not measured: {memory['error']}.", ""]
    lines += [
        "Peak resident memory of a cold index (read, parse, tree, text render) in a fresh "
        "process, against a fresh process that only iterates the parser's events on the same "
        "text (pyromark holds all of a document's events until the loop ends). Target: at most "
        "1.5 × the parser loop's peak + 30 MB. Times are CPU times measured inside each process "
        "(interpreter start excluded; on shared cores wall time mostly measures the neighbours); "
        "target: at most 2 × the parser loop. Bytes per node: "
        "what the parsed document keeps per block or heading, as `Document.resident_bytes()` "
        "counts it for the server's cache (its columns, plus the line table and block ordinals "
        "that selecting builds, 8 bytes per line and 4 per block), the file's bytes and their "
        "word mask (2 bytes per byte of source) excluded.",
        "",
    ]
    rows = []
    for r in memory["rows"]:
        if "error" in r:
            rows.append([r["case"], size(r["bytes"]), "failed: " + r["error"], *["—"] * 6])
            continue
        nodes = r["blocks"] + r["headings"]
        timed = r["bytes"] >= 900_000  # smaller files take milliseconds: see Speed instead
        rows.append([
            r["case"], size(r["bytes"]), f"{nodes:,}",
            f"{r['floor_peak_mb']:.0f} MB", f"{r['index_peak_mb']:.0f} MB",
            f"{r['peak_ratio']:.2f} ({'met' if r['peak_ok'] else 'NOT met'})",
            f"{r['bytes_per_node']:.0f}" if nodes >= 1000 else "—",
            f"{r['floor_s']:.2f} s / {r['index_s']:.2f} s" if timed else "—",
            (f"{r['time_ratio']:.2f} ({'met' if r['time_ok'] else 'NOT met'})" if timed else "—"),
        ])  # fmt: skip
    header = [
        "Document", "Size", "Blocks + headings", "Parser loop peak", "mdsel peak", "Peak ratio",
        "Bytes per node", "Parser loop / mdsel time", "Time ratio",
    ]  # fmt: skip
    return [*lines, *table(header, rows), ""]


ESTIMATE_KINDS = {
    "prose": "English prose (paragraphs)",
    "document": "documents, whole",
    "window": "documents, 8 KB windows",
    "code": "fenced code, 8 KB windows",
    "languages": "prose in twelve other languages (tests/prose)",
}
"""What the real kinds of bench_estimate.py are; the generated ones are named as they are."""


def estimate_section(e: dict[str, Any]) -> list[str]:
    if "error" in e:
        return ["## Token estimate", "", f"Not measured: {e['error']}", ""]
    lines = [
        "## Token estimate",
        "",
        "Answers are sized by an estimate of their Claude tokens (`mdsel.estimate`: runs of "
        "letters, digits and punctuation, case changes, long runs, words a tokenizer does not "
        "hold whole, a token for each byte outside ASCII), never by the tokenizer itself. "
        "`bench/bench_estimate.py` divides it by the real count "
        f"({e['tokenizer']}) on the vendored and fetched documents, on prose in twelve other "
        "languages and on generated pages of dense content, beside the estimate it replaced "
        "(UTF-8 bytes / 2.5) in the same run. "
        "Targets: never below 1 (an answer within its budget is within it for real), English "
        "prose at most 1.5 (answers do not shrink for nothing). Met: "
        f"{'yes' if e['met'] else 'no'}; the estimate reads {e['mb_per_s']:.0f} MB/s.",
        "",
    ]
    rows = [
        [
            ESTIMATE_KINDS.get(r["kind"], r["kind"] + " (generated)"),
            str(r["texts"]),
            " / ".join(f"{v:.2f}" for v in r["before"]),
            " / ".join(f"{v:.2f}" for v in r["after"]),
        ]
        for r in e["rows"]
    ]
    header = ["content", "texts", "bytes / 2.5: min / median / max", "estimate: min / median / max"]
    return [*lines, *table(header, rows), ""]


def tree_section(t: dict[str, Any]) -> list[str]:
    if "error" in t:
        return ["## Documentation trees", "", f"Not measured: {t['error']}", ""]
    lines = [
        "## Documentation trees",
        "",
        "`mdsel index DIR` on whole trees (`bench/bench_tree.py`): the time of the whole index "
        "(walk, reads, parse, the map fitted to the answer budget, text) against reading and "
        "parsing the same documents into Documents, and against reading them with a bare loop "
        "over the parser's events, run alternately in the same run (medians). Target: at most "
        "1.5 times the parse. The answer's size is in estimated tokens (see Token estimate; "
        "the tests count it with the Claude tokenizer: at most 10,000).",
        "",
    ]
    rows = [
        [
            r["tree"], str(r["documents"]), size(r["bytes"]), f"{r['answer_tokens_estimate']:,}",
            ms(r["index_ms"]), ms(r["parse_ms"]), ms(r["floor_ms"]), f"{r['ratio']:.2f}",
            f"{r['ratio_floor']:.2f}",
        ]
        for r in t["trees"]
    ]  # fmt: skip
    header = [
        "Tree", "Documents", "Size", "Answer (est. tokens)", "Index", "Read + parse",
        "Read + parser loop", "Index / parse", "Index / parser loop",
    ]  # fmt: skip
    return [*lines, *table(header, rows), ""]


def links_section(links: dict[str, Any]) -> list[str]:
    if "error" in links:
        return ["## Links followed", "", f"Not measured: {links['error']}", ""]
    total = links["total"]
    lines = [
        "## Links followed",
        "",
        "Every in-repository link with a fragment in real documentation trees "
        "(`bench/bench_links.py --pypi`), decided by an independent reference: the target "
        "document rendered with markdown-it-py, its ids collected as GitHub (every heading, "
        "lists and quotes included), explicit attribute blocks, HTML ids and the site's "
        "generator (VitePress, Python-Markdown, pymdown-extensions) would give them, each with "
        "its line. A link is resolvable when its fragment is one of them; mdsel resolves it "
        "when `#fragment` selects the section starting at that heading (or holding that "
        f"anchor). Target: {links['target_share']} % of the resolvable links.",
        "",
    ]
    rows = [
        [
            t["name"], str(t["files"]), str(t["links"]), str(t["resolvable"]), str(t["correct"]),
            str(t["wrong"]), str(t["unresolved"]), str(t["not_resolvable"]),
            str(t["broken_but_matched"]), f"{t['share']:.1f} %",
        ]
        for t in links["trees"]
    ]  # fmt: skip
    rows.append(
        [
            "**all**", str(total["files"]), str(total["links"]), str(total["resolvable"]),
            str(total["correct"]), str(total["wrong"]), str(total["unresolved"]),
            str(total["not_resolvable"]), str(total["broken_but_matched"]),
            f"{total['share']:.1f} %",
        ]
    )  # fmt: skip
    header = [
        "Tree", "Files", "Links with a fragment", "Resolvable", "Right section",
        "Wrong section", "Unresolved", "Broken (no such id)", "Broken but matched", "Share",
    ]  # fmt: skip
    written = [
        "The resolvable links to another page, asked as written (`/guide/api#setup`, "
        "`./api.html#setup`, `../b/index.md#usage`: the path, `#`, the fragment as the source "
        "spells it) in one call over the whole tree, as an agent passes a link it read with the "
        "folder. The engine does not know the page a link is on, so a relative link to a name "
        "the tree has several times names them all (an error listing them); a match in any "
        "other document than the link's would be the worst outcome.",
        "",
    ]
    written_rows = [
        [
            t["name"], str(t["as_written"]), str(t["as_written_right"]),
            str(t["as_written_other_document"]), str(t["as_written_several"]),
            str(t["as_written_missed"]),
        ]
        for t in [*links["trees"], {**total, "name": "**all**"}]
        if "as_written" in t
    ]  # fmt: skip
    written_header = [
        "Tree", "Asked as written", "Right document and section", "Another document",
        "Names several documents", "Missed",
    ]  # fmt: skip
    if not written_rows:
        return [*lines, *table(header, rows), ""]
    return [*lines, *table(header, rows), "", *written, *table(written_header, written_rows), ""]


ROUTE_NAMES = {
    "mdsel": "mdsel `?q=`",
    "grep": "grep, then the file with most hits",
    "fts": "plain FTS5 BM25 over sections",
    "titles": "heading titles holding the words",
}


def search_section(found: dict[str, Any], speed: dict[str, Any]) -> list[str]:
    lines = ["## Search", ""]
    if "error" in found:
        lines += [f"Ranking not measured: {found['error']}", ""]
    else:
        questions = sum(tree["questions"] for tree in found["trees"])
        lines += [
            '`?q=` answers "where is this discussed?" '
            "(`bench/bench_search.py --pypi --more --peers`): every cross-page link with a "
            "fragment of real documentation trees is a question (the link's text) whose answer "
            'is the section its author linked to (generic texts such as "here" skipped, '
            f"repeats once): {questions} questions. A route is right at top-1 when its first "
            "hit is that section (the innermost one: its heading up to the next heading), at "
            "top-3 when one of its first three is. Tokens: the median answer with the first "
            f"hit's text inline ({found['tokens']}). Targets: top-1 ≥ 70 %, top-3 ≥ 85 %, "
            "every other route beaten by 10 points at top-1, a median answer "
            "≤ 2,000 tokens.",
            "",
        ]
        routes = list(found["total"])
        header = ["Tree", "Questions", *(ROUTE_NAMES.get(route, route) for route in routes)]

        def cells(scores: dict[str, Any]) -> list[str]:
            return [
                f"{scores[route]['top1_share']:.1f} / {scores[route]['top3_share']:.1f}"
                if route in scores else "—"
                for route in routes
            ]  # fmt: skip

        rows = [
            [tree["name"] + ("" if tree.get("tuned_on", True) else " †"), str(tree["questions"]),
             *cells(tree["routes"])]
            for tree in found["trees"]
        ]  # fmt: skip
        first = found["total"][routes[0]]
        rows.append(["**all**", str(first["questions"]), *cells(found["total"])])
        untuned = found.get("untuned") or {}
        if untuned:
            rows.append([
                "† never tuned on", str(untuned[routes[0]]["questions"]), *cells(untuned)
            ])  # fmt: skip
        lines += [
            "Each cell: top-1 / top-3, in % of the tree's questions. † the weights of the "
            "ranking were never tuned on these trees (`--more`: further pinned sdists).",
            "",
            *table(header, rows),
            "",
        ]
        tokens = [
            f"{ROUTE_NAMES.get(route, route)} {found['total'][route]['median_tokens']:,.0f}"
            for route in routes
            if found["total"][route].get("median_tokens")
        ]
        if tokens:
            lines += [f"Median answer, in tokens: {', '.join(tokens)}.", ""]
        skipped = {name: why for name, why in found.get("peers", {}).items() if why}
        for name, why in skipped.items():
            lines += [f"- {name}: {why}"]
        if skipped:
            lines += [""]
    if "error" in speed:
        return [*lines, f"Speed not measured: {speed['error']}", ""]
    worst = speed["worst"]
    memory = speed["memory"]
    lines += [
        f"Speed on {speed['documents']} (`bench/bench_search_speed.py`, medians of runs "
        "alternated with their baseline):",
        "",
    ]
    rows = [
        ["cold `mdsel select '?q=…' DIR` / `mdsel index DIR` (target ≤ 2)",
         ", ".join(f"{r['query']}: {r['ratio']:.2f}" for r in speed["cold"]),
         f"{worst['cold']:.2f}"],
        ["warm search in the server / warm `h2.0` of one document (target ≤ 3)",
         ", ".join(f"{r['query']}: {r['ratio']:.0f}" for r in speed["warm"]),
         f"{worst['warm']:.0f}"],
        *(
            [["warm `mdsel_select` tool call naming the directory / one naming the file for "
              "`h2.0`", ", ".join(f"{r['query']}: {r['tool_ratio']:.0f}" for r in speed["warm"]),
              f"{max(r['tool_ratio'] for r in speed['warm']):.0f}"]]
            if all("tool_ratio" in r for r in speed["warm"]) else []
        ),
        ["warm search in the server / warm `h2.0` over the same documents (one section each)",
         ", ".join(f"{r['query']}: {r['tree_ratio']:.2f}" for r in speed["warm"]),
         f"{max(r['tree_ratio'] for r in speed['warm']):.2f}"],
        *(
            [["the search alone, in process, index kept (ms)",
              ", ".join(f"{r['query']}: {r['search_ms']:.1f}" for r in speed["engine"]),
              f"{max(r['search_ms'] for r in speed['engine']):.1f} ms"]]
            if "engine" in speed else []
        ),
        ["memory: (documents + search index) / documents (target ≤ 1.5)",
         f"{memory['documents_mb']:.1f} MB + {memory['index_mb']:.1f} MB",
         f"{memory['ratio']:.2f}"],
    ]  # fmt: skip
    lines += table(["What", "Per query", "Worst"], rows)
    lines += [
        "",
        "A warm search over a tree costs what any call over the tree costs, and little more. "
        "Each call looks at every file it names: a name judged and read before is answered "
        "from one `stat` while that shows the very file it led to (docs/server.md), any other "
        "is resolved, opened and judged again; with the engine's bookkeeping that is some "
        "microseconds per file, and 1,000 `stat` calls alone take longer than three calls "
        "over one document, so the target of 3 is not met and cannot be while every call "
        "checks its files. The search itself (the FTS5 queries, the second ranking and the "
        "answer) is the row 'the search alone'; a warm search costs less than a call that "
        "shows one section of each document; the tool call as a client makes it adds the "
        "walk of the directory and the read policy's checks of every name.",
        "",
    ]
    return lines


def skill_section(skill: dict[str, Any]) -> list[str]:
    if "error" in skill:
        return ["## Agent Skill", "", f"Not measured: {skill['error']}", ""]
    server = skill["tools_tokens"] + skill["instructions_tokens"]
    lines = [
        "## Agent Skill",
        "",
        "What an agent loads at session start for the mdsel Agent Skill (`skills/mdsel/SKILL.md`: "
        "its name and description; the body only once it uses the skill) against the MCP "
        "server (the two tool definitions as `tools/list` returns them, and the server's "
        "instructions), counted with the same tokenizer "
        f"(`bench/bench_skill.py`; {skill['counter']}).",
        "",
    ]
    rows = [
        ["Skill at session start (name, description)", str(skill["skill_listing_tokens"])],
        ["Skill body, once used", str(skill["skill_body_tokens"])],
        ["MCP tool definitions", str(skill["tools_tokens"])],
        ["MCP server instructions", str(skill["instructions_tokens"])],
        [
            "Skill at session start / MCP server",
            f"{skill['skill_listing_tokens']} / {server} = {skill['session_start_ratio']:.2f}",
        ],
    ]
    return [*lines, *table(["What", "Tokens"], rows), ""]


def page(results: dict[str, Any]) -> str:
    lines = [
        "# Benchmarks",
        "",
        "What mdsel-claude saves in tokens on real documents, and what it costs in time. "
        "Written by `bench/report.py` (see [Reproduce](#reproduce)); do not edit by hand.",
        "",
        *machine_section(results["machine"]),
        *token_section(results["tokens"]),
        *workflow_section(results["workflow"]),
        *performance_section(results),
        *memory_section(results.get("memory", {"error": "not run"})),
        *(caps_section(results["caps"]) if "caps" in results else []),
        *(select_work_section(results["select_work"]) if "select_work" in results else []),
        *(estimate_section(results["estimate"]) if "estimate" in results else []),
        *(tree_section(results["tree"]) if "tree" in results else []),
        *(links_section(results["links"]) if "links" in results else []),
        *(
            search_section(results["search"], results.get("search_speed", {"error": "not run"}))
            if "search" in results
            else []
        ),
        *(skill_section(results["skill"]) if "skill" in results else []),
        "## Reproduce",
        "",
        "```sh",
        ".venv/bin/pip install -r bench/requirements-report.txt",
        ".venv/bin/python bench/report.py",
        "```",
        "",
        "The scripts also run alone: `bench/token_economy.py`, `bench/workflow.py`, "
        "`bench/bench_engine.py`, `bench/bench_memory.py`, `bench/bench_server.py`, "
        "`bench/bench_server_parts.py`, `bench/bench_hook.py`, `bench/bench_caps.py`, "
        "`bench/bench_select_work.py`, "
        "`bench/bench_tree.py`, `bench/bench_links.py`, `bench/bench_search.py`, "
        "`bench/bench_search_speed.py`, `bench/bench_growth.py`, `bench/bench_skill.py`, "
        "`bench/bench_estimate.py`. `bench/search_features.py` prints the search's top-1 and "
        "top-3 for any ranking weights in seconds (the weights in use give bench_search's "
        "figures).",
        "",
    ]
    return "\n".join(wrap(lines))


def wrap(lines: list[str], width: int = 100) -> list[str]:
    """Prose lines folded to `width`, like the other pages; tables, images and code kept whole."""
    folded: list[str] = []
    fenced = False
    for line in lines:
        if line.startswith("```"):
            fenced = not fenced
        if fenced or line.startswith(("|", "#", "![", "```")) or len(line) <= width:
            folded.append(line)
            continue
        indent = "  " if line.startswith("- ") else ""
        folded += textwrap.wrap(
            line,
            width,
            subsequent_indent=indent,
            break_long_words=False,
            break_on_hyphens=False,
        )
    return folded


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument(
        "--reuse", action="store_true", help="reuse results saved in bench/out/ by a previous run"
    )
    parser.add_argument("--output", type=Path, default=PAGE, help=f"page to write ({PAGE})")
    args = parser.parse_args(argv)
    results = collect(args.reuse)
    args.output.write_text(page(results), encoding="utf-8")
    print(f"wrote {args.output}", file=sys.stderr)
    failed = [name for name, value in results.items() if "error" in value]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
