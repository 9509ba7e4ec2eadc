"""search: ?q= over the documents of a call → ranked sections, the best one's text inline,
within the answer budget; scoped searches, paging, misses and bad queries."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mdsel.api import load, run_command, select
from mdsel.estimate import estimated_tokens
from mdsel.results import Options
from mdsel.schema import load_schema
from tests.conftest import ROOT

TREE = ROOT / "tests" / "trees" / "vite-docs"


def write(folder: Path, files: Mapping[str, str | bytes]) -> list[str]:
    paths = []
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode() if isinstance(text, str) else text)
        paths.append(str(path))
    return paths


GUIDE = {
    "guide/cors.md": "# CORS\n\nCross-origin requests.\n\n## Use CORSMiddleware\n\n"
    "Add `CORSMiddleware` to the app.\n\n```python\napp.add_middleware(CORSMiddleware)\n```\n",
    "guide/testing.md": "# Testing\n\n## Overriding dependencies\n\n"
    "Set `app.dependency_overrides` in tests.\n\n## Other\n\nNothing here.\n",
    "changelog.md": "# Changelog\n\n## 0.2.0\n\n- CORSMiddleware fixed.\n- dependency_overrides "
    "cleared.\n\n## 0.1.0\n\n- First release.\n",
    "intro.md": "Plain text before any heading, about middleware in general.\n",
}


def hits(paths: list[str], query: str) -> list[tuple[str, str, int]]:
    sources, problems = load(paths)
    assert not problems
    result = select("?q=" + query, sources, Options())
    assert result.search is not None, result.problems
    return [(Path(h.path).name, h.selector, h.line_start) for h in result.search.hits]


def test_the_section_about_a_thing_ranks_before_a_changelog_mentioning_it(tmp_path: Path) -> None:
    paths = write(tmp_path, GUIDE)
    assert hits(paths, "CORSMiddleware")[0] == ("cors.md", "h2.0", 5)
    assert hits(paths, "dependency_overrides")[0] == ("testing.md", "h2.0", 3)
    assert hits(paths, "dependency overrides")[0] == ("testing.md", "h2.0", 3)
    # Text before the first heading is the document's root.
    assert ("intro.md", "root", 1) in hits(paths, "middleware")


def test_a_phrase_must_occur_as_written(tmp_path: Path) -> None:
    paths = write(tmp_path, GUIDE)
    assert [h[0] for h in hits(paths, '"first release"')] == ["changelog.md"]
    sources, _ = load(paths)
    missed = select('?q="release first"', sources, Options())
    assert missed.search is None and missed.problems[0].code == "NO_MATCH"


def test_the_text_shown_is_the_best_sections_own_lines_verbatim(tmp_path: Path) -> None:
    data = b"# Title\r\n\r\n## Alpha\r\n\r\nalpha words\r\n\r\n## Beta\r\n\r\nbeta words\r\n"
    [path] = write(tmp_path, {"crlf.md": data})
    outcome = run_command("select", "?q=beta", [path])
    assert outcome.exit_code == 0, outcome.stderr
    assert "## Beta\r\n\r\nbeta words\r\n" in outcome.stdout
    assert "alpha words" not in outcome.stdout.split("<==", 1)[1]
    header = next(line for line in outcome.stdout.splitlines() if line.startswith("1. "))
    assert header.startswith(f"1. {path} h2.1 Title › Beta L7-9 ")


def test_every_hit_selector_selects_its_section_again(tmp_path: Path) -> None:
    paths = write(tmp_path, GUIDE)
    sources, _ = load(paths)
    result = select("?q=middleware dependencies", sources, Options())
    assert result.search is not None and len(result.search.hits) >= 3
    for hit in result.search.hits:
        again = select(f"{hit.namespace}::{hit.selector}", sources, Options())
        assert again.matches and again.matches[0].line_start == hit.line_start, hit


def test_a_search_inside_a_selection_finds_only_what_it_holds(tmp_path: Path) -> None:
    doc = "# Doc\n\n## One\n\ncache here\n\n### Deep\n\ncache deeper\n\n## Two\n\ncache there\n"
    [path] = write(tmp_path, {"doc.md": doc})
    sources, _ = load([path])
    inside = select("h2.0?q=cache", sources, Options())
    assert inside.search is not None
    assert sorted(h.line_start for h in inside.search.hits) == [3, 7]
    other = select("h2.1?q=cache", sources, Options())
    assert other.search is not None and [h.line_start for h in other.search.hits] == [11]
    missing = select("h2.5?q=cache", sources, Options())
    assert missing.search is None and missing.problems[0].type == "SELECTOR_NOT_FOUND"


def test_a_block_scopes_a_search_to_the_section_holding_it(tmp_path: Path) -> None:
    doc = "# Doc\n\n## One\n\n```sh\ncache clean\n```\n\n## Two\n\ncache there\n"
    [path] = write(tmp_path, {"doc.md": doc})
    sources, _ = load([path])
    result = select("h2.0/code.0?q=cache", sources, Options())
    assert result.search is not None
    assert [(h.selector, h.line_start) for h in result.search.hits] == [("h2.0", 3)]


def test_long_titles_are_cut_in_the_list_of_hits(tmp_path: Path) -> None:
    title = "word " * 2000
    [path] = write(tmp_path, {"doc.md": f"# {title}\n\nneedle\n\n## {title}\n\nneedle\n"})
    outcome = run_command("select", "?q=needle", [path], Options(answer_tokens=2000))
    assert outcome.exit_code == 0
    assert estimated_tokens(outcome.stdout) <= 2000
    assert "word word…" in outcome.stdout


def test_a_namespace_scopes_a_search_to_its_document(tmp_path: Path) -> None:
    paths = write(tmp_path, GUIDE)
    sources, _ = load(paths)
    assert {h[0] for h in hits(paths, "dependency_overrides")} == {"testing.md", "changelog.md"}
    result = select("changelog::?q=dependency_overrides", sources, Options())
    assert result.search is not None
    assert {Path(h.path).name for h in result.search.hits} == {"changelog.md"}
    unknown = select("nothing::?q=middleware", sources, Options())
    assert unknown.problems[0].type == "NAMESPACE_NOT_FOUND"


def test_a_link_as_written_scopes_a_search_to_its_section() -> None:
    sources, _ = load([str(p) for p in sorted(TREE.rglob("*.md"))])
    result = select("config/server-options.md#server-proxy?q=rewrite", sources, Options())
    assert result.search is not None
    assert {Path(h.path).name for h in result.search.hits} == {"server-options.md"}


def test_pages_of_hits_follow_one_another(tmp_path: Path) -> None:
    files = {f"d{n:02d}.md": f"# Doc {n}\n\n## Topic {n}\n\nshared word {n}\n" for n in range(30)}
    paths = write(tmp_path, files)
    sources, _ = load(paths)
    first = select("?q=shared", sources, Options())
    assert first.search is not None and first.search.next == "?q=shared&page=2"
    second = select(first.search.next, sources, Options())
    assert second.search is not None and second.search.first == len(first.search.hits) + 1
    seen = {(h.path, h.line_start) for h in first.search.hits}
    assert not seen & {(h.path, h.line_start) for h in second.search.hits}
    past = select("?q=shared&page=99", sources, Options())
    assert past.search is None and "past the last" in past.problems[0].message


def test_a_phrase_does_not_run_from_one_link_into_the_next(tmp_path: Path) -> None:
    """The links' texts are kept together for the ranking: `[scoped](a.md) … [slots](b.md)`
    holds no phrase "scoped slots" (the words are far apart in the prose)."""
    paths = write(tmp_path, {"g.md": "## Links\n\nSee [scoped](a.md) for one thing, and much "
                             "later the [slots](b.md) page for another.\n"})  # fmt: skip
    sources, _ = load(paths)
    assert select('?q="scoped slots"', sources, Options()).problems[0].code == "NO_MATCH"
    assert hits(paths, "scoped slots") == [("g.md", "h2.0", 1)]


def test_a_link_target_with_parentheses_is_no_prose(tmp_path: Path) -> None:
    paths = write(tmp_path, {"g.md": "## Terms\n\nSee [Foo](https://en.wikipedia.org/wiki/"
                             "Foo_(bar)) now.\n"})  # fmt: skip
    sources, _ = load(paths)
    assert select("?q=wikipedia", sources, Options()).problems[0].code == "NO_MATCH"
    assert hits(paths, "foo") == [("g.md", "h2.0", 1)]


def test_an_identifier_found_nowhere_as_written_finds_the_sections_holding_its_parts(
    tmp_path: Path,
) -> None:
    """`tool.hatch.envs.<name>.locker` is a phrase of its parts; where no section holds it as
    written, the ones holding its parts answer, the one holding most first."""
    paths = write(tmp_path, {
        "envs.md": "# Environments\n\n## Lockers\n\nSet `tool.hatch.envs.default.locker` to "
        "choose how an environment is locked.\n\n## Other\n\nUnrelated words.\n",
    })  # fmt: skip
    found = select("?q=tool.hatch.envs.<name>.locker", load(paths)[0], Options())
    assert found.search is not None and not found.problems
    assert found.search.hits[0].titles[-1] == "Lockers"
    assert found.search.query == "tool.hatch.envs.<name>.locker"
    missed = select('?q="tool.hatch.envs.<name>.locker"', load(paths)[0], Options())
    assert missed.search is None and missed.problems[0].code == "NO_MATCH"  # quoted: as written


def test_an_option_path_finds_the_section_of_its_leading_parts(tmp_path: Path) -> None:
    """`server.watch.usePolling` is an option of `server.watch`: its section, which names the
    child only in its code, answers before a page that mentions the whole path in passing."""
    paths = write(tmp_path, {
        "config/server.md": "# Server options\n\n## server.watch\n\nFile system watcher "
        "options.\n\n```js\nexport default { server: { port: 80, watch: { usePolling: true } } "
        "}\n```\n\n## server.port\n\nThe port.\n",
        "guide/troubleshooting.md": "# Troubleshooting\n\n## The watcher misses changes\n\n"
        "On a network drive set `server.watch.usePolling` to true.\n",
    })  # fmt: skip
    assert hits(paths, "server.watch.usePolling")[0] == ("server.md", "h2.0", 3)
    # As a quoted phrase it must occur as written: only the page holding it so answers.
    assert [h[0] for h in hits(paths, '"server.watch.usePolling"')] == ["troubleshooting.md"]


def test_a_possessive_searches_the_name_alone(tmp_path: Path) -> None:
    """`defineComponent()'s signature`: the name is `defineComponent()`, not a phrase
    `definecomponent s` that no section holds."""
    paths = write(tmp_path, {
        "api.md": "# API\n\n## defineComponent()\n\nDefines a component.\n\n### Signature\n\n"
        "```ts\nfunction defineComponent(options: object): Component\n```\n",
        "hooks.md": "# Hooks\n\n## Signature\n\nA hook's signature is its arguments, what it "
        "returns and its name, as for any function.\n",
    })  # fmt: skip
    assert hits(paths, "defineComponent()'s signature")[0] == ("api.md", "h3.0", 7)


def test_no_match_says_so_with_the_nearest_words(tmp_path: Path) -> None:
    paths = write(tmp_path, GUIDE)
    outcome = run_command("select", "?q=midleware", paths)
    assert outcome.exit_code == 1
    assert "no section holds 'midleware'" in outcome.stderr
    assert "middleware" in outcome.stderr.split("nearest words", 1)[1]


@pytest.mark.parametrize(
    ("request_text", "says"),
    [
        ("?q=", "empty search"),
        ("?q=the of", "only common words"),
        ("?q=!!! ...", "no letter or digit"),
        ('?q="open', "left open"),
        ("?q=" + "x" * 10_000, "the limit is 4096"),
        ("?q=a\x01b", "control character"),
        ("h2.0,?q=cors", "a request of its own"),
        ("?q=cors&head=3", None),  # head= is part of the words: it runs to the end
        ("h2.0?toc=true&q=x", "takes no toc"),
    ],
)
def test_bad_searches_are_clear_errors(tmp_path: Path, request_text: str, says: str | None) -> None:
    paths = write(tmp_path, GUIDE)
    outcome = run_command("select", request_text, paths)
    if says is None:
        assert outcome.exit_code in (0, 1) and "Traceback" not in outcome.stderr
        return
    assert outcome.exit_code == 1 and says in outcome.stderr, outcome.stderr


def test_the_answer_fits_the_budget_when_the_best_section_is_huge(tmp_path: Path) -> None:
    big = "# Big\n\n## Needle\n\n" + "needle and many words here\n" * 40_000
    paths = write(tmp_path, {"big.md": big, "small.md": "# Small\n\nneedle\n"})
    outcome = run_command("select", "?q=needle", paths, Options(answer_tokens=2000))
    assert outcome.exit_code == 0
    assert estimated_tokens(outcome.stdout) <= 2000
    # The rest starts at the first line not shown, and runs to the section's last.
    cut = re.search(r"\[lines 3-(\d+) of the section's 3-(\d+); the rest: big::L(\d+)-(\d+)\]",
                    outcome.stdout)  # fmt: skip
    assert cut is not None, outcome.stdout[-400:]
    shown, last, rest_first, rest_last = map(int, cut.groups())
    assert 3 < shown < last == rest_last == 40_004 and rest_first == shown + 1
    shown_lines = outcome.stdout.split("<==\n", 1)[1].split("\n[lines", 1)[0].splitlines()
    assert len(shown_lines) == shown - 2  # lines 3..shown, each whole


@pytest.mark.slow
def test_a_word_in_every_section_of_thousands_of_documents_stays_bounded(tmp_path: Path) -> None:
    files = {f"d/{n:04d}.md": f"# D{n}\n\n## Part\n\ncommon text {n}\n" for n in range(3000)}
    paths = write(tmp_path, files)
    outcome = run_command("select", "?q=common", paths)
    assert outcome.exit_code == 0
    assert "3000 sections match (3000 documents searched)" in outcome.stdout
    assert estimated_tokens(outcome.stdout) <= Options().answer_tokens


def test_json_hits_come_in_rank_order_and_match_the_schema(tmp_path: Path) -> None:
    paths = write(tmp_path, GUIDE)
    outcome = run_command("select", "?q=CORSMiddleware", paths, Options(json=True))
    body = json.loads(outcome.stdout)
    jsonschema.validate(body, load_schema())
    matches = body["data"]["matches"]
    assert [m["score"] for m in matches] == sorted((m["score"] for m in matches), reverse=True)
    assert matches[0]["file_path"].endswith("cors.md") and matches[0]["content"].startswith("## ")
    assert all(m["content"] == "" for m in matches[1:])
    assert body["data"]["search"]["total"] == len(matches)


def test_cjk_text_is_searchable(tmp_path: Path) -> None:
    doc = "# 指南\n\n## 配置\n\n这是关于服务器配置的章节。\n\n## 其他\n\n无关内容。\n"
    paths = write(tmp_path, {"zh.md": doc})
    assert hits(paths, "服务器") == [("zh.md", "h2.0", 3)]


@settings(max_examples=300, deadline=None)
@given(
    sections=st.lists(st.tuples(st.integers(0, 1), st.integers(1, 60), st.integers(0, 9))),
    scope=st.dictionaries(
        st.integers(0, 1), st.lists(st.tuples(st.integers(1, 60), st.integers(0, 9)), max_size=8)
    ),
)
def test_a_scope_allows_the_sections_meeting_one_of_its_spans(
    sections: list[tuple[int, int, int]], scope: dict[int, list[tuple[int, int]]]
) -> None:
    """Spans merged and looked up: the sections a look at every span would allow."""
    from mdsel import search

    with pytest.MonkeyPatch.context() as monkeypatch:
        check_scope(sections, scope, monkeypatch, search)


def check_scope(
    sections: list[tuple[int, int, int]],
    scope: dict[int, list[tuple[int, int]]],
    monkeypatch: pytest.MonkeyPatch,
    search: Any,
) -> None:
    from types import SimpleNamespace

    made = [
        SimpleNamespace(doc=doc, first=first, last=first + extra) for doc, first, extra in sections
    ]
    monkeypatch.setattr(search, "own_lines", lambda _document, s: (s.first, s.last))
    index = SimpleNamespace(sections=made, documents=[None, None])
    spans = {
        doc: [(first, first + extra) for first, extra in pairs] for doc, pairs in scope.items()
    }
    expected = [
        rowid
        for rowid, s in enumerate(made, start=1)
        if any(s.first <= last and first <= s.last for first, last in spans.get(s.doc, []))
    ]
    assert search._in_scope(index, spans) == expected


def test_a_code_span_that_reads_like_a_tag_is_searched(tmp_path: Path) -> None:
    paths = write(tmp_path, {
        "a.md": "# Caching\n\nWrap it in `<KeepAlive>` to keep it.\n\n## Other\n\n<div>raw</div>\n",
        "b.md": "# Setup\n\nUse `<script setup>` here.\n",
        "c.md": "# Calls\n\nCall `app.use(<Plugin>)` once, [see](x.md).\n",
    })  # fmt: skip
    assert hits(paths, "KeepAlive") == [("a.md", "h1.0", 1)]
    assert hits(paths, "Plugin") == [("c.md", "h1.0", 1)]
    assert hits(paths, '"script setup"') == [("b.md", "h1.0", 1)]
    outcome = run_command("select", "?q=div", paths)  # an HTML tag itself is markup
    assert outcome.exit_code == 1 and "no section holds 'div'" in outcome.stderr


def test_the_folder_a_call_names_is_no_word_of_its_documents(tmp_path: Path) -> None:
    paths = write(tmp_path, {
        "outerzz/trees/docs/guide/setup.md": "# Setup\n\nInstall it.\n",
        "outerzz/trees/docs/api.md": "# API\n\nCall it.\n",
    })  # fmt: skip
    for word in ("trees", "docs", "outerzz"):
        outcome = run_command("select", f"?q={word}", paths)
        assert outcome.exit_code == 1 and "no section holds" in outcome.stderr, (
            word,
            outcome.stdout,
        )
    # The tree's own folders are its words.
    assert hits(paths, "guide") == [("setup.md", "h1.0", 1)]


@pytest.mark.parametrize(
    "text",
    [
        "# A\n\non a single port.\n\n```js\nx\n```\n\nCheck out the rest.\n",
        "# A\n\non a single port.\n\nCheck out the rest.\n",
        "# Port\n\n## Check\n\nnothing here\n",
        # Blocks with no empty line between them: tight list items, a paragraph then a quote,
        # a list, an HTML block, a table's rows, a thematic break, a heading in an item.
        "# A\n\n- on a port\n- check it\n",
        "# A\n\n1. on a port\n2. check it\n",
        "# A\n\non a port\n> check it\n",
        "# A\n\non a port\n- check it\n",
        "# A\n\non a port\n<div>check it</div>\n",
        "# A\n\n| on a port |\n| --- |\n| check it |\n",
        "# A\n\n| x | on a port | check it |\n| - | - | - |\n",
        "# A\n\non a port\n***\ncheck it\n",
        "# A\n\n- on a port\n  ## check it\n",
        "# A\n\n- item\n  ## on a port\n  check it\n",
        "# A\r\n\r\n- on a port\r\n- check it\r\n",
        "# A\r\r- on a port\r- check it\r",
    ],
)
def test_a_phrase_does_not_run_across_a_block_or_a_title(tmp_path: Path, text: str) -> None:
    paths = write(tmp_path, {"a.md": text, "b.md": "# B\n\nThe port check runs.\n"})
    assert hits(paths, '"port check"') == [("b.md", "h1.0", 1)]


@pytest.mark.parametrize(
    "text",
    [
        "# A\n\non a port\ncheck it\n",
        "# A\n\n- on a port\n  check it\n",
        "# A\n\n> on a port\n> check it\n",
        "# A\n\non a port\r\ncheck it\r\n",
        "# A\r\ron a port\rcheck it\r",
        "# A\n\non a port\n2. check it\n",
        "# A\n\non a port\n<span>check</span> it\n",
        "# A\n\n> on a port\ncheck it\n",
    ],
)
def test_a_phrase_runs_on_across_the_lines_of_one_paragraph(tmp_path: Path, text: str) -> None:
    """What separates blocks does not separate a paragraph's own lines (a wrapped line, an
    item's or a quote's continuation, a number that cannot start a list below a paragraph,
    inline HTML, a quote's lazy line)."""
    paths = write(tmp_path, {"a.md": text, "b.md": "# B\n\nNothing.\n"})
    words = '"port 2 check"' if "2. " in text else '"port check"'
    assert hits(paths, words) == [("a.md", "h1.0", 1)]


