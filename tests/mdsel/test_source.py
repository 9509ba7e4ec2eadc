"""Word counting (the rule shared with the hook), decoding, front matter."""

from __future__ import annotations

import json

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mdsel.errors import ParseError
from mdsel.front_matter import front_matter_end, front_matter_title
from mdsel.source import LineTable, decode, lone_cr_to_lf, strip_bom, word_count
from tests.conftest import ROOT

CASES = json.loads((ROOT / "tests" / "cases" / "word_counts.json").read_text(encoding="utf-8"))


def _bytes(case: dict[str, object]) -> bytes:
    if "hex" in case:
        return bytes.fromhex(str(case["hex"]))
    return str(case["text"]).encode("utf-8")


@pytest.mark.parametrize("case", CASES, ids=[str(c["id"]) for c in CASES])
def test_shared_word_count_table(case: dict[str, object]) -> None:
    assert word_count(_bytes(case)) == case["words"]


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300) | st.text(" \t\n\r\x0b\x0cab\u00a0é", max_size=80).map(str.encode))
def test_word_count_is_bytes_split(data: bytes) -> None:
    assert word_count(data) == len(strip_bom(data)[0].split())


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.text(" \tab\u3000", max_size=12), max_size=12),
    st.sampled_from(["\n", "\r\n", "\r"]),
)
def test_line_word_counts_add_up(lines: list[str], ending: str) -> None:
    data = ending.join(lines).encode()
    table = LineTable(data)
    assert sum(table.words_in(n, n) for n in range(1, table.count + 1)) == len(data.split())
    assert table.count == len(data.splitlines())


def test_decode_errors_carry_offsets_past_the_bom() -> None:
    data, skipped = strip_bom(b"\xef\xbb\xbfab\xff")
    assert (data, skipped) == (b"ab\xff", 3)
    with pytest.raises(ParseError) as info:
        decode(data, skipped)
    assert info.value.offset == 5


# Front matter where pulldown-cmark's own metadata blocks (both options on) agree with the rule:
# YAML `---` followed by a non-blank line, closed by `---` or `...`; TOML `+++` … `+++`.
FRONT_MATTER_AS_PULLDOWN = [
    b"---\na: 1\n---\n# T\n",
    b"---\r\na: 1\r\n---\r\n# T\r\n",
    b"+++\na = 1\n+++\nrest\n",
    b"---  \na: 1\n---\n",
    b"--- \na\n--- \nx",
    b"---\na\n...  \nx\n",
    b"---\ntitle: x\n...\n\n# One\n\n## Two\n\n---\n\n# Three\n",
    b"---\n\n# Intro\n\n## Part\n\n---\n\n# After\n",
    b"---\n \na\n---\n",
    b"+++\n\na = 1\n+++\nrest\n",
    b"+++\na\n...\n+++\n",
    b"---\n\ta\n---\n",
    b"---\na\n---x\n---\n",
    b"---\na\n.....\n---\n",
    b"---\na\n\n---\n",
    b"---\na\n---",
    b"---\na\n...",
    b"---\na: 1\n",
    b"--- x\na\n---\n",
    b"----\na\n----\n",
    b" ---\na\n---\n",
    b"---\na\n+++\n",
    b"---\na\n ---\n",
    b"# T\n---\na\n---\n",
    b"---\r\n\r\n---\r\n",
    b"",
]


def _pulldown_front_matter_lines(data: bytes) -> int:
    """Lines of the metadata block pulldown-cmark itself finds at the start (0 if none)."""
    import pyromark

    options = (
        pyromark.Options.ENABLE_YAML_STYLE_METADATA_BLOCKS
        | pyromark.Options.ENABLE_PLUSES_DELIMITED_METADATA_BLOCKS
    )
    for event, span in pyromark.events_with_range(data.decode(), options=options):
        start = event.get("Start") if isinstance(event, dict) else None
        if isinstance(start, dict) and "MetadataBlock" in start and span["start"] == 0:
            return len(data[: span["end"]].splitlines())
        return 0
    return 0


def _our_front_matter_lines(data: bytes) -> int:
    return len(data[: front_matter_end(data)].splitlines())


@pytest.mark.parametrize("data", FRONT_MATTER_AS_PULLDOWN)
def test_front_matter_as_pulldown_cmark_metadata_blocks(data: bytes) -> None:
    assert _our_front_matter_lines(data) == _pulldown_front_matter_lines(data)


@pytest.mark.parametrize(
    ("data", "lines", "reference"),
    [
        # pulldown-cmark reads two thematic breaks; pandoc and Jekyll empty front matter.
        (b"---\n---\n# T\n", 2, "pandoc, Jekyll"),
        # pulldown-cmark mis-reads lone CRs; the same lines with LF are front matter to it.
        (b"---\ra\r---\r# T\r", 3, "the same document with LF endings"),
        # A form feed line is not blank in CommonMark (spaces and tabs only).
        (b"---\n\x0c\n---\n", 3, "CommonMark's blank line"),
    ],
)
def test_front_matter_where_pulldown_cmark_is_not_the_reference(
    data: bytes, lines: int, reference: str
) -> None:
    assert _our_front_matter_lines(data) == lines, reference
    if reference.startswith("the same document"):
        lf = data.replace(b"\r", b"\n")
        assert _our_front_matter_lines(lf) == _pulldown_front_matter_lines(lf) == lines


