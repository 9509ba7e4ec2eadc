"""The vendored test data: complete, as the manifest describes it, with each source's licence."""

from __future__ import annotations

import json
import re

from tests.conftest import (
    COMMONMARK,
    CORPUS,
    MARKDOWN_SUFFIXES,
    ROOT,
    SHARED_CORPUS,
    corpus_manifest,
)

SPDX_ID = re.compile(r"\b(MIT|Apache-2\.0|BSD-[23]-Clause|CC0-1\.0|CC-BY-4\.0)\b")


def test_every_manifest_row_is_vendored_byte_for_byte() -> None:
    rows = corpus_manifest()
    assert len(rows) == 16
    for row in rows:
        data = (CORPUS / row["name"]).read_bytes()
        assert len(data) == int(row["bytes"]), row["name"]
        assert row["repo"].count("/") == 1 and re.fullmatch(r"[0-9a-f]{40}", row["commit"])


def test_every_vendored_document_is_in_the_manifest() -> None:
    listed = {row["name"] for row in corpus_manifest()}
    present = {p.name for p in CORPUS.iterdir() if p.suffix in MARKDOWN_SUFFIXES}
    assert present - listed == {"README.md"}


def test_every_licence_named_has_its_text_and_every_document_its_attribution() -> None:
    readme = (CORPUS / "README.md").read_text(encoding="utf-8")
    for row in corpus_manifest():
        licences = SPDX_ID.findall(row["license"])
        assert licences, row
        for licence in licences:
            assert (CORPUS / "LICENSES" / f"{licence}.txt").is_file(), licence
        assert f"`{row['name']}`" in readme and row["repo"] in readme, row["name"]


def test_line_endings_survive_checkout() -> None:
    # .gitattributes keeps these bytes as they are; a CRLF or BOM lost here weakens the suite.
    assert b"\r\n" in (CORPUS / "fpb_contributing_kn_crlf.md").read_bytes()
    assert (CORPUS / "fpb_zh_bom.md").read_bytes().startswith(b"\xef\xbb\xbf")


def test_commonmark_examples_and_their_licence() -> None:
    examples = json.loads((COMMONMARK / "commonmark.json").read_text(encoding="utf-8"))
    assert len(examples) == 652 and examples[-1]["example"] == 652
    spec = (COMMONMARK / "spec.md").read_text(encoding="utf-8")
    assert "version: '0.31.2'" in spec and "CC-BY-SA 4.0" in spec
    licence = (COMMONMARK / "LICENSE-CC-BY-SA-4.0.txt").read_text(encoding="utf-8")
    assert licence.startswith("Attribution-ShareAlike 4.0 International")


def _tool_blocks(text: str) -> dict[str, list[str]]:
    sections = re.split(r"^## Tool: ", text, flags=re.MULTILINE)[1:]
    fence = re.compile(r"^```[a-z]*\n(.*?)\n```$", flags=re.MULTILINE | re.DOTALL)
    return {part.split("\n", 1)[0].strip(): fence.findall(part)[:2] for part in sections}


def test_tool_descriptions_agree_with_the_design_notes_when_present() -> None:
    vendored = _tool_blocks((ROOT / "tests" / "cases" / "tool_descriptions.md").read_text())
    assert sorted(vendored) == ["mdsel_index", "mdsel_select"]
    seed = SHARED_CORPUS.parent / "seeds" / "002_033d7565e1c0fbce.txt"
    if seed.is_file():  # an extra check beside a checkout that has the design notes
        assert _tool_blocks(seed.read_text(encoding="utf-8")) == vendored
