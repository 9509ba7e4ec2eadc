"""Tests for server.backend: the backend choice, and both backends giving the same answers."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from mdsel_claude.server.backend import make_backend
from mdsel_claude.server.config import Settings
from mdsel_claude.server.embedded import EmbeddedBackend
from mdsel_claude.server.external import ExternalBackend
from tests.mdsel_claude.server.conftest import problems

MDSEL = Path(sys.executable).with_name("mdsel")
TIMESTAMP = re.compile(r'"timestamp": "[^"]*"')


def test_backend_choice(fake_mdsel: str) -> None:
    assert isinstance(make_backend(Settings()), EmbeddedBackend)
    external = make_backend(Settings(bin=fake_mdsel, json=True))
    assert isinstance(external, ExternalBackend)
    assert (external.executable, external.json) == (fake_mdsel, True)


CASES = [
    ("index", None, ["guide.md"]),
    ("index", None, ["guide.md", "b.markdown"]),
    ("index", None, ["guide.md", "bad.md"]),
    ("select", "h2.0", ["guide.md"]),
    ("select", "h2.0/code.0,h2.1", ["guide.md"]),
    ("select", "h2.9", ["guide.md"]),
    ("select", "h2.0?bogus=1", ["guide.md"]),
    ("select", "b::h2.0", ["guide.md", "b.markdown"]),
    ("select", "-h", ["guide.md"]),
]


@pytest.mark.parametrize("json_mode", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("reports", [False, True], ids=["plain", "with-reports"])
@pytest.mark.parametrize(("command", "selector", "paths"), CASES)
def test_external_own_mdsel_equals_embedded(
    workdir: Path,
    command: str,
    selector: str | None,
    paths: list[str],
    json_mode: bool,
    reports: bool,
) -> None:
    settings = Settings(json=json_mode)
    found = problems() if reports else []
    warnings = ["warning: only the first 2 files were read (MDSEL_MAX_FILES)"] if reports else []
    embedded = EmbeddedBackend(settings).run(command, selector, paths, found, warnings)
    external = ExternalBackend(str(MDSEL), json_mode).run(command, selector, paths, found, warnings)
    assert external.exit_code == embedded.exit_code
    assert TIMESTAMP.sub("", external.stdout) == TIMESTAMP.sub("", embedded.stdout)
    assert external.stderr == embedded.stderr
    if json_mode:
        body = json.loads(embedded.stdout)
        assert embedded.stderr == ""
        assert body["success"] is (embedded.exit_code == 0)
