"""The README's "Where things are" map and the tree: every module is on the map, and every file
the map names is there."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PER_CLIENT = ("src/mdsel_claude/hook", "src/mdsel_claude/setup/clients")
"""Folders the map describes as one module per client: their modules are the clients' names."""


def the_map() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    after = text.split("\n## Where things are\n", 1)[1]
    return after.split("```", 2)[1]


def named_words() -> set[str]:
    return set(re.findall(r"[A-Za-z_]\w*", the_map()))


def test_every_module_and_folder_of_src_is_on_the_map() -> None:
    words = named_words()
    missing = []
    for path in sorted((ROOT / "src").rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if path.stem in {"__init__", "__main__"} or relative.startswith(PER_CLIENT):
            continue
        if path.stem not in words:
            missing.append(relative)
    folders = {p.parent for p in (ROOT / "src").rglob("*.py")}
    missing += [f"{d.relative_to(ROOT)}/" for d in sorted(folders) if d.name not in words]
    assert not missing, f"not on the README's map: {missing}"


def test_every_file_the_map_names_is_in_the_tree() -> None:
    stems = {p.stem for p in ROOT.glob("src/**/*.py")} | {p.stem for p in ROOT.glob("tests/*.py")}
    named = set(re.findall(r"\b([a-z_]\w*)\.py\b", the_map()))
    assert named and not named - stems, f"named on the map, not in the tree: {named - stems}"


def test_the_one_module_per_client_folders_are_the_clients() -> None:
    """hook/ and setup/clients/ are described, not listed: every client setup installs a hook
    for has its payload module in hook/ under the same name (Cursor takes the server only)."""
    hook = {p.stem for p in (ROOT / "src/mdsel_claude/hook").glob("*.py")}
    clients = {
        p.stem if p.is_file() else p.name
        for p in (ROOT / "src/mdsel_claude/setup/clients").iterdir()
        if p.suffix == ".py" or (p / "__init__.py").exists()
    } - {"__init__", "base"}
    assert clients - {"cursor"} <= hook, clients - hook
