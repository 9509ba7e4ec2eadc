"""Hostile documents and selectors: everything ends in a result or a documented error, quickly
(each case is bounded by the per-test timeout) and in bounded memory."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mdsel
import mdsel.render_json
import mdsel.render_text
from mdsel.errors import ERROR_TYPES
from tests.conftest import CORPUS
from tests.peak_memory import PEAK_BYTES_FUNCTION

PATHOLOGICAL: dict[str, Callable[[], bytes]] = {
    "10000-nested-lists": lambda: b"# T\n\n" + b"- " * 10_000 + b"x\n",
    "10000-nested-quotes": lambda: b"# T\n\n" + b"> " * 10_000 + b"x\n",
    "10000-indented-lists": lambda: b"".join(b"  " * i + b"- x\n" for i in range(2_000)),
    "5mb-single-line": lambda: b"# T\n\n" + (b"word " * 1_048_576)[:5_000_000] + b"\n",
    "5mb-line-no-spaces": lambda: b"# T\n\n" + b"x" * 5_000_000,
    "100000-headings": lambda: b"".join(b"## H%d\n\ntext %d\n\n" % (i, i) for i in range(100_000)),
    "50000-table-rows": lambda: b"# T\n\n| a | b |\n|---|---|\n" + b"| 1 | 2 |\n" * 50_000,
    "unclosed-fence": lambda: b"# T\n\n```\n" + b"# not a heading\n" * 50_000,
    "unclosed-html": lambda: b"# T\n\n<div>\n" + b"## inside\n\n" * 10_000,
    "mixed-line-endings": lambda: b"".join(
        b"# H%d\r\ntext\rmore\n\n## S\r\r" % i for i in range(20_000)
    ),
    "deep-heading-outline": lambda: b"".join(
        b"#" * (1 + i % 6) + b" level %d\n\nbody\n\n" % (1 + i % 6) for i in range(30_000)
    ),
    "only-blank-lines": lambda: b"\n" * 1_000_000,
    "empty": lambda: b"",
    "bom-only": lambda: b"\xef\xbb\xbf",
    "front-matter-only": lambda: b"---\na: 1\n---\n",
    "nul-byte": lambda: b"# T\n\n" + b"text " * 1000 + b"\x00",
    "invalid-utf8": lambda: b"# T\n\n" + b"caf\xe9\n",
    "lone-surrogate": lambda: b"# T\n\xed\xa0\x80\n",
}


def _check_outcome(outcome: mdsel.Outcome) -> None:
    assert outcome.exit_code in (0, 1)
    for line in outcome.stderr.splitlines():
        assert line.startswith(("!", "~")), line
        if line.startswith("!"):
            assert line.split(" ", 2)[1].rstrip(":") in ERROR_TYPES


@pytest.mark.parametrize("name", list(PATHOLOGICAL))
def test_pathological_documents(name: str, tmp_path: Path) -> None:
    path = tmp_path / f"{name}.md"
    path.write_bytes(PATHOLOGICAL[name]())
    text = mdsel.run_command("index", None, [str(path)])
    _check_outcome(text)
    _check_outcome(mdsel.run_command("index", None, [str(path)], mdsel.Options(json=True)))
    if text.exit_code:
        assert "PARSE_ERROR" in text.stderr and "byte offset" in text.stderr
        return
    sources, _problems = mdsel.load([str(path)])
    document = sources[0].document
    # Every heading, one selector each (sampled past a thousand), then all at once.
    headings = document.headings
    step = max(1, len(headings) // 1000)
    for heading in headings[::step]:
        result = mdsel.select(f"h{heading.level}.{heading.ordinal}", sources)
        outcome = mdsel.render_text.select(result, [], [])
        _check_outcome(outcome)
        assert outcome.exit_code == 0
        assert outcome.stdout.startswith(document.data[heading.start : heading.start + 1].decode())
    for request in ("section", "root", "para", "list/list/list", "h2.0-999999999?tail=3", "code"):
        _check_outcome(mdsel.run_command("select", request, [str(path)]))
    _check_outcome(mdsel.run_command("select", "root?page=3", [str(path)]))


def test_memory_stays_bounded_on_the_largest_outline(tmp_path: Path) -> None:
    path = tmp_path / "many.md"
    path.write_bytes(PATHOLOGICAL["100000-headings"]())
    script = PEAK_BYTES_FUNCTION + (
        "import sys, mdsel\n"
        "mdsel.run_command('index', None, [sys.argv[1]])\n"
        "mdsel.run_command('index', None, [sys.argv[1]], mdsel.Options(json=True))\n"
        "mdsel.run_command('select', 'section', [sys.argv[1]], mdsel.Options(full=True))\n"
        "print(peak_bytes() // 2**20)\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    peak_mb = int(done.stdout)
    assert peak_mb < 1024, f"peak RSS {peak_mb} MB for a {path.stat().st_size} byte document"


def test_node_counts_grow_linearly_with_input() -> None:
    """Scaling by counting: 8x the input, 8x the nodes (no blow-up in what the tree holds)."""
    unit = (CORPUS / "fastapi_readme.md").read_bytes()
    one = mdsel.parse_document(unit)
    eight = mdsel.parse_document(b"\n\n".join([unit] * 8))
    assert len(eight.blocks) == 8 * len(one.blocks)
    assert len(eight.headings) == 8 * len(one.headings)


# -- selectors -------------------------------------------------------------------------------

_DOC = mdsel.Source(
    "models", "models.md", mdsel.parse_document((CORPUS / "pydantic_models.md").read_bytes())
)
_VALID = [
    "h2.1", "h2.0-3", "h2.0,2,4", "h3.2/code.0", "section.5/para", "list.0/code.0", "root/h2.0",
    "models::h1.0", "heading:h2[1]/block:code[0]", "h2.1?head=5", "h2.1?toc=true", "code.3",
    "h2.0,h3.1,code.0", "quote.0/list", "table.0", "h2.9999", "readme::h2.0", "h2.1?page=2",
    "L12", "L40-60", "L1/code.0", "L9999999", "L30?page=2", "#validators", "models.md#fields",
    "#fields/code.0?head=3", "#x%C3%A9", "L5,L6-7,#a",
]  # fmt: skip
_NOISE = st.sampled_from(
    [*".,/?&=[]-:: h123456xyz09é\tL#%", "::", "?head=", "[0", "-9", ".md#", "%C3%A9"]
)


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(_VALID))
    for _ in range(draw(st.integers(0, 4))):
        position = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "delete", "replace", "duplicate"]))
        if action == "insert":
            text = text[:position] + draw(_NOISE) + text[position:]
        elif action == "delete" and text:
            text = text[:position] + text[position + 1 :]
        elif action == "replace" and text:
            text = text[:position] + draw(_NOISE) + text[position + 1 :]
        else:
            text = text + draw(st.sampled_from([",", "/"])) + text
    return text


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_selectors_resolve_or_fail_with_documented_errors(request: str) -> None:
    result = mdsel.select(request, [_DOC])
    for problem in result.problems:
        assert problem.type in ERROR_TYPES
        assert problem.message
        assert len(problem.suggestions) <= 5
    for match in result.matches:
        assert match.line_start <= match.line_end or match.content == ""
    json.loads(mdsel.render_json.select(result, [], []).stdout)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_never_raises(request: str) -> None:
    result = mdsel.select(request, [_DOC])
    assert all(problem.type in ERROR_TYPES for problem in result.problems)
