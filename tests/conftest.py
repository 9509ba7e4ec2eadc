"""Shared test inputs: the vendored real-world corpus, the CommonMark spec, our fixtures."""

from __future__ import annotations

import csv
import json
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

CORPUS = ROOT / "tests" / "corpus"
FIXTURES = ROOT / "tests" / "fixtures"
COMMONMARK = ROOT / "tests" / "commonmark"
# Beside a checkout there may be a larger collection of real documents; it only adds cases.
SHARED_CORPUS = ROOT.parent / "shared" / "corpus"
MARKDOWN_SUFFIXES = (".md", ".markdown")
# The e2e suite runs the executables in this directory: the dev venv's by default, an installed
# wheel's when scripts/test.sh points MDSEL_TEST_BIN_DIR at it.
BIN = Path(os.environ.get("MDSEL_TEST_BIN_DIR") or Path(sys.executable).parent)
# Real documentation trees too large to vendor: pinned in tools/trees/trees.lock, fetched and
# unpacked into .trees/ by scripts/test.sh.
TREES_LOCK = ROOT / "tools" / "trees" / "trees.lock"
FETCHED_TREES = ROOT / ".trees"


def environ_without(*prefixes: str) -> dict[str, str]:
    """This process's environment without the variables starting with `prefixes`: what a
    command under test would otherwise inherit from the machine running the tests."""
    return {key: value for key, value in os.environ.items() if not key.startswith(prefixes)}


def corpus_manifest() -> list[dict[str, str]]:
    """The rows of tests/corpus/MANIFEST.tsv: name, repo, path, commit, license, bytes, ..."""
    with (CORPUS / "MANIFEST.tsv").open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def _shared_extras() -> list[Path]:
    if not SHARED_CORPUS.is_dir():
        return []
    ours = {row["name"] for row in corpus_manifest()}
    return sorted(
        p
        for p in SHARED_CORPUS.iterdir()
        if p.suffix in MARKDOWN_SUFFIXES and p.name != "README.md" and p.name not in ours
    )


def corpus_files() -> list[Path]:
    """The vendored documents named in the manifest, plus any extra ones beside the checkout."""
    return [CORPUS / row["name"] for row in corpus_manifest()] + _shared_extras()


def fixture_files() -> list[Path]:
    return sorted(FIXTURES.glob("*.md"))


def real_documents() -> list[Path]:
    """Every document of the fixture set: the corpus and our own fixtures."""
    return corpus_files() + fixture_files()


def fetched_tree(spec: str) -> Path:
    """The directory of the tree `spec` (`@stdlib/stats@0.4.1`, a line of tools/trees/trees.lock)
    as scripts/test.sh unpacked it, or skip saying why it is not there."""
    locked = {
        fields[0]: fields[2]
        for fields in (line.split() for line in TREES_LOCK.read_text().splitlines())
        if fields and not fields[0].startswith("#")
    }
    integrity = locked[spec]  # a KeyError: the test names a tree the lock does not pin
    name = spec.removeprefix("@").replace("/", "-").replace("@", "-", 1)
    tree = FETCHED_TREES / name
    marker = tree / ".integrity"
    if not marker.is_file() or marker.read_text().strip() != integrity:
        pytest.skip(
            f"{spec} is not unpacked in {tree}: scripts/test.sh fetches it with npm (or curl) "
            "and checks it against tools/trees/trees.lock, or says why it could not"
        )
    return tree


@pytest.fixture(scope="session")
def cmark_examples() -> list[dict[str, object]]:
    text = (COMMONMARK / "commonmark.json").read_text(encoding="utf-8")
    examples: list[dict[str, object]] = json.loads(text)
    return examples


@pytest.fixture(scope="session")
def cmark_spec_path() -> Path:
    return COMMONMARK / "spec.md"
