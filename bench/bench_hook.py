"""Wall time of `mdsel-claude hook` per Read, as a ratio over `python -c "import json"`.

The hook runs on every Read, so its cost is a whole interpreter start. The floor is starting
the same interpreter and importing `json` (it must parse the payload); the budget is 1.25 times
that, whatever the file: a 10-word Markdown file, a 1 GB file of words and a 1 GB file of NUL
bytes, read by Claude Code's Read or shown by a shell command through its Bash tool. Commands
run round-robin so drift hits all alike; medians are reported. The plugin's entry point
(`python3 -S src/mdsel_claude/launch.py hook`, run from the repository's files by the
interpreter behind this venv) is measured on the 1 GB file of words against the same budget.

VS Code runs Claude Code's hook on every tool call (it ignores matchers): its `read_file` of the
1 GB file is measured against the same budget, and so are two of its other tool calls, which
must cost no more than Claude Code's silent Read of a small file: each is also reported as a
ratio over that row (`mdsel-claude hook, Read of 10 words`) of the same run, and the adapter's
own work for each (in this process, without the interpreter start) over that Read's.

Outline mode (`--mode outline`, a PostToolUse Read replaced by the index) is reported too, for a
generated 100 KB Markdown file, against `mdsel index` of the same file as its own process: the
work it adds is one index. It has no budget of its own.

    .venv/bin/python bench/bench_hook.py [--runs N] [--keep-bytecode-off]

Exit status 1 when a ratio is over budget.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

BUDGET = 1.25
GIB = 1 << 30
WORDS_BLOCK = b"lorem ipsum dolor sit amet consectetur adipiscing elit\n" * 1024


def hook_script() -> str:
    beside = Path(sys.executable).parent / "mdsel-claude"
    found = str(beside) if beside.exists() else shutil.which("mdsel-claude")
    if found is None:
        sys.exit("mdsel-claude is not installed in this environment (pip install -e .)")
    return found


PLUGIN = "plugin launcher, 1 GB words"


def plugin_argv() -> list[str]:
    """The plugin's hook command: a bare interpreter, no site packages, the repo's files."""
    python = os.path.realpath(getattr(sys, "_base_executable", sys.executable))
    launch = Path(__file__).resolve().parents[1] / "src" / "mdsel_claude" / "launch.py"
    return [python, "-S", str(launch), "hook"]


def make_files(directory: Path) -> dict[str, Path]:
    small = directory / "small.md"
    small.write_text("one two three four five six seven eight nine ten\n")
    words = directory / "words.md"
    if shutil.disk_usage(directory).free > 3 * GIB:
        with words.open("wb") as f:
            for _ in range(GIB // len(WORDS_BLOCK) + 1):
                f.write(WORDS_BLOCK)
            f.truncate(GIB)
    else:
        # Not enough room for real words: words first, then a sparse tail. The hook decides
        # within the first read either way.
        with words.open("wb") as f:
            f.write(WORDS_BLOCK)
            f.truncate(GIB)
    zeros = directory / "zeros.md"
    with zeros.open("wb") as f:
        f.truncate(GIB)  # sparse: 1 GiB of NUL bytes at no disk cost
    return {"10 words": small, "1 GB words": words, "1 GB NULs": zeros}


def outline_document(directory: Path) -> Path:
    """About 100 KB of Markdown: 60 sections of prose, lists and code under 3 heading levels."""
    parts = ["# Handbook", ""]
    for chapter in range(30):
        parts += [f"## Chapter {chapter}", ""]
        for section in range(3):
            parts += [f"### Topic {chapter}.{section}", ""]
            parts += [
                f"Sentence {n} of topic {chapter}.{section} says something." for n in range(25)
            ]
            parts += ["", "- first point", "- second point", "", "```", "code here", "```", ""]
    path = directory / "handbook.md"
    path.write_text("\n".join(parts) + "\n")
    return path


def payload(path: Path, event: str = "PreToolUse") -> bytes:
    return json.dumps(
        {
            "session_id": "bench",
            "transcript_path": "/dev/null",
            "cwd": str(path.parent),
            "hook_event_name": event,
            "tool_name": "Read",
            "tool_input": {"file_path": str(path)},
        }
    ).encode()


def bash_payload(command: str, cwd: Path) -> bytes:
    """Claude Code's payload for a Bash command (the hook parses it, never runs it)."""
    return json.dumps(
        {
            "session_id": "bench",
            "transcript_path": "/dev/null",
            "cwd": str(cwd),
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command, "description": "Show the file"},
        }
    ).encode()


