"""Tests for server.embedded: the engine in process, its parse cache, and unchanged files
answered without being read again — never with stale content."""

from __future__ import annotations

import os
import re
import threading
from pathlib import Path

import pytest

from mdsel_claude.server.config import EngineSettings, Settings
from mdsel_claude.server.embedded import EmbeddedBackend, report_only
from mdsel_claude.server.freshness import Freshness
from mdsel_claude.server.reader import Cancelled
from tests.mdsel_claude.server.conftest import DOC_A, problems

TIMESTAMP = re.compile(r'"timestamp": "[^"]*"')


def test_embedded_parses_each_content_once(workdir: Path) -> None:
    backend = EmbeddedBackend(Settings())
    first = backend.run("select", "h2.0", ["guide.md"], [], [])
    second = backend.run("select", "h2.1", ["guide.md"], [], [])
    assert (first.exit_code, second.exit_code) == (0, 0)
    assert (backend.cache.misses, backend.cache.hits) == (1, 1)
    (workdir / "guide.md").write_text(DOC_A.replace("Run it.", "Run on."), encoding="utf-8")
    third = backend.run("select", "h2.0", ["guide.md"], [], [])
    assert "Run on." in third.stdout and backend.cache.misses == 2


def test_report_only_reads_nothing(workdir: Path) -> None:
    outcome = report_only("select", "h2.0", problems(), [], Settings())
    assert outcome.stdout == "" and outcome.exit_code == 1
    assert outcome.stderr.splitlines() == [
        "!x.txt PROCESSING_ERROR: not a Markdown file name",
        "!*.mdx FILE_NOT_FOUND: no file matches this pattern",
    ]


def test_embedded_parsing_stops_at_a_checkpoint_once_cancelled(tmp_path: Path) -> None:
    (tmp_path / "big.md").write_text("## Part\n\n- a\n- b\n\n" * 20_000)
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        EmbeddedBackend(Settings()).run("index", None, ["big.md"], (), (), str(tmp_path), cancel)


def test_embedded_cache_counts_parsed_trees(workdir: Path) -> None:
    import mdsel

    backend = EmbeddedBackend(Settings())
    assert backend.run("index", None, ["guide.md"], [], []).exit_code == 0
    document = mdsel.parse_document((workdir / "guide.md").read_bytes())
    assert backend.cache.size_bytes == document.resident_bytes()
    assert backend.cache.size_bytes > 2 * len(document.data)


def test_embedded_block_limit(workdir: Path) -> None:
    backend = EmbeddedBackend(Settings(engine=EngineSettings(max_blocks=2)))
    outcome = backend.run("index", None, ["guide.md"], [], [])
    assert outcome.exit_code == 1
    assert "PARSE_ERROR: more than 2 blocks and headings" in outcome.stderr
    assert "MDSEL_MAX_BLOCKS" in outcome.stderr


# Unchanged files answered without being read again, and never a stale answer.

TRUST_AT_ONCE = 0
"""A racy window of nothing: a file is trusted as soon as it was read once after its last
change, so these tests reach the answers from the cache without waiting seconds."""

PURE_STAT = -(10**18)
"""A window that trusts every signature, however recent: a plain stat cache, for showing what
the racy rule prevents."""


def version(number: int) -> bytes:
    """The document's content at one rewrite: always the same size, a different heading."""
    return b"# Version %06d\n\nSame size every time.\n" % number


def rewrite(path: Path, data: bytes) -> None:
    """In place, as most editors' plain save does: same inode, same size, new content."""
    with path.open("r+b") as handle:
        handle.write(data)


