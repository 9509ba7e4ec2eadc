"""The index of a documentation tree: within the answer budget at any size, and still a map.

Budgets are checked on generated trees of 10, 150, 1,000 and 5,000 documents, counted with the
Claude tokenizer the benchmarks use (tests/tokens.py), and on the vendored real trees.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mdsel.budget import answer_room
from mdsel.cli import run
from mdsel.estimate import estimated_tokens
from mdsel.results import Outcome
from tests.conftest import ROOT
from tests.tokens import count_tokens

BUDGET = 10_000
"""Claude tokens: where Claude Code starts warning about a tool result."""
TREES = ROOT / "tests" / "trees"


def index(*argv: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> Outcome:
    return run(["index", *argv], env or {}, str(cwd) if cwd else None)


def write_tree(root: Path, documents: int, per_directory: int = 25) -> list[Path]:
    """`documents` Markdown files in directories of `per_directory`, two levels deep, each with
    a title (front matter in every third one), a few sections and subsections of prose."""
    paths = []
    for number in range(documents):
        group = number // per_directory
        directory = root / f"area-{group // 8:02d}" / f"topic-{group % 8:02d}"
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"page-{number:05d}.md"
        body = []
        if number % 3 == 0:
            body.append(f"---\ntitle: Front matter title {number}\nweight: 3\n---\n")
            body.append(f"# Heading title {number}\n")
        else:
            body.append(f"# Guide to part {number}\n")
        body.append("An introduction to this part of the documentation, in a few words.\n")
        for section in range(4):
            body.append(f"## Section {section} of part {number}\n")
            body.append("Some prose explaining the section in plain words. " * 6 + "\n")
            for sub in range(2):
                body.append(f"### Detail {sub} of section {section}\n")
                body.append("More words about this detail of the section. " * 4 + "\n")
        path.write_text("\n".join(body), encoding="utf-8")
        paths.append(path)
    return paths


@pytest.mark.parametrize("documents", [10, 150, 1000, 5000])
def test_a_tree_of_any_size_fits_the_budget_and_names_what_it_holds(
    tmp_path: Path, documents: int
) -> None:
    write_tree(tmp_path, documents)
    out = index(".", cwd=tmp_path)
    tokens = count_tokens(out.stdout + out.stderr)
    assert tokens <= BUDGET, (tokens, out.stdout[:500])
    lines = out.stdout.splitlines()
    read = min(documents, 2000)  # MDSEL_MAX_FILES
    if documents <= 10:
        # A few files: each one's index as today, whole outlines, when they all fit.
        for number in range(documents):
            assert f"\npage-{number:05d} ./area-00/topic-00/page-{number:05d}.md " in (
                "\n" + out.stdout
            )
        assert "page-00009::h3.7 Detail 1 of section 3" in out.stdout
        return
    if documents == 150:
        # Every document is named, under its directory, with its title; no line repeats a
        # directory path.
        for number in range(documents):
            assert f"  page-{number:05d}.md: " in out.stdout
        assert "  page-00003.md: Front matter title 3 " in out.stdout
        assert "  page-00001.md: Guide to part 1 " in out.stdout
        assert not any(line.startswith("  ") and "topic-" in line for line in lines)
        assert "topic-00/" in lines and lines[0].startswith("area-00/ 150 documents ")
    else:
        # Counted by directory, with the largest documents named.
        assert re.search(r"^area-00/topic-00/ 25 documents \d+ words; largest: ", out.stdout, re.M)
    if documents > read:
        assert f"{documents - read} more not read, by directory" in out.stdout
    if documents > 150:
        assert lines[documents > read].startswith(f"./ {read} documents ")
    assert lines[-1].startswith("[") and "Go deeper: index a subdirectory" in lines[-1]
    assert out.exit_code == 0


def test_hundreds_of_documents_show_titles_and_top_level_headings(tmp_path: Path) -> None:
    write_tree(tmp_path, 150)
    out = index(".", cwd=tmp_path)
    # Each document's one h1 is its title, shown on its line; its h2s are the top level.
    assert "    h2.0 Section 0 of part 0 " in out.stdout or "largest also with" in out.stdout
    assert "h1.0" not in out.stdout


def test_full_is_the_way_past_the_budget(tmp_path: Path) -> None:
    write_tree(tmp_path, 150)
    out = index(".", "--full", cwd=tmp_path)
    assert out.stdout.count("h3.7 Detail 1 of section 3") == 150
    assert "[./:" not in out.stdout


def test_a_budget_setting_sizes_the_answer(tmp_path: Path) -> None:
    write_tree(tmp_path, 40)
    small = index(".", env={"MDSEL_MAX_ANSWER_TOKENS": "1000"}, cwd=tmp_path)
    large = index(".", env={"MDSEL_MAX_ANSWER_TOKENS": "40000"}, cwd=tmp_path)
    assert estimated_tokens(small.stdout) <= 1000 < estimated_tokens(large.stdout)
    assert "h3.7 Detail 1 of section 3" in large.stdout


def test_few_documents_that_fit_keep_the_per_document_index(tmp_path: Path) -> None:
    write_tree(tmp_path, 3)
    out = index(".", cwd=tmp_path)
    first = out.stdout.splitlines()[0]
    assert re.match(r"page-00000 ./area-00/topic-00/page-00000.md \d+ lines \d+ words", first)
    assert "page-00000::h3.7 Detail 1 of section 3" in out.stdout


def test_a_single_file_is_unchanged_unless_it_alone_overflows(tmp_path: Path) -> None:
    path = tmp_path / "long.md"
    path.write_text(
        "".join(f"## A long heading title number {n} " + "x" * 200 + "\n" for n in range(200))
    )
    out = index(str(path))
    whole = index(str(path), "--full").stdout
    assert estimated_tokens(out.stdout) <= BUDGET < estimated_tokens(whole)
    assert out.stdout.splitlines()[-1].startswith("[showing ")
    small = tmp_path / "small.md"
    small.write_text("# One\n\ntext\n\n## Two\n\nmore\n")
    assert index(str(small)).stdout == "7 lines 6 words; para 2\nh1.0 One 1 6\n  h2.0 Two 5 3\n"


def test_a_document_without_headings_or_title_is_still_named(tmp_path: Path) -> None:
    write_tree(tmp_path, 120)
    (tmp_path / "notes.md").write_text("just words\n" * 50)
    out = index(".", cwd=tmp_path)
    assert "  notes.md: (no title) 50 100" in out.stdout  # its counts are no title


def test_real_trees_fit_and_name_every_document() -> None:
    out = index(str(TREES))
    assert count_tokens(out.stdout) <= BUDGET
    names = sorted(p.name for p in TREES.rglob("*.md"))
    for name in set(names):
        assert f"  {name}: " in out.stdout
    # Explicit ids are not part of the titles shown.
    assert "{#" not in out.stdout
    assert "  faq.md: Frequently Asked Questions " in out.stdout


def test_file_names_are_escaped_and_directories_listed_once(tmp_path: Path) -> None:
    write_tree(tmp_path, 120)
    (tmp_path / "evil\nh2.0 Fake 1 1.md").write_text("# Evil\n\ntext\n")
    (tmp_path / "area-00" / "zz.md").write_text("# Late\n\ntext\n")
    out = index(".", cwd=tmp_path)
    assert "  evil\\nh2.0 Fake 1 1.md: Evil " in out.stdout
    assert not any(line.startswith("h2.0 Fake") for line in out.stdout.splitlines())
    directories = [line for line in out.stdout.splitlines() if line.endswith("/")]
    assert len(directories) == len(set(directories))


def test_long_titles_are_cut_and_the_map_still_fits(tmp_path: Path) -> None:
    for number in range(3):
        (tmp_path / f"d{number}.md").write_text("# " + "word " * 10_000 + "\n\ntext\n")
    out = index(".", cwd=tmp_path)
    assert estimated_tokens(out.stdout) <= BUDGET
    assert out.stdout.count("word word") and "…" in out.stdout
    assert "too small" not in out.stdout


def test_thousands_of_directories_list_the_largest_and_count_the_rest(tmp_path: Path) -> None:
    for number in range(2000):
        (tmp_path / f"d{number:04d}").mkdir()
        words = "word " * (number % 7)
        (tmp_path / f"d{number:04d}" / "page.md").write_text(f"# Page {number}\n\n{words}\n")
    out = index(".", cwd=tmp_path)
    assert estimated_tokens(out.stdout) <= BUDGET
    last = out.stdout.splitlines()[-2]
    shown = sum(1 for line in out.stdout.splitlines() if re.match(r"d\d{4}/ 1 document", line))
    assert (
        last
        == f"… +{2000 - shown} more directories: {2000 - shown} documents "
        + (last.split(" documents ")[1])
    )
    assert shown > 100


def _claims(out: str) -> tuple[int, int]:
    """(documents the closing line says are one level deeper, those the map shows so)."""
    closing = out.splitlines()[-1]
    said = re.search(r"; (\d+) documents? also with (?:its|their) headings 2 levels deep", closing)
    shown = 0
    for block in re.split(r"\n  (?=\S)", out)[1:]:  # one document's line and its headings
        shown += any(line.startswith("      h") for line in block.splitlines())
    if said is None and "every document with its title and headings 2 levels deep" in closing:
        return shown, shown  # the claim is about all of them: each shows what it has
    return (int(said.group(1)) if said else 0), shown


def test_the_closing_line_counts_the_documents_shown_deeper(tmp_path: Path) -> None:
    """A large document whose outline the per-document cap already fills is passed over for
    the next largest, and the closing line says how many were shown deeper, not "the largest"."""
    docs = tmp_path / "docs"
    docs.mkdir()
    words = " ".join(["word"] * 100)
    parts = "".join(f"\n## Part {i}\n\n{words}\n\n### Detail {i}\n\n{words}\n" for i in range(8))
    (docs / "big.md").write_text(f"# Big\n{parts}")
    for n in range(1, 6):
        small = " ".join(["w"] * n * 10)
        (docs / f"s{n}.md").write_text(f"# Small {n}\n\n## Alpha\n\n{small}\n\n### Detail\n\nx\n")
    out = index("docs", env={"MDSEL_MAX_ANSWER_TOKENS": "400"}, cwd=tmp_path).stdout
    closing = out.splitlines()[-1]
    assert "largest also" not in closing
    said, shown = _claims(out)
    assert said == shown == 5  # every small one; big.md's deeper outline is no different
    # big.md shows 3 of its 8 top-level headings: the closing line says there is a cap.
    assert "    … +5 more" in out and "top-level headings (at most 3 each)" in closing


def test_real_trees_claim_what_they_show() -> None:
    for tree in sorted(TREES.iterdir()):
        out = index(str(tree)).stdout
        said, shown = _claims(out)
        assert said == shown, tree.name


def test_the_closing_line_selects_what_the_example_file_has(tmp_path: Path) -> None:
    """The example selector is one the named file has: h3.0 in a file of h1 and h3s, h1.0 in a
    file of one title, root in a file without headings."""
    docs = tmp_path / "docs"
    docs.mkdir()
    for number in range(8):
        (docs / f"d{number}.md").write_text(
            f"# Doc {number}\n\nSome text.\n\n### Alpha\n\n### Beta\n\n### Gamma\n"
        )
    (docs / "big.md").write_text("# Only a title\n\n" + "word " * 500 + "\n")
    (docs / "plain.md").write_text("no heading at all\n")
    for largest, selector in (("big.md", "h1.0"), ("d0.md", "h3.0"), ("plain.md", "root")):
        if largest == "d0.md":
            (docs / "big.md").unlink()
        if largest == "plain.md":
            (docs / "plain.md").write_text("word " * 900 + "\n")
        out = index("docs", env={"MDSEL_MAX_ANSWER_TOKENS": "380"}, cwd=tmp_path)
        closing = out.stdout.splitlines()[-1]
        example = re.search(r"select with the file's path \((\S+) in (\S+)\)", closing)
        assert example is not None, closing
        assert example.groups() == (selector, f"docs/{largest}")
        path = tmp_path / example.group(2)
        assert run(["select", example.group(1), str(path)], {}, None).exit_code == 0


def test_titles_only_map_names_the_share_its_documents_headings_were_cut_to(
    tmp_path: Path,
) -> None:
    """A map of titles only, with the largest documents also given their top-level headings,
    cut to the share: the closing line says so, as the map with everyone's headings does."""
    words = " ".join(["w"] * 50)
    (tmp_path / "big.md").write_text(
        "# Big\n\n" + "".join(f"## Section {k}\n\n{words}\n\n" for k in range(40))
    )
    for n in range(500):
        (tmp_path / f"p{n:03d}.md").write_text(f"# Page {n}\n\n## A\n\nsome words\n\n## B\n\nx\n")
    out = index(".", cwd=tmp_path).stdout
    closing = out.splitlines()[-1]
    assert "every document with its title; " in closing  # titles only, some documents deeper
    cut = re.search(r"\n  big\.md: .*\n(?:    h2\.\d+ .*\n)+    … \+(\d+) more\n", out)
    assert cut is not None and int(cut.group(1)) > 0  # big.md's headings were cut
    assert re.search(r"also with their top-level headings \(at most \d+ each\)", closing)


