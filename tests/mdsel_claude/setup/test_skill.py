"""`install --skill`: the Agent Skill where agents look, removed exactly; its file is valid."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mdsel_claude.setup import cli, skill

ROOT = Path(__file__).parents[3]
COPIES = (".claude/skills/mdsel/SKILL.md", ".agents/skills/mdsel/SKILL.md")


def front_matter(text: str) -> dict[str, str]:
    match = re.match(r"---\n(.*?)\n---\n", text, re.DOTALL)
    assert match, "SKILL.md starts with front matter between --- lines"
    fields = {}
    for line in match.group(1).splitlines():
        key, _, value = line.partition(": ")
        fields[key] = value
    return fields


def test_the_skill_follows_the_agent_skills_format() -> None:
    text = skill.SKILL_FILE.read_text(encoding="utf-8")
    fields = front_matter(text)
    assert set(fields) == {"name", "description"}
    # The name is the folder's, lower case letters, digits and hyphens, at most 64 characters.
    assert fields["name"] == skill.SKILL_FILE.parent.name == "mdsel"
    assert re.fullmatch(r"[a-z0-9-]{1,64}", fields["name"])
    assert 0 < len(fields["description"]) <= 1024
    # A plain YAML scalar: `: ` would start a mapping and ` #` a comment (cutting the text).
    assert ": " not in fields["description"] and " #" not in fields["description"]
    # Short: a page an agent reads once, with the commands it teaches.
    assert len(text.splitlines()) < 40
    for command in ("mdsel index", "mdsel select", "L812", "#configuration"):
        assert command in text


def test_the_repository_and_the_plugin_ship_the_same_file() -> None:
    for where in ("skills/mdsel/SKILL.md", "plugin/skills/mdsel/SKILL.md"):
        assert (ROOT / where).read_bytes() == skill.SKILL_FILE.read_bytes(), where


def test_every_command_in_the_skill_runs(tmp_path: Path) -> None:
    """The examples select what they say on a document that has those parts."""
    import mdsel

    doc = tmp_path / "guide.md"
    parts = ["# Guide", ""]
    for n in range(5):
        parts += [f"## Part {n}", "", "text " * 30, "", "```sh", f"run {n}", "```", ""]
        parts += [f"### Step {n}a", "", "more text", "", f"### Step {n}b", "", "more", ""]
    parts += ["## Configuration", "", "the options"]
    doc.write_text("\n".join(parts) + "\n")
    text = skill.SKILL_FILE.read_text(encoding="utf-8")
    for selector in re.findall(r"mdsel select '?([^' ]+)'? docs/guide\.md", text):
        outcome = mdsel.run_command("select", selector, [str(doc)])
        assert outcome.exit_code == 0, (selector, outcome.stderr)


def test_install_writes_both_copies_and_uninstall_removes_them(home: Path) -> None:
    (home / ".claude").mkdir()  # an existing folder is kept
    assert cli.main(["install", "--skill"]) == 0
    for copy in COPIES:
        assert (home / copy).read_bytes() == skill.SKILL_FILE.read_bytes()
    assert cli.main(["install", "--skill"]) == 0  # again: unchanged
    assert cli.main(["uninstall", "--skill"]) == 0
    assert not (home / ".agents").exists()
    assert (home / ".claude").is_dir() and not (home / ".claude" / "skills").exists()


@pytest.mark.parametrize("scope", ["user", "project"])
def test_qwen_code_and_droid_get_a_copy_in_their_own_folder_only_where_it_is(
    home: Path, scope: str
) -> None:
    # Neither reads `.agents/skills` or loads `.claude/skills` (Qwen Code 0.24, Droid 0.225).
    base = home if scope == "user" else Path.cwd()
    (base / ".git").mkdir()
    (base / ".qwen").mkdir()
    own = (".qwen/skills/mdsel/SKILL.md", ".factory/skills/mdsel/SKILL.md")
    assert cli.main(["install", "--skill", "--scope", scope]) == 0
    assert (base / own[0]).read_bytes() == skill.SKILL_FILE.read_bytes()
    assert not (base / ".factory").exists()  # Droid not there: no folder of its made
    assert all((base / copy).is_file() for copy in COPIES)
    assert cli.main(["uninstall", "--skill", "--scope", scope]) == 0
    assert (base / ".qwen").is_dir() and not (base / ".qwen" / "skills").exists()
    assert not any((base / copy).exists() for copy in COPIES)


def test_qwen_home_moves_its_copy(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    moved = home / "elsewhere"
    moved.mkdir()
    monkeypatch.setenv("QWEN_HOME", str(moved))
    (home / ".qwen").mkdir()  # not the folder Qwen Code reads while QWEN_HOME is set
    assert cli.main(["install", "--skill"]) == 0
    assert (moved / "skills" / "mdsel" / "SKILL.md").is_file()
    assert not (home / ".qwen" / "skills").exists()


def test_project_scope_writes_at_the_project_root(home: Path) -> None:
    project = Path.cwd()
    (project / ".git").mkdir()
    (project / "sub").mkdir()
    import os

    os.chdir(project / "sub")
    assert cli.main(["install", "--skill", "--scope", "project"]) == 0
    assert all((project / copy).is_file() for copy in COPIES)
    assert not (home / ".agents").exists()
    assert cli.main(["uninstall", "--all"]) == 0
    assert not any((project / copy).exists() for copy in COPIES)


def test_a_skill_of_the_same_name_is_left_alone(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    theirs = home / COPIES[1]
    theirs.parent.mkdir(parents=True)
    theirs.write_text("---\nname: mdsel\ndescription: mine\n---\n")
    assert cli.main(["install", "--skill"]) == 1
    assert "left alone" in capsys.readouterr().out
    assert theirs.read_text().endswith("mine\n---\n")
    assert (home / COPIES[0]).is_file()
    assert cli.main(["uninstall", "--skill"]) == 0
    assert theirs.is_file() and not (home / COPIES[0]).exists()


def test_a_copy_changed_by_hand_is_kept_by_uninstall(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["install", "--skill"]) == 0
    edited = home / COPIES[0]
    edited.write_text(edited.read_text() + "\nMy own note.\n")
    assert cli.main(["uninstall", "--skill"]) == 0
    assert "was changed since install wrote it" in capsys.readouterr().out
    assert edited.is_file() and not (home / COPIES[1]).exists()


def test_an_older_copy_of_ours_is_updated(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old = home / "old-SKILL.md"
    old.write_text("---\nname: mdsel\ndescription: an older text\n---\n")
    monkeypatch.setattr(skill, "SKILL_FILE", old)
    assert cli.main(["install", "--skill"]) == 0
    monkeypatch.undo()
    monkeypatch.setenv("HOME", str(home))
    assert cli.main(["install", "--skill"]) == 0
    assert (home / COPIES[0]).read_bytes() == skill.SKILL_FILE.read_bytes()


def test_dry_run_writes_nothing(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["install", "--skill", "--dry-run"]) == 0
    assert "would create" in capsys.readouterr().out
    assert not (home / ".agents").exists() and not (home / ".claude").exists()


@pytest.mark.parametrize(
    "args", [["--skill", "--client", "gemini"], ["--skill", "--scope", "local"]]
)
def test_usage_errors(home: Path, args: list[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        cli.main(["install", *args])
    assert raised.value.code == 2


def test_a_copy_already_there_stays_the_users(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Copied by hand (or installed with another install record): the same text, but install
    # did not write it, so it is not recorded and uninstall leaves it.
    for copy in COPIES:
        (home / copy).parent.mkdir(parents=True)
        (home / copy).write_bytes(skill.SKILL_FILE.read_bytes())
    capsys.readouterr()
    assert cli.main(["install", "--skill"]) == 0
    assert capsys.readouterr().out.count("it stays yours (uninstall leaves it)") == len(COPIES)
    assert cli.main(["uninstall", "--skill"]) == 0
    assert all((home / copy).read_bytes() == skill.SKILL_FILE.read_bytes() for copy in COPIES)
