"""The README's console sample is what the commands print (on a vendored document)."""

from __future__ import annotations

import re
import shlex

from mdsel.cli import run
from tests.conftest import ROOT

SAMPLE = re.compile(r"^````console\n(.*?)^````$", re.MULTILINE | re.DOTALL)


def commands(text: str) -> list[tuple[list[str], str]]:
    """Each `$ mdsel …` line of the sample with the output shown under it."""
    found: list[tuple[list[str], str]] = []
    for block in SAMPLE.findall(text):
        for chunk in re.split(r"^\$ (?=mdsel )", block, flags=re.MULTILINE)[1:]:
            line, _, shown = chunk.partition("\n")
            found.append((shlex.split(line), shown.rstrip("\n") + "\n"))
    return found


def test_the_readme_sample_is_what_mdsel_prints() -> None:
    sample = commands((ROOT / "README.md").read_text(encoding="utf-8"))
    assert len(sample) >= 4
    for argv, shown in sample:
        assert argv[0] == "mdsel"
        outcome = run(argv[1:], {}, cwd=str(ROOT))
        printed = outcome.stdout + outcome.stderr
        if shown.endswith("…\n"):  # the sample shows the first lines only
            assert printed.startswith(shown[: -len("…\n")]), argv
        else:
            assert printed == shown, argv