def coarse_fstat(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the server see a file system that stamps changes to the whole second (ext3, HFS+,
    many network file systems): rewrites within one second keep mtime and ctime. Both `fstat`
    (of the file opened) and `stat` (of a name, before opening it) see the same stamps."""
    real_fstat, real_stat = os.fstat, os.stat

    def coarse(found: os.stat_result) -> os.stat_result:
        mtime = found.st_mtime_ns - found.st_mtime_ns % 1_000_000_000
        ctime = found.st_ctime_ns - found.st_ctime_ns % 1_000_000_000
        return os.stat_result(tuple(found), {"st_mtime_ns": mtime, "st_ctime_ns": ctime})

    def fstat(fd: int) -> os.stat_result:
        return coarse(real_fstat(fd))

    def stat(path: str, **options: object) -> os.stat_result:
        return coarse(real_stat(path, **options))  # type: ignore[arg-type]

    monkeypatch.setattr(os, "fstat", fstat)
    monkeypatch.setattr(os, "stat", stat)


def answers_after_rewrites(backend: EmbeddedBackend, path: Path, rewrites: int) -> list[int]:
    """Rewrite `path` again and again, each time asking for its title; the rewrites whose
    answer was not the content just written."""
    stale = []
    for number in range(rewrites):
        rewrite(path, version(number))
        outcome = backend.run("select", "h1.0", [path.name], [], [], str(path.parent))
        if f"# Version {number:06d}\n" not in outcome.stdout:
            stale.append(number)
    return stale


def test_rapid_same_size_rewrites_within_one_second_are_always_answered_fresh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hard case of a stat cache: every rewrite keeps inode, size, mtime and ctime (stamps
    to the second), so only the content tells. Each answer must be the content just written."""
    path = tmp_path / "notes.md"
    path.write_bytes(version(0))
    coarse_fstat(monkeypatch)
    backend = EmbeddedBackend(Settings())
    assert answers_after_rewrites(backend, path, 200) == []


def test_the_rewrite_test_catches_a_plain_stat_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same rewrites with every signature trusted: stale answers, so the test above would
    fail on a cache that trusted `fstat` alone."""
    path = tmp_path / "notes.md"
    path.write_bytes(version(0))
    coarse_fstat(monkeypatch)
    backend = EmbeddedBackend(Settings(), Freshness(racy_ns=PURE_STAT))
    assert answers_after_rewrites(backend, path, 200) != []


def test_rapid_rewrites_on_the_real_file_system_are_always_answered_fresh(tmp_path: Path) -> None:
    """Without a simulated clock: this file system's own stamps (a few milliseconds apart on
    most), in-place rewrites and atomic replacements alike."""
    path = tmp_path / "notes.md"
    path.write_bytes(version(0))
    backend = EmbeddedBackend(Settings())
    assert answers_after_rewrites(backend, path, 300) == []
    spare = tmp_path / "notes.md.new"
    for number in range(300):
        spare.write_bytes(version(number))
        os.replace(spare, path)
        outcome = backend.run("select", "h1.0", ["notes.md"], [], [], str(tmp_path))
        assert f"# Version {number:06d}\n" in outcome.stdout, number


def test_an_unchanged_file_is_answered_without_reading_it_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "guide.md"
    path.write_text(DOC_A)
    backend = EmbeddedBackend(Settings(), Freshness(racy_ns=TRUST_AT_ONCE))
    first = backend.run("select", "h2.0", ["guide.md"], [], [], str(tmp_path))
    reads: list[int] = []
    real_read = os.read

    def counted(fd: int, size: int) -> bytes:
        reads.append(size)
        return real_read(fd, size)

    monkeypatch.setattr(os, "read", counted)
    again = backend.run("select", "h2.0", ["guide.md"], [], [], str(tmp_path))
    assert again == first and backend.freshness.count == 1
    assert reads == []
    assert (backend.cache.misses, backend.cache.hits) == (1, 1)


@pytest.mark.parametrize("json_mode", [False, True], ids=["text", "json"])
def test_answers_from_the_cache_are_identical_to_answers_from_the_file(
    workdir: Path, json_mode: bool
) -> None:
    (workdir / "bom.md").write_bytes(b"\xef\xbb\xbf# With a BOM\r\n\r\nText.\r\n")
    (workdir / "alias.md").symlink_to("guide.md")
    settings = Settings(json=json_mode)
    calls = [
        ("index", None, ["guide.md", "b.markdown", "bom.md", "alias.md", "bad.md"]),
        ("select", "h2.0", ["guide.md", "alias.md"]),
        ("select", "bom::h1.0", ["bom.md", "guide.md"]),
        ("select", "h9.9", ["b.markdown"]),
    ]
    cached = EmbeddedBackend(settings, Freshness(racy_ns=TRUST_AT_ONCE))
    for command, selector, paths in calls:
        cached.run(command, selector, paths, [], [])
    hits, misses = cached.cache.hits, cached.cache.misses
    for command, selector, paths in calls:
        fresh = EmbeddedBackend(settings).run(command, selector, paths, [], [])
        answer = cached.run(command, selector, paths, [], [])
        assert TIMESTAMP.sub("", answer.stdout) == TIMESTAMP.sub("", fresh.stdout)
        assert (answer.stderr, answer.exit_code) == (fresh.stderr, fresh.exit_code)
    # Only bad.md is parsed again: a file that fails to parse is never kept.
    assert cached.cache.hits > hits and cached.cache.misses == misses + 1


def test_a_file_answered_from_the_cache_still_counts_against_the_call_budget(
    tmp_path: Path,
) -> None:
    (tmp_path / "a.md").write_bytes(b"# A\n\n" + b"alpha " * 100)
    (tmp_path / "b.md").write_bytes(b"# B\n\n" + b"beta " * 100)
    settings = Settings(engine=EngineSettings(max_total_bytes=1000))
    cached = EmbeddedBackend(settings, Freshness(racy_ns=TRUST_AT_ONCE))
    first = cached.run("index", None, ["a.md", "b.md"], [], [], str(tmp_path))
    again = cached.run("index", None, ["a.md", "b.md"], [], [], str(tmp_path))
    assert again == first
    assert "!b.md PROCESSING_ERROR: grew past the 1000 bytes" in first.stderr
    assert "a::h1.0 A" in first.stdout and "b::h1.0" not in first.stdout


def test_a_cached_file_swapped_for_a_link_out_is_refused_not_recalled(tmp_path: Path) -> None:
    """The policy judges the descriptor before the cache is asked: a name that now leads to a
    file the server may not read is refused, whatever was cached for it."""
    (tmp_path / "notes.md").write_text("# Notes\n")
    (tmp_path / "secret.txt").write_text("# Secret\n")
    cached = EmbeddedBackend(Settings(), Freshness(racy_ns=TRUST_AT_ONCE))
    assert "# Notes" in cached.run("select", "h1.0", ["notes.md"], [], [], str(tmp_path)).stdout
    (tmp_path / "notes.md").unlink()
    (tmp_path / "notes.md").symlink_to(tmp_path / "secret.txt")
    outcome = cached.run("select", "h1.0", ["notes.md"], [], [], str(tmp_path))
    assert outcome.exit_code == 1 and "Secret" not in outcome.stdout
    assert outcome.stderr.startswith("!notes.md PROCESSING_ERROR:")


def test_an_unchanged_name_is_answered_from_one_stat_without_opening_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "guide.md").write_text(DOC_A)
    backend = EmbeddedBackend(Settings(), Freshness(racy_ns=TRUST_AT_ONCE))
    backend.run("select", "h2.0", ["guide.md"], [], [], str(tmp_path))  # read, then trusted
    first = backend.run("select", "h2.0", ["guide.md"], [], [], str(tmp_path))
    opened: list[object] = []
    real_open = os.open

    def counted(path: str, flags: int, *rest: int, **options: object) -> int:
        opened.append(path)
        return real_open(path, flags, *rest, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", counted)
    assert backend.run("select", "h2.0", ["guide.md"], [], [], str(tmp_path)) == first
    assert opened == [] and backend.names.count == 1


def test_a_remembered_name_now_leading_elsewhere_is_judged_again(tmp_path: Path) -> None:
    """A name remembered for one file, then swapped for a link to another inside the roots,
    for a link out, or with a directory above it swapped: each answered from what it leads to
    now, never from what it led to."""
    roots = (str(tmp_path / "in"),)
    inside, outside = tmp_path / "in", tmp_path / "out"
    (inside / "real").mkdir(parents=True)
    (outside / "real").mkdir(parents=True)
    (inside / "real" / "notes.md").write_text("# First\n")
    (inside / "other.md").write_text("# Other\n")
    (outside / "real" / "notes.md").write_text("# Secret\n")
    (inside / "d").symlink_to("real")
    settings = Settings(roots=roots)
    backend = EmbeddedBackend(settings, Freshness(racy_ns=TRUST_AT_ONCE))

    def title(name: str) -> str:
        return backend.run("select", "h1.0", [name], [], [], str(inside)).stdout

    for _ in range(2):  # read, then answered from the name
        assert "# First" in title("d/notes.md")
    (inside / "d").unlink()
    (inside / "d").symlink_to(outside / "real")  # a directory above the file swapped
    outcome = backend.run("select", "h1.0", ["d/notes.md"], [], [], str(inside))
    assert "Secret" not in outcome.stdout and "MDSEL_ROOTS" in outcome.stderr
    (inside / "d").unlink()
    (inside / "d").symlink_to("real")
    assert "# First" in title("d/notes.md")
    (inside / "real" / "notes.md").unlink()
    (inside / "real" / "notes.md").symlink_to(inside / "other.md")  # the file itself swapped
    assert "# Other" in title("d/notes.md")


def test_a_touched_back_or_resized_file_is_read_again(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_bytes(version(1))
    cached = EmbeddedBackend(Settings(), Freshness(racy_ns=TRUST_AT_ONCE))
    cached.run("select", "h1.0", ["notes.md"], [], [], str(tmp_path))
    before = path.stat()
    rewrite(path, version(2))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # mtime put back; ctime moves
    outcome = cached.run("select", "h1.0", ["notes.md"], [], [], str(tmp_path))
    assert "# Version 000002" in outcome.stdout
    path.write_bytes(b"# Shorter\n")
    outcome = cached.run("select", "h1.0", ["notes.md"], [], [], str(tmp_path))
    assert "# Shorter" in outcome.stdout
