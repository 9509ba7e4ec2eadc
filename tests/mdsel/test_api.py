"""The public API: exported names, run_command as the CLI prints, and no MCP anywhere."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import mdsel
from mdsel.cli import run
from tests.conftest import FIXTURES


def test_exported_names_exist() -> None:
    for name in mdsel.__all__:
        assert hasattr(mdsel, name), name


def test_run_command_is_what_the_cli_prints() -> None:
    path = str(FIXTURES / "structure.md")
    for argv in (["index", path], ["select", "h2.1,h9.0", path], ["index", path, "--json"]):
        json_mode = "--json" in argv
        selector = argv[1] if argv[0] == "select" else None
        files = [a for a in argv[1:] if a.endswith(".md")]
        direct = mdsel.run_command(argv[0], selector, files, mdsel.Options(json=json_mode))
        via_cli = run(argv, {})
        if json_mode:
            assert direct.stdout.split('"timestamp"')[0] == via_cli.stdout.split('"timestamp"')[0]
        else:
            assert direct == via_cli


def test_a_parse_cache_is_used_when_given(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_bytes(b"# A\n")
    seen: list[bytes] = []

    def parse(data: bytes) -> mdsel.Document:
        seen.append(data)
        return mdsel.parse_document(data)

    mdsel.run_command("index", None, [str(path)], parse=parse)
    assert seen == [b"# A\n"]


def test_the_engine_never_imports_mcp_or_typing_when_indexing() -> None:
    script = (
        "import sys, mdsel\n"
        f"mdsel.run_command('index', None, [{str(FIXTURES / 'structure.md')!r}])\n"
        f"mdsel.run_command('select', 'h2.1', [{str(FIXTURES / 'structure.md')!r}])\n"
        "roots = ('mcp', 'pydantic', 'mdsel_claude', 'typing')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in roots))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"
