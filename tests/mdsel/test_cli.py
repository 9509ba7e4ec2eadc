"""The `mdsel` command in-process: exit codes, text formats, stderr form, JSON envelopes valid
against the published schema; plus one real subprocess run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from mdsel.cli import main, run
from mdsel.results import Outcome
from mdsel.schema import load_schema
from tests.answers import body
from tests.conftest import FIXTURES, corpus_files

SCHEMA = load_schema()
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
STRUCTURE = str(FIXTURES / "structure.md")
NAMED = f"'structure' ({STRUCTURE})"
"""How prose names it: the namespace quoted, then the path (never a bare word)."""


def cli(*argv: str, env: dict[str, str] | None = None, cwd: str | None = None) -> Outcome:
    outcome = run(list(argv), env or {}, cwd)
    if "--json" in argv and outcome.exit_code != 2:
        assert outcome.stderr == ""
        body = json.loads(outcome.stdout)
        VALIDATOR.validate(body)
        assert body["success"] == (outcome.exit_code == 0)
    return outcome


APPENDIX = f"==> {STRUCTURE} h1.1 Structure fixture › Appendix L74-76 <==\n"


def test_select_one_match_prints_its_header_and_its_text() -> None:
    out = cli("select", "h1.1", STRUCTURE)
    assert out == Outcome(APPENDIX + "# Appendix\n\nLast words.\n", "", 0)


def test_select_several_matches_get_headers() -> None:
    out = cli("select", "h2.0/code.0,h1.1", STRUCTURE)
    assert out.exit_code == 0
    assert out.stdout == (
        f"==> {STRUCTURE} code.0 Structure fixture › Guide › Install L16-18 <==\n"
        "```sh\npip install thing\n```\n"
        f"{APPENDIX}# Appendix\n\nLast words.\n"
    )


def test_text_without_final_newline_gets_one(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_bytes(b"# A\n\nend")
    assert cli("select", "h1.0", str(path)).stdout == f"==> {path} h1.0 A L1-3 <==\n# A\n\nend\n"
    body = json.loads(cli("select", "h1.0", str(path), "--json").stdout)
    assert body["data"]["matches"][0]["content"] == "# A\n\nend"


def test_crlf_is_preserved_in_output(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_bytes(b"# A\r\n\r\ntext\r\n")
    assert body(cli("select", "h1.0", str(path)).stdout) == "# A\r\n\r\ntext\r\n"


def test_index_text_format() -> None:
    out = cli("index", STRUCTURE)
    assert out.exit_code == 0 and out.stderr == ""
    lines = out.stdout.splitlines()
    # One document: no namespace or path (the caller named it; selectors are unqualified).
    assert lines[0] == "76 lines 153 words; para 8 code 1 list 3 table 1 quote 2"
    # selector, title, start line, section words; the span ends where the next line at the
    # same or a shallower indentation starts.
    assert lines[1] == "h1.0 Guide 8 136"
    assert lines[2] == "  h2.0 Install 12 43"
    assert lines[5] == "      h4.0 Deep 51 4"
    assert len(lines) == 1 + 8  # the header, then every heading


def test_index_header_lists_only_the_block_kinds_present(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A\n\ntext\n\n    code\n")
    (tmp_path / "b.md").write_text("# B\n")
    assert (
        cli("index", "a.md", cwd=str(tmp_path)).stdout
        == "5 lines 4 words; para 1 code 1\nh1.0 A 1 4\n"
    )
    assert cli("index", "b.md", cwd=str(tmp_path)).stdout == "1 lines 2 words\nh1.0 B 1 2\n"


def test_index_of_several_documents_qualifies_selectors(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("# R\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "readme.md").write_text("# S\n")
    out = cli("index", "README.md", "sub/readme.md", cwd=str(tmp_path))
    assert out.stdout.splitlines() == [
        "readme README.md 1 lines 2 words",
        "readme::h1.0 R 1 2",
        "",
        "readme-2 sub/readme.md 1 lines 2 words",
        "readme-2::h1.0 S 1 2",
    ]
    out = cli("select", "readme-2::h1.0", "README.md", "sub/readme.md", cwd=str(tmp_path))
    assert out.stdout == "==> sub/readme.md readme-2::h1.0 S L1-1 <==\n# S\n"


def test_errors_go_to_stderr_in_bang_form_and_exit_1() -> None:
    out = cli("select", "h2.9", STRUCTURE)
    assert out.stdout == ""
    assert out.exit_code == 1
    first, second = out.stderr.splitlines()
    assert first == f"!h2.9 SELECTOR_NOT_FOUND: index 9 out of range: {NAMED} has 4 h2 headings"
    assert second.startswith("~h2.3 (Install)")


def test_invalid_selector_fails_the_whole_request() -> None:
    out = cli("select", "h2.0,h2.#", STRUCTURE)
    assert out.stdout == "" and out.exit_code == 1
    assert out.stderr.splitlines()[0] == (
        "!h2.0,h2.# INVALID_SELECTOR: unexpected '#', expected an index (0, 1, 2…) at column 9"
    )


def test_title_suggestions() -> None:
    out = cli("select", "install", STRUCTURE)
    assert out.exit_code == 1
    assert out.stderr.splitlines()[1].startswith("~h2.0 (Install) ~h2.3 (Install)")


def test_partial_results_are_printed_with_exit_1() -> None:
    out = cli("select", "h1.1,h5.0", STRUCTURE)
    assert out.stdout == APPENDIX + "# Appendix\n\nLast words.\n"
    assert out.stderr.startswith(f"!h5.0 SELECTOR_NOT_FOUND: {NAMED} has no h5 headings")
    assert out.exit_code == 1


def test_missing_file_is_reported_and_others_still_work(tmp_path: Path) -> None:
    out = cli("index", STRUCTURE, str(tmp_path / "missing.md"))
    assert out.exit_code == 1
    assert "structure::h1.0 Guide" not in out.stdout  # one document read: unqualified
    assert "h1.0 Guide" in out.stdout
    assert (
        out.stderr == f"!{tmp_path / 'missing.md'} FILE_NOT_FOUND: no such file; check the path\n"
    )


@pytest.mark.parametrize(
    ("content", "error"),
    [
        (b"# A\n\xff\xfe\n", "PARSE_ERROR: invalid UTF-8 at byte offset 4"),
        (b"# A\n\x00\n", "PARSE_ERROR: NUL byte (binary file?) at byte offset 4"),
    ],
)
def test_bad_bytes_are_parse_errors(tmp_path: Path, content: bytes, error: str) -> None:
    path = tmp_path / "bad.md"
    path.write_bytes(content)
    out = cli("index", str(path))
    assert out.exit_code == 1 and out.stdout == ""
    assert out.stderr.startswith(f"!{path} {error}")
    cli("index", str(path), "--json")


def test_directory_expands_to_markdown_files(tmp_path: Path) -> None:
    (tmp_path / "docs" / "deep").mkdir(parents=True)
    (tmp_path / "docs" / "b.md").write_text("# B\n")
    (tmp_path / "docs" / "a.markdown").write_text("# A\n")
    (tmp_path / "docs" / "deep" / "c.md").write_text("# C\n")
    (tmp_path / "docs" / "notes.txt").write_text("# no\n")
    (tmp_path / "docs" / ".hidden.md").write_text("# no\n")
    (tmp_path / "docs" / "node_modules").mkdir()
    (tmp_path / "docs" / "node_modules" / "x.md").write_text("# no\n")
    out = cli("index", "docs", cwd=str(tmp_path))
    headers = [line.split(" ")[1] for line in out.stdout.splitlines() if " lines " in line]
    assert headers == ["docs/a.markdown", "docs/b.md", "docs/deep/c.md"]


def test_our_lines_after_text_of_lone_cr_endings_start_a_line_of_their_own(
    tmp_path: Path,
) -> None:
    """A file of CR line endings: its lines come back as they are, and a header, trailer or
    listing that follows one starts after a line break (not after the CR alone)."""
    (tmp_path / "cr.md").write_bytes(b"# A\rone\r# B\rtwo\r")
    out = cli("select", "h1.0", "cr.md", cwd=str(tmp_path))
    assert out.stdout == "==> cr.md h1.0 A L1-2 <==\n# A\rone\r"  # nothing of ours after it
    out = cli("select", "h1.0,h1.1", "cr.md", cwd=str(tmp_path))
    assert out.stdout == (
        "==> cr.md h1.0 A L1-2 <==\n# A\rone\r\n==> cr.md h1.1 A › B L3-4 <==\n# B\rtwo\r"
    )
    out = cli("select", "h1.0?head=1", "cr.md", cwd=str(tmp_path))
    assert out.stdout.endswith("# A\r\n[head=1: 1 of h1.0's 2 lines; the rest: L2-2]\n")


def test_glob_patterns(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "x.md").write_text("# X\n")
    (tmp_path / "d" / "y.md").write_text("# Y\n")
    out = cli("select", "h1.0", "d/*.md", cwd=str(tmp_path))
    assert out.stdout == "==> d/x.md x::h1.0 X L1-1 <==\n# X\n==> d/y.md y::h1.0 Y L1-1 <==\n# Y\n"
    out = cli("index", "nothing/*.md", cwd=str(tmp_path))
    assert out.stderr == "!nothing/*.md FILE_NOT_FOUND: no file matches this pattern\n"


def test_fifo_is_refused_without_hanging(tmp_path: Path) -> None:
    fifo = tmp_path / "x.md"
    os.mkfifo(fifo)
    out = cli("index", str(fifo))
    assert out.exit_code == 1
    assert "PROCESSING_ERROR: not a regular file" in out.stderr


def test_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.md"
    path.write_text("word " * 100)
    out = cli("index", str(path), env={"MDSEL_MAX_BYTES": "100"})
    assert "PROCESSING_ERROR: file is 500 bytes; the limit is 100 (MDSEL_MAX_BYTES)" in out.stderr


def test_max_files_leaves_out_with_a_warning(tmp_path: Path) -> None:
    for name in "abc":
        (tmp_path / f"{name}.md").write_text(f"# {name}\n")
    out = cli("index", str(tmp_path), env={"MDSEL_MAX_FILES": "2"})
    assert out.stdout.startswith("warning: only the first 2 files were read (MDSEL_MAX_FILES)")
    assert "c.md" in out.stdout.splitlines()[0]
    assert out.exit_code == 0


def test_names_left_out_are_shown_as_written_but_control_characters(tmp_path: Path) -> None:
    """The warning names paths the reader can name again: `指南/`, `ü/` as written (not
    `\\u6307\\u5357/`), a line break escaped so it forges no line."""
    for folder in ("a", "ü", "指南"):
        (tmp_path / folder).mkdir()
    (tmp_path / "a" / "a.md").write_text("# a\n")
    (tmp_path / "ü" / "ñ.md").write_text("# n\n")
    (tmp_path / "指南" / "页面.md").write_text("# z\n")
    (tmp_path / "指南" / "z\nb.md").write_text("# b\n")
    warning = cli("index", str(tmp_path), env={"MDSEL_MAX_FILES": "1"}).stdout.splitlines()[0]
    assert "ü/ñ.md" in warning and "指南/页面.md" in warning and "指南/z\\nb.md" in warning
    many = tmp_path / "many"
    for folder in ("ü", "指南"):
        (many / folder).mkdir(parents=True)
        for n in range(6):
            (many / folder / f"p{n}.md").write_text("# p\n")
    warning = cli("index", str(many), env={"MDSEL_MAX_FILES": "1"}).stdout.splitlines()[0]
    assert "/ü/ 5" in warning and "/指南/ 6" in warning


def test_an_index_of_several_documents_escapes_control_characters_in_paths(
    tmp_path: Path,
) -> None:
    """Each document's first line names its path on that one line, as the map does."""
    (tmp_path / "new\nline.md").write_text("# NL\n")
    (tmp_path / "e\x1bred.md").write_text("# ESC\n")
    out = cli("index", str(tmp_path)).stdout
    assert "new\\nline.md 1 lines 2 words" in out and "e\\x1bred.md 1 lines" in out
    assert "\x1b" not in out and not any(line.startswith("line.md") for line in out.splitlines())


