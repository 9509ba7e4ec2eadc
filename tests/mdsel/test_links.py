"""Links between pages: the forms a page's source writes them in, the paths they may name, and,
on the vendored documentation trees, where each real link with a fragment lands against a
reference that knows the page it came from (never another document than the link's)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote

import pytest
from markdown_it import MarkdownIt

import mdsel
from mdsel.links import link_before, link_sources, link_targets, on_another_site, page_link
from mdsel.names import MARKDOWN_SUFFIXES

TREES = Path(__file__).resolve().parents[1] / "trees"


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("README.md", ("README.md", "readme")),
        ("../guide/API.markdown", ("../guide/API.markdown", "api")),
        ("with%20space.md", ("with space.md", "with_space")),
        ("caf&eacute;.md", ("café.md", "caf_")),
        ("docs\\api.md", ("docs/api.md", "api")),
        ("/guide/features", ("/guide/features", None)),
        ("./features", ("./features", None)),
        ("guide/", ("guide/", None)),
        ("/", ("/", None)),
        ("features.html", ("features.html", None)),
        ("features", ("features", None)),
        ("notes.txt", ("notes.txt", None)),
        ("%ff.md", ("%ff.md", "_ff")),  # not UTF-8 once decoded: kept as written
    ],
)
def test_a_links_path_decoded_and_its_namespace(
    written: str, expected: tuple[str, str | None]
) -> None:
    assert page_link(written) == expected


@pytest.mark.parametrize(
    ("written", "anchored", "link"),
    [
        ("list", True, "list"),  # a page named like a type: no selector has `#` after a type
        ("guide/features", True, "guide/features"),
        ("code.md", True, "code.md"),
        ("list.html", True, "list.html"),
        ("h2.1", True, None),  # a numbered segment
        ("h2.", True, None),
        ("para[0]", True, None),
        ("L12", True, None),
        ("L1-2", True, None),
        ("code/x", True, None),  # a type followed by more: a selector's path
        ("features", False, None),  # nothing after `#`
        ("README.md", False, "README.md"),  # a Markdown file's link is one whatever follows
        ("a b.md", True, None),  # a space, `,`, `?` or `:`: selector syntax
        ("ns:x.md", True, None),
    ],
)
def test_what_reads_as_a_link_before_its_fragment(
    written: str, anchored: bool, link: str | None
) -> None:
    found = link_before(written, anchored)
    assert (found[0] if found else None) == link


def test_links_to_other_sites_are_told_apart() -> None:
    for written in ("https://vite.dev/guide", "//host/guide", "\\\\host\\guide", "git+ssh://x"):
        assert on_another_site(written), written
    for written in ("/guide", "./guide", "https.md", "a//b"):
        assert not on_another_site(written), written


def md(*stems: str) -> list[str]:
    return [stem + suffix for stem in stems for suffix in MARKDOWN_SUFFIXES]


@pytest.mark.parametrize(
    ("link", "targets"),
    [
        ("api.md", ["api.md"]),
        ("../../guide/api.md", ["guide/api.md"]),
        ("guide/../config/api.md", ["config/api.md"]),
        ("/guide/api", md("guide/api", "guide/api/index", "guide/api/_index", "guide/api/README")),
        ("./api.html", md("api")),
        ("/guide/index.html", md("guide/index", "guide/README")),
        # A folder's index page (Hugo's sections: `_index.md`), then the page served at `guide/`.
        ("/guide/", md("guide/index", "guide/_index", "guide/README", "guide")),
        ("../", md("index", "_index", "README")),
        ("/", md("index", "_index", "README")),
        (
            "/blog/release-v1.2",
            md(
                "blog/release-v1.2",
                "blog/release-v1.2/index",
                "blog/release-v1.2/_index",
                "blog/release-v1.2/README",
            ),
        ),
    ],
)
def test_the_paths_a_link_may_name(link: str, targets: list[str]) -> None:
    assert link_targets(link) == targets


def sources_at(root: Path, files: dict[str, str]) -> list[mdsel.Source]:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    sources, problems = mdsel.load([str(root / name) for name in files])
    assert not problems
    return sources


def test_a_page_is_its_source_before_a_folder_of_that_name(tmp_path: Path) -> None:
    sources = sources_at(
        tmp_path,
        {
            "docs/guide/api.md": "# API\n",
            "docs/guide/api/index.md": "# API folder\n",
            "docs/guide/index.md": "# Guide\n",
            "docs/zh/guide/api.md": "# API zh\n",
            "docs/README.md": "# Home\n",
        },
    )
    paths = [s.path.removeprefix(str(tmp_path) + "/") for s in sources]

    def named(link: str) -> list[str]:
        return [paths[i] for i in link_sources(link, sources)]

    assert named("/guide/api") == ["docs/guide/api.md"]  # from the root: not zh/
    assert named("./guide/api") == ["docs/guide/api.md", "docs/zh/guide/api.md"]  # relative
    assert named("/guide/api/") == ["docs/guide/api/index.md"]
    assert named("/guide/") == ["docs/guide/index.md"]
    assert named("/") == ["docs/README.md"]  # no index.md at the top: the README
    assert named("/GUIDE/API.HTML") == ["docs/guide/api.md"]  # any case when none matches
    assert named("/guide/nothing") == []


def test_names_in_another_case_are_compared_in_lower_case_and_both_named(tmp_path: Path) -> None:
    """Any letter case, not Unicode case folding (which equates `ß` with `ss`); two files that
    differ only in case and both match in another case are both named, never one picked."""
    sources = sources_at(
        tmp_path,
        {"docs/straße.md": "# S\n", "docs/sp/Setup.md": "# A\n", "docs/sp/setup.md": "# B\n"},
    )
    paths = [s.path.removeprefix(str(tmp_path) + "/") for s in sources]

    def named(link: str) -> list[str]:
        return sorted(paths[i] for i in link_sources(link, sources))

    assert named("strasse.md") == [] and named("/strasse") == []
    assert named("STRASSE.md") == [] and named("STRAßE.md") == ["docs/straße.md"]
    assert named("sp/Setup.md") == ["docs/sp/Setup.md"]  # the same case first
    assert named("sp/SETUP.md") == ["docs/sp/Setup.md", "docs/sp/setup.md"]
    assert named("/sp/SETUP") == ["docs/sp/Setup.md", "docs/sp/setup.md"]


def test_a_link_from_the_root_is_read_from_the_folder_of_the_call(tmp_path: Path) -> None:
    sources = sources_at(
        tmp_path,
        {
            "t/guide/index.md": "# G\n\n## Setup\n\nroot guide\n",
            "t/zh/guide.md": "# Z\n\n## Setup\n\nzh\n",
            "t/a/api/index.md": "# A\n\n## Setup\n\nA api\n",
            "t/b/api.md": "# B\n\n## Setup\n\nB api\n",
            "t/b/only-here.md": "# O\n\n## Setup\n\nonly\n",
        },
    )

    def answer(link: str) -> list[str] | str:
        result = mdsel.select(link, sources)
        if result.matches:
            return [m.content.rstrip().rpartition("\n")[2] for m in result.matches]
        return result.problems[0].message

    assert answer("/guide#setup") == ["root guide"]  # not zh/guide.md, below the root
    assert answer("/b/api#setup") == ["B api"]
    assert "no document of this call is at /only-here from the site's root" in str(
        answer("/only-here#setup")
    )  # a page only under a subfolder is not at the root
    # Relative: a page's source and another folder's index page are both what it may mean.
    assert "the link names 2 documents" in str(answer("api#setup"))
    assert "the link names 2 documents" in str(answer("../api#setup"))
    assert answer("only-here#setup") == ["only"]


def test_a_file_refused_from_the_root_is_not_replaced_by_another_name(tmp_path: Path) -> None:
    sources = sources_at(
        tmp_path, {"r/docs/install.md": "# I\n\n## Usage\n\ndocs\n", "r/INSTALL.md": "# I\n"}
    )
    result = mdsel.select("/install#usage", sources)  # docs/install.md is not at the root
    assert not result.matches
    assert "from the site's root" in result.problems[0].message


def test_a_root_link_that_two_roots_would_read_names_both(tmp_path: Path) -> None:
    files = {
        "s/docs/index.md": "# Home\n",
        "s/docs/guide/index.md": "# Guide\n\n## Usage\n\nguide index\n",
        "s/docs/guide/guide.md": "# Guide page\n\n## Usage\n\nguide page\n",
    }
    sources_at(tmp_path, files)
    sources, _ = mdsel.load(
        [str(tmp_path / name) for name in files if name.startswith("s/docs/guide/")]
    )
    # The call names docs/guide/: /guide/ is its index if docs/ is the site's root, its
    # guide.md if docs/guide/ is; the call does not say which.
    result = mdsel.select("/guide/#usage", sources)
    assert not result.matches
    assert "the link names 2 documents" in result.problems[0].message


def test_a_bare_page_name_that_names_nothing_says_how_it_was_read(tmp_path: Path) -> None:
    sources = sources_at(tmp_path, {"README.md": "# R\n\n## Install\n\ntext\n"})
    result = mdsel.select("h2#install", sources)
    assert "read as a link to that page; an anchor alone is #install" in (
        result.problems[0].message
    )


def test_the_root_does_not_depend_on_how_folders_were_spelled(tmp_path: Path) -> None:
    first = tmp_path / "one"
    second = tmp_path / "two"
    for root, text in ((first, "one"), (second, "two")):
        (root / "guide").mkdir(parents=True)
        (root / "guide" / "index.md").write_text(f"# G\n\n## Overview\n\n{text}\n")
    spellings = [
        [str(first / "guide" / "index.md"), str(second / "guide" / "index.md")],
        [str(second / "guide" / "index.md"), str(first / "guide" / "index.md")],
    ]
    for paths in spellings:
        sources, _ = mdsel.load(paths)
        result = mdsel.select("/guide/#overview", sources)
        assert not result.matches  # two sites' roots: neither is the call's
        assert "from the site's root" in result.problems[0].message
        relative = mdsel.select("guide/#overview", sources)
        assert "the link names 2 documents" in relative.problems[0].message


def test_a_markdown_link_in_a_call_of_one_names_it_by_as_much_path_as_both_give(
    tmp_path: Path,
) -> None:
    sources = sources_at(tmp_path, {"docs/README.md": "# R\n\n## Install\n\nfirst readme\n"})
    for link in ("README.md#install", "../docs/readme.md#install", "/README.md#install"):
        assert [m.content for m in mdsel.select(link, sources).matches] == [
            "## Install\n\nfirst readme\n"
        ], link
    # Another file's name, or the same name in another folder: not this document, wherever
    # the link was written.
    for link in ("readme-2.md#install", "README.markdown#install", "../other/README.md#install"):
        result = mdsel.select(link, sources)
        assert not result.matches, link
        assert [p.type for p in result.problems] == ["NAMESPACE_NOT_FOUND"]
    assert "is not at ../other/README.md" in mdsel.select(link, sources).problems[0].message


def test_a_relative_path_is_compared_as_far_as_it_goes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "guide.md").write_text("# G\n\n## Setup\n\ntext\n")
    monkeypatch.chdir(tmp_path)
    sources, _ = mdsel.load(["guide.md"])
    # Named from inside its folder: `b/guide.md` may well be it.
    assert len(mdsel.select("b/guide.md#setup", sources).matches) == 1


def test_a_call_that_named_others_is_not_a_call_of_one(tmp_path: Path) -> None:
    for folder, word in (("a", "alpha"), ("b", "beta")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "guide.md").write_text(f"# G\n\n## Setup\n\n{word}\n")
    (tmp_path / "b" / "README.md").write_bytes(b"\xff not UTF-8\n")
    (tmp_path / "a" / "README.md").write_text("# R\n\n## Setup\n\nalpha readme\n")
    a, b = (str(tmp_path / folder) for folder in "ab")
    # b's README failed to load: `readme-2` was its namespace, never a's README's.
    outcome = mdsel.run_command("select", "readme-2::h2.0", [f"{a}/README.md", f"{b}/README.md"])
    assert outcome.stdout == "" and "NAMESPACE_NOT_FOUND" in outcome.stderr
    # A limit left b/guide.md out: a link to it is not answered from a/guide.md.
    outcome = mdsel.run_command(
        "select", "b/guide.md#setup", [f"{a}/guide.md"], warnings=["left out 1: b/guide.md"]
    )
    assert outcome.stdout == "left out 1: b/guide.md\n" and outcome.exit_code == 1
    # Named alone, the one document answers to `readme-2::` of an earlier call of several.
    outcome = mdsel.run_command("select", "readme-2::h2.0", [f"{a}/README.md"])
    assert outcome.stdout.endswith("alpha readme\n")


def test_a_link_to_a_file_a_limit_left_out_is_no_answer_from_another(tmp_path: Path) -> None:
    """In a call of several, a relative link that the files left out also name (or name
    alone) is a miss naming them, never an answer from the files read."""
    for folder, word in (("docs/guide", "en"), ("docs/zh/guide", "zh")):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "api.md").write_text(f"# API\n\n## Options\n\n{word}\n")
    (tmp_path / "docs" / "index.md").write_text("# Home\n")
    from mdsel.cli import run

    env = {"MDSEL_MAX_FILES": "2"}  # docs/guide/api.md and docs/index.md are read
    for link, also in (("api.md#options", " also"), ("zh/guide/api.md#options", "")):
        outcome = run(["select", link, "docs"], env, str(tmp_path))
        assert outcome.exit_code == 1 and "\nen\n" not in outcome.stdout
        assert f"the link{also} names docs/zh/guide/api.md, which this call did not read" in (
            outcome.stderr
        )
    # From the site's root (docs/, all the call named), /guide/api is the English page alone.
    outcome = run(["select", "/guide/api#options", "docs"], env, str(tmp_path))
    assert outcome.exit_code == 0 and outcome.stdout.endswith("\nen\n")
    # A file that could not be read (over MDSEL_MAX_BYTES) is never replaced by another either.
    (tmp_path / "docs" / "guide" / "api.md").write_text("# API\n\n## Options\n\n" + "en " * 500)
    outcome = run(
        ["select", "guide/api.md#options", "docs"], {"MDSEL_MAX_BYTES": "1000"}, str(tmp_path)
    )
    assert outcome.exit_code == 1 and "zh" not in outcome.stdout, outcome.stdout
    assert "names docs/guide/api.md, which this call did not read" in outcome.stderr


@pytest.mark.parametrize(
    "selector", ["//guide/features#x", "\\\\guide\\features#x", "https://vite.dev/guide/features#x"]
)
def test_a_link_to_another_site_is_refused_saying_so(selector: str) -> None:
    with pytest.raises(mdsel.SelectorSyntaxError) as caught:
        from mdsel.selector import parse_request

        parse_request(selector)
    assert "is on another site" in caught.value.message


def test_a_site_link_names_its_document_in_a_call_of_one(tmp_path: Path) -> None:
    sources = sources_at(tmp_path, {"guide/features.md": "# Features\n\n## HMR\n\ntext\n"})
    for link in ("/guide/features#hmr", "./features#hmr", "features.html#hmr"):
        result = mdsel.select(link, sources)
        assert [m.content for m in result.matches] == ["## HMR\n\ntext\n"], link
    missed = mdsel.select("/guide/other#hmr", sources)
    assert not missed.matches
    assert [p.type for p in missed.problems] == ["NAMESPACE_NOT_FOUND"]
    assert "no document of this call is at /guide/other" in missed.problems[0].message


# --- Real links on the vendored documentation trees ---------------------------------------------


def reference_target(tree: Path, page: Path, path: str) -> Path | None:
    """Where a reader of the built site lands, knowing the page the link is on: `/x` from the
    tree's root, anything else from the page's folder; `.html` is the page's `.md`; no Markdown
    suffix tries `x.md`, then `x/index.md`; a folder its `index.md`, then `README.md`."""
    path = unquote(path.partition("?")[0])
    base = tree if path.startswith("/") else page.parent
    target = (base / path.lstrip("/")).resolve()
    if path.endswith("/") or target.is_dir():
        candidates = [target / "index.md", target / "README.md"]
    elif target.suffix in (".html", ".htm"):
        candidates = [target.with_suffix(".md")]
    elif target.suffix == ".md":
        candidates = [target]
    else:
        candidates = [target.with_name(target.name + ".md"), target / "index.md"]
    found = [c for c in candidates if c.is_file()]
    return found[0] if found and found[0].is_relative_to(tree.resolve()) else None


def page_links(page: Path) -> list[str]:
    """Every inline link's destination of `page` with a path and a fragment, as written."""
    parser = MarkdownIt("commonmark")
    parser.normalizeLink = lambda url: url  # type: ignore[method-assign]
    found = []
    for token in parser.parse(page.read_text(encoding="utf-8")):
        for child in token.children or []:
            href = str(child.attrs.get("href", "")) if child.type == "link_open" else ""
            path, _, fragment = href.partition("#")
            if path and fragment and "://" not in path and not path.startswith(("//", "mailto:")):
                found.append(href)
    return found