def _map_of(paths: list[str]) -> list[str]:
    """The map `catalog` prints of documents at these paths (never read: given parsed)."""
    from mdsel.catalog import catalog
    from mdsel.tree import Source, parse_document

    text = "# Title\n\n" + "".join(f"## Part {k}\n\n" + "word " * 40 + "\n\n" for k in range(30))
    document = parse_document(text.encode())
    sources = [Source(f"doc{n}", path, document) for n, path in enumerate(paths)]
    lines = catalog(sources, answer_room(1600), 0, 250)
    assert lines is not None
    return lines


def test_a_map_under_the_file_systems_root_names_real_paths() -> None:
    """Documents whose only common folder is `/`: the map's root is `/`, and the paths it
    suggests are `/srv/…`, never `//srv/…` (a UNC path on Windows)."""
    lines = _map_of(["/srv/docs/a.md", "/srv/docs/b.md", "/home/me/notes/c.md"])
    assert lines[0].startswith("/ 3 documents ")
    assert "//" not in lines[-1], lines[-1]
    assert lines[-1].startswith("[/: ")
    assert "index a subdirectory (/srv/)" in lines[-1]
    assert "(h2.0 in /srv/docs/a.md)" in lines[-1]


def test_a_map_of_absolute_and_relative_paths_suggests_no_root_folder() -> None:
    """Absolute and relative paths have no folder in common: the subdirectory suggested is
    one of the relative ones, never `/`, the whole file system."""
    lines = _map_of(["/srv/docs/a.md", "/srv/docs/b.md", "rel/docs/c.md"])
    assert "index a subdirectory (/)" not in lines[-1], lines[-1]
    assert "index a subdirectory (rel/)" in lines[-1]
    # Nor does the map claim that the current folder holds them (`./`).
    assert lines[0].startswith("3 documents "), lines[0]
    assert lines[-1].startswith("[every document"), lines[-1]
    assert _map_of(["a.md", "rel/c.md"])[0].startswith("./ 2 documents ")  # relative: here
    lines = _map_of(["/srv/docs/a.md", "/srv/docs/b.md"])  # one folder: no subdirectory
    assert lines[0].startswith("/srv/docs/ 2 documents ")
    assert "Go deeper: index one file (/srv/docs/a.md)" in lines[-1], lines[-1]


def test_absolute_directories_are_counted_under_their_own_top_folder() -> None:
    """Directory lines of a map of absolute and relative paths: the absolute ones merge into
    `/srv/`, never into the current folder's `./`, which holds only the relative files."""
    from mdsel.catalog import catalog
    from mdsel.tree import Source, parse_document

    document = parse_document(("# Title\n\n" + "word " * 1200 + "\n").encode())
    paths = [f"/srv/d{i}/a{j}.md" for i in range(12) for j in range(3)]
    paths += ["top0.md", "top1.md", *(f"rel{i}/x.md" for i in range(12))]
    sources = [Source(f"doc{n}", path, document) for n, path in enumerate(paths)]
    for budget in (400, 560):
        lines = catalog(sources, answer_room(budget), 0, 250)
        assert lines is not None
        here = [line for line in lines if line.startswith("./ ")]
        assert here == [line for line in lines if line.startswith("./ 2 documents ")], lines
        assert any(line.startswith("/srv/ 36 documents ") for line in lines), lines
        assert "below the root" not in lines[-1]
