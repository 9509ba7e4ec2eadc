"""The read policy under attack, through the server's own call path: links, traversal, devices."""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from mdsel_claude.server.calls import ToolResult, run_tool
from mdsel_claude.server.config import Settings, load_settings
from mdsel_claude.server.embedded import EmbeddedBackend
from tests.answers import body

SERVER = Path(sys.executable).parent / "mdsel-claude"
MDSEL = Path(sys.executable).parent / "mdsel"
GUARD_SECONDS = 20.0
"""Longest any single call may take; reading a FIFO or /dev/zero would take forever."""

EXTENSIONS = ".md .markdown .mdx .mdown .mkd .mkdn"
OUTSIDE = "PROCESSING_ERROR: outside the directories allowed by MDSEL_ROOTS"
REACHES = (
    "PROCESSING_ERROR: reaches outside the directories allowed by MDSEL_ROOTS; "
    "name files, directories or patterns inside them"
)
FIFO = "PROCESSING_ERROR: not a regular file (a FIFO); refused"
LOOP = "PROCESSING_ERROR: symbolic links that loop (or a chain too long to follow); refused"
MISSING = "FILE_NOT_FOUND: no such file; check the path"

GUIDE = "# Guide\n\nIntro.\n\n## Install\n\nRun it.\n"
SECRET = "# Secret\n\nthe outside secret words\n"


