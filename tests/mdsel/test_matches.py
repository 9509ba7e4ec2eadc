"""Selected matches as shown: the response budget holds every line that comes with them."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdsel
from mdsel import render_text
from mdsel.estimate import estimated_tokens
from mdsel.nodes import Node
from mdsel.results import Match


@pytest.mark.parametrize(
    ("markdown", "request_"),
    [
        ("".join(f"w{n}\n\n" for n in range(5000)), "para"),
        ("".join(f"## H{n}\n\n" for n in range(5000)), "h2"),
        ("".join(f"## H{n}\n\n" for n in range(5000)), "section"),
    ],
)
def test_many_small_matches_fit_the_answer_budget_with_their_headers(
    markdown: str, request_: str
) -> None:
    source = mdsel.Source("doc", "doc.md", mdsel.parse_document(markdown.encode()))
    result = mdsel.select(request_, [source])
    out = render_text.select(result, [], [])
    assert estimated_tokens(out.stdout) <= mdsel.Options().answer_tokens
    assert result.omitted and out.stdout.splitlines()[-1].startswith("[+")


@pytest.mark.parametrize(
    ("request_", "shown"),
    [
        ("h2.1,h2.1", ["h2.1"]),
        ("h2.1,#two", ["h2.1"]),
        ("h2.0,h2.1,h2.0", ["h2.0", "h2.1"]),
        ("h2.1,h2.1?head=1", ["h2.1", "h2.1"]),  # other params: another view of it
        ("h2.1,section.2", ["h2.1"]),  # the same heading by level and by position
        ("section.2,h2.1", ["section.2"]),
        ("h2.1,L8", ["h2.1"]),  # the section holding line 8 is one page: h2.1 again
        ("h2.1,L7-9", ["h2.1"]),  # exactly the section's lines
        ("h2.1,L7-8", ["h2.1", "L7-8"]),
        ("para.1,L9-9", ["para.1"]),  # the paragraph's one line
        ("para.1,L8-9", ["para.1", "L8-9"]),
    ],
)
def test_a_node_two_selectors_name_is_shown_once(request_: str, shown: list[str]) -> None:
    document = mdsel.parse_document(b"# T\n\n## One\n\na\n\n## Two\n\nb\n")
    result = mdsel.select(request_, [mdsel.Source("doc", "doc.md", document)])
    assert [match.selector for match in result.matches] == shown


def test_a_line_on_another_page_of_a_section_is_shown_with_it() -> None:
    """`h2.0,L<n>`: the section's first page and the page holding line n are other text."""
    body = "".join(f"line {n} " + "word " * 40 + "\n\n" for n in range(400))
    document = mdsel.parse_document(f"## Long\n\n{body}".encode())
    source = mdsel.Source("doc", "doc.md", document)
    result = mdsel.select("h2.0,L700", [source])
    first = result.matches[0]
    assert (first.selector, first.page) == ("h2.0", 1)
    assert len(result.matches) + len(result.omitted) == 2
    alone = mdsel.select("L700", [source]).matches[0]
    assert alone.page > 1


def test_a_repeat_past_the_budget_is_not_listed_as_not_shown() -> None:
    """A section of 1,200 words fills the budget; `L20` in it shows the same text: shown once,
    and not named in the "not shown" line (its text was shown)."""
    body = "".join(f"line {n} has some words in it here\n" for n in range(150))
    document = mdsel.parse_document(f"# Notes\n\n{body}".encode())
    source = mdsel.Source("n", "n.md", document)
    for request_ in ("h1.0,L20", "L10,L20", "h1.0,L20,h1.0?page=1"):
        result = mdsel.select(request_, [source])
        assert len(result.matches) == 1 and result.omitted == (), request_
        out = render_text.select(result, [], [])
        assert "not shown" not in out.stdout and out.stdout.count("==>") == 1


def test_a_match_left_out_is_listed_with_its_page() -> None:
    document = mdsel.parse_document(
        b"# A\n\none two three four five\n\nsix seven eight nine ten\n\n# B\n\neleven twelve\n"
    )
    source = mdsel.Source("p", "p.md", document)
    options = mdsel.Options(page_words=8)
    result = mdsel.select("h1.1,h1.0?page=2", [source], options)
    assert [m.selector for m in result.matches] == ["h1.1"]
    assert result.omitted == (("p", "h1.0?page=2"),)
    (listed,) = mdsel.select("h1.0?page=2", [source], options).matches
    assert listed.page == 2 and "six seven" in listed.content