@pytest.mark.parametrize("tree_name", ["vite-docs", "vue-docs"])
def test_real_links_land_in_their_document_or_say_which(tree_name: str) -> None:
    tree = TREES / tree_name
    pages = sorted(tree.rglob("*.md"))
    sources, problems = mdsel.load([str(page) for page in pages])
    assert not problems
    by_namespace = {s.namespace: Path(s.path).resolve() for s in sources}
    counts = {"landed": 0, "wrong": 0, "ambiguous": 0, "no fragment": 0, "absolute": 0}
    for page in pages:
        for href in page_links(page):
            target = reference_target(tree, page, href.partition("#")[0])
            if target is None:
                continue  # a broken link, or one to something that is not a page
            result = mdsel.select(href, sources, mdsel.Options(full=True))
            counts["absolute"] += href.startswith("/")
            messages = [p.message for p in result.problems]
            if result.matches:
                documents = {by_namespace[m.namespace] for m in result.matches}
                counts["landed" if documents == {target.resolve()} else "wrong"] += 1
            elif any("the link names" in message for message in messages):
                counts["ambiguous"] += 1
                assert not href.startswith("/"), href  # from the root: never ambiguous here
            else:  # the link's document was found: its fragment names nothing there
                assert all("has the anchor" in message for message in messages), (href, messages)
                counts["no fragment"] += 1
    print(tree_name, counts)
    # Never another document than the link's; a relative link names several only where the
    # tree has several pages of that name (index.md) and no page says which.
    assert counts["wrong"] == 0
    assert counts["absolute"] > 50
    assert counts["landed"] > 5 * (counts["ambiguous"] + counts["no fragment"])
