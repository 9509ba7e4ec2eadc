"""`mdsel_select` with `?q=` in the real Claude Code CLI: the model receives the ranked sections
and the best one's text itself, within Claude Code's budget (10,000 tokens, where it warns;
above 25,000 it would save the result to a file the model never sees).

`claude -p` runs with our server from a project `.mcp.json` against the stand-in Messages API
(anthropic_stub.py), whose model asks for one `mdsel_select` of `?q=WORDS` over tests/trees;
the request the CLI sends back after the call holds the tool_result as the model got it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.e2e.test_claude_cli import client
from tests.e2e.test_claude_tree_index import BUDGET, CUT, SAVED, tool_result_in_claude
from tests.tokens import count_tokens

TREES = ROOT / "tests" / "trees"


@pytest.fixture(scope="module")
def claude_cli() -> str:
    return client("claude")


def search_in_claude(claude_cli: str, tmp_path: Path, selector: str) -> str:
    return tool_result_in_claude(
        claude_cli, tmp_path, "mdsel_select", "Where is the dev server's proxy discussed?",
        selector=selector, files=[str(TREES)],
    )  # fmt: skip


@pytest.mark.timeout(600)
@pytest.mark.parametrize(
    ("selector", "expected"),
    [
        ("?q=server.proxy", "config/server-options.md"),
        ('?q="keep alive"', "keep-alive.md"),
    ],
)
def test_the_model_gets_the_ranked_sections_and_the_best_text(
    claude_cli: str, tmp_path: Path, selector: str, expected: str
) -> None:
    count_tokens("")  # no tokenizer: skip before the session, saying why
    shown = search_in_claude(claude_cli, tmp_path, selector)
    tokens = count_tokens(shown)
    seen = f"{selector}: {len(shown)} characters, {tokens} tokens, starting {shown[:300]!r}"
    assert not [notice for notice in SAVED if notice in shown], seen
    assert CUT not in shown, seen
    first = shown.splitlines()
    assert first[0].startswith("search "), seen
    assert first[1].startswith("1. ") and expected in first[1], seen
    assert "==> " in shown and shown.rstrip().endswith("]"), seen
    assert tokens <= BUDGET, seen