def gemini_payload(path: Path) -> bytes:
    """Gemini CLI's AfterTool payload for `read_file` (the file's text is in the result)."""
    return json.dumps(
        {
            "session_id": "bench",
            "transcript_path": "/dev/null",
            "cwd": str(path.parent),
            "hook_event_name": "AfterTool",
            "timestamp": "2026-01-01T00:00:00Z",
            "tool_name": "read_file",
            "tool_input": {"file_path": str(path)},
            "tool_response": {"llmContent": "…", "returnDisplay": ""},
        }
    ).encode()


def codex_payload(command: str, cwd: Path) -> bytes:
    """Codex CLI's PreToolUse payload for its shell tool (always `Bash`, the command a string)."""
    return json.dumps(
        {
            "session_id": "bench",
            "turn_id": "t",
            "transcript_path": None,
            "cwd": str(cwd),
            "hook_event_name": "PreToolUse",
            "model": "m",
            "permission_mode": "default",
            "tool_name": "Bash",
            "tool_input": {"command": command},
            "tool_use_id": "c",
        }
    ).encode()


def opencode_payload(path: Path) -> bytes:
    """What the OpenCode plugin sends after a `read`: the tool, its arguments, the project."""
    return json.dumps(
        {"tool": "read", "args": {"filePath": path.name}, "directory": str(path.parent)}
    ).encode()


def vscode_payload(
    tool: str, tool_input: Mapping[str, object], cwd: Path, **extra: object
) -> bytes:
    """VS Code's payload for a tool call, as it runs a Claude Code hook (see
    tests/fixtures/hook_payloads/SOURCES.md): snake_case keys, the model's tool name."""
    return json.dumps(
        {
            "timestamp": "2026-01-01T00:00:00.000Z",
            "hook_event_name": "PreToolUse",
            "session_id": "bench",
            "transcript_path": "/dev/null",
            "cwd": str(cwd),
            "tool_name": tool,
            "tool_input": dict(tool_input),
            "tool_use_id": "t",
            **extra,
        }
    ).encode()


VSCODE_READ = "VS Code read_file, 1 GB words"
VSCODE_OTHERS = (
    "VS Code run_in_terminal, silent",
    "VS Code replace_string_in_file, PostToolUse, silent",
)
"""VS Code's other tool calls: the hook sees every one of them."""

SILENT = "10 words"
"""The row of Claude Code's silent path: a Read of a Markdown file under the threshold."""

OTHER_CLIENTS = (
    "Gemini CLI read_file, 1 GB words",
    "Codex CLI: sed -n 1,400p, 1 GB words",
    "OpenCode read, 1 GB words",
)
"""Other clients' hooks, on their own payloads: the same budget."""

SHELL_READS = {
    "Bash: cat, 1 GB words": "cat words.md",
    "Bash: sed -n 1,400p | nl, 1 GB words": "sed -n '1,400p' words.md | nl -ba",
    "Bash: git status && grep": "git status && grep -rn TODO src | head -50",
}
"""Shell commands Claude Code's Bash hook reads: two that show a large Markdown file, one
that shows none (the common case: most commands read no Markdown)."""


def answer_times(
    payloads: Mapping[str, bytes], rounds: int = 21, calls: int = 300
) -> dict[str, float]:
    """Median seconds per in-process answer (`json.loads` of the payload, then Claude Code's
    adapter), rounds interleaved: the hook's own work for a payload, without the interpreter
    start that dominates a process's time and its noise."""
    from mdsel_claude.hook import claude

    samples: dict[str, list[float]] = {label: [] for label in payloads}
    for _ in range(rounds):
        for label, stdin in payloads.items():
            start = time.perf_counter()
            for _ in range(calls):
                claude.answer(json.loads(stdin), 200, "reminder")
            samples[label].append((time.perf_counter() - start) / calls)
    return {label: statistics.median(times) for label, times in samples.items()}