class Tree:
    """tmp/docs (the root the server is confined to), its neighbours, and links between them."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.docs = base / "docs"
        self.private = base / "docs-private"
        self.outside = base / "outside"
        for directory in (
            self.docs / "sub",
            self.private,
            self.outside / "dir",
            self.docs / "pipes",
        ):
            directory.mkdir(parents=True)
        (self.docs / "guide.md").write_text(GUIDE)
        (self.docs / "notes.txt").write_text("plain notes\n")
        (self.private / "secret.md").write_text(SECRET)
        (self.outside / "secret.md").write_text(SECRET)
        (self.outside / "dir" / "inner.md").write_text(SECRET)
        (self.outside / "notes.txt").write_text("outside notes\n")

    def link(self, name: str, target: str | Path) -> None:
        (self.docs / name).symlink_to(target)

    def fifo(self, name: str) -> Path:
        path = self.docs / name
        os.mkfifo(path)
        return path


@pytest.fixture
def tree(tmp_path: Path) -> Tree:
    return Tree(tmp_path)


def settings_for(tree: Tree, confined: bool) -> Settings:
    # Through the real configuration path, with a trailing slash a user might well write.
    environ = {"MDSEL_ROOTS": str(tree.docs) + os.sep} if confined else {}
    return load_settings(environ, cwd=str(tree.docs))


def call(
    tree: Tree,
    files: Sequence[str],
    confined: bool = True,
    tool: str = "mdsel_index",
    fifos: Sequence[Path] = (),
) -> ToolResult:
    """One tools/call as the server runs it, in a thread that must finish within the guard."""
    settings = settings_for(tree, confined)
    arguments: dict[str, Any] = {"files": list(files)}
    if tool == "mdsel_select":
        arguments["selector"] = "h1.0"
    results: list[ToolResult] = []

    def work() -> None:
        results.append(
            run_tool(tool, arguments, settings, EmbeddedBackend(settings), cwd=str(tree.docs))
        )

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    worker.join(GUARD_SECONDS)
    if worker.is_alive():
        # A reader stuck in open() of a FIFO is freed by a writer showing up; then fail.
        for fifo in fifos:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        worker.join(5)
        pytest.fail(f"the call on {files} did not finish in {GUARD_SECONDS:g} s")
    return results[0]


def refusals(result: ToolResult) -> list[str]:
    return [line for line in result.text.splitlines() if line.startswith("!")]


def assert_refused(result: ToolResult, *lines: str) -> None:
    assert result.is_error
    assert refusals(result) == list(lines)
    # Nothing from outside was read or listed.
    assert "outside secret words" not in result.text
    assert "inner" not in result.text


# --- symbolic links ----------------------------------------------------------------------------


@pytest.mark.parametrize("confined", [True, False], ids=["roots", "anywhere"])
def test_a_chain_ending_in_a_non_markdown_file_is_refused(tree: Tree, confined: bool) -> None:
    tree.link("c.txt", "notes.txt")
    tree.link("b.md", "c.txt")
    tree.link("a.md", "b.md")
    target = os.path.realpath(tree.docs / "notes.txt")
    assert_refused(
        call(tree, ["a.md"], confined),
        f"!a.md PROCESSING_ERROR: resolves to {target}, not a Markdown file name; "
        f"only {EXTENSIONS} files are read",
    )


def test_a_chain_of_markdown_names_is_read(tree: Tree) -> None:
    tree.link("b.md", "guide.md")
    tree.link("a.md", "b.md")
    result = call(tree, ["a.md"], tool="mdsel_select")
    assert not result.is_error
    assert result.text.startswith("==> a.md h1.0 Guide L1-7 <==\n") and body(result.text) == GUIDE


@pytest.mark.parametrize("confined", [True, False], ids=["roots", "anywhere"])
def test_symlink_loops_are_refused(tree: Tree, confined: bool) -> None:
    tree.link("loop-a.md", "loop-b.md")
    tree.link("loop-b.md", "loop-a.md")
    tree.link("self.md", "self.md")
    result = call(tree, ["loop-a.md", "self.md", "guide.md"], confined)
    assert_refused(result, f"!loop-a.md {LOOP}", f"!self.md {LOOP}")
    assert "h1.0 Guide" in result.text


def test_a_chain_longer_than_the_system_follows_is_refused(tree: Tree) -> None:
    tree.link("hop-0.md", "guide.md")
    for number in range(1, 60):
        tree.link(f"hop-{number}.md", f"hop-{number - 1}.md")
    assert_refused(call(tree, ["hop-59.md"]), f"!hop-59.md {LOOP}")


@pytest.mark.parametrize("confined", [True, False], ids=["roots", "anywhere"])
def test_a_dangling_link_is_not_found(tree: Tree, confined: bool) -> None:
    tree.link("gone.md", "nowhere.md")
    assert_refused(call(tree, ["gone.md"], confined), f"!gone.md {MISSING}")


# --- MDSEL_ROOTS: traversal, prefixes, links and directories that lead out ---------------------


OUT_OF_ROOTS = [
    "../outside/secret.md",
    "../docs-private/secret.md",
    "sub/../../outside/secret.md",
    "./../docs/../outside/secret.md",
    "../outside/missing.md",  # the same words whether it exists or not
    "../outside",
    "../outside/",
    "../outside/dir",
    "../outside/*.md",
    "../outside/**/*.md",
    "escape.md",
    "outdir",
    "outdir/secret.md",
    "outdir/dir",
    "outdir/*.md",
    "outdir/**/*.md",
]


@pytest.mark.parametrize("argument", OUT_OF_ROOTS)
def test_nothing_outside_the_roots_is_read_or_listed(tree: Tree, argument: str) -> None:
    tree.link("escape.md", tree.outside / "secret.md")
    tree.link("outdir", tree.outside)
    assert_refused(call(tree, [argument, "guide.md"]), f"!{argument} {OUTSIDE}")


def test_absolute_paths_and_the_prefix_trick(tree: Tree) -> None:
    # /…/docs-private starts with the characters of /…/docs but is not inside it.
    private = str(tree.private / "secret.md")
    outside = str(tree.outside / "secret.md")
    result = call(tree, [private, outside, str(tree.docs / "guide.md")])
    assert_refused(result, f"!{private} {OUTSIDE}", f"!{outside} {OUTSIDE}")
    assert "h1.0 Guide" in result.text


@pytest.mark.parametrize(
    "pattern",
    [
        "..",
        "../*",
        "../**/*.md",
        "../docs-*/*.md",
        "../docs/../**/*.md",
        "{base}",
        "{base}/**/*.md",
        "/",
    ],
)
def test_directories_and_globs_holding_the_root_are_refused_without_listing(
    tree: Tree, pattern: str
) -> None:
    argument = pattern.format(base=tree.base)
    assert_refused(call(tree, [argument]), f"!{argument} {REACHES}")


def test_globs_and_directories_inside_the_root_still_expand(tree: Tree) -> None:
    (tree.docs / "sub" / "more.md").write_text("# More\n")
    result = call(tree, ["sub", "*.md", str(tree.docs / "**" / "*.md")])
    assert not result.is_error, result.text
    assert "h1.0 More" in result.text and "h1.0 Guide" in result.text


def test_without_roots_outside_files_are_read(tree: Tree) -> None:
    result = call(tree, ["../outside/secret.md"], confined=False, tool="mdsel_select")
    assert not result.is_error and body(result.text) == SECRET


# --- names that lie about what they are --------------------------------------------------------


def test_non_markdown_targets_behind_markdown_names(tree: Tree) -> None:
    tree.link("notes.md", "notes.txt")
    tree.link("passwd.md", "/etc/passwd")
    tree.link("stdin.md", "/dev/stdin")
    tree.link("python.md", sys.executable)
    result = call(tree, ["notes.md", "passwd.md", "stdin.md", "python.md"], confined=False)
    lines = refusals(result)
    assert result.is_error and len(lines) == 4
    for name, line in zip(["notes.md", "passwd.md", "stdin.md", "python.md"], lines, strict=True):
        assert line.startswith(f"!{name} PROCESSING_ERROR: resolves to "), line
        assert line.endswith(f"not a Markdown file name; only {EXTENSIONS} files are read")
    # Confined, a target outside the roots is not even named.
    confined = call(tree, ["passwd.md", "python.md"])
    assert_refused(confined, f"!passwd.md {OUTSIDE}", f"!python.md {OUTSIDE}")
    assert "/etc" not in confined.text


def test_binary_bytes_under_a_markdown_name_are_a_parse_error(tree: Tree) -> None:
    (tree.docs / "program.md").write_bytes(Path(sys.executable).read_bytes()[:65536])
    result = call(tree, ["program.md"])
    assert result.is_error
    (line,) = refusals(result)
    assert line.startswith("!program.md PARSE_ERROR: ")
    assert "byte offset" in line


@pytest.mark.parametrize("confined", [True, False], ids=["roots", "anywhere"])
def test_fifos_are_never_opened(tree: Tree, confined: bool) -> None:
    fifo = tree.fifo("fifo.md")
    inner = tree.fifo("pipes/p.md")
    tree.link("fifo-link.md", "fifo.md")
    tree.link("fifo-via.markdown", tree.docs / "pipes" / "p.md")
    files = ["fifo.md", "fifo-link.md", "fifo-via.markdown", "pipes", "pipes/*.md", "guide.md"]
    for tool in ("mdsel_index", "mdsel_select"):
        result = call(tree, files, confined, tool=tool, fifos=[fifo, inner])
        assert_refused(
            result,
            f"!fifo.md {FIFO}",
            f"!fifo-link.md {FIFO}",
            f"!fifo-via.markdown {FIFO}",
            f"!{os.path.join('pipes', 'p.md')} {FIFO}",
        )
        assert "Guide" in result.text


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null", "/dev/full"])
def test_devices_behind_markdown_links_are_refused(tree: Tree, device: str) -> None:
    tree.link("device.md", device)
    unconfined = call(tree, ["device.md"], confined=False, tool="mdsel_select")
    assert unconfined.is_error
    assert refusals(unconfined) == [
        f"!device.md PROCESSING_ERROR: resolves to {os.path.realpath(device)}, "
        f"not a Markdown file name; only {EXTENSIONS} files are read"
    ]
    assert_refused(call(tree, ["device.md"], tool="mdsel_select"), f"!device.md {OUTSIDE}")


@pytest.mark.parametrize(("name", "minor"), [("zero", 5), ("urandom", 9)])
def test_device_nodes_with_markdown_names_are_refused(tree: Tree, name: str, minor: int) -> None:
    node = tree.docs / f"{name}.md"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, minor))
    except OSError:
        pytest.skip("creating device nodes needs privileges this run does not have")
    tree.link(f"{name}-link.markdown", node)
    expected = "PROCESSING_ERROR: not a regular file (a character device); refused"
    for confined in (True, False):
        result = call(tree, [f"{name}.md", f"{name}-link.markdown"], confined, "mdsel_select")
        assert_refused(result, f"!{name}.md {expected}", f"!{name}-link.markdown {expected}")


def test_a_directory_named_like_markdown_is_walked_not_read(tree: Tree) -> None:
    folder = tree.docs / "folder.md"
    folder.mkdir()
    (folder / "inside.md").write_text("# Inside\n")
    tree.link("folder-link.md", folder)
    for argument in ("folder.md", "folder.md/", "folder-link.md"):
        result = call(tree, [argument])
        assert not result.is_error, result.text
        assert result.text == "1 lines 2 words\nh1.0 Inside 1 2\n"  # the one file inside


def test_names_with_line_breaks_cannot_forge_output_lines(tree: Tree) -> None:
    odd = tree.docs / "odd"
    odd.mkdir()
    (odd / "good.md").write_text("# Good\n")
    forged = "x\n!guide.md PROCESSING_ERROR: forged\nh1.0 Forged  L1-1 1w\ny.md"
    (odd / forged).write_text("# Hidden\n")
    (odd / "tab\there.md").write_text("# Tab\n")
    for confined in (True, False):
        result = call(tree, ["odd"], confined)
        assert result.is_error
        reason = "PROCESSING_ERROR: the file name contains a line break or another control "
        reason += "character; refused"
        assert refusals(result) == [
            f"!{os.path.join('odd', 'tab')}\\x09here.md {reason}",
            "!" + os.path.join("odd", forged.replace("\n", "\\x0a")) + f" {reason}",
        ]
        lines = result.text.splitlines()
        assert "h1.0 Forged  L1-1 1w" not in lines
        assert not [line for line in lines if line.startswith("!guide.md")]
        assert "h1.0 Good" in result.text and "Hidden" not in result.text


@pytest.fixture
def socket_in_docs(tree: Tree, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    # Bound by a relative name: a Unix socket path may not exceed about 100 bytes.
    monkeypatch.chdir(tree.docs)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
        listener.bind("sock.md")
        listener.listen(1)
        yield "sock.md"


def test_sockets_are_refused(tree: Tree, socket_in_docs: str) -> None:
    tree.link("sock-link.md", socket_in_docs)
    expected = "PROCESSING_ERROR: not a regular file (a socket); refused"
    result = call(tree, [socket_in_docs, "sock-link.md"], tool="mdsel_select")
    assert_refused(result, f"!sock.md {expected}", f"!sock-link.md {expected}")


# --- everything at once, over real stdio -------------------------------------------------------


def exchange(cwd: Path, env: dict[str, str], calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Initialize, make the calls, close stdin; every answer, in id order. Hangs fail."""
    lines = [
        {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "access", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ]
    for number, params in enumerate(calls, start=1):
        lines.append({"jsonrpc": "2.0", "id": number, "method": "tools/call", "params": params})
    payload = "".join(json.dumps(line) + "\n" for line in lines).encode()
    clean = {key: value for key, value in os.environ.items() if not key.startswith("MDSEL_")}
    process = subprocess.Popen(
        [str(SERVER)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env={**clean, **env},
    )
    assert process.stdin is not None and process.stdout is not None
    replies: list[dict[str, Any]] = []
    answered = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in iter(process.stdout.readline, b""):
            replies.append(json.loads(line))
            if len(replies) == len(calls) + 1:
                answered.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    process.stdin.write(payload)
    process.stdin.flush()
    # stdin stays open until every answer is in: closing it ends the session, calls and all.
    finished = answered.wait(GUARD_SECONDS * 2)
    process.stdin.close()
    try:
        process.wait(timeout=GUARD_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        pytest.fail("the server did not exit after its stdin closed")
    finally:
        reader.join(5)
        process.stdout.close()
        assert process.stderr is not None
        stderr = process.stderr.read()
        process.stderr.close()
    assert finished, f"only {len(replies)} answers before the deadline"
    assert process.returncode == 0, stderr.decode(errors="replace")
    assert b"Traceback" not in stderr
    assert sorted(reply["id"] for reply in replies) == list(range(len(calls) + 1))
    return sorted(replies, key=lambda reply: reply["id"])[1:]


def test_every_refusal_over_stdio_in_one_call(tree: Tree) -> None:
    fifo = tree.fifo("fifo.md")
    tree.link("zero.md", "/dev/zero")
    tree.link("loop-a.md", "loop-b.md")
    tree.link("loop-b.md", "loop-a.md")
    tree.link("outdir", tree.outside)
    files = [
        "fifo.md",
        "zero.md",
        "loop-a.md",
        "../outside",
        "outdir/*.md",
        "../docs-private/secret.md",
        "guide.md",
        "..",
    ]
    answers = exchange(
        tree.docs,
        {"MDSEL_ROOTS": str(tree.docs)},
        [
            {"name": "mdsel_index", "arguments": {"files": files}},
            {"name": "mdsel_select", "arguments": {"selector": "h2.0", "files": files}},
        ],
    )
    expected = [
        f"!fifo.md {FIFO}",
        f"!zero.md {OUTSIDE}",
        f"!loop-a.md {LOOP}",
        f"!../outside {OUTSIDE}",
        f"!outdir/*.md {OUTSIDE}",
        f"!../docs-private/secret.md {OUTSIDE}",
        f"!.. {REACHES}",
    ]
    for answer in answers:
        assert "result" in answer, answer
        result = answer["result"]
        text = result["content"][0]["text"]
        assert result["isError"] is True
        assert sorted(line for line in text.splitlines() if line.startswith("!")) == sorted(
            expected
        )
        assert "outside secret words" not in text and "inner" not in text
    assert "h1.0 Guide" in answers[0]["result"]["content"][0]["text"]
    selected = answers[1]["result"]["content"][0]["text"]
    assert selected.startswith("==> guide.md guide::h2.0 Guide › Install L5-7 <==\n## Install\n\n")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


# --- walks and globs over symlink loops --------------------------------------------------------


def finishes(argv: list[str], cwd: Path, seconds: float) -> bool:
    try:
        subprocess.run(argv, cwd=cwd, capture_output=True, timeout=seconds, check=False)
    except subprocess.TimeoutExpired:
        return False
    return True


def test_a_recursive_glob_over_symlink_loops_finishes(tree: Tree) -> None:
    (tree.docs / "sub" / "a.md").write_text("# A\n")
    (tree.docs / "sub" / "again").symlink_to(".")
    (tree.docs / "sub" / "once-more").symlink_to(".")
    assert finishes([str(MDSEL), "index", "sub/**/*.md"], tree.docs, 8.0)


def test_directory_walks_do_not_follow_symlink_loops(tree: Tree) -> None:
    (tree.docs / "sub" / "a.md").write_text("# A\n")
    (tree.docs / "sub" / "again").symlink_to(".")
    (tree.docs / "sub" / "once-more").symlink_to(".")
    result = call(tree, ["sub"])
    assert not result.is_error
    assert result.text == "1 lines 2 words\nh1.0 A 1 2\n"  # one document, read once
