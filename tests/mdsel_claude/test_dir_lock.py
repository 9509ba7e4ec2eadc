"""The directory lock: held inside, on the directory itself (no file left), let go on failure,
waited for by a second holder, and skipped where flock is missing."""

from __future__ import annotations

import fcntl
import os
import sys
import threading
from pathlib import Path

import pytest

from mdsel_claude import dir_lock


def snapshot(root: Path) -> dict[str, bytes | None]:
    """Every file's bytes and every folder (None) under `root`."""
    return {
        str(p.relative_to(root)): None if p.is_dir() else p.read_bytes() for p in root.rglob("*")
    }


def locked(directory: Path) -> bool:
    """Whether someone holds the lock on `directory` (tried without waiting, then let go)."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def test_the_lock_is_held_inside_and_leaves_no_file(tmp_path: Path) -> None:
    before = snapshot(tmp_path)
    assert not locked(tmp_path)
    with dir_lock.exclusive(tmp_path):
        assert locked(tmp_path)
        assert snapshot(tmp_path) == before  # no lock file: the directory itself is locked
    assert not locked(tmp_path)
    assert snapshot(tmp_path) == before


def test_the_lock_is_let_go_when_the_command_fails(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError), dir_lock.exclusive(tmp_path):
        raise RuntimeError("a step failed")
    assert not locked(tmp_path)


def test_a_second_run_waits_for_the_first_instead_of_running_beside_it(tmp_path: Path) -> None:
    entered = threading.Event()
    order: list[str] = []

    def second() -> None:
        with dir_lock.exclusive(tmp_path):
            order.append("second")
            entered.set()

    with dir_lock.exclusive(tmp_path):
        thread = threading.Thread(target=second)
        thread.start()
        assert not entered.wait(0.5)  # blocked, not refused, while the first holds it
        order.append("first done")
    assert entered.wait(10)
    thread.join(10)
    assert order == ["first done", "second"]


def test_without_flock_the_command_runs_unlocked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "fcntl", None)  # as on Windows: `import fcntl` fails
    ran = False
    with dir_lock.exclusive(tmp_path / "not-even-there"):  # never opened
        ran = True
    assert ran
