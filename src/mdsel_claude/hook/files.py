"""Is this file a large Markdown file? Counted as cheaply as the answer allows (stdlib only).

Every client's hook asks the same two questions: is a path a Markdown file with more than N words
(a whole-file read), and does the part of it a command prints hold more than N words (`head -n
400`, `sed -n '1,400p'`). Only the bytes before the first NUL, and within the first `MAX_BYTES`,
are looked at; reading stops as soon as the answer is known, so a huge file costs no more than a
small one. Anything that is not a readable regular file is "no", and a FIFO or device is never
opened.
"""

from __future__ import annotations

import os
import stat

from mdsel.names import is_markdown_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

REMINDER = (
    "This is a Markdown file over the configured size threshold.\n"
    "Use mdsel_index and mdsel_select instead of Read."
)
"""The reminder of SPEC §6, byte for byte: two lines, no final newline, never varied."""

CHUNK_BYTES = 64 * 1024
"""Bytes per read: large enough that a typical 200-word file is one read."""

MAX_BYTES = 8 * 1024 * 1024
"""Read at most this much of a file (guards against a huge file without a whitespace or NUL)."""

MAX_PATH = 4096
"""A longer path is not a file anyone reads: no system accepts it."""

_BOM = b"\xef\xbb\xbf"
"""A UTF-8 byte order mark; skipped at the start of a file, as the engine does."""

_ASCII_WHITESPACE = b" \t\n\r\x0b\x0c"
"""The separators of `bytes.split()`: the word rule of SPEC §2."""

Piece = tuple[str, int, int | None]
"""A part of a file a command prints, as a Python slice of its lines or bytes: `(unit, start,
stop)` with unit "lines" or "bytes"; `("lines", 0, None)` is the whole file, `("lines", -50,
None)` its last 50 lines, `("bytes", 0, 4096)` its first 4 KiB. A negative start with a stop is
a tail of a head: `("lines", -50, 100)` is the last 50 of the first 100 lines (`head -n 100 |
tail -n 50`), which a file of 40 lines shows whole."""

WHOLE: Piece = ("lines", 0, None)
REVERSED: Piece = ("reversed lines", 0, None)
"""A whole file, last line first (`tac`): the same words as WHOLE; a cut of it is another."""


def absolute_path(path: object, cwd: object) -> str | None:
    """`path` as an absolute path (relative to `cwd` when that is usable, else this process's
    directory), or None when it is not a usable path string."""
    if not isinstance(path, str) or not path or "\0" in path or len(path) > MAX_PATH:
        return None
    if os.path.isabs(path):
        return path
    if isinstance(cwd, str) and cwd and "\0" not in cwd and len(cwd) <= MAX_PATH:
        base = cwd
    else:
        base = os.getcwd()
    return os.path.join(base, path)


def is_markdown_file_name(path: str) -> bool:
    """A Markdown name, and (for a symlink) a Markdown target: `notes.md -> secrets.txt` is not."""
    return is_markdown_name(path) and is_markdown_name(os.path.realpath(path))


def large_markdown(path: str, threshold: int) -> bool:
    """True for a Markdown file (see `is_markdown_file_name`) with more than `threshold` words."""
    return is_markdown_file_name(path) and exceeds_word_threshold(path, threshold)


def printed_exceeds(path: str, piece: Piece, threshold: int) -> bool:
    """True when `piece` of the Markdown file at `path` holds more than `threshold` words.

    A head or a range is read from the start up to its end at most; a tail from the end back
    (a file with a NUL byte in its first or last part is not text: no).
    """
    if not is_markdown_file_name(path):
        return False
    if piece in (WHOLE, REVERSED):
        return exceeds_word_threshold(path, threshold)
    opened = open_regular(path)
    if opened is None:
        return False
    fd, size = opened
    try:
        # n bytes hold at most (n + 1) // 2 words, so a small file needs no reading at all.
        if (size + 1) // 2 <= threshold:
            return False
        unit, start, stop = piece
        from_start = start >= 0 or (stop is not None and stop >= 0)
        if unit == "bytes" and from_start and os.pread(fd, len(_BOM), 0) == _BOM:
            # `head -c 6` counts a BOM's bytes; the text read here starts after it.
            start = max(start - len(_BOM), 0) if start >= 0 else start
            stop = max(stop - len(_BOM), 0) if stop is not None and stop >= 0 else stop
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


