"""Reading one file: the byte cap, and a Problem for everything that is not a readable file."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from mdsel.read import FileReadError, read_bytes


def test_unreadable_file_is_a_clear_processing_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "secret.md"
    path.write_text("# S\n")
    real_open = os.open

    def denied(file: str, flags: int, *args: int) -> int:
        if str(file).endswith("secret.md"):
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_open(file, flags, *args)

    # Running as root, chmod cannot make a file unreadable; refuse the open itself instead.
    monkeypatch.setattr(os, "open", denied)
    with pytest.raises(FileReadError) as info:
        read_bytes(str(path), 1000)
    assert info.value.problem.code == "EACCES"
    assert "permission denied" in info.value.problem.message


def test_reads_refuse_what_is_not_a_regular_file(tmp_path: Path) -> None:
    with pytest.raises(FileReadError) as info:
        read_bytes(str(tmp_path), 1000)
    assert info.value.problem.code == "EISDIR"
    with pytest.raises(FileReadError) as info:
        read_bytes("/dev/null", 1000)
    assert info.value.problem.code == "NOT_REGULAR"
    with pytest.raises(FileReadError) as info:
        read_bytes(str(tmp_path / "missing.md"), 1000)
    assert info.value.problem.type == "FILE_NOT_FOUND"


def test_read_cap(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_bytes(b"x" * 11)
    assert read_bytes(str(path), 11) == b"x" * 11
    with pytest.raises(FileReadError) as info:
        read_bytes(str(path), 10)
    assert info.value.problem.code == "TOO_LARGE"


def test_a_missing_path_under_tilde_says_that_tilde_is_not_expanded(tmp_path: Path) -> None:
    from mdsel.cli import run

    out = run(["index", "~/no-such-notes.md"], {}, str(tmp_path))
    assert out.exit_code == 1
    assert "`~` is not expanded" in out.stderr and "FILE_NOT_FOUND" in out.stderr
    plain = run(["index", "no-such-notes.md"], {}, str(tmp_path))
    assert "`~`" not in plain.stderr


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="needs /proc")
def test_a_limit_far_above_memory_reads_in_bounded_steps() -> None:
    """MDSEL_MAX_BYTES of 18 digits: a file whose size says 0 but holds text (as /proc's do)
    is read on to its end, never by asking for the limit's bytes at once."""
    data = read_bytes("/proc/self/status", 10**18 - 1)
    assert data.startswith(b"Name:")


def test_standard_input_under_a_limit_far_above_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import sys

    class Stdin:
        buffer = io.BytesIO(b"# T\n\nhello\n")

    monkeypatch.setattr(sys, "stdin", Stdin())
    assert read_bytes("-", 10**18 - 1) == b"# T\n\nhello\n"