@pytest.mark.parametrize("indent", ["", " ", "  ", "   "])
@pytest.mark.parametrize("setext", [False, True])
def test_an_indented_heading_starts_its_own_section(
    tmp_path: Path, indent: str, setext: bool
) -> None:
    """A heading indented by up to three spaces is its section's first line, not the last of the
    section above, and a search scoped to that section stays inside it."""
    heading = f"{indent}Usage\n{indent}-----\n" if setext else f"{indent}## Usage\n"
    text = f"# T\n\nzebra intro\n\n{heading}\nzebra usage\n"
    paths = write(tmp_path, {"a.md": text})
    assert hits(paths, "zebra") == [("a.md", "h1.0", 1), ("a.md", "h2.0", 5)] or hits(
        paths, "zebra"
    ) == [("a.md", "h2.0", 5), ("a.md", "h1.0", 1)]
    outcome = run_command("select", "?q=zebra", paths)
    assert outcome.exit_code == 0, outcome.stderr
    assert re.search(r"h1\.0 T L1-3 ", outcome.stdout), outcome.stdout
    sources, _problems = load(paths)
    scoped = select("h2.0?q=zebra", sources, Options())
    assert scoped.search is not None
    assert [(h.selector, h.line_start) for h in scoped.search.hits] == [("h2.0", 5)]
    scoped = select("h1.0/h2.0?q=intro", sources, Options())
    assert scoped.search is None, "the intro is outside h2.0"