def time_once(argv: list[str], stdin: bytes) -> tuple[float, bytes]:
    start = time.perf_counter()
    result = subprocess.run(argv, input=stdin, capture_output=True, check=True)
    return time.perf_counter() - start, result.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=60, help="runs per command (default 60)")
    parser.add_argument(
        "--no-compile",
        action="store_true",
        help="do not byte-compile the hook's modules first (an installed wheel has them "
        "compiled; an editable install under PYTHONDONTWRITEBYTECODE does not)",
    )
    args = parser.parse_args()
    script = hook_script()
    if not args.no_compile:
        import mdsel_claude

        package = Path(mdsel_claude.__file__).parent
        for name in ("__init__.py", "__main__.py"):
            compileall.compile_file(str(package / name), quiet=2)
        compileall.compile_dir(str(package / "hook"), quiet=2)

    with tempfile.TemporaryDirectory(prefix="mdsel-bench-") as temp:
        files = make_files(Path(temp))
        baseline = [sys.executable, "-c", "import json"]
        commands = {"baseline": (baseline, payload(files["10 words"]))}
        for label, path in files.items():
            commands[label] = ([script, "hook"], payload(path))
        commands[PLUGIN] = (plugin_argv(), payload(files["1 GB words"]))
        for label, command in SHELL_READS.items():
            commands[label] = ([script, "hook"], bash_payload(command, Path(temp)))
        gemini, codex, opencode = OTHER_CLIENTS
        commands[gemini] = (
            [script, "hook", "--client", "gemini"],
            gemini_payload(files["1 GB words"]),
        )
        sed = codex_payload("sed -n '1,400p' words.md", Path(temp))
        commands[codex] = ([script, "hook", "--client", "codex"], sed)
        read = opencode_payload(files["1 GB words"])
        commands[opencode] = ([script, "hook", "--client", "opencode"], read)
        read_file = {"filePath": str(files["1 GB words"])}
        commands[VSCODE_READ] = (
            [script, "hook"],
            vscode_payload("read_file", read_file, Path(temp)),
        )
        terminal, edit = VSCODE_OTHERS
        shell = {"command": "git status && npm test", "explanation": "Run the tests"}
        commands[terminal] = (
            [script, "hook"],
            vscode_payload("run_in_terminal", shell, Path(temp)),
        )
        replace = {"filePath": str(Path(temp, "src.ts")), "oldString": "a", "newString": "b"}
        edited = vscode_payload(
            "replace_string_in_file",
            replace,
            Path(temp),
            hook_event_name="PostToolUse",
            tool_response="The following files were successfully edited: src.ts",
        )
        commands[edit] = ([script, "hook"], edited)
        handbook = outline_document(Path(temp))
        index_cli = str(Path(script).with_name("mdsel"))
        commands["mdsel index"] = ([index_cli, "index", str(handbook)], b"")
        outline = ([script, "hook", "--mode", "outline"], payload(handbook, "PostToolUse"))
        commands["outline"] = outline
        size_kb = handbook.stat().st_size / 1000
        for argv, stdin in commands.values():  # warm the page cache and the imports
            time_once(argv, stdin)
        samples: dict[str, list[float]] = {label: [] for label in commands}
        outputs: dict[str, bytes] = {}
        for _ in range(args.runs):
            for label, (argv, stdin) in commands.items():
                elapsed, out = time_once(argv, stdin)
                samples[label].append(elapsed)
                outputs[label] = out
        in_process = answer_times({label: commands[label][1] for label in (SILENT, *VSCODE_OTHERS)})

    floor = statistics.median(samples["baseline"])
    print(f"interpreter {sys.executable} ({sys.version.split()[0]}); {args.runs} runs each")
    name = 'baseline: python -c "import json"'
    print(f"{name:52} {floor * 1000:7.2f} ms")
    over = False
    for label in (*files, PLUGIN, *SHELL_READS, *OTHER_CLIENTS, VSCODE_READ, *VSCODE_OTHERS):
        median = statistics.median(samples[label])
        ratio = median / floor
        said = "reminder" if outputs[label] else "silent"
        verdict = "ok" if ratio <= BUDGET else "OVER BUDGET"
        over |= ratio > BUDGET
        print(
            f"{label if label == PLUGIN else 'mdsel-claude hook, ' + label:52} "
            f"{median * 1000:7.2f} ms  "
            f"ratio {ratio:4.2f}  ({said}; budget {BUDGET}: {verdict})"
        )
    silent = statistics.median(samples[SILENT])
    for label in VSCODE_OTHERS:
        if outputs[label]:
            over = True  # another tool's call answered: the hook misread it
        print(
            f"{label}: ratio {statistics.median(samples[label]) / silent:4.2f} over Claude Code's "
            f"silent Read ({SILENT}): {silent * 1000:.2f} ms"
        )
    for label in VSCODE_OTHERS:
        print(
            f"in process, {label}: {in_process[label] * 1e6:.1f} µs  ratio "
            f"{in_process[label] / in_process[SILENT]:4.2f} over Claude Code's silent Read "
            f"({SILENT}): {in_process[SILENT] * 1e6:.1f} µs"
        )
    outline_ms = statistics.median(samples["outline"]) * 1000
    index_ms = statistics.median(samples["mdsel index"]) * 1000
    replaced = b"updatedToolOutput" in outputs["outline"]
    print(
        f"outline mode, {size_kb:.0f} KB Markdown: {outline_ms:7.2f} ms  ratio "
        f"{outline_ms / index_ms:4.2f} over `mdsel index` of it: {index_ms:.2f} ms "
        f"({'replaced' if replaced else 'NOT REPLACED'})"
    )
    return 1 if over or not replaced else 0


if __name__ == "__main__":
    sys.exit(main())
