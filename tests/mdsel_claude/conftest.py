"""Fixtures for the hook's tests: `mdsel-claude hook` run in-process on a payload."""

from __future__ import annotations

import io
import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from mdsel_claude import hook

RunHook = Callable[..., tuple[int, str, str]]
"""`run_hook(stdin, *args)`: (exit status, stdout, stderr) of `mdsel-claude hook ARGS`."""


@pytest.fixture
def run_hook(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> Iterator[RunHook]:
    """Call `hook.main` with `stdin` (bytes, text, or a value sent as JSON), with no MDSEL_*
    variable of the environment in the way."""
    monkeypatch.delenv("MDSEL_MIN_WORDS", raising=False)
    monkeypatch.delenv("MDSEL_HOOK_MODE", raising=False)

    def run(stdin: bytes | str | object, *args: str) -> tuple[int, str, str]:
        if not isinstance(stdin, (bytes, str)):
            stdin = json.dumps(stdin)
        data = stdin.encode() if isinstance(stdin, str) else stdin
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
        capfd.readouterr()
        status = hook.main(list(args))
        out, err = capfd.readouterr()
        return status, out, err

    yield run


def words(n: int) -> str:
    return " ".join(f"w{i}" for i in range(n)) + "\n"


GUIDE = "# Guide\n\nIntro.\n\n## Install\n\n" + words(150) + "\n## Use\n\n" + words(150)


@pytest.fixture
def files(tmp_path: Path) -> Path:
    """Files a read may name: Markdown large and small, a large text file, a link to each kind,
    a directory and a FIFO with Markdown names, a binary file."""
    (tmp_path / "guide.md").write_text(GUIDE)
    (tmp_path / "small.md").write_text(words(10))
    (tmp_path / "big.txt").write_text(words(500))
    (tmp_path / "BIG.MARKDOWN").write_text(words(500))
    (tmp_path / "secret.txt").write_text(words(500))
    (tmp_path / "link-to-txt.md").symlink_to("secret.txt")
    (tmp_path / "link.md").symlink_to("guide.md")
    (tmp_path / "dir.md").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "deep.md").write_text(words(300))
    os.mkfifo(tmp_path / "fifo.md")
    (tmp_path / "binary.md").write_bytes(b"\0" + words(500).encode())
    return tmp_path
