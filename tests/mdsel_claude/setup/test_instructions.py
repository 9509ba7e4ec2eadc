"""`install --instructions`: the block in the file each scope's agent reads, and out again."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mdsel_claude.setup import cli, instructions, instructions_block
from mdsel_claude.setup.clients import CLIENTS

BLOCK = instructions_block.block()
MINE = b"# My notes\r\n\r\nTabs, not spaces."


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    capsys.readouterr()
    status = cli.main(list(argv))
    got = capsys.readouterr()
    return status, got.out + got.err


# -- Claude Code ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scope", "where"),
    [("local", "project/CLAUDE.local.md"), ("user", "home/.claude/CLAUDE.md")],
)
def test_claude_code_s_file_of_each_scope_is_created_and_deleted_again(
    home: Path, tmp_path: Path, scope: str, where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / where
    assert run(capsys, "install", "--scope", scope, "--instructions")[0] == 0
    assert path.read_text(encoding="utf-8") == BLOCK
    out = run(capsys, "doctor")[1]
    assert f"instructions {scope} ({path}): present, as install writes it" in out
    assert run(capsys, "uninstall", "--scope", scope)[0] == 0
    assert not path.exists()
    out = run(capsys, "doctor")[1]
    assert f"instructions {scope} ({path}): no file (optional: `mdsel-claude install" in out


def test_project_scope_appends_to_claude_md_and_gives_back_every_byte(
    on_path: str, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = Path("CLAUDE.md")
    path.write_bytes(MINE)
    assert run(capsys, "install", "--scope", "project", "--instructions")[0] == 0
    text = path.read_bytes()
    assert text == MINE + b"\r\n\r\n" + instructions_block.block("\r\n").encode()
    assert run(capsys, "install", "--scope", "project", "--instructions")[0] == 0
    assert path.read_bytes() == text  # twice is once
    assert run(capsys, "uninstall", "--scope", "project")[0] == 0
    assert path.read_bytes() == MINE
    assert sorted(os.listdir(".")) == ["CLAUDE.md"]


def test_without_the_option_no_block_is_written_and_a_later_install_keeps_it(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "install")[0] == 0
    assert not Path("CLAUDE.local.md").exists()
    assert run(capsys, "install", "--instructions")[0] == 0
    assert run(capsys, "install")[0] == 0  # an update of the hook leaves the block
    assert Path("CLAUDE.local.md").read_text(encoding="utf-8") == BLOCK


def test_a_dry_run_shows_the_block_and_writes_nothing(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("CLAUDE.local.md").write_bytes(MINE)
    status, out = run(capsys, "install", "--instructions", "--dry-run")
    assert status == 0 and "would update" in out and "+<!-- mdsel-claude: begin" in out
    assert Path("CLAUDE.local.md").read_bytes() == MINE
    assert sorted(os.listdir(home)) == []


# -- what is left alone -----------------------------------------------------------------------


def test_a_block_edited_by_hand_is_left_by_uninstall_and_said(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = Path("CLAUDE.local.md")
    path.write_bytes(MINE)
    assert run(capsys, "install", "--instructions")[0] == 0
    edited = path.read_bytes().replace(b"not whole", b"never whole")
    path.write_bytes(edited)
    out = run(capsys, "doctor")[1]
    assert f"instructions local ({path.resolve()}): edited by hand" in out
    status, out = run(capsys, "install", "--instructions")
    assert status == 0 and "changed by hand" in out and path.read_bytes() == edited
    status, out = run(capsys, "uninstall")
    assert status == 0 and "was changed by hand since install wrote it" in out
    assert path.read_bytes() == edited


def test_a_block_someone_else_s_install_wrote_stays(
    on_path: str, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A teammate committed CLAUDE.md with the block: this install did not write it.
    shared = MINE + b"\r\n\r\n" + instructions_block.block("\r\n").encode()
    Path("CLAUDE.md").write_bytes(shared)
    status, out = run(capsys, "install", "--scope", "project", "--instructions")
    assert status == 0 and "install did not write it; it stays yours" in out
    assert run(capsys, "uninstall", "--scope", "project")[0] == 0
    assert Path("CLAUDE.md").read_bytes() == shared


def test_an_older_block_of_ours_is_brought_up_to_date(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = Path("CLAUDE.local.md")
    path.write_bytes(MINE)
    assert run(capsys, "install", "--instructions")[0] == 0
    # As an earlier version would have written it: in the file and in the record.
    now, then = "not whole", "not in one go"
    path.write_bytes(path.read_bytes().replace(now.encode(), then.encode()))
    record = home / ".local/state/mdsel-claude/installed.json"
    record.write_bytes(record.read_bytes().replace(now.encode(), then.encode()))
    out = run(capsys, "doctor")[1]
    assert "as an earlier version wrote it" in out
    assert run(capsys, "install", "--instructions")[0] == 0
    assert path.read_bytes() == MINE + b"\r\n\r\n" + instructions_block.block("\r\n").encode()
    assert run(capsys, "uninstall")[0] == 0
    assert path.read_bytes() == MINE


def hostile(path: Path, which: str) -> None:
    if which == "symlink":
        target = path.parent / "elsewhere.md"
        target.write_bytes(MINE)
        path.symlink_to(target)
    elif which == "huge":
        path.write_bytes(b"x" * (instructions.MAX_BYTES + 1))
    elif which == "latin-1":
        path.write_bytes(b"caf\xe9\n")
    elif which == "fifo":
        os.mkfifo(path)
    else:
        path.mkdir()


@pytest.mark.parametrize("which", ["symlink", "huge", "latin-1", "fifo", "directory"])
def test_a_hostile_instructions_file_is_refused_unchanged(
    home: Path, which: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = Path("CLAUDE.local.md").absolute()
    hostile(path, which)
    before = {p.name: (p.lstat().st_mode, p.lstat().st_size) for p in Path(".").iterdir()}
    status, out = run(capsys, "install", "--instructions")
    assert status == 1 and str(path) in out and "untouched" in out
    after = {p.name: (p.lstat().st_mode, p.lstat().st_size) for p in Path(".").iterdir()}
    assert after == before  # nothing else written either: not the hook, not .claude/
    assert not (home / ".claude.json").exists()
    out = run(capsys, "doctor")[1]
    assert f"instructions local ({path}): cannot be checked" in out


# -- the other clients ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "scope", "where"),
    [
        ("codex", "user", "home/.codex/AGENTS.md"),
        ("gemini", "user", "home/.gemini/GEMINI.md"),
        ("gemini", "project", "project/GEMINI.md"),
        ("copilot", "user", "home/.copilot/copilot-instructions.md"),
        ("copilot", "project", "project/.github/copilot-instructions.md"),
        ("cline", "user", "home/Documents/Cline/Rules/mdsel-claude.md"),
        ("qwen", "user", "home/.qwen/QWEN.md"),
        ("qwen", "project", "project/QWEN.md"),
        ("factory", "user", "home/.factory/AGENTS.md"),
        ("factory", "project", "project/AGENTS.md"),
        ("opencode", "user", "home/.config/opencode/AGENTS.md"),
        ("opencode", "project", "project/AGENTS.md"),
    ],
)
def test_each_client_s_file(
    on_path: str,
    home: Path,
    tmp_path: Path,
    name: str,
    scope: str,
    where: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / where
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(MINE)
    args = ("--client", name, "--scope", scope)
    assert run(capsys, "install", *args, "--instructions")[0] == 0
    assert path.read_bytes().endswith(instructions_block.block("\r\n").encode())
    out = run(capsys, "doctor", "--client", name)[1]
    assert f"instructions {scope} ({path}): present, as install writes it" in out
    assert run(capsys, "uninstall", *args)[0] == 0
    assert path.read_bytes() == MINE


def test_codex_s_override_file_is_named(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    override = home / ".codex" / "AGENTS.override.md"
    override.parent.mkdir()
    override.write_text("for now\n")
    status, out = run(capsys, "install", "--client", "codex", "--instructions")
    assert status == 0 and f"Codex CLI reads {override} in place of AGENTS.md" in out
    assert (home / ".codex" / "AGENTS.md").read_text(encoding="utf-8") == BLOCK
    status, out = run(capsys, "doctor", "--client", "codex")
    assert f"note: Codex CLI reads {override}" in out


def test_opencode_reading_claude_md_gets_the_block_there_and_shares_it(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # No AGENTS.md of OpenCode's: it reads ~/.claude/CLAUDE.md, which a new AGENTS.md hides.
    claude_md = home / ".claude" / "CLAUDE.md"
    claude_md.parent.mkdir()
    claude_md.write_bytes(MINE)
    status, out = run(capsys, "install", "--client", "opencode", "--instructions")
    assert status == 0 and f"OpenCode reads {claude_md} here" in out
    assert not (home / ".config" / "opencode" / "AGENTS.md").exists()
    assert run(capsys, "install", "--scope", "user", "--instructions")[0] == 0
    assert claude_md.read_text(encoding="utf-8").count("mdsel-claude: begin") == 1
    status, out = run(capsys, "uninstall", "--scope", "user")
    assert status == 0 and "the install for opencode:user uses it too" in out
    assert claude_md.read_text(encoding="utf-8").count("mdsel-claude: begin") == 1
    assert run(capsys, "uninstall", "--client", "opencode")[0] == 0
    assert claude_md.read_bytes() == MINE


@pytest.mark.parametrize("name", ["cursor", "vscode"])
def test_a_client_without_a_verified_file_refuses_the_option(
    home: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = run(capsys, "install", "--client", name, "--instructions")
    assert status == 1 and f"no instructions file that {CLIENTS[name].title} reads" in out
    assert "run install without --instructions" in out
    assert os.listdir(home) == [] and os.listdir(".") == []


def test_skill_and_instructions_do_not_go_together(home: Path) -> None:
    with pytest.raises(SystemExit) as stop:
        cli.main(["install", "--skill", "--instructions"])
    assert stop.value.code == 2


# -- every install at once --------------------------------------------------------------------


def test_uninstall_all_and_doctor_all_know_the_block(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = Path("CLAUDE.local.md")
    path.write_bytes(MINE)
    assert run(capsys, "install", "--instructions")[0] == 0
    assert run(capsys, "install", "--client", "codex", "--instructions")[0] == 0
    out = run(capsys, "doctor", "--all")[1]
    assert "the mdsel-claude instructions block: present, as install writes it" in out
    assert run(capsys, "uninstall", "--all")[0] == 0
    assert path.read_bytes() == MINE
    assert not (home / ".codex").exists()


def snapshot(root: Path) -> dict[str, bytes | None]:
    found = {
        str(p.relative_to(root)): None if p.is_dir() else p.read_bytes() for p in root.rglob("*")
    }
    for name in ("home/.local/state", "home/.local"):  # the standard folder the record went in
        found.pop(name, None)
    return found


@pytest.mark.parametrize("name", sorted(CLIENTS))
def test_every_client_keeps_the_block_s_promises_or_refuses_it(
    on_path: str, home: Path, tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    client = CLIENTS[name]
    for scope in client.scopes:
        target = client.instructions(scope, Path.cwd(), os.environ)
        args = ("--client", name, "--scope", scope)
        if target is None:
            before = snapshot(tmp_path)
            status, out = run(capsys, "install", *args, "--instructions")
            assert status == 1 and "--instructions" in out and client.title in out
            assert snapshot(tmp_path) == before
            continue
        target.path.parent.mkdir(parents=True, exist_ok=True)
        target.path.write_bytes(MINE)
        before = snapshot(tmp_path)
        assert run(capsys, "install", *args, "--instructions", "--dry-run")[0] == 0
        assert snapshot(tmp_path) == before
        assert run(capsys, "install", *args, "--instructions")[0] == 0
        installed = snapshot(tmp_path)
        assert target.path.read_bytes().endswith(instructions_block.block("\r\n").encode())
        assert run(capsys, "install", *args, "--instructions")[0] == 0
        assert snapshot(tmp_path) == installed
        status, out = run(capsys, "doctor", "--client", name)
        assert f"instructions {scope} ({target.path}): present, as install writes it" in out
        assert run(capsys, "uninstall", *args)[0] == 0
        assert snapshot(tmp_path) == before


@pytest.mark.parametrize("name", sorted(CLIENTS))
def test_uninstall_leaves_no_folder_install_made_for_the_block(
    on_path: str, home: Path, tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Nothing there before: the folders install makes for the block and for the client's own
    # files may share a parent (Cline's rules and hook folders under ~/Documents/Cline), which
    # goes only once both are gone.
    client = CLIENTS[name]
    (Path.cwd() / ".git").mkdir()
    for scope in client.scopes:
        if client.instructions(scope, Path.cwd(), os.environ) is None:
            continue
        before = snapshot(tmp_path)
        args = ("--client", name, "--scope", scope)
        assert run(capsys, "install", *args, "--instructions")[0] == 0
        assert snapshot(tmp_path) != before
        assert run(capsys, "uninstall", *args)[0] == 0
        assert snapshot(tmp_path) == before, scope


def test_uninstall_after_the_line_endings_were_converted(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = Path("CLAUDE.local.md")
    path.write_bytes(MINE)
    assert run(capsys, "install", "--instructions")[0] == 0
    path.write_bytes(path.read_bytes().replace(b"\r\n", b"\n"))  # an editor's doing
    assert run(capsys, "uninstall")[0] == 0
    assert path.read_bytes() == MINE.replace(b"\r\n", b"\n")


def test_gemini_s_renamed_context_file_is_named(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = home / ".gemini" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"context": {"fileName": ["AGENTS.md", "CONTEXT.md"]}}')
    status, out = run(capsys, "install", "--client", "gemini", "--instructions")
    assert status == 0 and "Gemini CLI reads AGENTS.md, CONTEXT.md instead of GEMINI.md" in out
    assert (home / ".gemini" / "GEMINI.md").read_text(encoding="utf-8") == BLOCK


def test_cline_s_rule_file_is_ours_whole(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = home / "Documents" / "Cline" / "Rules" / "mdsel-claude.md"
    assert run(capsys, "install", "--client", "cline", "--instructions")[0] == 0
    assert path.read_text(encoding="utf-8") == BLOCK
    assert run(capsys, "uninstall", "--client", "cline")[0] == 0
    assert not path.exists() and not path.parent.exists()


def test_qwen_code_reading_only_agents_md_gets_the_block_there(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    agents = home / ".qwen" / "AGENTS.md"
    agents.parent.mkdir()
    agents.write_bytes(MINE)
    assert run(capsys, "install", "--client", "qwen", "--instructions")[0] == 0
    assert not (home / ".qwen" / "QWEN.md").exists()
    assert agents.read_bytes().endswith(instructions_block.block("\r\n").encode())
    assert run(capsys, "uninstall", "--client", "qwen")[0] == 0
    assert agents.read_bytes() == MINE


def test_qwen_code_s_renamed_context_file_is_named(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = home / ".qwen" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"context": {"fileName": "NOTES.md"}}')
    status, out = run(capsys, "install", "--client", "qwen", "--instructions")
    assert status == 0 and "Qwen Code reads NOTES.md instead of QWEN.md" in out
