"""mdsel._scan (the compiled scan and byte counts) answers exactly as the Python code it stands
in for: on real documents, the CommonMark examples and generated ones, for checkpoints and the
node limit, and on input of the wrong shape (an error, never a crash)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from array import array
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, cast

import pyromark
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mdsel import compiled, nesting
from mdsel.errors import NodeLimitError
from mdsel.parse import OPTIONS, scan, scan_compiled, scan_python
from mdsel.scan_events import CHECK_EVERY, CODES, LEVELS, RareHeadings
from mdsel.source import line_table
from tests.conftest import corpus_files, real_documents

pytestmark = pytest.mark.skipif(
    not compiled.COMPILED, reason="mdsel._scan was not built (no C compiler at install)"
)

ROOT = Path(__file__).resolve().parents[2]


def both(text: str, data: bytes | None = None, shift: int = 0) -> None:
    whole = text.encode() if data is None else data
    compiled, python = scan_compiled(text, whole, shift), scan_python(text, whole, shift)
    assert compiled == python
    # `==` between arrays compares values only: their types must agree too.
    assert [_type(column) for column in compiled] == [_type(column) for column in python]


def _type(column: object) -> object:
    if isinstance(column, tuple):
        return tuple(_type(part) for part in column)
    return getattr(column, "typecode", type(column))


def test_scan_uses_the_compiled_loop_when_built() -> None:
    assert compiled.COMPILED
    text = "# A\n\n- b\n"
    assert scan(text, text.encode()) == scan_compiled(text, text.encode())


@pytest.mark.parametrize("path", real_documents(), ids=lambda path: path.name)
def test_real_documents(path: Path) -> None:
    data = path.read_bytes().removeprefix(b"\xef\xbb\xbf")
    text = data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    both(text, data)
    both(text, b"---\n" + data, 4)  # shifted, as after front matter


def test_every_commonmark_example(cmark_examples: list[dict[str, object]]) -> None:
    for example in cmark_examples:
        markdown = str(example["markdown"])
        both(markdown)


def test_the_commonmark_spec_whole(cmark_spec_path: Path) -> None:
    both(cmark_spec_path.read_text(encoding="utf-8"))


PIECES = [
    "# Title\n", "## Title ##\n", "### Title\t##\n", "## Intro {#intro}\n", "#\n",
    "# `code` *em*\n", "Setext\n===\n", "Two\nlines\n---\n", "para text\nmore\n", "- item\n",
    "  - nested\n",
    "- # heading in a list\n", "> # heading in a quote\n", "> quoted\n", "1. one\n",
    "```\n# not a heading\n```\n", "    indented code\n", "| a | b |\n|---|---|\n| 1 | 2 |\n",
    "<div>\n# html\n</div>\n", "[link](x) and ![img](y)\n", "\n", "Title\\\nbreak\n",
    "## [ref]\n\n[ref]: /url\n", "***\n", "# a {.cls #id}\n", "- [x] task\n", "~~del~~\n",
    # Headings GitHub shows otherwise: images (nested), inline HTML, line breaks.
    "## ![a *b* ![c](d)](e) f\n", "# x <!-- y -->\n", '## <a name="z"></a> z\n',
    "Two\nlines  \nbroken\n---\n", "- ## ![i](j) k {#k}\n", "## `c` ![d](e) {#f}\n",
]  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30), st.integers(0, 5))
def test_generated_documents(pieces: list[str], shift: int) -> None:
    text = "".join(pieces)
    both(text, b"#" * shift + text.encode(), shift)


@pytest.mark.parametrize("paragraphs", [0, 1, 100, 4095, 4097, 20_000])
def test_columns_alike_on_both_sides_of_the_one_array_cut(paragraphs: int) -> None:
    # A paragraph fills four offset columns (starts, ends, last, top) of four bytes: past 4,096
    # of them the columns no longer fit in the one array the small ones are cut from.
    text = "# Title\n\n" + "para\n\n" * paragraphs + "## End\n"
    both(text)
    columns = scan_compiled(text, text.encode())
    # Each column is an array of its own, not a view of another: changing one leaves the rest.
    before = [array(column.typecode, column) for column in (columns.starts, columns.ends)]
    columns.starts.append(7)
    assert columns.ends == before[1] and columns.starts[:-1] == before[0]


def test_the_checkpoint_is_called_as_often_and_what_it_raises_ends_the_scan() -> None:
    text = "para\n\n" * (CHECK_EVERY * 2)
    calls: dict[str, int] = {"python": 0, "compiled": 0}

    def counter(name: str) -> Callable[[], object]:
        return lambda: calls.__setitem__(name, calls[name] + 1)

    scan_python(text, text.encode(), checkpoint=counter("python"))
    scan_compiled(text, text.encode(), checkpoint=counter("compiled"))
    assert calls["python"] == calls["compiled"] >= 3

    class Stop(Exception):
        pass

    def stop() -> None:
        raise Stop

    with pytest.raises(Stop):
        scan_compiled(text, text.encode(), checkpoint=stop)


@pytest.mark.parametrize("limit", [0, 1, 2, 3, 5, 8])
def test_the_node_limit_is_reached_at_the_same_block(limit: int) -> None:
    text = "# A\n\npara\n\n- a\n- b\n\n## B\n\n> q\n\n```\nc\n```\n\n### C\n"
    errors: list[str | None] = []
    for function in (scan_python, scan_compiled):
        try:
            function(text, text.encode(), 0, limit)
            errors.append(None)
        except NodeLimitError as error:
            errors.append(str(error))
    assert errors[0] == errors[1]
    assert limit >= 8 or errors[0] is not None


# Bytes made mostly of whitespace and letters, so that words and lines are many and short.
_SOME_SPACE = bytes((b" \t\n\x0b\x0c\rab")[byte % 8] if byte < 200 else byte for byte in range(256))


@settings(max_examples=400, deadline=None)
@given(
    st.binary(max_size=300).map(lambda raw: raw.translate(_SOME_SPACE)),
    st.lists(st.integers(0, 300), max_size=6),
)
def test_word_and_line_counts(data: bytes, cuts: list[int]) -> None:
    # Cut at line starts, as headings start: then the spans' words add up to the file's.
    starts = array("I", sorted(data.rfind(b"\n", 0, min(cut, len(data))) + 1 for cut in cuts))
    for lone_cr in (False, True):  # a lone CR: the lines come from the line table
        whole = data + b"\rx" if lone_cr else data
        lines = line_table(whole)
        counts = nesting.HeadingCounts(lines, starts)
        fast = (list(counts.words_before()), list(counts.first_lines()))
        slow = (
            list(nesting.words_before(lines, starts)), list(nesting.first_lines(lines, starts))
        )  # fmt: skip
        assert fast == slow
        assert fast[0][-1] == len(whole.split())
        if lines.lf_endings:
            assert fast[1][-1] == whole.count(b"\n") + 1


def test_counts_refuse_starts_out_of_order_outside_or_of_another_type() -> None:
    assert compiled.native is not None
    for starts in (array("I", [0, 5, 3]), array("I", [99]), array("Q", [2**63])):
        with pytest.raises(ValueError):
            compiled.native.heading_counts(b"a b c d", starts, array)
    for wrong in (array("i", [0]), array("B", [0]), b"\x00\x00\x00\x00"):
        with pytest.raises(TypeError):
            # bytes where the stub says array, on purpose: refused, not read as one.
            compiled.native.heading_counts(b"a b c d", wrong, array)  # type: ignore[arg-type]


def test_arguments_of_the_wrong_count_or_type_are_an_error_not_a_crash() -> None:
    assert compiled.native is not None
    native: Any = compiled.native  # wrong calls on purpose
    good: list[Any] = [
        [], {"Paragraph": 0}, {"H1": 1}, None, 10, 100, _never, _never, array, "I", 4, "i", 4, 0,
    ]  # fmt: skip
    assert native.scan(*good)[1] == array("I")
    wrongs: list[tuple[int, Any]] = [
        (1, []), (2, None), (4, "10"), (9, b"I"), (10, 3), (12, 16), (13, -1),
    ]  # fmt: skip
    for position, wrong in wrongs:
        with pytest.raises((TypeError, ValueError)):
            native.scan(*good[:position], wrong, *good[position + 1 :])
    # A number that fails stops the reading there: the next one's __index__ never runs with
    # that error pending (which CPython would turn into a SystemError, or let pass).
    called: list[str] = []

    class Failing:
        def __index__(self) -> int:
            raise ValueError("no count")

    class Four:
        def __index__(self) -> int:
            called.append("width")
            return 4

    with pytest.raises(ValueError, match="no count"):
        native.scan(*good[:4], Failing(), *good[5:10], Four(), *good[11:])
    assert called == []
    assert native.scan(*good[:5], Four(), *good[6:])[1] == array("I")  # an index-able room
    for count in (0, 13, 15):
        with pytest.raises(TypeError, match="14 arguments"):
            native.scan(*[*good, 0][:count])
    with pytest.raises(TypeError, match="3 arguments"):
        native.heading_counts(b"a", array("I"))
    with pytest.raises(TypeError):
        native.heading_counts("a", array("I"), array)


@pytest.mark.parametrize(
    "events",
    [
        [1],
        [(1, 2, 3)],
        [({"Start": "Paragraph"}, {"start": 0})],
        [({"Start": "Paragraph"}, {"start": "0", "end": 1})],
        [({"Start": "Paragraph"}, None)],
        [({"Start": {"Heading": {"level": "H9"}}}, {"start": 0, "end": 1})],
        [({"Start": {"Heading": "H1"}}, {"start": 0, "end": 1})],
        [({"Start": {"Heading": {"level": "H1"}}}, {"start": 0, "end": 1}), ({"Text": 5}, None)],
    ],
)
def test_events_of_the_wrong_shape_are_an_error_not_a_crash(events: list[object]) -> None:
    assert compiled.native is not None
    with pytest.raises((TypeError, KeyError, ValueError)):
        compiled.native.scan(
            events, {"Paragraph": 0}, {"H1": 1}, None, 10, 100, _never, _never, array, "I", 4,
            "i", 4, 0,
        )  # fmt: skip


class _Unequal:
    """A dict key that hashes as `name` and fails any comparison: a look-up of that name that
    meets it raises, which the scan must pass on however its fast paths skip the error check."""

    def __init__(self, name: str = "Start") -> None:
        self.name = name

    def __hash__(self) -> int:
        return hash(self.name)

    def __eq__(self, other: object) -> bool:
        raise ValueError("not comparable")


def _failing_events() -> Iterator[object]:
    yield ({"Start": "Paragraph"}, {"start": 0, "end": 1})
    raise ValueError("the parser failed")


@pytest.mark.parametrize(
    "events",
    [
        [({_Unequal(): "Paragraph"}, {"start": 0, "end": 1})],
        [({_Unequal(): "Paragraph", "End": "x"}, {"start": 0, "end": 1})],
        [({"Start": {_Unequal("Heading"): 1}}, {"start": 0, "end": 1})],
        [({"Start": {"Paragraph": 1, _Unequal("Link"): 2}}, {"start": 0, "end": 1})],
        _failing_events(),
    ],
    ids=["key", "keys", "tag key", "tag keys", "iterator"],
)
def test_errors_raised_while_reading_events_pass_through(events: Iterable[object]) -> None:
    assert compiled.native is not None
    with pytest.raises(ValueError, match=r"not comparable|the parser failed"):
        compiled.native.scan(
            events, {"Paragraph": 0}, {"H1": 1}, None, 10, 100, _never, _never, array, "I", 4,
            "i", 4, 0,
        )  # fmt: skip


def _fresh(value: object) -> object:
    """`value` built anew: every string a new, not interned object, and dicts of more than one
    key in reverse order, as a parser that does neither would give them."""
    if isinstance(value, str):
        return value[:1] + value[1:] if len(value) > 1 else value  # one character: shared
    if isinstance(value, dict):
        items = [(_fresh(key), _fresh(item)) for key, item in value.items()]
        return dict(reversed(items))
    if isinstance(value, tuple | list):
        return type(value)(_fresh(item) for item in value)
    return value


@pytest.mark.parametrize("path", corpus_files()[:12], ids=lambda path: path.name)
def test_names_found_by_identity_or_looked_up_alike(path: Path) -> None:
    """The scan reads the parser's interned keys and tags by identity: fresh strings, ranges with
    their keys in the other order and a caller's codes of fresh strings give the same columns."""
    assert compiled.native is not None
    text = path.read_text(encoding="utf-8").replace("\r", "\n")
    events = list(pyromark.events_with_range(text, options=OPTIONS))
    fresh = [(_fresh(event), _fresh(span)) for event, span in events]
    keys = [next(iter(event)) for event, _ in fresh if isinstance(event, dict)]
    assert "Start" in keys
    assert all(key is not sys.intern(key) for key in keys if len(key) > 1)

    def columns(events: list[Any], codes: dict[str, int]) -> tuple[object, ...]:
        assert compiled.native is not None
        rare = RareHeadings(text.encode(), 0)
        found = compiled.native.scan(
            events, codes, LEVELS, None, 10, 2**40, rare, _never, array, "Q", 8, "q", 8, 0
        )
        return (*found, rare.ids, rare.texts, rare.nested)

    expected = columns(events, CODES)
    assert expected[0]  # some blocks
    assert columns(fresh, CODES) == expected
    assert columns(events, cast("dict[str, int]", _fresh(CODES))) == expected
    assert columns(fresh, cast("dict[str, int]", _fresh(CODES))) == expected


