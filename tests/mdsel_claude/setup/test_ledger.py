"""The install record: what install wrote and created, kept as JSON values."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mdsel_claude.setup import cli, entries, jsonfile, ledger
from mdsel_claude.setup.ledger import FileRecord, InstallRecord, WrittenEntry


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ({"a": [1, "x"]}, {"a": [1, "x"]}, True),
        ({"a": 1, "b": 2}, {"b": 2, "a": 1}, True),  # objects: order does not matter
        (1, True, False),
        (1, 1.0, False),
        (jsonfile.parse('{"n": 1E2}', Path("x"))["n"], 100.0, True),
        ({"env": {}}, {"env": {"A": "1"}}, False),
    ],
)
def test_same_value(a: object, b: object, same: bool) -> None:
    assert ledger.same_value(a, b) is same


def test_record_round_trip(tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    hook = {"type": "command", "command": "/x/mdsel-claude hook --min-words 5"}
    created = FileRecord(
        True, (("hooks",),), (WrittenEntry(("hooks", "PreToolUse"), hook, hook=True),)
    )
    state = InstallRecord().with_file(settings, created).with_dir(tmp_path / ".claude", True)
    record = tmp_path / "state" / "installed.json"
    ledger.save(state, record)
    loaded = ledger.load(record)
    assert loaded.created(settings) == created
    assert loaded.created(settings).wrote(hook, hook=True)
    assert not loaded.created(settings).wrote(hook, hook=False)
    assert not loaded.created(settings).wrote({**hook, "timeout": 5}, hook=True)
    assert loaded.dirs == (str(tmp_path / ".claude"),)
    ledger.save(InstallRecord(), record)
    assert not record.exists() and not record.parent.exists()


def test_a_damaged_record_counts_as_empty(tmp_path: Path) -> None:
    record = tmp_path / "installed.json"
    record.write_text('{"files": {"/a": {"written": [{"at": "no"}, 3]}}, "dirs": [1, "/d"]}')
    state = ledger.load(record)
    assert state.files["/a"] == FileRecord()
    assert state.dirs == ("/d",)
    record.write_text("{")
    assert ledger.load(record) == InstallRecord()


def test_a_record_of_the_first_format_still_uninstalls(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = Path.cwd().resolve()
    """Version 1 noted what install created, not what it wrote: there, entries exactly as
    install writes them count as written; look-alikes still stay."""
    exe = "/old/venv/bin/mdsel-claude"
    piped = {"type": "command", "command": f"{exe} hook --min-words 5 | tee log"}
    group = {"matcher": "Read", "hooks": [entries.hook_entry(exe, 5)]}
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(
        json.dumps({"hooks": {"PreToolUse": [group, {"hooks": [piped]}]}})
    )
    (project / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"mdsel": entries.server_entry(exe)}})
    )
    record = home / ".local" / "state" / "mdsel-claude" / "installed.json"
    record.parent.mkdir(parents=True)
    settings = str(project / ".claude" / "settings.json")
    record.write_text(
        json.dumps(
            {
                "version": 1,
                "files": {
                    settings: {"created_file": False, "created_keys": [["hooks"]]},
                    str(project / ".mcp.json"): {
                        "created_file": True,
                        "created_keys": [["mcpServers"]],
                    },
                },
                "dirs": [],
            }
        )
    )
    assert cli.main(["uninstall", "--scope", "project"]) == 0
    assert "tee log" in capsys.readouterr().out
    assert not (project / ".mcp.json").exists()
    assert json.loads(Path(settings).read_text()) == {"hooks": {"PreToolUse": [{"hooks": [piped]}]}}
