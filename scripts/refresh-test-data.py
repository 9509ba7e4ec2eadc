#!/usr/bin/env python3
"""Refresh the vendored test data from its sources (needs the network for the CommonMark part).

- tests/commonmark/: spec.md and commonmark.json from markdown-it-py's source distribution,
  pinned by version and sha256 (pip refuses any other archive).
- tests/corpus/: the documents named in MANIFEST.tsv, copied from a checkout of the corpus
  (default: ../shared/corpus beside the repository; skipped when absent).
- tests/prose/: prose in languages other than English for the token estimate's tests: the
  longer translated messages of Sphinx's own catalogs (BSD-2-Clause), one file per language,
  from its wheel pinned by version and sha256.

    scripts/refresh-test-data.py [--corpus DIR] [--skip-commonmark] [--skip-prose]
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMONMARK = ROOT / "tests" / "commonmark"
CORPUS = ROOT / "tests" / "corpus"
MDIT_VERSION = "4.3.0"
MDIT_SDIST_SHA256 = "91a58fa5b72c71a40cf7177250fd767480d7a2bb3ac426ccfb76fb90305fdaaa"
MDIT_MEMBERS = ("spec.md", "commonmark.json")
PROSE = ROOT / "tests" / "prose"
SPHINX_VERSION = "9.0.4"
SPHINX_WHEEL_SHA256 = "5bebc595a5e943ea248b99c13814c1c5e10b3ece718976824ffa7959ff95fffb"
PROSE_LANGUAGES = ["ca", "es", "et", "fr", "gl", "id", "pl", "pt_BR", "sk", "sq", "sv", "tr"]
"""Languages written in the Latin script whose catalogs hold enough prose (2 KB or more)."""


def refresh_commonmark() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        requirement = Path(scratch) / "requirement.txt"
        pin = f"markdown-it-py=={MDIT_VERSION} --hash=sha256:{MDIT_SDIST_SHA256}\n"
        requirement.write_text(pin)
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--require-hashes",
             "--no-binary", ":all:", "-r", str(requirement), "-d", scratch],
            check=True,
        )  # fmt: skip
        archive = Path(scratch) / f"markdown_it_py-{MDIT_VERSION}.tar.gz"
        # pip has checked the hash already; checking again costs nothing and guards the name.
        if hashlib.sha256(archive.read_bytes()).hexdigest() != MDIT_SDIST_SHA256:
            sys.exit(f"{archive.name}: sha256 differs from the pinned one")
        with tarfile.open(archive) as tar:
            for name in MDIT_MEMBERS:
                member = f"markdown_it_py-{MDIT_VERSION}/tests/test_cmark_spec/{name}"
                extracted = tar.extractfile(member)
                if extracted is None:
                    sys.exit(f"{archive.name}: {member} is not a regular file")
                write_if_changed(COMMONMARK / name, extracted.read())


def refresh_prose() -> None:
    import zipfile

    with tempfile.TemporaryDirectory() as scratch:
        requirement = Path(scratch) / "requirement.txt"
        requirement.write_text(f"sphinx=={SPHINX_VERSION} --hash=sha256:{SPHINX_WHEEL_SHA256}\n")
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--require-hashes",
             "--only-binary", ":all:", "-r", str(requirement), "-d", scratch],
            check=True,
        )  # fmt: skip
        wheel = Path(scratch) / f"sphinx-{SPHINX_VERSION}-py3-none-any.whl"
        with zipfile.ZipFile(wheel) as archive:
            licence = archive.read(f"sphinx-{SPHINX_VERSION}.dist-info/licenses/LICENSE.rst")
            write_if_changed(PROSE / "LICENSE.rst", licence)
            for language in PROSE_LANGUAGES:
                catalog = archive.read(f"sphinx/locale/{language}/LC_MESSAGES/sphinx.po")
                messages = _translations(catalog.decode("utf-8"))
                write_if_changed(PROSE / f"{language}.txt", _paragraphs(messages).encode())


def _translations(catalog: str) -> list[str]:
    """The `msgstr` texts of a gettext catalog, joined across their lines."""
    found: list[list[str]] = []
    current: list[str] | None = None
    for line in catalog.splitlines():
        if line.startswith('msgstr "'):
            current = [line[8:-1]]
            found.append(current)
        elif line.startswith('"') and current is not None:
            current.append(line[1:-1])
        else:
            current = None
    texts = ("".join(parts).replace("\\n", " ").replace('\\"', '"') for parts in found)
    # Long messages without placeholders: sentences, not labels or format strings (and not
    # the catalog's header, which names its translators).
    return [
        text
        for text in texts
        if len(text) > 40
        and "%" not in text
        and "{" not in text
        and not text.startswith("Project-Id-Version")
    ]


def _paragraphs(messages: list[str], size: int = 1500) -> str:
    """The messages as paragraphs of about `size` characters, a blank line between."""
    paragraphs, current = [], ""
    for message in messages:
        current = f"{current} {message}" if current else message
        if len(current) > size:
            paragraphs.append(current)
            current = ""
    if current:
        paragraphs.append(current)
    return "\n\n".join(paragraphs) + "\n"


def manifest_rows(folder: Path) -> list[dict[str, str]]:
    with (folder / "MANIFEST.tsv").open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def refresh_corpus(source: Path) -> None:
    rows = manifest_rows(source)
    for row in rows:
        data = (source / row["name"]).read_bytes()
        if len(data) != int(row["bytes"]):
            sys.exit(f"{source / row['name']}: {len(data)} bytes, the manifest says {row['bytes']}")
        write_if_changed(CORPUS / row["name"], data)
    write_if_changed(CORPUS / "MANIFEST.tsv", (source / "MANIFEST.tsv").read_bytes())
    listed = {row["name"] for row in rows}
    for stale in CORPUS.iterdir():
        if stale.suffix in (".md", ".markdown") and stale.name not in listed | {"README.md"}:
            stale.unlink()
            print(f"removed {stale.relative_to(ROOT)} (no longer in the manifest)")
    print("tests/corpus/README.md lists each document's licence and holder: update it by hand")


def write_if_changed(path: Path, data: bytes) -> None:
    if path.exists() and path.read_bytes() == data:
        return
    path.write_bytes(data)
    print(f"updated {path.relative_to(ROOT)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--skip-commonmark", action="store_true")
    parser.add_argument("--skip-prose", action="store_true")
    args = parser.parse_args()
    if not args.skip_commonmark:
        refresh_commonmark()
    if not args.skip_prose:
        refresh_prose()
    if (args.corpus / "MANIFEST.tsv").is_file():
        refresh_corpus(args.corpus)
    else:
        print(f"{args.corpus}: no MANIFEST.tsv there, corpus left as it is")


if __name__ == "__main__":
    main()
