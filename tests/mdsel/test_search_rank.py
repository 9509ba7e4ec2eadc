"""search_rank: each candidate's features, and the order their weights give."""

from __future__ import annotations

from mdsel.search_index import SearchIndex
from mdsel.search_query import Query, parse_query
from mdsel.search_rank import MAX_LEADING, RANK_WEIGHTS, alternatives, features, fts, rerank
from mdsel.tree import Source, parse_document

DOCS = {
    "guide/proxy.md": b"# Guide\n\n## Server proxy\n\nThe proxy forwards requests.\n",
    "guide/other.md": b"# Other\n\n## Options\n\nA proxy may be set, with the server.\n",
    "CHANGELOG.md": b"# Changelog\n\n## 1.0\n\n- server proxy fixed\n",
}


def ranked(text: str) -> tuple[SearchIndex, Query, list[tuple[int, float]]]:
    sources = [Source(f"d{n}", path, parse_document(data)) for n, (path, data) in
               enumerate(DOCS.items())]  # fmt: skip
    index = SearchIndex(sources)
    query = parse_query(text)
    assert isinstance(query, Query)
    candidates, _total = index.ranked(" OR ".join(fts(u) for u in query.units), 50)
    return index, query, candidates


def titles(index: SearchIndex, rowid: int) -> tuple[str, ...]:
    return index.sections[rowid - 1].titles


def test_features_are_shares_and_flags_between_zero_and_one() -> None:
    index, query, candidates = ranked("server proxy")
    found = dict(features(index, query, candidates))
    for values in found.values():
        assert set(values) == set(RANK_WEIGHTS)
        assert all(0.0 <= value <= 1.0 for value in values.values()), values
    by_title = {titles(index, rowid)[-1]: values for rowid, values in found.items()}
    assert by_title["Server proxy"]["title_is_query"] == 1.0
    assert by_title["Server proxy"]["title_verbatim"] == 1.0
    assert by_title["Options"]["path_words"] == 0.0 and by_title["Options"]["words"] == 1.0
    assert by_title["Server proxy"]["depth"] == 0.2 and by_title["Guide"]["depth"] == 0.0
    assert by_title["1.0"]["changelog"] == 1.0 and by_title["Server proxy"]["changelog"] == 0.0


def test_a_long_section_outranks_a_passing_mention_under_the_same_title() -> None:
    """Two pages with a section of the same title: the one treating it at length comes first
    (the other only points to it)."""
    long = "## Dynamic components\n\n" + "Switch between components with `is`. " * 80 + "\n"
    short = "## Dynamic components\n\nSee the guide.\n"
    sources = [
        Source("api", "api/setup.md", parse_document(b"# Setup API\n\n" + short.encode())),
        Source("guide", "guide/basics.md", parse_document(b"# Basics\n\n" + long.encode())),
    ]
    index = SearchIndex(sources)
    query = parse_query("dynamic components")
    assert isinstance(query, Query)
    candidates, _total = index.ranked(" OR ".join(fts(u) for u in query.units), 50)
    found = dict(features(index, query, candidates))
    sizes = sorted(values["size"] for values in found.values())
    assert sizes[0] < sizes[-1]
    best = rerank(index, query, candidates)[0][0]
    assert index.paths[index.sections[best - 1].doc] == "guide/basics.md"


def test_the_section_titled_as_asked_comes_first_and_the_changelog_last() -> None:
    index, query, candidates = ranked("server proxy")
    order = [titles(index, rowid)[-1] for rowid, _score in rerank(index, query, candidates)]
    assert order[0] == "Server proxy"
    assert order.index("1.0") > order.index("Options")


def test_an_identifier_stands_for_itself_and_a_few_of_its_leading_parts() -> None:
    assert alternatives("server.watch.usepolling", False) == [
        ("server.watch.usepolling", 1.0),
        ("server watch", 2 / 3),
    ]
    assert alternatives("dependency_overrides", False) == [("dependency_overrides", 1.0)]
    assert alternatives("server.watch.usepolling", True) == [("server.watch.usepolling", 1.0)]
    # Thousands of parts: a bounded number of forms, the longest first.
    many = alternatives(".".join(["ab"] * 3000), False)
    assert len(many) == 1 + MAX_LEADING
    assert [share for _text, share in many] == sorted((s for _t, s in many), reverse=True)


def index_of(docs: dict[str, bytes]) -> SearchIndex:
    return SearchIndex(
        [Source(f"d{n}", path, parse_document(data)) for n, (path, data) in enumerate(docs.items())]
    )


def best_title(index: SearchIndex, text: str) -> str:
    best = rerank(*ranked_in(index, text))[0][0]
    return index.sections[best - 1].titles[-1]