def test_front_matter_end_includes_the_closing_line_ending() -> None:
    assert front_matter_end(b"---\na: 1\n---\n# T\n") == 13
    assert front_matter_end(b"---\r\na: 1\r\n...\r\n# T\r\n") == 16
    assert front_matter_end(b"---\na\n---") == 9


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a\rb", "a\nb"),
        ("a\r\nb", "a\r\nb"),
        ("a\r\r\nb\r", "a\n\r\nb\n"),
        ("no breaks", "no breaks"),
    ],
)
def test_lone_cr_becomes_lf_keeping_length(text: str, expected: str) -> None:
    assert lone_cr_to_lf(text) == expected
    assert len(expected.encode()) == len(text.encode())


@pytest.mark.parametrize(
    ("data", "last_line"),
    [
        (b"a\n \t\n", 1),
        (b"a\n\x0c\n", 2),
        (b"a\n\x0b \n\n", 2),
        (b" \n\t\n", 0),
    ],
)
def test_blank_lines_hold_only_spaces_and_tabs(data: bytes, last_line: int) -> None:
    """CommonMark §4.9: a blank line holds only spaces and tabs; `\\v` and `\\f` are content
    (even though `bytes.split` counts them as word separators)."""
    table = LineTable(data)
    end = table.content_end(0, len(data))
    assert (table.line_of(end) if end >= 0 else 0) == last_line


@settings(max_examples=200, deadline=None)
@given(st.text("ab\r\n", max_size=60).map(str.encode), st.integers(1, 8))
def test_line_table_in_chunks_matches_splitlines(data: bytes, chunk: int) -> None:
    from mdsel.source import _lines

    assert list(_lines(data, chunk)) == data.splitlines(keepends=True)


