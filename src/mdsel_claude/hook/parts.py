"""The part of a file a command prints (`head -n 400`, `sed -n '1,400p'`, `tail -c 4K`), and
whether that part holds more than N words: read from the start up to the part's end, or from
the file's end back for a tail, within the bounds of `files` (its first `MAX_BYTES`, up to a NUL).

A pipeline's stream is a list of such parts (`Stream`); a cut downstream narrows it (`narrowed`).
Only the shell-command checks ask this; a whole-file Read needs `files` alone.
"""

from __future__ import annotations

import os

from mdsel_claude.hook import files

Piece = tuple[str, int, int | None]
"""A part of a file a command prints, as a Python slice of its lines or bytes: `(unit, start,
stop)` with unit "lines" or "bytes"; `("lines", 0, None)` is the whole file, `("lines", -50,
None)` its last 50 lines, `("bytes", 0, 4096)` its first 4 KiB. A negative start with a stop is
a tail of a head: `("lines", -50, 100)` is the last 50 of the first 100 lines (`head -n 100 |
tail -n 50`), which a file of 40 lines shows whole."""

WHOLE: Piece = ("lines", 0, None)
REVERSED: Piece = ("reversed lines", 0, None)
"""A whole file, last line first (`tac`): the same words as WHOLE; a cut of it is another."""
NUMBERED: Piece = ("numbered lines", 0, None)
"""A whole file with something added to each line (`nl`, `cat -n`): the same words as WHOLE;
a cut by lines is that cut of the file, a cut by bytes is not known (the added bytes)."""
OTHER: tuple[str, Piece] = ("", ("other lines", 0, None))
"""Lines of no file named (an `echo` in a group), at each end of a stream that holds some:
where a cut of it falls is then not known (silence); whole, it still shows its files."""

Stream = list[tuple[str, Piece]]
"""What flows down a pipeline: parts of files, in order."""

MAX_COUNT = 2**64 - 1
"""The largest count GNU head, tail and sed take (an unsigned 64-bit number): a larger one is an
error there, and not a count here; `head -n 9999999999999999999` shows the whole file."""


def count(text: str) -> int | None:
    """A count of lines or bytes as a command line writes it (`400`, `0400`), or None if not one.
    Leading zeros are dropped before the digits are counted, so no text of a command makes a
    slow `int()` of thousands of digits."""
    if not text.isdigit() or not text.isascii():
        return None
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(MAX_COUNT)):
        return None
    number = int(digits)
    return number if number <= MAX_COUNT else None


def narrowed(stream: Stream, piece: Piece) -> Stream:
    """The input cut to `piece`. Exact for one file; for several, the first file's head or the
    last file's tail (a count reaching into the next file is under-counted, never over)."""
    if not stream or piece == WHOLE:
        return stream
    cut_unit, cut_start, cut_stop = piece
    path, current = stream[-1] if cut_start < 0 else stream[0]
    if (path, current) == OTHER:
        return []
    if current == WHOLE:
        return [(path, piece)]
    if current == NUMBERED:
        return [(path, piece)] if cut_unit == "lines" else []
    if current == REVERSED:  # `tac f | head -n 5` shows f's last 5 lines, `| tail` its first
        if cut_unit == "lines" and cut_start == 0 and cut_stop is not None and cut_stop >= 0:
            return [(path, ("lines", -cut_stop, None))] if cut_stop else []
        if cut_unit == "lines" and cut_start < 0 and cut_stop is None:
            return [(path, ("lines", 0, -cut_start))]
        return []
    unit, start, stop = current
    if unit != cut_unit or start < 0 or (stop is not None and stop < 0):
        return []  # lines of bytes, a cut of a tail: not knowable from the text alone
    if cut_start < 0:
        if cut_stop is not None or stop is None:
            return []
        if start == 0:  # `head -n 900 | tail -n 50`: the head may end sooner, so kept as such
            return [(path, (unit, cut_start, stop))]
        # A range's tail: exact when the file reaches the range's end, under-counted otherwise.
        return [(path, (unit, max(start, stop + cut_start), stop))]
    if cut_stop is not None and cut_stop < 0:
        return []
    first = start + cut_start
    last = None if cut_stop is None else start + cut_stop
    if stop is not None:
        last = stop if last is None else min(stop, last)
    return [(path, (unit, first, last))]


def printed_exceeds(path: str, piece: Piece, threshold: int) -> bool:
    """True when `piece` of the Markdown file at `path` holds more than `threshold` words.

    A head or a range is read from the start up to its end at most; a tail from the end back
    (a file with a NUL byte in its first or last part is not text: no).
    """
    if not files.is_markdown_file_name(path):
        return False
    if piece in (WHOLE, REVERSED, NUMBERED):
        return files.exceeds_word_threshold(path, threshold)
    opened = files.open_wordy(path, threshold)
    if opened is None:
        return False
    fd, size = opened
    try:
        unit, start, stop = piece
        from_start = start >= 0 or (stop is not None and stop >= 0)
        if unit == "bytes" and from_start and os.pread(fd, len(files.BOM), 0) == files.BOM:
            # `head -c 6` counts a BOM's bytes; the text read here starts after it.
            start = max(start - len(files.BOM), 0) if start >= 0 else start
            stop = max(stop - len(files.BOM), 0) if stop is not None and stop >= 0 else stop
        if stop is not None and stop < 0:
            # `head -n -5`: all but the last lines (a range with a negative end: not known).
            return start == 0 and _all_but_last_exceeds(fd, unit, -stop, threshold)
        if start < 0:
            if stop is not None:
                return _tail_of_head_exceeds(fd, unit, -start, stop, threshold)
            return _tail_exceeds(fd, size, unit, -start, threshold)
        return _range_exceeds(fd, unit, start, stop, threshold)
    except OSError:
        return False
    finally:
        os.close(fd)


