"""The installed package the e2e suite runs: its version, its data files, and which copy it is.

scripts/test.sh points MDSEL_TEST_BIN_DIR at a fresh venv holding only the built wheel, so these
checks then prove the wheel ships what a user needs; without it they check the dev install.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import jsonschema

from mdsel import __version__
from mdsel.schema import load_schema
from tests.conftest import BIN, FIXTURES, ROOT

PROBE = """\
import json, pathlib, mdsel, mdsel_claude
from mdsel.schema import schema_path
packages = [pathlib.Path(m.__file__).parent for m in (mdsel, mdsel_claude)]
print(json.dumps({
    "version": mdsel.__version__,
    "packages": [str(p) for p in packages],
    "typed": [(p / "py.typed").is_file() for p in packages],
    "schema": schema_path().read_text(encoding="utf-8"),
}))
"""


def run(*argv: str) -> str:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=True)
    return done.stdout


def test_versions_agree() -> None:
    assert run(str(BIN / "mdsel"), "--version") == f"mdsel {__version__}\n"
    assert run(str(BIN / "mdsel-claude"), "--version") == f"mdsel-claude {__version__}\n"
    manifest = ROOT / "plugin" / ".claude-plugin" / "plugin.json"
    plugin = json.loads(manifest.read_text(encoding="utf-8"))
    assert plugin["version"] == __version__


def test_the_package_ships_its_schema_and_type_markers() -> None:
    probe = json.loads(run(str(BIN / "python"), "-c", PROBE))
    assert probe["version"] == __version__
    assert probe["typed"] == [True, True]
    assert json.loads(probe["schema"]) == load_schema()
    if os.environ.get("MDSEL_TEST_BIN_DIR"):
        # The copy under test is the installed wheel, not the source tree.
        assert all(not Path(p).is_relative_to(ROOT / "src") for p in probe["packages"])


def test_installed_json_output_matches_the_shipped_schema() -> None:
    output = run(str(BIN / "mdsel"), "index", "--json", str(FIXTURES / "structure.md"))
    jsonschema.validate(json.loads(output), load_schema())