@pytest.mark.parametrize(
    ("block", "title"),
    [
        (b"---\ntitle: Plain title\n---\n", "Plain title"),
        (b"---\ntitle: First line\n  continued\ndate: x\n---\n", "First line continued"),
        (b"---\ntitle: Plain # a comment\n---\n", "Plain"),
        (b"---\ntitle: 'It''s quoted'\n---\n", "It's quoted"),
        (b'---\ntitle: "Caf\\u00e9 \\"q\\""\n---\n', 'Café "q"'),
        (b"---\ntitle: null\n---\n", None),
        (b"---\ntitle: ~\n---\n", None),
        (b"---\ntitle: |\n  block\n---\n", "block"),
        (
            b"---\ntitle: >-\n  Folded\n  over lines\n\n  and more\ndate: x\n---\n",
            "Folded over lines and more",
        ),
        (b"---\ntitle: |2+ # kept\n  # not a comment\n---\n", "# not a comment"),
        (b"---\ntitle: >\ndate: x\n---\n", None),
        (b'---\ntitle: "Quoted\n  over lines"\ndate: x\n---\n', "Quoted over lines"),
        (b"---\ntitle: 'It''s\n   long'\n---\n", "It's long"),
        (b"---\ntitle: First\ntitle: Second\n---\n", "Second"),
        (b'---\ntitle: "Quoted" # a comment\n---\n', "Quoted"),
        (b'---\ntitle: "A \\" b" # c\n---\n', 'A " b'),
        (b'---\ntitle: "Ends in \\\\" # c\n---\n', "Ends in \\"),
        (b"---\ntitle: 'It''s' # c\n---\n", "It's"),
        (b"---\ntitle:\n---\n", None),
        (b"---\nmeta:\n  title: nested\n---\n", None),
        # A value on the lines below its key: a scalar (quoted or not), or a collection (no title).
        (b"---\ntitle:\n  en: English\n  fr: French\n---\n", None),
        (b"---\ntitle:\n  - one\n  - two\n---\n", None),
        (b"---\ntitle:\n  ? key\n---\n", None),
        (b'---\ntitle:\n  "Quoted below"\n---\n', "Quoted below"),
        (b"---\ntitle:\r\n  'It''s below'\r\n---\r\n", "It's below"),
        (b"---\ntitle:\n  Plain words\n  go on\ndate: x\n---\n", "Plain words go on"),
        (b"---\ntitle:\n  !!str tagged\n---\n", "tagged"),
        (b"---\ntitle:\n  -dash first\n---\n", "-dash first"),
        (b"---\ntitle:\n# a comment\nother: 1\n---\n", None),
        # YAML allows no `key: value` inside a plain scalar: not a title.
        (b"---\ntitle: Foo\n  bar: baz\n---\n", None),
        (b"---\ntitle: http://example.com/a\n  b\n---\n", "http://example.com/a b"),
        (
            b"---\ntitle: Install guide\n  for servers # note: short\n---\n",
            "Install guide for servers",
        ),
        (b"---\ntitle:\n  Hello # note: x\n---\n", "Hello"),
        (b"---\ntitle: &a\n  Hello\n---\n", "Hello"),
        (b"---\ntitle: !!str\n  Hello\n---\n", "Hello"),
        # An anchor or a tag before the value is not part of it; an alias has no text here.
        (b"---\ntitle: &name Anchored\n---\n", "Anchored"),
        (b'---\ntitle: !!str "2024 notes"\n---\n', "2024 notes"),
        (b"---\ntitle: &a >-\n  Folded\n---\n", "Folded"),
        (b"---\ntitle: *name\n---\n", None),
        (b"---\ntitle: !!str\n---\n", None),
        (b'---\n"title": Quoted key\n---\n', "Quoted key"),
        (b"---\n'title': Single quoted key\n---\n", "Single quoted key"),
        (b'+++\ntitle = "TOML title"\n[params]\ntitle = "x"\n+++\n', "TOML title"),
        (b'+++\n[params]\ntitle = "x"\n+++\n', None),
        # TOML strings: a comment after one dropped, each quoting read as TOML reads it.
        (b'+++\ntitle = "toml title" # comment\n+++\n', "toml title"),
        (b"+++\ntitle = 'lit' # c\n+++\n", "lit"),
        (b"+++\ntitle = 'C:\\dir' # a literal string has no escapes\n+++\n", "C:\\dir"),
        (b'+++\ntitle = "a \\u00e9 \\"q\\""\n+++\n', 'a \u00e9 "q"'),
        (b'+++\ntitle = """triple""" # x\n+++\n', "triple"),
        (b"+++\ntitle = '''one\n  two'''\n+++\n", "one two"),
        (b'+++\ntitle = """\nline one \\\n  two"""\n+++\n', "line one two"),
        (b"+++\ntitle = 2024\n+++\n", None),
        # A multi-line string's lines are not keys, nor tables.
        (b'+++\ndescription = """\ntitle = "Fake"\n"""\ntitle = "Real"\n+++\n', "Real"),
        (b'+++\ntitle = """one\n[not a table]"""\n+++\n', "one [not a table]"),
        (b"+++\nnote = '''\n[x]\n'''\ntitle = 'After'\n+++\n", "After"),
        (b'+++\ntitle = "never closed\n+++\n', None),
        # Old Mac files: a lone CR ends each line.
        (b"---\rtitle: Old Mac\rdate: x\r---\r", "Old Mac"),
        (b"---\rtitle:\r  below\r  the key\r---\r", "below the key"),
        (b'+++\rtitle = "Toml Mac"\r+++\r', "Toml Mac"),
    ],
)
def test_front_matter_title(block: bytes, title: str | None) -> None:
    assert front_matter_title(block) == title


_VALUE_LINES = st.lists(
    st.sampled_from(
        ["Plain", "two words", "'single'", '"double"', "- item", "key: v", "a:b", "-5", "#x",
         "!!str tagged", "&anchor Text", "[a, b]", "{k: v}", "~", "null", "'open", 'close"',
         "x # comment", "? k", "|", ">-", "y # note: z", "'k': v", "&a"]
    ),
    min_size=1,
    max_size=3,
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.booleans(), _VALUE_LINES)
def test_front_matter_title_reads_as_yaml_does(inline: bool, lines: list[str]) -> None:
    """Whatever the value's lines (on the key's line or below it), the title of valid YAML is
    PyYAML's string (spaces folded), or None where PyYAML finds no string."""
    yaml = pytest.importorskip("yaml")
    head, rest = (lines[0], lines[1:]) if inline else ("", lines)
    text = "title: " + head + "".join(f"\n  {line}" for line in rest) + "\ndate: x\n"
    try:
        loaded = yaml.safe_load(text)
    except yaml.YAMLError:
        assume(False)  # what invalid YAML is titled is not YAML's to say
    value = loaded.get("title")
    # A number's or a date's title is its text as written (`2024`), where YAML reads a number.
    assume(isinstance(value, (str, list, dict)) or value is None)
    expected = " ".join(value.split()) or None if isinstance(value, str) else None
    assert front_matter_title(b"---\n" + text.encode() + b"---\n") == expected, text


@pytest.mark.timeout(30)
@pytest.mark.parametrize("shape", [b"title:\n  a%sb\n", b"title: a\n  x%sy\n"])
def test_a_long_run_of_blanks_in_a_title_is_read_at_once(shape: bytes) -> None:
    """1 MB of tabs inside a title's line: read in linear time (a lazy pattern backtracking over
    the run took minutes)."""
    block = b"---\n" + shape.replace(b"%s", b"\t" * 1_000_000) + b"---\n"
    assert front_matter_title(block) is not None