def test_a_cjk_word_found_nowhere_is_no_match_not_its_characters(tmp_path: Path) -> None:
    paths = write(tmp_path, {"a.md": "# 文档\n\n这是仓库的说明。\n\n## 数字\n\n数字很多。\n"})
    outcome = run_command("select", "?q=数据库", paths)
    assert outcome.exit_code == 1, outcome.stdout
    assert "no section holds '数据库'" in outcome.stderr
    assert "'仓库'" not in outcome.stderr and "'数'" not in outcome.stderr
    assert hits(paths, "仓库") == [("a.md", "h1.0", 1)]
    # An identifier with a CJK part is still loosened to its parts, the CJK one whole.
    assert hits(paths, "config.数字") == [("a.md", "h2.0", 5)]


def test_a_page_past_the_ranked_hits_is_an_error_not_a_crash(tmp_path: Path) -> None:
    files = {f"d/{n:03d}.md": f"# Doc {n}\n\ncommon word {n}\n" for n in range(260)}
    paths = write(tmp_path, files)
    for page in (26, 30, 40):
        outcome = run_command("select", f"?q=common&page={page}", paths)
        assert outcome.exit_code == 1 and "Traceback" not in outcome.stderr, outcome.stderr
        assert "the search has 25 pages of hits" in outcome.stderr
    assert run_command("select", "?q=common&page=25", paths).exit_code == 0


