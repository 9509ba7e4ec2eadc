"""A part of a file (`head`, `tail`, `sed -n` ranges, in lines or bytes) counted in words as the
slow obvious way slices it, however the file is cut into reads; a BOM only at the start."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mdsel_claude.hook import files
from mdsel_claude.hook.parts import printed_exceeds


def reference(data: bytes, piece: tuple[str, int, int | None]) -> int:
    """Words in `piece` of `data`, the slow obvious way: the whole text sliced."""
    raw = data.split(b"\0")[0]
    unit, start, stop = piece
    bom = 3 if raw.startswith(b"\xef\xbb\xbf") else 0
    if unit == "bytes" and bom and (start >= 0 or stop is not None):
        # Counted from the file's start (`head -c`), a BOM's bytes count as bytes, not words.
        if start >= 0:
            end = len(raw) if stop is None else stop if stop >= 0 else max(len(raw) + stop, 0)
            return len(raw[max(start, bom) : end].split())
        first = raw[:stop]
        return len(first[max(len(first) + start, 0, bom) :].split())
    text = raw[bom:]
    # A negative start with a stop: the tail of a head (`head -n 100 | tail -n 50`); a
    # negative stop: all but the last (`head -n -5`).
    cut = slice(start, None) if start < 0 and stop is not None else slice(start, stop)
    head = slice(None, stop) if start < 0 else slice(None)
    if unit == "bytes":
        return len(text[head][cut].split())
    lines = text.split(b"\n")
    if lines and not lines[-1]:
        lines.pop()
    return len(b"\n".join(lines[head][cut]).split())


@settings(max_examples=400, deadline=None)
@example(  # a tail longer than its head: the head whole
    data=b"\x01",
    lines_text=["", "a"],
    unit="bytes",
    start=-4,
    length=3,
    chunk=1,
    threshold=1,
    bom=False,
    all_but=False,
)
@example(  # `head -c 6` of a BOM and `aa bb`: the BOM and `aa `, one word
    data=b"aa bb cc",
    lines_text=[],
    unit="bytes",
    start=0,
    length=6,
    chunk=2,
    threshold=1,
    bom=True,
    all_but=False,
)
@given(
    data=st.binary(max_size=300).map(lambda b: b.replace(b"\0", b"")),
    lines_text=st.lists(st.sampled_from(["", "a", "a b", " c  d ", "e\t"]), max_size=40),
    unit=st.sampled_from(["lines", "bytes"]),
    start=st.integers(-30, 30),
    length=st.one_of(st.none(), st.integers(0, 30)),
    chunk=st.sampled_from([1, 2, 3, 7, 64]),
    threshold=st.integers(0, 12),
    bom=st.booleans(),
    all_but=st.booleans(),
)
def test_parts_are_counted_as_sliced(
    tmp_path_factory: pytest.TempPathFactory,
    data: bytes,
    lines_text: list[str],
    unit: str,
    start: int,
    length: int | None,
    chunk: int,
    threshold: int,
    bom: bool,
    all_but: bool,
) -> None:
    text = b"\xef\xbb\xbf" * bom + data + "\n".join(lines_text).encode()
    path = tmp_path_factory.mktemp("part") / "doc.md"
    path.write_bytes(text)
    # With a negative start, `length` is the head's (the tail of a head); else the range's;
    # `all_but`: the head of all but the last `length` (`head -n -5`).
    stop = None if length is None else length if start < 0 else start + length
    if all_but and length:
        start, stop = 0, -length
    piece = (unit, start, stop)
    saved = files.CHUNK_BYTES
    files.CHUNK_BYTES = chunk
    try:
        got = printed_exceeds(str(path), piece, threshold)
    finally:
        files.CHUNK_BYTES = saved
    size_allows = (len(text) + 1) // 2 > threshold
    assert got == (size_allows and reference(text, piece) > threshold)


def test_a_bom_counts_only_at_the_start_of_the_file(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    # Mid-file, the BOM's bytes are a word like any other; at the start they are skipped.
    doc.write_bytes(b"one two three\n\xef\xbb\xbf word\n")
    assert printed_exceeds(str(doc), ("lines", -1, None), 1)
    doc.write_bytes(b"\xef\xbb\xbf word\n")
    assert not printed_exceeds(str(doc), ("lines", -1, None), 1)
