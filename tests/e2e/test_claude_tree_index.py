"""`mdsel_index` on a whole documentation tree in the real Claude Code CLI: what the model gets.

Claude Code (the version pinned in tools/clients) shows the model an MCP tool's result only up
to a size: above 10,000 tokens it warns, above 25,000 (MAX_MCP_OUTPUT_TOKENS) it saves the result
to a file and the model gets a notice saying so instead. So the index of a tree must be the
answer itself, within about 10,000 Claude tokens, however many documents the tree holds.

`claude -p` runs with our server from a project `.mcp.json`, against the stand-in Messages API
of anthropic_stub.py, whose model asks for one `mdsel_index` of the tree; the request the CLI
sends back after the call holds the tool_result as the model receives it. Two real trees:
tests/trees (Vite and Vue docs, vendored: 176 documents and its README) and the 1,300 documents
of @stdlib/stats (fetched into .trees/ by scripts/test.sh, see tools/trees). Tokens are counted
with the Claude tokenizer the benchmarks use (tests/tokens.py).
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import BIN, MARKDOWN_SUFFIXES, ROOT, environ_without, fetched_tree
from tests.e2e.anthropic_stub import messages_api_calling
from tests.e2e.test_claude_cli import client
from tests.tokens import count_tokens

BUDGET = 10_000
"""Claude tokens an index may take: where Claude Code starts warning about a tool result."""
TREES: dict[str, tuple[Callable[[], Path], int]] = {
    "tests/trees": (lambda: ROOT / "tests" / "trees", 170),
    "@stdlib/stats": (lambda: fetched_tree("@stdlib/stats@0.4.1"), 900),
}
"""Each tree: where it is, and the fewest Markdown documents it must hold."""
SAVED = (
    "<persisted-output>",
    "Output too large",
    "output saved to",
    "Output has been saved to",
    "tool-results",
    "exceeds maximum allowed tokens",
)
"""What Claude Code's notice says when it saved a result to a file instead of showing it (2.1.330:
`<persisted-output>` `Output too large (123.4KB). Full output saved to: …/tool-results/…`)."""
CUT = "answer cut at"
"""What the server says when it cut an answer at MDSEL_MAX_ANSWER_CHARS."""
HINT = re.compile(r"^\[.+\]$")
"""The engine's closing hint line: how to see more (as the collapsed outline's `[showing …]`)."""
HEADING = re.compile(r"^(?:#{1,6}[ \t]+|title:[ \t]*)(.+?)(?:[ \t]+\{#[^}]*\})?[ \t#]*$", re.M)


@pytest.fixture(scope="module")
def claude_cli() -> str:
    return client("claude")


def documents(tree: Path) -> list[Path]:
    """The Markdown files an index of `tree` covers (hidden entries skipped, as mdsel does)."""
    return sorted(
        path
        for path in tree.rglob("*")
        if path.suffix in MARKDOWN_SUFFIXES
        and path.is_file()
        and not any(part.startswith(".") for part in path.relative_to(tree).parts)
    )


def named(document: Path, tree: Path, text: str) -> bool:
    """Whether `text` names `document`: its path in the tree, or one of its first titles."""
    if document.relative_to(tree).as_posix() in text:
        return True
    source = document.read_text(encoding="utf-8", errors="replace")
    titles = [title.strip("'\" ") for title in HEADING.findall(source)[:2]]
    return any(len(title) >= 4 and title in text for title in titles)


def index_in_claude(claude_cli: str, tmp_path: Path, tree: Path) -> str:
    """One `claude -p` turn whose model calls mdsel_index on `tree`: the result it was shown."""
    return tool_result_in_claude(
        claude_cli, tmp_path, "mdsel_index", "Index the documentation tree.", files=[str(tree)]
    )


def tool_result_in_claude(
    claude_cli: str, tmp_path: Path, name: str, prompt: str, **tool_input: object
) -> str:
    """One `claude -p PROMPT` turn with our server, whose model calls our tool `name` with
    `tool_input`: the tool's result as the model was shown it."""
    server = BIN / "mdsel-claude"
    if not server.exists():
        pytest.skip("the mdsel-claude script is not installed (pip install -e .)")
    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "project"
    project.mkdir()
    config = {"mcpServers": {"mdsel": {"type": "stdio", "command": str(server), "args": []}}}
    (project / ".mcp.json").write_text(json.dumps(config))
    env = environ_without("ANTHROPIC_", "CLAUDE_", "MDSEL_", "MAX_MCP_")
    tool = f"mcp__mdsel__{name}"
    with messages_api_calling(tool, **tool_input) as (url, stub):
        env.update(
            HOME=str(home),
            ANTHROPIC_BASE_URL=url,
            ANTHROPIC_API_KEY="sk-ant-test-not-a-key",
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
            # Wait for the server before the first request (5 s at most by default).
            MCP_CONNECTION_NONBLOCKING="false",
            MCP_CONNECT_TIMEOUT_MS="60000",
        )
        servers = ["--mcp-config", ".mcp.json", "--strict-mcp-config", "--allowedTools", tool]
        done = subprocess.run(
            [claude_cli, "-p", prompt, *servers],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=150,
            check=False,
        )
    assert done.returncode == 0, done.stdout + done.stderr
    assert stub.after_tool(), f"the session never called {tool}: {done.stdout}{done.stderr}"
    return stub.tool_result()


@pytest.mark.timeout(600)
@pytest.mark.parametrize("name", TREES)
def test_the_model_gets_the_tree_index_itself_within_budget(
    claude_cli: str, tmp_path: Path, name: str
) -> None:
    where, fewest = TREES[name]
    tree = where()
    docs = documents(tree)
    assert len(docs) >= fewest, f"{tree} holds {len(docs)} Markdown documents"
    count_tokens("")  # no tokenizer: skip before the session, saying why

    shown = index_in_claude(claude_cli, tmp_path, tree)
    tokens = count_tokens(shown)
    seen = (
        f"{name} ({len(docs)} documents): the model received {len(shown)} characters, "
        f"{tokens} Claude tokens, starting {shown[:300]!r}"
    )
    print(seen)
    saved = [notice for notice in SAVED if notice in shown]
    assert not saved, f"Claude Code saved the index to a file, not shown ({saved}); {seen}"
    assert CUT not in shown, f"the server cut the index; {seen}"
    assert str(tree) in shown, f"the index does not name the tree; {seen}"
    names = [doc for doc in docs if named(doc, tree, shown)]
    assert len(names) >= 5, f"only {len(names)} documents are named; {seen}"
    last = shown.rstrip().splitlines()[-1]
    assert HINT.match(last), f"no closing hint line; it ends {last!r}; {seen}"
    assert tokens <= BUDGET, f"over the {BUDGET}-token budget; {seen}"