@settings(max_examples=300, deadline=None)
@given(
    spans=st.lists(st.tuples(st.integers(1, 60), st.integers(0, 20)), max_size=30),
    first=st.integers(1, 80),
    length=st.integers(0, 80),
)
def test_shown_lines_tell_whether_a_span_holds_a_shown_match(
    spans: list[tuple[int, int]], first: int, length: int
) -> None:
    """The table a request past the budget asks: the same answer as looking at every match."""
    from mdsel.matches import _ShownLines

    matches = [match_at(start, start + extra) for start, extra in spans]
    last = first + length
    expected = any(first <= m.line_start and m.line_end <= last for m in matches)
    assert _ShownLines().holds(matches, "doc", first, last) == expected
    assert not _ShownLines().holds(matches, "other", first, last)


def match_at(line_start: int, line_end: int) -> Match:
    return Match("doc", "L1", "lines", "", False, line_start, line_end, 1, 1, 0, 0, None, (), ())


def test_one_selectors_nodes_are_not_checked_for_repeats(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the budget, a node is checked against the shown ones only when the request has
    several selectors: one selector's nodes never repeat one another. Then only the nodes
    that may hold a match shown are (found from each match shown, not node by node)."""
    from mdsel import matches

    calls: list[Node] = []
    real = matches._may_repeat

    def counted(node: Node, *args: Any) -> bool:
        calls.append(node)
        return real(node, *args)

    monkeypatch.setattr(matches, "_may_repeat", counted)
    document = mdsel.parse_document("".join(f"p{n}\n\n" for n in range(3000)).encode())
    source = mdsel.Source("doc", "doc.md", document)
    options = mdsel.Options(page_words=100)
    assert len(mdsel.select("para", [source], options).omitted) == 2900
    assert calls == []
    assert len(mdsel.select("para,h1.0", [source], options).omitted) == 2900
    assert len(calls) <= 100  # at most one per match shown
    # `page=1` is what no page gives: left out of the listing, so runs of selectors stay runs.
    omitted = mdsel.select("para?page=1", [source], options).omitted
    assert omitted[0] == ("doc", "para.100")
    out = render_text.select(mdsel.select("para?page=1", [source], options), [], [])
    assert "para.100-2999;" in out.stdout


@pytest.fixture(scope="module")
def many_paragraphs() -> mdsel.Source:
    """200,000 one-word paragraphs: a bare `para` names far more than one answer shows."""
    document = mdsel.parse_document(b"para\n\n" * 200_000)
    return mdsel.Source("doc", "doc.md", document)


def counted_calls(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[object]:
    """Calls of `module.name` from now on (the function still runs)."""
    calls: list[object] = []
    real = getattr(module, name)

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[0] if args else None)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counting)
    return calls


def test_past_the_budget_matches_are_counted_not_cut_into_pages(
    monkeypatch: pytest.MonkeyPatch, many_paragraphs: mdsel.Source
) -> None:
    """A bare `para` on 200,000 paragraphs cuts a page of them and the few that are tried
    past it (MAX_MISFITS), and names the rest from their first and last selectors."""
    from mdsel import matches, omitted

    shown = counted_calls(monkeypatch, matches, "shown_match")
    selectors = counted_calls(monkeypatch, omitted, "node_selector")
    result = mdsel.select("para", [many_paragraphs])
    out = render_text.select(result, [], [])
    assert len(shown) < 1000
    assert len(shown) <= len(result.matches) + matches.MAX_MISFITS
    assert len(selectors) <= matches.MAX_MISFITS + 2  # those tried, then the run's two ends
    count = len(result.matches)
    assert len(result.omitted) == 200_000 - count
    assert out.stdout.splitlines()[-1] == (
        f"[+{200_000 - count} more matches not shown: para.{count}-199999; "
        "select them one at a time or add ?full=true]"
    )
    assert result.omitted[0] == ("doc", f"para.{count}")
    assert result.omitted[-1] == ("doc", "para.199999")


def test_several_selectors_past_the_budget_are_looked_up_not_compared(
    monkeypatch: pytest.MonkeyPatch, many_paragraphs: mdsel.Source
) -> None:
    """`para,para`: the second names only nodes the first did (looked up as numbers); `para,L1`
    past the budget: the one paragraph that may show L1 is cut to tell, not every one."""
    from mdsel import matches

    repeats = counted_calls(monkeypatch, matches, "_may_repeat")
    shown = counted_calls(monkeypatch, matches, "shown_match")
    once = mdsel.select("para", [many_paragraphs])
    twice = mdsel.select("para,para", [many_paragraphs])
    assert twice.matches == once.matches and len(twice.omitted) == len(once.omitted)
    shown.clear()
    repeats.clear()
    result = mdsel.select("para.0-99999,L1-1,para.5", [many_paragraphs])
    assert len(repeats) <= 2 * len(result.matches) and len(shown) < 1000
    # L1-1 shows what para.0 did, para.5 is para.5: neither is named again.
    assert len(result.matches) + len(result.omitted) == 100_000


def test_full_true_shows_at_most_max_full_matches(
    monkeypatch: pytest.MonkeyPatch, many_paragraphs: mdsel.Source
) -> None:
    """full=true has no budget, but an answer shows MAX_FULL_MATCHES at most, and the closing
    line names the rest (params kept after the range) and says why."""
    from mdsel import matches

    monkeypatch.setattr(matches, "MAX_FULL_MATCHES", 300, raising=False)
    shown = counted_calls(monkeypatch, matches, "shown_match")
    result = mdsel.select("para?full=true", [many_paragraphs])
    assert len(result.matches) == 300 == len(shown) and result.capped
    assert len(result.omitted) == 200_000 - 300
    last = render_text.select(result, [], []).stdout.splitlines()[-1]
    assert last.startswith("[+199700 more matches not shown: para.300-199999?full=true; select")
    assert "full=true shows at most" in last


def test_problems_and_toc_on_many_blocks_are_bounded(
    monkeypatch: pytest.MonkeyPatch, many_paragraphs: mdsel.Source
) -> None:
    """A page no paragraph has: MAX_MISFITS problems, the rest named; toc=true on blocks: one
    problem counting them, none looked at one by one."""
    from mdsel import matches

    result = mdsel.select("para?page=2", [many_paragraphs])
    assert len(result.problems) < 1000 and not result.matches
    assert len(result.problems) == matches.MAX_MISFITS
    assert len(result.omitted) == 200_000 - matches.MAX_MISFITS
    assert render_text.select(result, [], []).stdout == (
        f"[+{200_000 - 256} more matches not shown: para.256-199999?page=2; select them one at a "
        "time or add ?full=true]\n"
    )
    (problem,) = mdsel.select("para?toc=true", [many_paragraphs]).problems
    assert problem.message.endswith("para.0 is a para block (and 199999 more matches)")


def test_misfits_past_the_first_are_tried_as_before() -> None:
    """Past a match that does not fit, smaller ones after it still fill the answer."""
    body = "".join(f"{'word ' * 30}\n\n" for _ in range(3)) + "small\n\n" + "word " * 30 + "\n"
    source = mdsel.Source("doc", "doc.md", mdsel.parse_document(body.encode()))
    result = mdsel.select("para", [source], mdsel.Options(page_words=70))
    assert [m.selector for m in result.matches] == ["para.0", "para.1", "para.3"]
    assert tuple(result.omitted) == (("doc", "para.2"), ("doc", "para.4"))
    line = render_text.select(result, [], []).stdout.splitlines()[-1]
    assert line.startswith("[+2 more matches not shown: para.2 para.4;")


def test_past_the_budget_headings_are_looked_up_in_their_columns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`h1,section` on 100,000 headings: the sections that may repeat a match shown are found
    by bytes, so no heading's lines are counted but the shown ones' (never every heading's)."""
    from mdsel.heading_lines import HeadingLines
    from mdsel.sections import Headings

    source = mdsel.Source("doc", "doc.md", mdsel.parse_document(b"# h\n" * 100_000))
    counted_all = counted_calls(monkeypatch, HeadingLines, "_count_all")
    made = counted_calls(monkeypatch, Headings, "__getitem__")
    result = mdsel.select("h1,section", [source])
    assert len(result.matches) + len(result.omitted) == 100_000
    assert not counted_all and len(made) < 3 * (len(result.matches) + 256)


@pytest.mark.parametrize("request_", ["para", "para?full=true", "para?page=2", "para,para"])
def test_json_past_the_budget_is_a_valid_envelope(
    monkeypatch: pytest.MonkeyPatch, many_paragraphs: mdsel.Source, request_: str
) -> None:
    import json

    import jsonschema

    from mdsel import matches, render_json
    from mdsel.schema import load_schema

    monkeypatch.setattr(matches, "MAX_FULL_MATCHES", 300)
    result = mdsel.select(request_, [many_paragraphs], mdsel.Options(json=True))
    body = json.loads(render_json.select(result, [], []).stdout)
    jsonschema.validate(body, load_schema())
    warning, *budget = body["warnings"]
    assert warning.startswith(f"{len(result.omitted)} more matches not shown (")
    # What the envelope adds to the matches is held to the budget too (mdsel.json_budget).
    assert all("to fit MDSEL_MAX_ANSWER_TOKENS=" in note for note in budget)
    assert warning.endswith("-199999" + ("?full=true" if "full" in request_ else "")) or (
        "?page=2" in warning
    )
