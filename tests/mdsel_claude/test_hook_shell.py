"""Shell commands that show a Markdown file: the case table, cwd and globs, and bad input."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mdsel_claude.hook.shell import MAX_COMMAND, printed_markdown

CASES = Path(__file__).parents[1] / "cases" / "shell_reads.tsv"


def cases() -> list[tuple[str, bool]]:
    rows = []
    for line in CASES.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        command, expected = line.rsplit("\t", 1)
        rows.append((command.replace("\\n", "\n"), expected == "yes"))
    return rows


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """docs/guide.md: 3,000 words on 100 lines; a small Markdown file; a large text file and a
    Markdown-named link to it."""
    (tmp_path / "docs").mkdir()
    line = " ".join(f"w{i}" for i in range(30)) + "\n"
    (tmp_path / "docs" / "guide.md").write_text(line * 100)
    (tmp_path / "small.md").write_text("a few words\n")
    (tmp_path / "notes.txt").write_text(line * 100)
    (tmp_path / "link.md").symlink_to(tmp_path / "notes.txt")
    (tmp_path / "other.txt").write_text("other\n")
    return tmp_path


@pytest.mark.parametrize(("command", "shows"), cases(), ids=[c for c, _ in cases()])
def test_case_table(project: Path, command: str, shows: bool) -> None:
    found = printed_markdown(command, str(project), 200)
    assert found == ([str(project / "docs" / "guide.md")] if shows else [])


def test_the_table_holds_both_answers() -> None:
    answers = [shows for _, shows in cases()]
    assert answers.count(True) >= 40 and answers.count(False) >= 30


def test_the_threshold_is_the_part_shown(project: Path) -> None:
    # 20 lines of 30 words: 600 words shown, over 200 and under 1,000.
    command = "head -n 20 docs/guide.md"
    assert printed_markdown(command, str(project), 200)
    assert not printed_markdown(command, str(project), 1000)
    assert printed_markdown("cat docs/guide.md", str(project), 2999)
    assert not printed_markdown("cat docs/guide.md", str(project), 3000)


def test_every_large_file_once_in_order(project: Path) -> None:
    (project / "b.md").write_text("word " * 500)
    command = "cat b.md docs/guide.md && less b.md"
    assert printed_markdown(command, str(project), 200) == [
        str(project / "b.md"),
        str(project / "docs" / "guide.md"),
    ]


def test_a_relative_path_is_read_from_cwd_and_cd(project: Path) -> None:
    assert printed_markdown("cat guide.md", str(project / "docs"), 200)
    assert not printed_markdown("cat guide.md", str(project), 200)
    assert printed_markdown(f"cat {project}/docs/guide.md", "/", 200)
    assert printed_markdown("cd .. && cat docs/guide.md", str(project / "docs"), 200)


def test_home_is_expanded(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(project))
    assert printed_markdown("cat ~/docs/guide.md", "/", 200)
    assert printed_markdown("cd && head -n 400 docs/guide.md", "/", 200)
    # Quoted or escaped, `~` is taken as written: no such folder here.
    for command in ('cat "~/docs/guide.md"', "cat '~'/docs/guide.md", "cat \\~/docs/guide.md",
                    'cd "~" && cat docs/guide.md'):  # fmt: skip
        assert not printed_markdown(command, "/", 200), command
    (project / "~").mkdir()  # a folder named `~` is what they name, then
    (project / "~" / "x.md").write_text("word " * 500)
    assert printed_markdown('cat "~/x.md"', str(project), 200) == [str(project / "~" / "x.md")]


def test_a_fifo_is_never_opened(project: Path) -> None:
    os.mkfifo(project / "pipe.md")
    started = time.monotonic()
    assert printed_markdown("cat pipe.md; head -n 400 pipe.md", str(project), 200) == []
    assert time.monotonic() - started < 5


def test_a_command_too_long_is_silence(project: Path) -> None:
    command = "cat docs/guide.md " + "x" * MAX_COMMAND
    assert printed_markdown(command, str(project), 200) == []


def test_an_exec_of_many_copies_is_read_in_one_pass(project: Path) -> None:
    # Each `3>&1` made while stdout is gone was checked against every redirection before it:
    # 13,000 of them in one 64 KiB `exec` took about a minute.
    words = "3>&1 " * ((MAX_COMMAND - 40) // 5)
    started = time.monotonic()
    assert printed_markdown(f"exec >/dev/null {words}; cat docs/guide.md", str(project), 200) == []
    assert time.monotonic() - started < 5
    # A copy of stdout kept while it was the screen: what follows is still read, as before.
    assert printed_markdown("exec 3>&1 >/dev/null; cat docs/guide.md", str(project), 200)
    assert not printed_markdown("exec >/dev/null 3>&1; cat docs/guide.md", str(project), 200)


def test_deep_shells_stop(project: Path) -> None:
    command = "sh -c \"bash -c 'cat docs/guide.md'\""
    assert printed_markdown(command, str(project), 200)
    # A third shell inside is not followed: the depth bounds the work on a crafted command.
    deeper = 'sh -c "bash -c \'sh -c \\"cat docs/guide.md\\"\'"'
    assert printed_markdown(deeper, str(project), 200) == []
    two = "bash -c 'sh -c \"cat docs/guide.md\"'"
    assert printed_markdown(two, str(project), 200)


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet=st.sampled_from(list("cat sedhn-'\"|&;<>()$`\\\n#*1,p.md/~{}")), max_size=200)
)
def test_any_text_is_an_answer(tmp_path_factory: pytest.TempPathFactory, command: str) -> None:
    cwd = tmp_path_factory.getbasetemp()
    found = printed_markdown(command, str(cwd), 5)
    assert isinstance(found, list)


def test_globs_read_a_bounded_number_of_entries(tmp_path: Path) -> None:
    many = tmp_path / "many"
    many.mkdir()
    for n in range(300):
        (many / f"f{n}.md").write_text("a\n")
    (many / "big.md").write_text("word " * 500)
    assert printed_markdown("cat many/*.md", str(tmp_path), 200) == [str(many / "big.md")]
    # The same glob a thousand times is read once; past the budget a glob is nothing, and a
    # glob in a directory part is never expanded (it could walk a whole tree).
    started = time.monotonic()
    assert printed_markdown("cat " + "many/*.md " * 1000, str(tmp_path), 200)
    assert printed_markdown("cat /*/*/*/*/*/*.md", "/", 200) == []
    assert time.monotonic() - started < 5


def test_the_same_file_is_counted_once(tmp_path: Path) -> None:
    spaces = tmp_path / "spaces.md"
    spaces.write_bytes(b" " * (8 * 1024 * 1024))  # no word at all: read to the end each time
    started = time.monotonic()
    assert printed_markdown("cat spaces.md;" * 6000, str(tmp_path), 200) == []
    assert time.monotonic() - started < 5


def test_a_directory_with_a_bracket_in_its_name(tmp_path: Path) -> None:
    odd = tmp_path / "pr[1]"
    odd.mkdir()
    (odd / "big.md").write_text("word " * 500)
    assert printed_markdown("cat *.md", str(odd), 200) == [str(odd / "big.md")]


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files whose lines the hook counts (files.line_count), in order, as it counts them."""
    from mdsel_claude.hook import files

    real = files.line_count
    paths: list[str] = []

    def spy(path: str) -> int | None:
        paths.append(path)
        return real(path)

    monkeypatch.setattr(files, "line_count", spy)
    return paths


