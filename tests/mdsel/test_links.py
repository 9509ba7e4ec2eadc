"""Links between pages: the forms a page's source writes them in, the paths they may name, and,
on the vendored documentation trees, where each real link with a fragment lands against a
reference that knows the page it came from (never another document than the link's)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote

import pytest
from markdown_it import MarkdownIt

import mdsel
from mdsel.links import link_sources, link_targets, page_link
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


def md(*stems: str) -> list[str]:
    return [stem + suffix for stem in stems for suffix in MARKDOWN_SUFFIXES]


@pytest.mark.parametrize(
    ("link", "targets"),
    [
        ("api.md", ["api.md"]),
        ("../../guide/api.md", ["guide/api.md"]),
        ("guide/../config/api.md", ["config/api.md"]),
        ("/guide/api", md("guide/api", "guide/api/index", "guide/api/README")),
        ("./api.html", md("api")),
        ("/guide/index.html", md("guide/index", "guide/README")),
        ("/guide/", md("guide/index", "guide/README")),
        ("../", md("index", "README")),
        ("/", md("index", "README")),
        (
            "/blog/release-v1.2",
            md("blog/release-v1.2", "blog/release-v1.2/index", "blog/release-v1.2/README"),
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

    assert named("/guide/api") == ["docs/guide/api.md"]  # from the root: the shallowest
    assert named("./guide/api") == ["docs/guide/api.md", "docs/zh/guide/api.md"]  # relative
    assert named("/guide/api/") == ["docs/guide/api/index.md"]
    assert named("/guide/") == ["docs/guide/index.md"]
    assert named("/") == ["docs/README.md"]  # no index.md at the top: the README
    assert named("/GUIDE/API.HTML") == ["docs/guide/api.md"]  # any case when none matches
    assert named("/guide/nothing") == []


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