def test_text_under_a_heading_with_old_mac_line_endings_is_searched(tmp_path: Path) -> None:
    paths = write(tmp_path, {"cr.md": b"# Old mac\r\rneedle cr only\r"})
    assert hits(paths, "needle") == [("cr.md", "h1.0", 1)]


def test_the_closing_line_starts_a_line_after_old_mac_line_endings(tmp_path: Path) -> None:
    paths = write(tmp_path, {"cr.md": b"# Old mac\r\rneedle cr only\r"})
    outcome = run_command("select", "?q=needle", paths)
    assert outcome.exit_code == 0, outcome.stderr
    assert "needle cr only\r\n" in outcome.stdout


def test_the_summary_counts_the_documents_searched_not_claimed_as_holding_hits(
    tmp_path: Path,
) -> None:
    paths = write(tmp_path, {"a.md": "# A\n\nzebra\n\n## B\n\nzebra too\n", "c.md": "# C\n"})
    outcome = run_command("select", "?q=zebra", paths)
    assert outcome.exit_code == 0, outcome.stderr
    assert outcome.stdout.startswith("search 'zebra': 2 sections match (2 documents searched),")


def test_a_hits_titles_are_those_select_shows(tmp_path: Path) -> None:
    (path,) = write(tmp_path, {"dup.md": "# Props\n\n## Props\n\n### Props\n\nneedle\n"})
    sources, _problems = load([path])
    result = select("?q=needle", sources, Options())
    assert result.search is not None
    (hit,) = result.search.hits
    (match,) = select(hit.selector, sources, Options()).matches
    assert hit.titles == match.titles == ("Props", "Props", "Props")


