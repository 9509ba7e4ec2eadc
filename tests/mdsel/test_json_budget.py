"""`--json` answers within the answer budget, as text ones are: an index too long becomes a map
(headings to the deepest level that fits, then the first documents), a select's envelope drops
its children lists, then its last matches; `--full` is the way past, a warning says what is
left out, and every envelope stays valid."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema

from mdsel.cli import run
from mdsel.estimate import estimated_tokens
from mdsel.schema import load_schema
from tests.conftest import CORPUS, ROOT
from tests.tokens import count_tokens

VALIDATOR = jsonschema.Draft202012Validator(load_schema())
BUDGET = 10_000
TREES = ROOT / "tests" / "trees"


def envelope(*argv: str, env: dict[str, str] | None = None) -> tuple[str, dict[str, Any]]:
    outcome = run([argv[0], "--json", *argv[1:]], env or {}, None)
    body: dict[str, Any] = json.loads(outcome.stdout)
    VALIDATOR.validate(body)
    return outcome.stdout, body


def test_the_index_of_a_tree_is_a_map_within_the_budget() -> None:
    text, body = envelope("index", str(TREES))
    assert estimated_tokens(text) <= BUDGET
    assert count_tokens(text) <= BUDGET
    documents = body["data"]["documents"]
    total = len(list(TREES.rglob("*.md")))
    assert body["data"]["summary"]["total_documents"] == total > len(documents) > 0
    (warning,) = body["warnings"]
    assert warning.startswith("index cut to fit MDSEL_MAX_ANSWER_TOKENS=10000: ")
    assert f"{total - len(documents)} documents not listed" in warning and "--full" in warning
    whole, full = envelope("index", "--full", str(TREES))
    assert len(full["data"]["documents"]) == total and "warnings" not in full
    assert estimated_tokens(whole) > 20 * BUDGET


def test_one_long_document_keeps_its_shallow_headings_in_order() -> None:
    path = CORPUS / "mkdocs_configuration.md"
    text, body = envelope("index", str(path), env={"MDSEL_MAX_ANSWER_TOKENS": "6000"})
    assert estimated_tokens(text) <= 6000
    (document,) = body["data"]["documents"]
    _, full = envelope("index", "--full", str(path))
    (whole,) = full["data"]["documents"]
    kept = [h["selector"] for h in document["headings"]]
    deepest = max(h["depth"] for h in document["headings"])
    shallow = [h["selector"] for h in whole["headings"] if h["depth"] < deepest]
    assert 0 < len(kept) < len(whole["headings"])
    assert set(shallow) <= set(kept)  # every heading above the level cut is kept
    assert kept == [h["selector"] for h in whole["headings"] if h["selector"] in kept]
    assert f"headings deeper than h{deepest}" in body["warnings"][0]


def test_a_small_budget_lists_the_first_documents_and_names_the_rest() -> None:
    env = {"MDSEL_MAX_ANSWER_TOKENS": "1500"}
    text, body = envelope("index", str(TREES / "vite-docs"), env=env)
    assert estimated_tokens(text) <= 1500
    listed = body["data"]["documents"]
    assert listed and all(d["headings"] == [] for d in listed)
    assert "headings left out" in body["warnings"][0]
    assert " documents not listed " in body["warnings"][0]


def test_a_select_envelope_drops_children_then_matches_to_fit(tmp_path: Path) -> None:
    # A section of a hundred subsections with long titles: their previews alone pass the budget.
    title = "a long subsection title " * 3
    doc = "# Top\n\n" + "".join(f"## {title}{n}\n\ntext {n}\n\n" for n in range(100))
    path = tmp_path / "doc.md"
    path.write_text(doc)
    env = {"MDSEL_MAX_ANSWER_TOKENS": "2000"}
    text, body = envelope("select", "h1.0,h2.0-99", str(path), env=env)
    assert estimated_tokens(text) <= 2000
    matches = body["data"]["matches"]
    assert matches and all(m["children_available"] == [] for m in matches)
    notes = " ".join(body["warnings"])
    assert "children_available left out" in notes and "more matches not shown" in notes
    # Every match asked for is shown or named by its selector (a range `doc::h2.5-99` in the
    # response budget's note), so it can be asked for next; none by the file's path alone.
    named = set()
    for name in re.findall(r"doc::h(\d)\.(\d+)(?:-(\d+))?", notes):
        level, first, last = name[0], int(name[1]), int(name[2] or name[1])
        named |= {f"doc::h{level}.{n}" for n in range(first, last + 1)}
    shown = {m["selector"] for m in matches}
    asked = {"doc::h1.0", *(f"doc::h2.{n}" for n in range(100))}
    assert shown | named == asked and not shown & named
    assert str(path) not in notes
    for way_past in (["h1.0?full=true"], ["--full", "h1.0"]):
        _, full = envelope("select", *way_past, str(path), env=env)
        assert len(full["data"]["matches"][0]["children_available"]) == 100


def test_an_answer_within_the_budget_is_untouched(tmp_path: Path) -> None:
    path = tmp_path / "small.md"
    path.write_text("# One\n\ntext\n\n## Two\n\nmore\n")
    _, index = envelope("index", str(path))
    assert "warnings" not in index and len(index["data"]["documents"][0]["headings"]) == 2
    _, select = envelope("select", "h1.0", str(path))
    assert "warnings" not in select
    assert select["data"]["matches"][0]["children_available"]
