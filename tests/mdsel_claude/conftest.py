"""Fixtures for the hook's tests: `mdsel-claude hook` run in-process on a payload."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable, Iterator

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