@pytest.mark.parametrize("after", ["&full=true", "&head=5", "&toc=true", "&page=abc",
                                   "&page=2&page=3", "&q=more"])  # fmt: skip
def test_a_parameter_after_the_words_is_an_error_not_words(tmp_path: Path, after: str) -> None:
    paths = write(tmp_path, GUIDE)
    outcome = run_command("select", "?q=cors" + after, paths)
    assert outcome.exit_code == 1 and "INVALID_SELECTOR" in outcome.stderr, outcome.stdout


def test_the_next_page_searches_the_same_words(tmp_path: Path) -> None:
    files = {f"d/{n:02d}.md": f"# Doc {n}\n\nvite+plugin {n}\n" for n in range(20)}
    files["e.md"] = "# Other\n\nvite alone, and a plugin alone.\n"
    paths = write(tmp_path, files)
    first = run_command("select", "?q=vite%2Bplugin", paths).stdout
    following = re.search(r"next hits: ([^;\]]+)", first)
    assert following is not None and following.group(1) == "?q=vite%2Bplugin&page=2"
    second = run_command("select", following.group(1), paths).stdout
    assert second.startswith("search 'vite+plugin': 20 sections match")


def test_a_miss_in_a_scope_suggests_words_in_the_same_scope(tmp_path: Path) -> None:
    paths = write(tmp_path, {"f.md": "# F\n\n## Typescript\n\nTypes are checked.\n"})
    outcome = run_command("select", "#typescript?q=typescr", paths)  # the scope holds the words
    assert outcome.exit_code == 1
    suggested = re.findall(r"~(\S+)", outcome.stderr)
    assert suggested and all(s.startswith("#typescript?q=") for s in suggested), outcome.stderr