def test_a_title_as_written_wins_over_the_same_words_without_its_marks() -> None:
    """`ref()` asked: the section titled `ref()`, not the one titled `ref`, though their
    words are the same and the other is as long."""
    body = "A ref holds a value. " * 40
    index = index_of({
        "api/attributes.md": f"# Attributes\n\n## ref\n\n{body}\n".encode(),
        "api/core.md": f"# Core\n\n## ref()\n\n{body}\n".encode(),
    })  # fmt: skip
    assert best_title(index, "ref()") == "ref()"
    assert best_title(index, "ref") == "ref"


def test_a_plural_title_is_the_singular_query() -> None:
    index = index_of({
        "guide/env.md": b"# Env\n\n## Modes\n\nEach mode loads its own file.\n",
        "guide/other.md": b"# Other\n\n## Build mode options\n\nThe mode option, the mode.\n",
    })  # fmt: skip
    by_title = features_by_title(index, "mode")
    assert by_title["Modes"]["title_is_query"] == 1.0
    assert by_title["Modes"]["title_extra"] == 0.0  # nor a word that is not the query's
    assert by_title["Build mode options"]["title_is_query"] == 0.0
    assert best_title(index, "mode") == "Modes"
    # A page titled by the plural query is still the page's: its sections defer to it.
    hooks = index_of({"hooks.md": b"# Hooks\n\n## Overview\n\nA hook runs.\n"})
    assert features_by_title(hooks, "hooks")["Overview"]["page_words"] == 1.0


def test_a_mark_that_is_part_of_a_name_counts_as_written() -> None:
    """`C#` is not `C`; `*`s after a title (`Install **`) are marks."""
    body = "Language notes. " * 30
    index = index_of({
        "a.md": f"# Langs\n\n## C\n\n{body}\n".encode(),
        "b.md": f"# More\n\n## C#\n\n{body}\n".encode(),
        "c.md": f"# Other\n\n## Install **\n\n{body}\n".encode(),
    })  # fmt: skip
    assert best_title(index, "C#") == "C#"
    assert features_by_title(index, "C#")["C"]["title_verbatim"] == 0.0
    assert features_by_title(index, "install")["Install **"]["title_verbatim"] == 1.0


def test_common_words_of_a_title_count_as_words_not_asked() -> None:
    """`v-show` asked: `v-if vs. v-show` has words the query does not (`if`, `vs`), though
    both are common words a query drops."""
    index = index_of({"guide/conditional.md": (
        b"# Conditional\n\n## v-show\n\nToggles display.\n\n"
        b"## v-if vs. v-show\n\nv-if is lazy; v-show toggles display.\n"
    )})  # fmt: skip
    by_title = features_by_title(index, "v-show")
    assert by_title["v-show"]["title_extra"] == 0.0
    assert by_title["v-if vs. v-show"]["title_extra"] > 0.0
    assert best_title(index, "v-show") == "v-show"


def test_a_section_holding_the_words_only_as_a_link_points_away() -> None:
    index = index_of({
        "guide/a.md": b"# A\n\n## Intro\n\nSee [scoped slots](b.md#scoped-slots) there.\n",
        "guide/b.md": b"# B\n\n## Slots\n\nScoped slots pass data to the slot.\n",
        "guide/c.md": b"# C\n\n## Image\n\n![scoped slots](slots.png)\n",
    })  # fmt: skip
    by_title = features_by_title(index, "scoped slots")
    assert by_title["Intro"]["linked_away"] == 1.0
    assert by_title["Slots"]["linked_away"] == 0.0
    assert by_title["Image"]["linked_away"] == 0.0  # an image's text is no link
    # Two sections alike but for that (the linked one says the words once more, which alone
    # would put it first): the one treating the words comes first.
    alike = index_of({
        "a.md": b"# A\n\n## Slots\n\nRead [scoped slots](b.md) first, and scoped slots again.\n",
        "b.md": b"# B\n\n## Slots\n\nRead scoped slots first, and the rest again.\n",
    })  # fmt: skip
    best = rerank(*ranked_in(alike, "scoped slots"))[0][0]
    assert alike.paths[alike.sections[best - 1].doc] == "b.md"


def features_by_title(index: SearchIndex, text: str) -> dict[str, dict[str, float]]:
    """Each candidate's features, by its own title."""
    found = dict(features(*ranked_in(index, text)))
    return {index.sections[rowid - 1].titles[-1]: values for rowid, values in found.items()}


def ranked_in(index: SearchIndex, text: str) -> tuple[SearchIndex, Query, list[tuple[int, float]]]:
    query = parse_query(text)
    assert isinstance(query, Query)
    candidates, _total = index.ranked(" OR ".join(fts(u) for u in query.units), 50)
    return index, query, candidates
