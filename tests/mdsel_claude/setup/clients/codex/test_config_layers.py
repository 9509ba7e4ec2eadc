"""config_layers: which of Codex CLI's files decides whether it runs hooks (held to `codex features
list` itself in tests/e2e/test_clients_cli.py)."""

from __future__ import annotations

from pathlib import Path

from mdsel_claude.setup.clients.codex import config_layers

OFF = {"features": {"hooks": False}}
ON = {"features": {"hooks": True}}


def trusting(root: Path) -> dict[str, object]:
    return {"projects": {str(root): {"trust_level": "trusted"}}}


def test_the_project_root_is_the_nearest_repository(tmp_path: Path) -> None:
    sub = tmp_path / "repo" / "a" / "b"
    sub.mkdir(parents=True)
    assert config_layers.project_root(sub) == sub  # no repository: the folder itself
    (tmp_path / "repo" / ".git").mkdir()
    assert config_layers.project_root(sub) == sub  # an empty .git folder is none
    (tmp_path / "repo" / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    assert config_layers.project_root(sub) == tmp_path / "repo"
    (tmp_path / "repo" / "a" / ".git").write_text("gitdir: /x\n")  # a worktree's file
    assert config_layers.project_root(sub) == tmp_path / "repo" / "a"


def test_only_a_trusted_project_is_read(tmp_path: Path) -> None:
    assert config_layers.trusted(trusting(tmp_path), tmp_path)
    assert not config_layers.trusted({}, tmp_path)
    assert not config_layers.trusted(trusting(tmp_path.parent), tmp_path)  # not by a parent
    untrusted = {"projects": {str(tmp_path): {"trust_level": "untrusted"}}}
    assert not config_layers.trusted(untrusted, tmp_path)


def test_project_files_run_from_the_root_down_to_the_start_folder(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    start = root / "a" / "b"
    for folder in (tmp_path, root, root / "a", start):
        (folder / ".codex").mkdir(parents=True)
        (folder / ".codex" / "config.toml").write_text("")
    files = config_layers.project_files(trusting(root), start)
    assert files == [f / ".codex" / "config.toml" for f in (root, root / "a", start)]
    assert config_layers.project_files({}, start) == []


def test_the_last_file_that_sets_the_switch_decides(tmp_path: Path) -> None:
    user, project = tmp_path / "user.toml", tmp_path / "project.toml"
    assert config_layers.deciding([(user, {}), (project, {})]) is None
    assert config_layers.deciding([(user, OFF), (project, {})]) == (user, "hooks", False)
    assert config_layers.deciding([(user, OFF), (project, ON)]) == (project, "hooks", True)
    legacy = {"features": {"codex_hooks": False}}
    assert config_layers.deciding([(user, {}), (project, legacy)]) == (
        project, "codex_hooks", False,
    )  # fmt: skip
    # `hooks` in any file beats `codex_hooks` in any other (`codex features list` agrees).
    assert config_layers.deciding([(user, ON), (project, legacy)]) == (user, "hooks", True)
    later = {"features": {"codex_hooks": True}}
    assert config_layers.deciding([(user, OFF), (project, later)]) == (user, "hooks", False)