def test_a_hits_lines_are_those_holding_the_word_as_written(tmp_path: Path) -> None:
    doc = "# Hooks\n\nRegisters a debug hook.\n\nMore debugging notes.\n\nAnd debug again.\n\n"
    doc += "type DebuggerEvent = {}\n"
    paths = write(tmp_path, {"h.md": doc})
    sources, _problems = load(paths)
    result = select("?q=DebuggerEvent", sources, Options())
    assert result.search is not None
    assert 9 in [number for number, _text in result.search.hits[0].lines]


def test_a_line_too_long_alone_is_cut_and_says_so(tmp_path: Path) -> None:
    paths = write(tmp_path, {"one.md": "needle " + "word " * 300_000 + "\n"})
    options = Options(answer_tokens=500)
    text = run_command("select", "?q=needle", paths, options).stdout
    assert "[lines 1-1 of the section's 1-1, line 1 cut short; the rest: L1]" in text
    body = json.loads(run_command("select", "?q=needle", paths, options._replace(json=True)).stdout)
    assert body["data"]["matches"][0]["truncated"] is True


@pytest.mark.parametrize("line", ['"quoted" \\path\\ ' * 40, "\x1b\x01\x02" * 200])
def test_a_json_answer_counts_its_escapes(tmp_path: Path, line: str) -> None:
    doc = "# Escapes\n\nneedle\n\n" + (line + "\n") * 400
    paths = write(
        tmp_path, {"esc.md": doc, **{f"s{n}.md": f"# S{n}\n\nneedle\n" for n in range(9)}}
    )
    outcome = run_command("select", "?q=needle", paths, Options(answer_tokens=4000, json=True))
    assert outcome.exit_code == 0
    assert estimated_tokens(outcome.stdout) <= 4000
    matches = json.loads(outcome.stdout)["data"]["matches"]
    assert len(matches) == 8  # the page's hits all listed: the text is cut, not the hits