class _Words:
    """Counts words fed in consecutive pieces, until one more than `threshold` is seen."""

    __slots__ = ("count", "in_word", "threshold")

    def __init__(self, threshold: int) -> None:
        self.count = 0
        self.in_word = False
        self.threshold = threshold

    def passed(self, data: bytes) -> bool:
        """Feed the next bytes; True once more than `threshold` words have been fed."""
        if not data:
            return False
        # A word cut by the previous piece continues here and is not a new one.
        continued = 1 if self.in_word and data[0] not in _ASCII_WHITESPACE else 0
        needed = self.threshold + 1 - self.count
        # maxsplit bounds the work: len(parts) == min(words in data, needed + 1).
        parts = data.split(None, needed)
        if len(parts) - continued >= needed:
            return True
        self.count += len(parts) - continued
        self.in_word = data[-1] not in _ASCII_WHITESPACE
        return False


def _chunks(fd: int) -> Iterator[bytes]:
    """The file's text from the start: BOM skipped, up to the first NUL, at most `MAX_BYTES`."""
    # SPEC §2 skips a leading BOM before anything else, word counts included.
    if os.read(fd, len(_BOM)) != _BOM:
        os.lseek(fd, 0, os.SEEK_SET)
    remaining = MAX_BYTES
    while remaining > 0:
        chunk = os.read(fd, min(CHUNK_BYTES, remaining))
        if not chunk:
            return
        remaining -= len(chunk)
        nul = chunk.find(b"\0")
        if nul >= 0:
            if nul:
                yield chunk[:nul]
            return
        yield chunk


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
    words = _Words(threshold)
    done = 0  # lines ended (or bytes seen) before the current chunk's start
    for chunk in _chunks(fd):
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
    for chunk in _chunks(fd):
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
    text = b"".join(_chunks(fd))
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
    if os.read(fd, CHUNK_BYTES).find(b"\0") >= 0:
        return False
    bom = os.pread(fd, len(_BOM), 0) == _BOM
    window = min(count if unit == "bytes" else CHUNK_BYTES, size, MAX_BYTES)
    while True:
        os.lseek(fd, size - window, os.SEEK_SET)
        data = os.read(fd, window)
        if b"\0" in data:
            return False
        if bom and size - window < len(_BOM):  # the file's own start: its BOM is no word
            data = data[len(_BOM) - (size - window) :]
        if unit == "bytes":
            break
        body = data[:-1] if data.endswith(b"\n") else data
        parts = body.rsplit(b"\n", count)
        if len(parts) > count:  # the window holds all of the last `count` lines
            data = b"\n".join(parts[1:])
            break
        if len(body.split(None, threshold)) > threshold or window >= min(size, MAX_BYTES):
            break  # every line in the window is shown: enough words already, or no more to read
        window = min(window * 4, size, MAX_BYTES)
    return len(data.split(None, threshold)) > threshold


def open_regular(path: str) -> tuple[int, int] | None:
    """A descriptor for the regular file at `path` and its size, or None (never blocks on a
    FIFO)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        # O_NONBLOCK: if the path was swapped for a FIFO since the stat, opening must not hang.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError):
        return None
    try:
        info = os.fstat(fd)
        if stat.S_ISREG(info.st_mode):
            return fd, info.st_size
    except OSError:
        pass
    os.close(fd)
    return None


def line_count(path: str) -> int | None:
    """Lines of the regular file at `path` as sed counts them (a last line without its line
    ending counts); None when it is not one, cannot be read, or is over `MAX_BYTES`."""
    opened = open_regular(path)
    if opened is None:
        return None
    fd, size = opened
    lines, seen, last = 0, 0, b"\n"
    try:
        while size <= MAX_BYTES and (chunk := os.read(fd, CHUNK_BYTES)):
            seen += len(chunk)
            if seen > MAX_BYTES:  # it grew past the bound while read
                return None
            lines += chunk.count(b"\n")
            last = chunk[-1:]
    except OSError:
        return None
    finally:
        os.close(fd)
    return None if size > MAX_BYTES else lines + (last != b"\n")


def exceeds_word_threshold(path: str, threshold: int) -> bool:
    """True when the regular file at `path` has more than `threshold` words before any NUL.

    Words are runs of bytes between ASCII whitespace (SPEC §2). The result does not depend on
    how the file is cut into reads.
    """
    opened = open_regular(path)
    if opened is None:
        return False
    fd, size = opened
    try:
        # n bytes hold at most (n + 1) // 2 words, so a small file needs no reading at all.
        if (size + 1) // 2 <= threshold:
            return False
        words = _Words(threshold)
        return any(words.passed(chunk) for chunk in _chunks(fd))
    except OSError:
        return False
    finally:
        os.close(fd)
