"""mdsel_claude.__main__: the command dispatcher's own options."""

from __future__ import annotations

import pytest

from mdsel import __version__
from mdsel_claude.__main__ import main


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version(flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([flag]) == 0
    assert capsys.readouterr() == (f"mdsel-claude {__version__}\n", "")


def test_help_names_every_command_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for word in ("serve", "hook", "install", "uninstall", "doctor", "--version"):
        assert word in out


def test_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["frobnicate"]) == 2
    assert "unknown command 'frobnicate'" in capsys.readouterr().err