@pytest.mark.parametrize(
    "variable", ["MDSEL_PAGE_WORDS", "MDSEL_MAX_FILES", "MDSEL_INDEX_MAX_HEADINGS"]
)
@pytest.mark.parametrize("value", ["abc", "0", "-3", "1.5"])
def test_invalid_configuration_is_a_usage_error_naming_the_variable(
    variable: str, value: str
) -> None:
    out = cli("index", STRUCTURE, env={variable: value})
    assert out.exit_code == 2
    assert variable in out.stderr


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["index"],
        ["select", "h1.0"],
        ["frobnicate", "x.md"],
        ["index", "--bogus", "x.md"],
    ],
)
def test_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert "usage:" in capsys.readouterr().err


def test_help_teaches_the_selector_language(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["select", "--help"]) == 0
    text = capsys.readouterr().out
    for example in ("h2.1/code.0", "readme::h2.0", "?head=20", "toc=true", "h2.0-2"):
        assert example in text
    for form in ("L812", "L800-850", "#installation", "README.md#installation", "L812/code.0"):
        assert form in text, form
    assert main(["index", "--help"]) == 0
    assert "selector, title, start line, words of the section" in capsys.readouterr().out
    assert main(["--version"]) == 0


def test_full_flag_and_pagination(tmp_path: Path) -> None:
    path = tmp_path / "long.md"
    lines = "".join(f"line {i} " + "word " * 8 + "\n" for i in range(100))
    path.write_text("# Long\n\n" + lines)
    env = {"MDSEL_PAGE_WORDS": "100"}
    out = cli("select", "h1.0", str(path), env=env)
    header, *text, trailer = out.stdout.splitlines()
    assert header == f"==> {path} h1.0 Long L1-11 <=="
    assert trailer == "[page 1/11 of h1.0: 92 of 1002 words; next: h1.0?page=2]"
    assert len(text) == 11
    last = cli("select", "h1.0?page=11", str(path), env=env).stdout
    assert last.splitlines()[-1] == "[page 11/11 of h1.0: 10 of 1002 words; the last page]"
    assert body(cli("select", "h1.0", str(path), "--full", env=env).stdout) == path.read_text()
    whole = cli("select", "h1.0?full=true", str(path), env=env).stdout
    assert whole == f"==> {path} h1.0?full=true Long L1-102 <==\n" + path.read_text()
    beyond = cli("select", "h1.0?page=12", str(path), env=env)
    assert beyond.stderr.startswith("!h1.0?page=12 SELECTOR_NOT_FOUND: page 12 out of range")
    body_json = json.loads(cli("select", "h1.0?page=2", str(path), "--json", env=env).stdout)
    assert body_json["data"]["matches"][0]["pagination"] == {
        "page": 2,
        "total_pages": 11,
        "words": 100,
        "total_words": 1002,
        "next": "long::h1.0?page=3",
    }


