"""Tests for server.cache: keyed by content only, bounded by bytes, safe across threads."""

from __future__ import annotations

import threading

import pytest

from mdsel_claude.server.cache import DigestCache


class Counter:
    """A parse function that records what it was asked to parse."""

    def __init__(self) -> None:
        self.calls: list[bytes] = []

    def __call__(self, data: bytes) -> tuple[bytes]:
        self.calls.append(data)
        return (data,)


def test_same_bytes_parse_once() -> None:
    parse = Counter()
    cache = DigestCache(parse, budget_bytes=1000)
    first = cache(b"# A\n")
    assert cache(b"# " + b"A\n") is first
    assert parse.calls == [b"# A\n"]
    assert (cache.hits, cache.misses) == (1, 1)


def test_different_bytes_of_the_same_size_are_never_confused() -> None:
    parse = Counter()
    cache = DigestCache(parse, budget_bytes=1000)
    assert cache(b"# A\n") == (b"# A\n",)
    assert cache(b"# B\n") == (b"# B\n",)
    assert len(parse.calls) == 2


def test_budget_evicts_least_recently_used() -> None:
    parse = Counter()
    cache = DigestCache(parse, budget_bytes=10)
    cache(b"aaaa")
    cache(b"bbbb")
    cache(b"aaaa")  # a is now the most recent
    cache(b"cccc")  # 12 bytes > 10: b goes
    assert cache.size_bytes == 8 and cache.count == 2
    cache(b"aaaa")
    cache(b"cccc")
    assert parse.calls.count(b"bbbb") == 1
    cache(b"bbbb")
    assert parse.calls.count(b"bbbb") == 2


def test_a_document_over_the_budget_is_parsed_but_not_kept() -> None:
    parse = Counter()
    cache = DigestCache(parse, budget_bytes=3)
    cache(b"toolong")
    cache(b"toolong")
    assert len(parse.calls) == 2 and cache.count == 0 and cache.size_bytes == 0


def test_zero_budget_turns_caching_off_but_empty_input_still_works() -> None:
    parse = Counter()
    cache = DigestCache(parse, budget_bytes=0)
    cache(b"x")
    cache(b"x")
    assert len(parse.calls) == 2
    cache(b"")
    cache(b"")
    assert cache.count == 1  # the empty document costs nothing


def test_parse_errors_propagate_and_are_not_cached() -> None:
    attempts: list[bytes] = []

    def failing(data: bytes) -> object:
        attempts.append(data)
        raise ValueError("bad byte")

    cache = DigestCache(failing, budget_bytes=100)
    for _ in range(2):
        with pytest.raises(ValueError, match="bad byte"):
            cache(b"\xff")
    assert len(attempts) == 2 and cache.count == 0


def test_clear() -> None:
    cache = DigestCache(Counter(), budget_bytes=100)
    cache(b"abc")
    cache.clear()
    assert cache.count == 0 and cache.size_bytes == 0


def test_threads_share_one_consistent_cache() -> None:
    parse = Counter()
    cache = DigestCache(parse, budget_bytes=64)
    inputs = [bytes([65 + n % 13]) * 8 for n in range(400)]

    def work(chunk: list[bytes]) -> None:
        for data in chunk:
            assert cache(data) == (data,)

    threads = [threading.Thread(target=work, args=(inputs[n::4],)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert cache.size_bytes == 8 * cache.count <= 64


def test_an_empty_cache_is_truthy() -> None:
    # Callers may pick a default with `parse or parse_document`; an empty cache must not lose.
    assert DigestCache(Counter(), budget_bytes=10)


def test_budget_counts_what_the_size_function_measures() -> None:
    """The server counts parsed trees, not source bytes: here each document weighs 10× its
    source, so a budget of 100 holds two 4-byte documents, not twenty-five."""
    parse = Counter()
    cache = DigestCache(parse, budget_bytes=100, size=lambda _doc, data: 10 * len(data))
    for data in (b"aaaa", b"bbbb", b"cccc"):
        cache(data)
    assert cache.count == 2 and cache.size_bytes == 80
    cache(b"b" * 11)  # 110 > 100: parsed, never kept
    assert cache.count == 2 and cache.size_bytes == 80


class Blocking:
    """A parse function that waits for `release` (and fails when told to), counting its calls."""

    def __init__(self, fail: bool = False) -> None:
        self.started = threading.Event()
        self.release = threading.Event()
        self.fail = fail
        self.calls = 0

    def __call__(self, data: bytes) -> tuple[bytes]:
        self.calls += 1
        self.started.set()
        self.release.wait()
        if self.fail:
            raise RuntimeError("cancelled")
        return (data,)


def test_bytes_being_parsed_are_waited_for_not_parsed_again() -> None:
    parse = Blocking()
    cache = DigestCache(parse, budget_bytes=1000)
    results: list[tuple[bytes]] = []
    first = threading.Thread(target=lambda: results.append(cache(b"# A\n")))
    first.start()
    parse.started.wait()
    waits: list[bool] = []
    second = threading.Thread(
        target=lambda: results.append(cache.digest_and_parse(b"# A\n", None, waits.append)[0])
    )
    second.start()
    while not waits:  # the second thread is waiting for the first's parse
        second.join(0.01)
    parse.release.set()
    first.join()
    second.join()
    assert parse.calls == 1
    assert results[0] is results[1]
    assert waits[0] is True and set(waits[:-1]) == {True} and waits[-1] is False
    assert (cache.hits, cache.misses) == (1, 1)


def test_a_parse_that_failed_is_done_again_by_the_thread_that_waited() -> None:
    failing = Blocking(fail=True)
    cache = DigestCache(Counter(), budget_bytes=1000)
    errors: list[BaseException] = []

    def first() -> None:
        try:
            cache(b"# A\n", failing)
        except RuntimeError as error:
            errors.append(error)

    thread = threading.Thread(target=first)
    thread.start()
    failing.started.wait()
    results: list[tuple[bytes]] = []
    waits: list[bool] = []
    second = threading.Thread(
        target=lambda: results.append(cache.digest_and_parse(b"# A\n", None, waits.append)[0])
    )
    second.start()
    while not waits:
        second.join(0.01)
    failing.release.set()
    thread.join()
    second.join()
    assert len(errors) == 1
    assert results == [(b"# A\n",)]
    assert cache.count == 1


def test_a_waiter_told_to_stop_stops_waiting_and_the_parse_goes_on() -> None:
    parse = Blocking()
    cache = DigestCache(parse, budget_bytes=1000)
    owner = threading.Thread(target=lambda: cache(b"# A\n"))
    owner.start()
    parse.started.wait()

    def stop(waits: bool) -> None:
        if waits:
            raise LookupError("stopped")

    with pytest.raises(LookupError):
        cache.digest_and_parse(b"# A\n", None, stop)
    parse.release.set()
    owner.join()
    assert parse.calls == 1 and cache.count == 1