def _skip_lines(chunk: bytes, begin: int, lines: int) -> tuple[int, int]:
    """Past up to `lines` line ends in `chunk` from `begin`: (where it stopped, how many)."""
    found = chunk.count(b"\n", begin)
    if found < lines:
        return len(chunk), found
    position = begin
    for _ in range(lines):
        position = chunk.index(b"\n", position) + 1
    return position, lines


def _range_exceeds(fd: int, unit: str, start: int, stop: int | None, threshold: int) -> bool:
    """Words in lines (or bytes) `start` to `stop` (None: the end) of the text, streamed."""
    words = files.Words(threshold)
    done = 0  # lines ended (or bytes seen) before the current chunk's start
    for chunk in files.chunks(fd):
        if unit == "bytes":
            low = min(max(start - done, 0), len(chunk))
            high = len(chunk) if stop is None else min(max(stop - done, 0), len(chunk))
            done += len(chunk)
        else:
            low, skipped = _skip_lines(chunk, 0, max(start - done, 0))
            done += skipped
            high = len(chunk)
            if done >= start and stop is not None:
                high, kept = _skip_lines(chunk, low, stop - done)
                done += kept
            elif done < start:
                continue
        if low < high and words.passed(chunk[low:high]):
            return True
        if stop is not None and done >= stop:
            return False
    return False


def _tail_of_head_exceeds(fd: int, unit: str, count: int, stop: int, threshold: int) -> bool:
    """Words in the last `count` lines (or bytes) of the first `stop`: the head is read (up to
    `MAX_BYTES`), as it may end before `stop` and then shows its own last lines."""
    kept: list[bytes] = []
    done = 0
    for chunk in files.chunks(fd):
        if unit == "bytes":
            taken = chunk[: stop - done]
            done += len(taken)
        else:
            end, ended = _skip_lines(chunk, 0, stop - done)
            taken = chunk[:end]
            done += ended
        kept.append(taken)
        if done >= stop:
            break
    head = b"".join(kept)
    if unit == "bytes":
        shown = head[max(len(head) - count, 0) :]
    else:
        body = head[:-1] if head.endswith(b"\n") else head
        parts = body.rsplit(b"\n", count)
        shown = b"\n".join(parts[1:]) if len(parts) > count else body
    return len(shown.split(None, threshold)) > threshold


def _all_but_last_exceeds(fd: int, unit: str, count: int, threshold: int) -> bool:
    """Words in all but the last `count` lines (or bytes): the text is read whole, up to
    `MAX_BYTES` (past that, or a NUL, the text read is cut the same: under-counted)."""
    text = b"".join(files.chunks(fd))
    if unit == "bytes":
        kept = text[: max(len(text) - count, 0)]
    else:
        lines = text.count(b"\n") + (not text.endswith(b"\n") and bool(text))  # as head counts
        keep = lines - count
        rest = text.split(b"\n", keep)[-1] if keep > 0 else text  # what follows the kept lines
        kept = text[: len(text) - len(rest)]
    return len(kept.split(None, threshold)) > threshold


def _tail_exceeds(fd: int, size: int, unit: str, count: int, threshold: int) -> bool:
    """Words in the last `count` lines (or bytes), read from the end back, `MAX_BYTES` at most."""
    if os.read(fd, files.CHUNK_BYTES).find(b"\0") >= 0:
        return False
    bom = os.pread(fd, len(files.BOM), 0) == files.BOM
    window = min(count if unit == "bytes" else files.CHUNK_BYTES, size, files.MAX_BYTES)
    while True:
        os.lseek(fd, size - window, os.SEEK_SET)
        data = os.read(fd, window)
        if b"\0" in data:
            return False
        if bom and size - window < len(files.BOM):  # the file's own start: its BOM is no word
            data = data[len(files.BOM) - (size - window) :]
        if unit == "bytes":
            break
        body = data[:-1] if data.endswith(b"\n") else data
        parts = body.rsplit(b"\n", count)
        if len(parts) > count:  # the window holds all of the last `count` lines
            data = b"\n".join(parts[1:])
            break
        if len(body.split(None, threshold)) > threshold or window >= min(size, files.MAX_BYTES):
            break  # every line in the window is shown: enough words already, or no more to read
        window = min(window * 4, size, files.MAX_BYTES)
    return len(data.split(None, threshold)) > threshold