def test_response_budget_lists_what_did_not_fit(tmp_path: Path) -> None:
    path = tmp_path / "many.md"
    path.write_text("".join(f"# H{i}\n\n" + "word " * 40 + "\n\n" for i in range(5)))
    out = cli("select", "h1", str(path), env={"MDSEL_PAGE_WORDS": "100"})
    assert out.stdout.count("==> ") == 2
    assert out.stdout.splitlines()[-1].startswith("[+3 more matches not shown: h1.2-4;")


def test_head_and_tail(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_text("# A\n1\n2\n3\n4\n")
    assert body(cli("select", "h1.0?head=2", str(path)).stdout) == "# A\n1\n"
    assert body(cli("select", "h1.0?tail=2", str(path)).stdout) == "3\n4\n"


def test_outline_budget_collapses_depths(tmp_path: Path) -> None:
    path = tmp_path / "wide.md"
    text = "".join(f"# T{i}\n\n" + "".join(f"## S{i}.{j}\n\n" for j in range(4)) for i in range(10))
    path.write_text(text)
    out = cli("index", str(path), env={"MDSEL_INDEX_MAX_HEADINGS": "20"}).stdout.splitlines()
    # Every h1 fits; the room left shows the first h2s in document order.
    assert out[1:4] == ["h1.0 T0 1 10", "  h2.0 S0.0 3 2", "  h2.1 S0.1 5 2"]
    assert "h1.2 T2 21 10 +2" in out
    assert "h1.3 T3 31 10 +4" in out
    assert "… +30 more: h2.10-39" in out
    assert out[-1] == (
        "[showing 20 of 50 headings; a heading's +N: headings inside it not shown; expand one "
        "with h1.2?toc=true, or use --full]"
    )
    toc = cli("select", "h1.3?toc=true", str(path), env={"MDSEL_INDEX_MAX_HEADINGS": "20"})
    assert body(toc.stdout).splitlines() == ["h1.3 T3 31 10"] + [
        f"  h2.{12 + j} S3.{j} {33 + 2 * j} 2" for j in range(4)
    ]
    top = cli("index", str(path), env={"MDSEL_INDEX_MAX_HEADINGS": "4"}).stdout.splitlines()
    assert "… +6 more: h1.4-9 (+24 inside them)" in top
    full = cli("index", str(path), "--full", env={"MDSEL_INDEX_MAX_HEADINGS": "4"}).stdout
    assert full.count("\n") == 1 + 50  # the header, then all 50 headings


def test_json_index_envelope() -> None:
    body = json.loads(cli("index", STRUCTURE, "--json").stdout)
    (document,) = body["data"]["documents"]
    assert document["namespace"] == "structure"
    assert document["blocks"] == {
        "paragraphs": 8, "code_blocks": 1, "lists": 3, "tables": 1, "blockquotes": 2,
    }  # fmt: skip
    first = document["headings"][0]
    assert first["selector"] == "structure::h1.0"
    assert first["type"] == "heading:h1" and first["depth"] == 1
    assert first["children_count"] == 4 + 1  # four h2 subsections, one paragraph before them
    assert body["data"]["summary"]["total_nodes"] == 1 + 8 + 15


def test_json_index_says_which_sections_come_in_pages(tmp_path: Path) -> None:
    """`section_truncated` is what a select of the section does: over the page's words, or
    over its share of the answer's bytes (400 long links: 802 words, 30 KB); word counts are
    runs of non-whitespace bytes, a no-break space inside a word."""
    links = "".join(
        f"- [repo{n}](https://github.com/organization-name/repository-with-a-long-name-{n})\n"
        for n in range(400)
    )
    path = tmp_path / "links.md"
    path.write_text(f"## Links\n\n{links}\n# a\u00a0b\u00a0c\n\nshort\n")
    body = json.loads(cli("index", str(path), "--json").stdout)
    (document,) = body["data"]["documents"]
    links_heading, short_heading = document["headings"]
    assert links_heading["section_word_count"] < 2000 and links_heading["section_truncated"]
    assert not short_heading["section_truncated"] and short_heading["word_count"] == 1
    assert document["root"]["section_truncated"]
    for selector, heading in (("h2.0", links_heading), ("h1.0", short_heading)):
        selected = json.loads(cli("select", selector, str(path), "--json").stdout)
        (match,) = selected["data"]["matches"]
        assert ("pagination" in match) == match["truncated"] == heading["section_truncated"]


def test_json_select_envelope_with_misses() -> None:
    body = json.loads(cli("select", "h2.1,9", STRUCTURE, "--json").stdout)
    assert body["success"] is False
    assert body["unresolved_selectors"] == ["h2.9"]
    (match,) = body["data"]["matches"]
    assert match["selector"] == "structure::h2.1"
    assert [c["selector"] for c in match["children_available"]] == [
        "structure::table.0", "structure::quote.0", "structure::h3.0",
    ]  # fmt: skip
    assert body["errors"][0]["type"] == "SELECTOR_NOT_FOUND"


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_corpus_json_is_schema_valid(path: Path) -> None:
    cli("index", str(path), "--json")
    cli("select", "h2.0,code.0,root/para.1,h9", str(path), "--json") if False else None
    cli("select", "h2.0,code.0,para.1", str(path), "--json")


def test_subprocess_smoke(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mdsel", "select", "h1.1", STRUCTURE],
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0
    assert done.stdout == (APPENDIX + "# Appendix\n\nLast words.\n").encode()
    done = subprocess.run(
        [sys.executable, "-m", "mdsel", "index"], capture_output=True, check=False
    )
    assert done.returncode == 2


def test_dash_reads_standard_input() -> None:
    def mdsel(*argv: str, stdin: bytes, env: dict[str, str] | None = None) -> tuple[int, str]:
        done = subprocess.run(
            [sys.executable, "-m", "mdsel", *argv], input=stdin, capture_output=True,
            env={**os.environ, **(env or {})}, timeout=60, check=False,
        )  # fmt: skip
        return done.returncode, (done.stdout + done.stderr).decode()

    document = Path(STRUCTURE).read_bytes()
    status, out = mdsel("index", "-", stdin=document)
    assert status == 0 and out == cli("index", STRUCTURE).stdout
    status, out = mdsel("index", "-", STRUCTURE, stdin=document)
    assert status == 0 and out.startswith("stdin - ")
    assert mdsel("select", "stdin::h1.1", "-", stdin=document) == (
        0,
        "==> - h1.1 Structure fixture › Appendix L74-76 <==\n# Appendix\n\nLast words.\n",
    )
    status, out = mdsel("index", "-", "--json", stdin=document)
    jsonschema.validate(json.loads(out), SCHEMA)
    assert json.loads(out)["data"]["documents"][0]["namespace"] == "stdin"
    status, out = mdsel("index", "-", stdin=document, env={"MDSEL_MAX_BYTES": "100"})
    assert status == 1 and out.startswith("!- PROCESSING_ERROR: standard input is over 100 bytes")


def test_not_shown_matches_are_named_in_runs(tmp_path: Path) -> None:
    path = tmp_path / "paras.md"
    path.write_text("".join(f"para {i}\n\n" for i in range(5000)))
    out = cli("select", "para", str(path), env={"MDSEL_PAGE_WORDS": "10"})
    assert out.stdout.splitlines()[-1] == (
        "[+4995 more matches not shown: para.5-4999; select them one at a time or add ?full=true]"
    )


def test_namespaces_count_every_file_named(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "README.md").write_bytes(b"# bad \xff\n")
    (tmp_path / "b" / "README.md").write_text("# Good\n")
    out = cli("select", "readme-2::h1.0", "a/README.md", "b/README.md", cwd=str(tmp_path))
    assert out.stdout == "==> b/README.md readme-2::h1.0 Good L1-1 <==\n# Good\n"
    assert (
        "readme-2::h1.0 Good"
        in cli("index", "a/README.md", "b/README.md", cwd=str(tmp_path)).stdout
    )


def test_only_markdown_names_are_read_as_the_server_reads_them(tmp_path: Path) -> None:
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "img.png").write_bytes(b"x\x00")
    (tmp_path / "g" / "notes.txt").write_text("# T\n")
    (tmp_path / "g" / "a.md").write_text("# M\n")
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nnav:\n  - a.md\n")
    (tmp_path / "linked.md").symlink_to(tmp_path / "mkdocs.yml")
    assert cli("index", "g/*", cwd=str(tmp_path)).exit_code == 0
    spelled = cli("index", "g/*.txt", cwd=str(tmp_path))
    assert spelled.exit_code == 1 and "no Markdown file matches this pattern" in spelled.stderr
    refused = cli("index", "mkdocs.yml", cwd=str(tmp_path))
    assert (refused.exit_code, refused.stdout) == (1, "")
    assert refused.stderr.startswith("!mkdocs.yml PROCESSING_ERROR: not a Markdown file name")
    assert "pass it on standard input (- < mkdocs.yml)" in refused.stderr
    linked = cli("index", "linked.md", cwd=str(tmp_path))  # a Markdown name to another one
    assert (linked.exit_code, linked.stdout) == (1, "")
    assert linked.stderr.startswith(
        f"!linked.md PROCESSING_ERROR: resolves to {tmp_path.resolve() / 'mkdocs.yml'}, "
        "not a Markdown file name"
    )


def test_toc_in_a_multi_document_call_is_qualified(tmp_path: Path) -> None:
    for name in ("a", "b"):
        (tmp_path / f"{name}.md").write_text(f"# {name}\n\n## sub\n")
    out = cli("select", "a::h1.0?toc=true", "a.md", "b.md", cwd=str(tmp_path))
    assert out.stdout == "==> a.md a::h1.0?toc=true a L1-3 <==\na::h1.0 a 1 4\n  a::h2.0 sub 3 2\n"


def test_preview_truncation_means_something_was_cut(tmp_path: Path) -> None:
    path = tmp_path / "pv.md"
    path.write_text("# H\n\n" + "x" * 80 + "\n\n## Next\n\n" + "y" * 81 + "\n")
    headings = json.loads(cli("index", str(path), "--json").stdout)["data"]["documents"][0][
        "headings"
    ]
    assert [h["truncated"] for h in headings] == [True, True]
    path.write_text("# H\n\n" + "x" * 80 + "\n")
    headings = json.loads(cli("index", str(path), "--json").stdout)["data"]["documents"][0][
        "headings"
    ]
    assert [h["truncated"] for h in headings] == [False]


def test_json_stays_utf8_for_undecodable_file_names(tmp_path: Path) -> None:
    name = os.fsdecode(b"bad\xff.md")
    (tmp_path / name).write_text("# E\n")
    out = cli("index", str(tmp_path), "--json")
    text = out.stdout.encode("utf-8", "surrogateescape").decode("utf-8")  # valid UTF-8
    (document,) = json.loads(text)["data"]["documents"]
    assert document["file_path"].endswith("bad\\xff.md")


def test_empty_file_spans_no_lines(tmp_path: Path) -> None:
    path = tmp_path / "empty.md"
    path.write_bytes(b"")
    (match,) = json.loads(cli("select", "root", str(path), "--json").stdout)["data"]["matches"]
    assert (match["line_start"], match["line_end"], match["content"]) == (1, 0, "")
    # Its header says it has no lines, and no empty line follows.
    assert cli("select", "root", str(path)) == Outcome(
        f"==> {path} root (untitled) L1-0 <==\n", "", 0
    )


def test_error_column_matches_the_selector_shown() -> None:
    out = cli("select", "   h2#", STRUCTURE)
    assert (
        out.stderr.splitlines()[0]
        == "!h2# INVALID_SELECTOR: unexpected '#', expected ',', '/', '?' or the end at column 3"
    )


def test_line_and_anchor_selectors_on_the_command_line() -> None:
    deep = f"==> {STRUCTURE} h4.0 Structure fixture › Guide › Usage › Details › Deep L51-53 <==\n"
    assert cli("select", "L52", STRUCTURE) == Outcome(deep + "#### Deep\n\nDeep text.\n", "", 0)
    head = body(cli("select", "#install-1/list.0?head=2", STRUCTURE).stdout)
    assert head == "1. ordered\n2. list\n"
    assert body(cli("select", "L75-76", STRUCTURE).stdout) == "\nLast words.\n"
    out = cli("select", "L52,L900", STRUCTURE)
    assert out.exit_code == 1 and out.stdout == deep + "#### Deep\n\nDeep text.\n"
    assert out.stderr == (
        f"!L900 SELECTOR_NOT_FOUND: line 900 is past the end: {NAMED} has 76 lines\n~L76\n"
    )
    out = cli("select", "#instal", STRUCTURE)
    assert out.stderr == (
        f"!#instal SELECTOR_NOT_FOUND: no heading in {NAMED} has the anchor #instal\n"
        "~#install (Install) ~#install-1 (Install)\n"
    )
    out = cli("select", "h2.1/L40", STRUCTURE)
    assert out.exit_code == 1 and out.stdout == ""
    assert out.stderr.startswith("!h2.1/L40 INVALID_SELECTOR: L40 addresses the whole document")


def test_a_link_as_written_selects_in_its_document(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("# Read me\n\n## Install\n\nfirst\n")
    (tmp_path / "GUIDE.md").write_text("# Guide\n\n## Install\n\nsecond\n")
    out = cli("select", "GUIDE.md#install", "README.md", "GUIDE.md", cwd=str(tmp_path))
    assert out == Outcome(
        "==> GUIDE.md guide::h2.0 Guide › Install L3-5 <==\n## Install\n\nsecond\n", "", 0
    )
    out = cli("select", "OTHER.md#install", "README.md", "GUIDE.md", cwd=str(tmp_path))
    assert out.exit_code == 1 and "NAMESPACE_NOT_FOUND" in out.stderr


def _long_document(tmp_path: Path) -> str:
    """One h1 over sixty lines of two words each: three pages of twenty lines at 40 words."""
    path = tmp_path / "long.md"
    path.write_text("# Long\n" + "".join(f"word {n}\n" for n in range(2, 61)))
    return str(path)


def test_a_line_in_a_long_section_shows_the_page_holding_it(tmp_path: Path) -> None:
    path = _long_document(tmp_path)
    env = {"MDSEL_PAGE_WORDS": "40"}
    out = cli("select", "L30", path, env=env)
    lines = out.stdout.splitlines()
    assert lines[0].startswith(f"==> {path} h1.0?page=2 Long L")
    assert "word 30" in lines and "word 2" not in lines
    assert lines[-1] == "[page 2/3 of h1.0, holding line 30: 40 of 120 words; next: h1.0?page=3]"
    last = cli("select", "L60", path, env=env).stdout.splitlines()
    assert last[-1] == "[page 3/3 of h1.0, holding line 60: 40 of 120 words; the last page]"
    first = cli("select", "L30?page=1", path, env=env).stdout.splitlines()
    # Another page asked for: it does not show line 30, and does not claim to.
    assert first[1] == "# Long" and first[-1].startswith("[page 1/3 of h1.0: 40 of 120 words")
    assert cli("select", "h1.0", path, env=env).stdout.splitlines()[-1] == (
        "[page 1/3 of h1.0: 40 of 120 words; next: h1.0?page=2]"
    )  # unchanged without a line
    body = json.loads(cli("select", "L60", path, "--json", env=env).stdout)
    (match,) = body["data"]["matches"]
    assert match["pagination"]["page"] == 3 and match["line_end"] == 60


def test_the_response_budget_lists_a_line_as_written(tmp_path: Path) -> None:
    path = _long_document(tmp_path)
    out = cli("select", "h1.0?head=20,L50", path, env={"MDSEL_PAGE_WORDS": "40"})
    assert out.stdout.splitlines()[-1].startswith("[+1 more matches not shown: L50;")


def test_json_lines_match_and_anchors_are_schema_valid() -> None:
    body = json.loads(cli("select", "L10-12,L52", STRUCTURE, "--json").stdout)
    lines, section = body["data"]["matches"]
    assert (lines["selector"], lines["type"]) == ("structure::L10-12", "lines")
    assert lines["children_available"] == []
    assert (section["selector"], section["type"]) == ("structure::h4.0", "heading:h4")
    index = json.loads(cli("index", STRUCTURE, "--json").stdout)["data"]["documents"][0]
    assert [h["anchor"] for h in index["headings"]] == [
        "guide", "install", "usage", "details", "deep", "setext-title", "install-1", "appendix",
    ]  # fmt: skip
    assert "anchor" not in index["root"]


def test_block_limit_is_a_parse_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "many.md"
    path.write_bytes(b"para\n\n" * 20)
    out = cli("index", str(path), env={"MDSEL_MAX_BLOCKS": "10"})
    assert out.exit_code == 1 and out.stdout == ""
    assert out.stderr == (
        f"!{path} PARSE_ERROR: more than 10 blocks and headings (the limit, passed at byte "
        "offset 60); set MDSEL_MAX_BLOCKS higher to read this file\n"
    )
    body = json.loads(cli("index", str(path), "--json", env={"MDSEL_MAX_BLOCKS": "10"}).stdout)
    assert body["errors"][0]["code"] == "TOO_MANY_BLOCKS"
    assert cli("index", str(path), env={"MDSEL_MAX_BLOCKS": "20"}).exit_code == 0


# -- link targets: explicit ids, nested headings, HTML anchors, decoded fragments ---------------

TREES = FIXTURES.parent / "trees"

IDS_DOC = """\
# Top {#top-id}

## Intro { #intro .lead key=value }

text

Setext {#setext-id}
-------------------

## Using {braces}

## Set {x, y}

## Notes {.unnumbered}
"""


def test_titles_are_shown_without_the_attribute_block(tmp_path: Path) -> None:
    path = tmp_path / "ids.md"
    path.write_text(IDS_DOC)
    lines = cli("index", str(path)).stdout.splitlines()
    assert [line.split()[1:-2] for line in lines[1:]] == [
        ["Top"], ["Intro"], ["Setext"], ["Using", "{braces}"], ["Set", "{x,", "y}"], ["Notes"],
    ]  # fmt: skip
    toc = cli("select", "h1.0?toc=true", str(path)).stdout
    assert "{#" not in toc and "{ #" not in toc and "{.unnumbered}" not in toc
    assert "h2.2 Using {braces}" in toc and "h2.3 Set {x, y}" in toc
    body = json.loads(cli("index", str(path), "--json").stdout)
    headings = body["data"]["documents"][0]["headings"]
    assert [(h["text"], h["anchor"]) for h in headings] == [
        ("Top", "top-id"),
        ("Intro", "intro"),
        ("Setext", "setext-id"),
        ("Using {braces}", "using-braces"),
        ("Set {x, y}", "set-x-y"),
        ("Notes", "notes-unnumbered"),
    ]
    # Suggestions show titles the same way.
    out = cli("select", "h2.9", str(path))
    assert "~h2.0 (Intro)" in out.stderr and "{#" not in out.stderr
    out = cli("select", "#intr", str(path))
    assert out.stderr.splitlines()[1] == "~#intro (Intro)"
    # The JSON `text` of a match's heading is the shown title too.
    body = json.loads(cli("select", "#setext-id", str(path), "--json").stdout)
    (match,) = body["data"]["matches"]
    assert match["selector"] == "ids::h2.1"
    assert match["content"].startswith("Setext {#setext-id}\n---")


@pytest.mark.parametrize(
    "markdown",
    [
        IDS_DOC,
        "# Top\n\n## Intro {#intro}\n\n## Intro\n",
        "# Top\n\n## First {#second}\n\none\n\n## Second\n\ntwo\n",
        "- ## Dup\n\n# Dup\n\n## Dup {#dup}\n",
        "#\n\ntext\n\n#\n\nmore\n\n# \\#\n",
    ],
)
def test_every_anchor_in_the_json_index_selects_its_heading(tmp_path: Path, markdown: str) -> None:
    """The schema's promise: a heading's `anchor` is what `#anchor` selects it by; the first
    heading without text has none (an empty `anchor`)."""
    path = tmp_path / "doc.md"
    path.write_text(markdown)
    body = json.loads(cli("index", str(path), "--json").stdout)
    headings = body["data"]["documents"][0]["headings"]
    assert sum(heading["anchor"] == "" for heading in headings) <= 1
    for heading in headings:
        if heading["anchor"] == "":
            assert not heading["text"].strip() and heading["selector"].endswith("::h1.0")
            continue
        found = json.loads(cli("select", f"#{heading['anchor']}", str(path), "--json").stdout)
        assert [m["selector"] for m in found["data"]["matches"]] == [heading["selector"]], heading


def test_a_decoded_fragment_cannot_forge_output_lines() -> None:
    out = cli("select", "#x%0A~h2.0%1b[31m", STRUCTURE)
    assert (out.exit_code, out.stdout) == (1, "")
    assert out.stderr == (
        "!#x%0A~h2.0%1b[31m INVALID_SELECTOR: the anchor decodes to a control character (\\n) "
        "at column 2; anchors hold none: copy the link's fragment as written\n"
    )
    for request in ("#x&#10;~h2.0", "#a%E2%80%AEb", "#x%C2%9B31m", "h1.0,#x%0D~h2.0", "#x%09"):
        out = cli("select", request, STRUCTURE)
        assert (out.exit_code, out.stdout) == (1, ""), request
        (line,) = out.stderr.splitlines()
        assert line.startswith(f"!{request} INVALID_SELECTOR: ") and line.isprintable(), request
    body = json.loads(cli("select", "#x%0A~h2.0%1b[31m", STRUCTURE, "--json").stdout)
    assert body["data"]["matches"] == []
    (error,) = body["errors"]
    assert error["type"] == "INVALID_SELECTOR" and error.get("suggestions", []) == []
    assert "\n" not in error["message"] and "\x1b" not in error["message"]


def test_an_anchor_suggested_from_the_document_is_shown_escaped(tmp_path: Path) -> None:
    path = tmp_path / "ids.md"
    path.write_bytes(b"# Title {#x\x1b[31m}\n\ntext\n\n## Other {#y\x07z}\n")
    for request in ("#x", "#yz"):
        out = cli("select", request, str(path))
        assert out.exit_code == 1
        assert all(line.isprintable() for line in out.stderr.splitlines()), out.stderr


def test_a_nested_heading_is_selected_as_its_lines(tmp_path: Path) -> None:
    path = tmp_path / "nested.md"
    path.write_text("# Top\n\n1. step\n\n   ### Run {#run}\n\n   ```sh\n   go\n   ```\n\n## Run\n")
    out = cli("select", "#run", str(path))
    assert out == Outcome(
        f"==> {path} L5-9 Top L5-9 <==\n   ### Run {{#run}}\n\n   ```sh\n   go\n   ```\n", "", 0
    )
    assert body(cli("select", "#run/code.0", str(path)).stdout) == "   ```sh\n   go\n   ```\n"
    # GitHub numbers the list's Run first.
    assert body(cli("select", "#run-1", str(path)).stdout) == "## Run\n"
    envelope = json.loads(cli("select", "#run", str(path), "--json").stdout)
    (match,) = envelope["data"]["matches"]
    assert (match["type"], match["line_start"], match["line_end"]) == ("lines", 5, 9)


REAL_LINKS = [
    # VitePress explicit ids, as the Vue docs link them.
    ("vue-docs/guide/extras/render-function.md", "#jsx-tsx", "## JSX / TSX {#jsx-tsx}"),
    ("vue-docs/api/sfc-css-features.md", "#css-modules", "## CSS Modules {#css-modules}"),
    ("vue-docs/api/sfc-css-features.md", "#scoped-css", "## Scoped CSS {#scoped-css}"),
    # A heading inside a list item, with its id.
    (
        "vue-docs/api/general.md",
        "#function-signature",
        "  ### Function Signature {#function-signature}",
    ),
    # `<span id>` anchors: the section holding them.
    ("vue-docs/guide/essentials/forms.md", "#vmodel-ime-tip", "### Text {#text}"),
    (
        "vue-docs/guide/extras/reactivity-in-depth.md",
        "#debugger-event",
        "### Component Debugging Hooks {#component-debugging-hooks}",
    ),
    # VitePress's own slugs, where GitHub's differ (`server.port` → GitHub's serverport).
    ("vite-docs/config/server-options.md", "#server-port", "## server.port"),
    (
        "vite-docs/guide/index.md",
        "#index-html-and-project-root",
        "## `index.html` and Project Root",
    ),
    # GitHub's slugs.
    ("vite-docs/guide/api-plugin.md", "#configureserver", "### `configureServer`"),
]


@pytest.mark.parametrize(("path", "fragment", "first_line"), REAL_LINKS)
def test_real_links_select_the_heading_they_point_to(
    path: str, fragment: str, first_line: str
) -> None:
    file = TREES / path
    link = f"{file.name}{fragment}"  # as written in a link from the same directory
    out = cli("select", f"{link}?head=1", str(file))
    assert (body(out.stdout), out.stderr, out.exit_code) == (first_line + "\n", "", 0)


USUAL = [
    ["index", "a.md"],
    ["index", "a.md", "b.md", "docs/"],
    ["index", "--json", "a.md"],
    ["index", "a.md", "--full", "--json"],
    ["index", "-"],
    ["select", "h2.1", "a.md"],
    ["select", "--full", "h2.1/code.0", "a.md", "b.md", "--json", "--json"],
    ["select", "", "a.md"],
]
UNUSUAL = [
    [],
    ["index"],
    ["select", "h2.1"],
    ["index", "--help"],
    ["--version"],
    ["index", "--js", "a.md"],  # an abbreviation argparse expands
    ["index", "--", "-a.md"],
    ["index", "-1"],
    ["index", "a.md", "--json", "b.md"],  # two runs of positionals: argparse refuses the second
    ["select", "h2.1", "--json", "a.md"],
    ["frobnicate", "a.md"],
]


@pytest.mark.parametrize("argv", USUAL + UNUSUAL, ids=" ".join)
def test_usual_command_lines_are_read_as_argparse_reads_them(argv: list[str]) -> None:
    from mdsel.cli import read_usual
    from mdsel.usage import build_parser

    usual = read_usual(argv)
    assert (usual is not None) == (argv in USUAL)
    if usual is None:
        return
    expected = vars(build_parser().parse_args(argv))
    assert {name: getattr(usual, name) for name in expected} == expected
    assert usual.selector == expected.get("selector")


def test_every_mix_of_positionals_and_flags_is_read_as_argparse_reads_it() -> None:
    import itertools

    from mdsel.cli import read_usual
    from mdsel.usage import build_parser

    parser = build_parser()
    words = ["a.md", "b.md", "--json", "--full", "-"]
    for command in ("index", "select"):
        for length in range(1, 5):
            for rest in itertools.product(words, repeat=length):
                argv = [command, *rest]
                usual = read_usual(argv)
                if usual is None:
                    continue
                expected = vars(parser.parse_args(argv))  # never a usage error when read here
                assert {name: getattr(usual, name) for name in expected} == expected, argv


def test_a_removed_working_directory_is_a_clear_error_not_a_traceback(tmp_path: Path) -> None:
    doc = tmp_path / "a.md"
    doc.write_text("# A\n\ntext\n")
    gone = tmp_path / "gone"
    gone.mkdir()
    # The child enters the folder, which is then removed under it, before mdsel starts.
    script = f"import os, runpy, sys; os.chdir({str(gone)!r}); os.rmdir({str(gone)!r}); "
    script += "sys.argv = ['mdsel', 'index', 'x.md', sys.argv[1]]; runpy.run_module('mdsel')"
    done = subprocess.run(
        [sys.executable, "-c", script, str(doc)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("!x.md PROCESSING_ERROR: is a relative path")
    assert done.stdout == "3 lines 3 words; para 1\nh1.0 A 1 3\n"