@pytest.mark.parametrize("budget", [500, 1000, 2000])
@pytest.mark.parametrize("as_json", [False, True])
def test_a_page_of_hits_fits_a_small_budget_and_names_what_it_leaves_out(
    tmp_path: Path, budget: int, as_json: bool
) -> None:
    title = " ".join(f"Word{n}" for n in range(30))
    doc = "".join(
        f"{'#' * (n % 6 + 1)} {title} {n}\n\nneedle " + "x " * 50 + "\n\n" for n in range(40)
    )
    paths = write(tmp_path, {"deep.md": doc})
    outcome = run_command("select", "?q=needle", paths, Options(answer_tokens=budget, json=as_json))
    assert outcome.exit_code == 0
    assert estimated_tokens(outcome.stdout) <= budget
    full = select("?q=needle", load(paths)[0], Options()).search
    assert full is not None
    page = [f"deep::{hit.selector}" for hit in full.hits]
    if as_json:
        body = json.loads(outcome.stdout)
        listed = [m["selector"] for m in body["data"]["matches"]]
        said = " ".join(body.get("warnings", []))
    else:
        listed = [f"deep::{s}" for s in re.findall(r"^\d+\. \S+ (\S+) ", outcome.stdout, re.M)]
        said = outcome.stdout.rsplit("\n[", 1)[-1]
    # Each hit of the page listed (in order), named, or counted in a `+N more`.
    assert listed == page[: len(listed)]
    named = [s for s in page[len(listed) :] if s in said]
    more = re.search(r"\+(\d+) more", said)
    assert len(listed) + len(named) + (int(more.group(1)) if more else 0) == len(page), said
    # From 500 tokens on, even with titles of 30 words, every hit is listed or named: a hit
    # only counted could be reached by no selector (the next page starts after this one).
    assert more is None, said


