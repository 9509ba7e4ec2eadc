"""Where an answer is from: the line above every match of a select (one or several) and of a
search's text, the titles down to it, the trailer under a part of a match, the JSON match's
path and titles."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import mdsel
from mdsel.budget import text_cost, tokens_of
from mdsel.cli import run
from mdsel.provenance import UNTITLED, header, section_titles
from tests.answers import HEADER
from tests.conftest import ROOT

STRUCTURE = "tests/fixtures/structure.md"
CORPUS = "tests/corpus"


def select(selector: str, *files: str, env: dict[str, str] | None = None) -> tuple[str, int]:
    outcome = run(["select", selector, *files], env or {}, str(ROOT))
    return outcome.stdout, outcome.exit_code


def test_one_match_starts_with_its_path_selector_titles_and_lines() -> None:
    out, code = select("h4.0", STRUCTURE)
    assert code == 0
    assert out == (
        "==> tests/fixtures/structure.md h4.0 Structure fixture › Guide › Usage › Details › "
        "Deep L51-53 <==\n#### Deep\n\nDeep text.\n"
    )


def test_several_matches_have_the_same_header_as_one() -> None:
    out, _code = select("h1.1,para.0", STRUCTURE)
    assert out.splitlines()[0] == (
        "==> tests/fixtures/structure.md h1.1 Structure fixture › Appendix L74-76 <=="
    )
    assert "==> tests/fixtures/structure.md para.0 Structure fixture L6-6 <==" in out.splitlines()
    alone, _code = select("h1.1", STRUCTURE)
    assert out.startswith(alone)


def test_text_before_any_title_says_it_is_untitled(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("text first\n\n## B\n\nmore\n")
    outcome = run(["select", "para.0,h2.0", "a.md"], {}, str(tmp_path))
    assert outcome.stdout.splitlines()[0] == f"==> a.md para.0 {UNTITLED} L1-1 <=="
    assert "==> a.md h2.0 B L3-5 <==" in outcome.stdout.splitlines()


@pytest.mark.parametrize(
    ("text", "heading", "titles"),
    [
        ("# T\n\n## A\n\n### B\n", 2, ("T", "A", "B")),
        ("# T\n\n# U\n", 1, ("T", "U")),  # the document's title, then a second h1
        ("## A\n\n### B\n", 1, ("A", "B")),  # opens on an h2: no title of its own
        ("---\ntitle: Page\n---\n# H\n", 0, ("Page", "H")),
        ("---\ntitle: H\n---\n# H\n", 0, ("H",)),  # not twice
        ("# T\n\ntext\n", -1, ("T",)),
        ("text\n", -1, ()),
    ],
)
def test_the_titles_from_the_document_down(text: str, heading: int, titles: tuple[str]) -> None:
    assert section_titles(mdsel.parse_document(text.encode()), heading) == titles


def test_a_control_character_in_a_path_or_title_cannot_forge_a_line() -> None:
    line = header("a\nb.md", "h1.0", ("x\n==> y",), 1, 2)
    assert "\n" not in line and line == "==> a\\nb.md h1.0 x\\n==> y L1-2 <=="


def test_every_header_reselects_what_it_heads() -> None:
    # The selector of each header, asked again in the same call, shows the same lines.
    requests = ["h2", "code", "L300", "L2908", "h2.0?head=3", "h2.1?tail=2", "h3.0?toc=true"]
    requests += ["#installation", "h2.7?page=2", "L1-4", "root"]
    files = [f"{CORPUS}/fastapi_readme.md", f"{CORPUS}/express_history.md"]
    headers = []
    for request in requests:
        out, _code = select(request, *files, env={"MDSEL_PAGE_WORDS": "300"})
        headers += [HEADER.fullmatch(line) for line in out.splitlines() if line.startswith("==> ")]
    assert len(headers) > 20 and all(headers)
    for found in headers:
        assert found is not None
        again, code = select(found["selector"], *files, env={"MDSEL_PAGE_WORDS": "300"})
        assert code == 0
        first = HEADER.fullmatch(again.splitlines()[0])
        assert first is not None
        assert first.group("path", "first", "last") == found.group("path", "first", "last")
        assert found["path"] in files


def test_the_last_page_ends_with_a_trailer_too(tmp_path: Path) -> None:
    body = "".join(f"line {n} " + "word " * 20 + "\n\n" for n in range(30))
    (tmp_path / "a.md").write_text("# Top\n\n" + body)
    env = {"MDSEL_PAGE_WORDS": "200"}
    first = run(["select", "h1.0", "a.md"], env, str(tmp_path)).stdout.splitlines()
    assert first[0] == "==> a.md h1.0 Top L1-20 <=="
    assert first[-1] == "[page 1/4 of h1.0: 200 of 662 words; next: h1.0?page=2]"
    last = run(["select", "h1.0?page=4", "a.md"], env, str(tmp_path)).stdout.splitlines()
    assert last[0] == "==> a.md h1.0?page=4 Top L57-61 <=="
    assert last[-1] == "[page 4/4 of h1.0: 66 of 662 words; the last page]"


def test_head_and_tail_say_what_they_kept_of_what() -> None:
    out, _code = select("h2.0?head=2", STRUCTURE)
    lines = out.splitlines()
    assert lines[0].startswith("==> tests/fixtures/structure.md h2.0?head=2 ")
    assert lines[0].endswith(" L12-13 <==")
    assert lines[-1] == "[head=2: 2 of h2.0's 21 lines; the rest: L14-32]"
    out, _code = select("h2.0?tail=3", STRUCTURE)
    assert out.splitlines()[-1] == "[tail=3: 3 of h2.0's 21 lines; the rest: L12-29]"
    out, _code = select("h1.1?head=50", STRUCTURE)
    assert out.splitlines()[-1] == "[head=50: all 3 lines of h1.1]"
    whole, _code = select("h1.1", STRUCTURE)
    assert not whole.splitlines()[-1].startswith("[")  # nothing cut: no trailer


def test_a_link_over_a_folder_says_which_file_answered() -> None:
    out, code = select("/guide/features#hot-module-replacement", "tests/trees/vite-docs/")
    assert code == 0
    assert out.startswith(
        "==> tests/trees/vite-docs/guide/features.md features::h2.1 Features › Hot Module "
        "Replacement L"
    )


def test_a_search_s_text_has_the_select_header() -> None:
    out, _code = select('?q="interactive API docs"', f"{CORPUS}/fastapi_readme.md")
    assert (
        "==> tests/corpus/fastapi_readme.md h3.6 Example › Interactive API docs L255-261 <=="
        in out.splitlines()
    )


def test_the_json_match_carries_its_path_and_titles() -> None:
    outcome = run(["select", "h4.0,para.0", STRUCTURE, "--json"], {}, str(ROOT))
    matches = json.loads(outcome.stdout)["data"]["matches"]
    assert [(m["file_path"], m["titles"]) for m in matches] == [
        (STRUCTURE, ["Structure fixture", "Guide", "Usage", "Details", "Deep"]),
        (STRUCTURE, ["Structure fixture"]),
    ]


def test_headers_count_in_the_answer_s_budget(tmp_path: Path) -> None:
    # Long titles six levels deep: each header is over a kilobyte, the text under it one line.
    title = "word " * 40
    chain = "".join(f"{'#' * level} {title}{level}\n\n" for level in range(1, 6))
    (tmp_path / "a.md").write_text(chain + "".join(f"###### {n}\n\nx\n\n" for n in range(400)))
    env = {"MDSEL_MAX_ANSWER_TOKENS": "4000"}
    outcome = run(["select", "h6", "a.md"], env, str(tmp_path))
    assert outcome.exit_code == 0 and "more matches not shown" in outcome.stdout
    assert tokens_of(text_cost(outcome.stdout)) <= 4000
    assert outcome.stdout.count("==> ") > 5