def test_sed_across_files_counts_the_lines_of_few(project: Path, counted: list[str]) -> None:
    """Numbering a range across files reads the lines of the files before it, and no more:
    none past the range's end, at most MAX_ACROSS for a range to the last line, each file once
    per command line."""
    from mdsel_claude.hook import sed

    many = " ".join(["docs/guide.md"] * 20)
    assert printed_markdown(f"sed -n 1,150p {many}", str(project), 200)
    assert counted == [str(project / "docs" / "guide.md")]  # counted once, used twice
    counted.clear()
    copies = [project / f"copy{n}.md" for n in range(20)]
    for copy in copies:
        copy.write_text((project / "docs" / "guide.md").read_text())
    printed_markdown(f"sed -n '5,$p' {' '.join(c.name for c in copies)}", str(project), 200)
    assert len(counted) == sed.MAX_ACROSS


def test_sed_across_files_line_counts_are_bounded_per_command_line(
    project: Path, counted: list[str]
) -> None:
    """Hundreds of `sed` commands each numbering across files read at most MAX_LINE_COUNTS
    files' lines in all (each up to 8 MiB: unbounded, a 64 KiB line took most of a minute)."""
    from mdsel_claude.hook.shell_words import MAX_LINE_COUNTS

    names = []
    for n in range(12):
        (project / f"t{n}.txt").write_text("x\n" * 10)
        names.append(f"t{n}.txt")
    one = f"sed -n '2,$p' {' '.join(names)};"
    printed_markdown(one * 300, str(project), 200)
    assert len(counted) == MAX_LINE_COUNTS


def test_a_cut_after_numbering_counts_the_lines_not_the_bytes(project: Path) -> None:
    """`nl` and `cat -n` add to each line: a cut by lines is that cut of the file, a cut by
    bytes holds fewer of the file's bytes than it says (not known: silence)."""
    (project / "short.md").write_text("word\n" * 400)
    cwd = str(project)
    for numbered in ("nl -ba short.md", "cat -n short.md", "cat short.md | nl"):
        assert printed_markdown(f"{numbered} | head -n 300", cwd, 200), numbered
        assert not printed_markdown(f"{numbered} | head -n 150", cwd, 200), numbered
        # 2,000 bytes of `     1\tword` lines hold 166 of the file's words, not 400.
        assert not printed_markdown(f"{numbered} | head -c 2000", cwd, 200), numbered
    assert printed_markdown("cat short.md | head -c 2000", cwd, 200)  # 400 words
    assert printed_markdown("cat -s short.md | head -c 2000", cwd, 200)  # -s adds nothing
    assert printed_markdown("nl short.md", cwd, 200)
