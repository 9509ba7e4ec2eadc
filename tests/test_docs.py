"""The documentation: links stay inside the repository, examples are what mdsel prints."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mdsel.cli import run as cli_run
from tests.conftest import ROOT

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
CODE = re.compile(r"^(`{3,}|~{3,}).*?^\1$|`[^`\n]+`", re.MULTILINE | re.DOTALL)
"""Fenced code and code spans: a link written there is an example, not a link."""


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_links_point_at_files_in_the_repository(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    assert "../shared" not in text
    for target in LINK.findall(CODE.sub("", text)):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = (doc.parent / target.split("#")[0]).resolve()
        assert path.is_relative_to(ROOT) and path.exists(), f"{doc.name}: {target}"


def test_spec_index_example_is_what_mdsel_prints(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "spec.md").read_text(encoding="utf-8")
    source = re.search(r"^````markdown\n(.*?)^````$", text, re.MULTILINE | re.DOTALL)
    printed = re.search(r"^it prints:\n\n```\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)
    assert source is not None and printed is not None
    (tmp_path / "guide.md").write_text(source[1], encoding="utf-8")
    assert cli_run(["index", "guide.md"], {}, cwd=str(tmp_path)).stdout == printed[1]