@pytest.mark.parametrize("budget", [400, 500, 700])
def test_a_small_budget_is_spent_on_the_answer_not_kept_in_reserve(
    tmp_path: Path, budget: int
) -> None:
    """At a small budget the answer lists or names every hit and shows the first one's text
    past its heading line, using most of the budget rather than a half of it."""
    files = {
        f"d/{n}.md": f"# Topic {n}\n\n## Server {n}\n\n" + "server words here,\n" * 60
        for n in range(10)
    }
    paths = write(tmp_path, files)
    outcome = run_command("select", "?q=server", paths, Options(answer_tokens=budget))
    assert outcome.exit_code == 0, outcome.stderr
    used = estimated_tokens(outcome.stdout)
    assert budget * 0.6 < used <= budget, (used, outcome.stdout)
    assert "more;" not in outcome.stdout and "+1 more" not in outcome.stdout
    shown = outcome.stdout.split("<==\n", 1)[1]
    assert "server words here" in shown, shown


def test_a_phrase_does_not_run_from_one_code_block_into_the_next(tmp_path: Path) -> None:
    doc = "# Code\n\n```\nalpha\n```\n\nmiddle words\n\n```\nomega\n```\n"
    paths = write(tmp_path, {"c.md": doc, "d.md": "# D\n\n```\nalpha omega\n```\n"})
    assert hits(paths, '"alpha omega"') == [("d.md", "h1.0", 1)]


def test_a_search_holding_the_index_break_finds_no_boundary(tmp_path: Path) -> None:
    paths = write(tmp_path, {"g.md": "# Gamma\n\nfoo\n\nbar\n"})
    for query in ('"foo \ue000 bar"', '"foo\ue000bar"'):
        outcome = run_command("select", f"?q={query}", paths)
        assert outcome.exit_code == 1 and "no section holds" in outcome.stderr, query


@pytest.mark.parametrize("words", ["x%26page%3D3", "x%26full%3Dtrue", "AT%26T", "x%25y", "c%2B%2B"])
def test_the_next_page_of_any_words_is_a_selector_that_searches_them(
    tmp_path: Path, words: str
) -> None:
    files = {
        f"d/{n:02d}.md": f"# Doc {n}\n\nx&page=3 x&full=true AT&T x%y c++ {n}\n" for n in range(12)
    }
    paths = write(tmp_path, files)
    first = run_command("select", f"?q={words}", paths)
    assert first.exit_code == 0, first.stderr
    following = re.search(r"next hits: ([^;\]]+)", first.stdout)
    assert following is not None, first.stdout[-300:]
    second = run_command("select", following.group(1), paths)
    assert second.exit_code == 0, second.stderr
    asked = first.stdout.split(":", 1)[0]
    assert second.stdout.split(":", 1)[0] == asked  # `search 'WORDS'` the same


@pytest.mark.parametrize("budget", [700, 1000, 2000])
def test_hits_named_instead_of_listed_fit_the_budget(tmp_path: Path, budget: int) -> None:
    name = "Meeting Planning Notes {:032x} " + "q" * 60 + ".md"
    files = {name.format(n * 7919): f"# Planning {n}\n\nplanning\n" for n in range(12)}
    paths = write(tmp_path, files)
    outcome = run_command("select", "?q=planning", paths, Options(answer_tokens=budget))
    assert outcome.exit_code == 0
    assert estimated_tokens(outcome.stdout) <= budget, outcome.stdout[-500:]
