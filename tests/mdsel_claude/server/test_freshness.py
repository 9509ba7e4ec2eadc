"""Tests for server.freshness: a signature is trusted only outside the racy window, as in git."""

from __future__ import annotations

import os

from mdsel_claude.server.freshness import RACY_NS, Freshness, signature

SECOND = 1_000_000_000
DIGEST = b"d" * 32


def info(
    *, inode: int = 7, size: int = 100, mtime: int = 10 * SECOND, ctime: int | None = None
) -> os.stat_result:
    """An fstat answer for a regular file, with the fields freshness reads."""
    fields = (0o100644, inode, 1, 1, 0, 0, size, 0, mtime // SECOND, (ctime or mtime) // SECOND)
    return os.stat_result(fields, {"st_mtime_ns": mtime, "st_ctime_ns": ctime or mtime})


class Clock:
    def __init__(self, now: int) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now


def test_an_old_file_unchanged_since_it_was_read_is_trusted() -> None:
    clock = Clock(100 * SECOND)
    memo = Freshness(clock=clock)
    memo.record(info(), DIGEST, started_ns=100 * SECOND)
    assert memo.digest(info()) == DIGEST


def test_any_field_of_the_signature_that_moved_means_read_again() -> None:
    clock = Clock(100 * SECOND)
    memo = Freshness(clock=clock)
    memo.record(info(), DIGEST, started_ns=100 * SECOND)
    for changed in (
        info(size=101),
        info(mtime=10 * SECOND + 1),
        info(ctime=10 * SECOND + 1),  # mtime set back by a tool: ctime still moves
        info(inode=8),  # replaced by another file (an editor's atomic save)
    ):
        assert memo.digest(changed) is None, signature(changed)


def test_a_file_changed_within_the_racy_window_of_its_read_is_always_read_again() -> None:
    """Git's racily clean entry: a rewrite within the same tick keeps every stamp, so a file
    whose last change is not safely before the read that hashed it is checked by content."""
    clock = Clock(100 * SECOND)
    memo = Freshness(clock=clock)
    changed = 100 * SECOND - RACY_NS  # exactly at the edge: still racy
    memo.record(info(mtime=changed), DIGEST, started_ns=100 * SECOND)
    assert memo.digest(info(mtime=changed)) is None
    # Read again later, when the same stamps are safely old: trusted from then on.
    clock.now = 200 * SECOND
    memo.record(info(mtime=changed), DIGEST, started_ns=200 * SECOND)
    assert memo.digest(info(mtime=changed)) == DIGEST


def test_a_recent_ctime_keeps_a_file_racy_even_with_an_old_mtime() -> None:
    clock = Clock(100 * SECOND)
    memo = Freshness(clock=clock)
    stamps = info(mtime=SECOND, ctime=99 * SECOND)  # `touch -d` back, or a copy keeping times
    memo.record(stamps, DIGEST, started_ns=100 * SECOND)
    assert memo.digest(stamps) is None


def test_a_future_mtime_keeps_a_file_racy() -> None:
    clock = Clock(100 * SECOND)
    memo = Freshness(clock=clock)
    stamps = info(mtime=500 * SECOND, ctime=SECOND)
    memo.record(stamps, DIGEST, started_ns=100 * SECOND)
    assert memo.digest(stamps) is None


def test_a_wall_clock_stepped_back_forgets_everything() -> None:
    clock = Clock(100 * SECOND)
    memo = Freshness(clock=clock)
    memo.record(info(), DIGEST, started_ns=100 * SECOND)
    clock.now = 50 * SECOND
    assert memo.digest(info()) is None and memo.count == 0
    # A reading taken before a step back is not recorded either.
    memo.record(info(), DIGEST, started_ns=60 * SECOND)
    assert memo.count == 0


def test_entries_are_bounded_least_recently_used_first_out() -> None:
    clock = Clock(100 * SECOND)
    memo = Freshness(clock=clock, max_entries=2)
    for inode in (1, 2):
        memo.record(info(inode=inode), DIGEST, started_ns=100 * SECOND)
    assert memo.digest(info(inode=1)) == DIGEST  # 1 is now the most recent
    memo.record(info(inode=3), DIGEST, started_ns=100 * SECOND)
    assert memo.count == 2
    assert memo.digest(info(inode=2)) is None
    assert memo.digest(info(inode=1)) == memo.digest(info(inode=3)) == DIGEST