def _never(*_args: object) -> None:
    raise AssertionError("not called for these events")


def test_the_cli_answers_the_same_without_the_extension(tmp_path: Path) -> None:
    """The whole path (index, then a section and a block) as a pure-Python install runs it."""
    paths = [str(path) for path in corpus_files()[:8]]
    program = (
        "import sys\n"
        "if sys.argv[1] == 'pure':\n"
        "    sys.modules['mdsel._scan'] = None\n"
        "from mdsel.cli import main\n"
        "from mdsel.compiled import COMPILED\n"
        "assert COMPILED == (sys.argv[1] != 'pure')\n"
        "sys.exit(main(sys.argv[2:]))\n"
    )
    for arguments in (["index", "--full", *paths], ["select", "h2.1,code.0,L40", *paths]):
        answers = [run(program, mode, arguments, tmp_path) for mode in ("pure", "compiled")]
        assert answers[0].stderr == answers[1].stderr
        assert answers[0].stdout == answers[1].stdout
        assert answers[0].returncode == answers[1].returncode
        assert answers[0].stdout


def run(
    program: str, mode: str, arguments: list[str], cwd: Path
) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", program, mode, *arguments]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=cwd)


@pytest.mark.skipif(
    shutil.which("cc") is None or not Path(sysconfig.get_paths()["include"], "Python.h").is_file(),
    reason="no C compiler or no Python headers here: hatch_build.py builds the pure wheel",
)
def test_the_installed_wheel_has_the_extension_where_a_compiler_is() -> None:
    """A wheel built where a compiler is carries mdsel._scan (hatch_build.py did not fall back)."""
    bin_dir = os.environ.get("MDSEL_TEST_BIN_DIR")
    if not bin_dir:
        pytest.skip("MDSEL_TEST_BIN_DIR is not set: no installed wheel to look at")
    python = Path(bin_dir, "python")
    done = subprocess.run(
        [str(python), "-c", "import mdsel.compiled as c, sys; sys.exit(0 if c.COMPILED else 3)"],
        capture_output=True, text=True, timeout=60, cwd=ROOT.parent,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
