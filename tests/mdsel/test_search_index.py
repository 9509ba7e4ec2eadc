"""search_index: sections as FTS5 rows (own text, titles, code), and the cache of indexes."""

from __future__ import annotations

from mdsel.api import load
from mdsel.search_index import SearchCache, SearchIndex, link_texts, prose, spaced
from mdsel.search_query import fts_string
from mdsel.tree import Source, parse_document

DOC = b"""---
title: The Guide
---

Intro text about setup.

# Guide

## Install

Run the installer.

```sh
pip install thing
```

### Offline

No network here.

## Usage

Use [the API](api.md#call) and <b>bold</b> words.
"""


def sources(*documents: bytes) -> list[Source]:
    return [Source(f"d{n}", f"d{n}.md", parse_document(d)) for n, d in enumerate(documents)]


def test_each_section_is_its_own_lines_with_the_titles_down_to_it() -> None:
    index = SearchIndex(sources(DOC))
    found = [(s.heading, s.titles) for s in index.sections]
    assert found == [
        (-1, ("The Guide",)),
        (0, ("The Guide", "Guide")),
        (1, ("The Guide", "Guide", "Install")),
        (2, ("The Guide", "Guide", "Install", "Offline")),
        (3, ("The Guide", "Guide", "Usage")),
    ]
    data = DOC
    install = index.sections[2]
    assert data[install.start : install.end].startswith(b"## Install\n")
    assert b"### Offline" not in data[install.start : install.end]


def rowids(index: SearchIndex, expression: str) -> list[int]:
    return sorted(rowid for rowid, _score in index.ranked(expression, 50)[0])


def test_fields_code_titles_and_prose_are_searched_apart() -> None:
    index = SearchIndex(sources(DOC))
    assert rowids(index, "code : pip") == [3]  # in the code block of Install
    assert rowids(index, "body : pip") == []
    assert rowids(index, "title : offline") == [4]
    assert rowids(index, "context : install") == [4]  # Offline sits under Install
    # A link's target and an HTML tag are markup, not words.
    assert rowids(index, "body : api") == [5] and rowids(index, "body : call") == []
    assert rowids(index, "body : b") == []


def test_the_tokenizer_splits_identifiers_as_documents_write_them() -> None:
    doc = b"# A\n\nSet `dependency_overrides` on the CORSMiddleware with --no-cache.\n"
    index = SearchIndex(sources(doc))
    for unit in ("dependency_overrides", "dependency overrides", "corsmiddleware", "--no-cache"):
        assert rowids(index, fts_string(unit)) == [1], unit
    assert rowids(index, fts_string("cors")) == []  # one word as written, not a prefix


def test_cjk_words_are_found_inside_unbroken_text() -> None:
    doc = "# 配置\n\n这是一个关于服务器配置的章节。\n".encode()
    index = SearchIndex(sources(doc))
    assert rowids(index, fts_string(spaced("服务器"))) == [1]
    assert rowids(index, fts_string(spaced("数据库"))) == []


def test_prose_drops_link_targets_and_tags() -> None:
    assert prose('see [docs](https://x.io/a "T") and <a href="y">z</a>').split() == [
        "see", "[docs", "and", "z",
    ]  # fmt: skip


def test_link_texts_are_the_links_own_and_not_an_images() -> None:
    assert link_texts("[a\nb](x.md) ![pic](p.png) [Foo](w/Foo_(bar)) \\[no](y)").split("\n") == [
        "a",
        "b",
        "Foo",
    ]


def test_the_cache_reuses_an_index_while_the_documents_are_the_same_objects() -> None:
    cache = SearchCache(10**9)
    first = sources(DOC)
    index = cache.get(first)
    assert cache.get(list(first)) is index
    changed = sources(DOC.replace(b"installer", b"setup tool"))
    assert cache.get(changed) is not index


def test_the_cache_keeps_within_its_budget_and_entries() -> None:
    cache = SearchCache(10**9, entries=2)
    built = [cache.get(sources(DOC + b"\n%d\n" % n)) for n in range(3)]
    assert len({id(index) for index in built}) == 3
    small = SearchCache(1)  # the newest is kept whatever its size
    one = sources(DOC)
    assert small.get(one) is small.get(one)


def test_an_index_over_real_files_has_a_row_per_section(tmp_path: object) -> None:
    loaded, problems = load(["tests/corpus/fastapi_readme.md"])
    assert not problems
    index = SearchIndex(loaded)
    headings = len(loaded[0].document.headings)
    assert len(index.sections) in (headings, headings + 1)
    assert index.resident_bytes() > 0


def test_a_page_opening_on_an_h2_lends_its_title_to_no_other_section() -> None:
    index = SearchIndex(sources(b"## Sponsors\n\ntext\n\n## Example\n\nmore\n\n### Docs\n\nx\n"))
    assert [s.titles for s in index.sections] == [
        ("Sponsors",), ("Example",), ("Example", "Docs"),
    ]  # fmt: skip
