"""Shared test inputs: the real-world corpus, the CommonMark spec (fetched once), our fixtures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
CACHE = ROOT / "tests" / ".cache"
MDIT_VERSION = "4.3.0"


def corpus_files() -> list[Path]:
    return sorted(
        p for p in CORPUS.glob("*") if p.suffix in (".md", ".markdown") and p.name != "README.md"
    )


def fixture_files() -> list[Path]:
    return sorted(FIXTURES.glob("*.md"))


def real_documents() -> list[Path]:
    """Every document of the fixture set: the shared corpus and our own fixtures."""
    return corpus_files() + fixture_files()


def _cmark_dir() -> Path:
    """The CommonMark spec files from markdown-it-py's source distribution (downloaded once)."""
    target = CACHE / f"markdown-it-py-{MDIT_VERSION}"
    done = target / "commonmark.json"
    if done.exists():
        return target
    target.mkdir(parents=True, exist_ok=True)
    # Parallel test workers may race here: each downloads into its own folder, and files land
    # by atomic rename, commonmark.json (the "done" marker) last.
    download = Path(tempfile.mkdtemp(dir=target))
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-binary", ":all:", "--no-deps",
         f"markdown-it-py=={MDIT_VERSION}", "-d", str(download)],
        check=True,
        capture_output=True,
    )  # fmt: skip
    archive = next(download.glob("markdown_it_py-*.tar.gz"))
    with tarfile.open(archive) as tar:
        for name in ("spec.md", "commonmark.json"):
            member = tar.getmember(f"markdown_it_py-{MDIT_VERSION}/tests/test_cmark_spec/{name}")
            extracted = tar.extractfile(member)
            assert extracted is not None
            (download / name).write_bytes(extracted.read())
            os.replace(download / name, target / name)
    return target


@pytest.fixture(scope="session")
def cmark_examples() -> list[dict[str, object]]:
    examples: list[dict[str, object]] = json.loads((_cmark_dir() / "commonmark.json").read_text())
    return examples


@pytest.fixture(scope="session")
def cmark_spec_path() -> Path:
    return _cmark_dir() / "spec.md"
