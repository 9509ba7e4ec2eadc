"""Settings files: strict parsing, faithful round trips, atomic writes that keep mode and links."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mdsel_claude.setup import jsonfile
from mdsel_claude.setup.jsonfile import ConfigFileError

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)
JSON_OBJECTS = st.dictionaries(st.text(), JSON_VALUES, max_size=6)


def ordered(value: object) -> str:
    """A value's canonical text with key order kept: equal means same value and same order."""
    return json.dumps(value, sort_keys=False)


@settings(max_examples=200, deadline=None)
@given(JSON_OBJECTS)
def test_round_trip_keeps_value_and_order(value: dict[str, object]) -> None:
    text = jsonfile.dumps(value)
    assert text.endswith("\n")
    assert ordered(jsonfile.parse(text, Path("x.json"))) == ordered(value)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"a": 1, "a": 2}', "duplicate key 'a'"),
        ('{"x": {"b": 1, "b": 1}}', "duplicate key 'b'"),
        ('{"a": 1,}', "not valid JSON (line 1, column 9"),
        ("{\n  // comment\n}", "not valid JSON (line 2, column 3"),
        ("", "not valid JSON (line 1, column 1"),
        ('{"a": NaN}', "NaN is not JSON"),
        ('{"a": -Infinity}', "-Infinity is not JSON"),
        ('{"a": ' + "[" * 100 + "]" * 100 + "}", "nested more than 100 levels deep"),
        ('{"a": ' + "[" * 5000 + "]" * 5000 + "}", "nested more than 100 levels deep"),
        ("[]", "expected a JSON object at the top, found an array"),
        ('"text"', "found a string"),
        ("null", "found null"),
    ],
)
def test_refusals(text: str, problem: str) -> None:
    with pytest.raises(ConfigFileError) as caught:
        jsonfile.parse(text, Path("settings.json"))
    assert problem in caught.value.problem
    assert str(caught.value).startswith("settings.json: ")


def test_nesting_up_to_the_limit_is_read() -> None:
    value = jsonfile.parse('{"a": ' + "[" * 99 + "]" * 99 + "}", Path("settings.json"))
    assert isinstance(value["a"], list)


def test_bom_and_unicode(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_bytes(b'\xef\xbb\xbf{"name": "caf\xc3\xa9"}')
    assert jsonfile.load(path) == {"name": "café"}
    jsonfile.write_atomic(path, {"name": "café", "lone": "\ud800"})
    assert jsonfile.load(path) == {"name": "café", "lone": "\ud800"}
    # The BOM and the text as written stay; the lone surrogate can only be written as an escape.
    assert path.read_bytes() == b'\xef\xbb\xbf{"name": "caf\xc3\xa9", "lone": "\\ud800"}'


def test_load_missing_and_directory(tmp_path: Path) -> None:
    assert jsonfile.load(tmp_path / "missing.json") is None
    with pytest.raises(ConfigFileError, match="is a directory, not a regular file"):
        jsonfile.load(tmp_path)


def test_numbers_keep_their_literal_text(tmp_path: Path) -> None:
    text = (
        '{"a": 1E2, "b": -0, "c": 0.10000000000000000000001, "d": 1e999, '
        '"e": 12345678901234567890123}'
    )
    path = tmp_path / "s.json"
    path.write_text(text)
    value = jsonfile.load(path)
    assert value is not None and value["a"] == 100 and value["b"] == 0
    jsonfile.write_atomic(path, {**value, "new": 1})
    assert path.read_text() == text[:-1] + ', "new": 1}'
    assert jsonfile.dumps(value) == (
        '{\n  "a": 1E2,\n  "b": -0,\n  "c": 0.10000000000000000000001,\n  "d": 1e999,\n'
        '  "e": 12345678901234567890123\n}\n'
    )


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_devices_are_refused_without_reading(tmp_path: Path, device: str) -> None:
    link = tmp_path / "settings.json"
    link.symlink_to(device)
    with pytest.raises(ConfigFileError, match="is a device, not a regular file"):
        jsonfile.load(link)


def test_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "settings.json"
    os.mkfifo(fifo)
    with pytest.raises(ConfigFileError, match="is a FIFO, not a regular file"):
        jsonfile.load(fifo)


def test_oversized_and_dangling_files(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as out:
        out.truncate(jsonfile.MAX_FILE_BYTES + 1)
    with pytest.raises(ConfigFileError, match="larger than 16777216 bytes"):
        jsonfile.load(big)
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to(tmp_path / "nowhere.json")
    with pytest.raises(ConfigFileError, match=r"nowhere\.json, which does not exist"):
        jsonfile.load(dangling)
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"a": "caf\xe9"}')
    with pytest.raises(ConfigFileError, match="not UTF-8 text"):
        jsonfile.load(latin)


def test_write_creates_with_umask_mode(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        jsonfile.write_atomic(tmp_path / "new.json", {"a": 1})
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o640
    assert (tmp_path / "new.json").read_text() == '{\n  "a": 1\n}\n'


def test_write_keeps_mode(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text("{}")
    path.chmod(0o600)
    jsonfile.write_atomic(path, {"b": [1, 2]})
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert jsonfile.load(path) == {"b": [1, 2]}


def test_write_through_symlink_writes_target(tmp_path: Path) -> None:
    real_dir = tmp_path / "dotfiles"
    real_dir.mkdir()
    target = real_dir / "settings.json"
    target.write_text('{"keep": true}')
    target.chmod(0o644)
    link = tmp_path / "settings.json"
    link.symlink_to(target)
    jsonfile.write_atomic(link, {"keep": True, "new": 1})
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert json.loads(target.read_text()) == {"keep": True, "new": 1}
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert sorted(p.name for p in real_dir.iterdir()) == ["settings.json"]  # no temp left


def test_failed_replace_leaves_original_and_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "s.json"
    path.write_text('{"original": 1}')

    def broken_replace(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        jsonfile.write_atomic(path, {"new": 2})
    assert path.read_text() == '{"original": 1}'
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]


def test_delete_removes_target_keeps_link(tmp_path: Path) -> None:
    target = tmp_path / "real.json"
    target.write_text("{}")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    jsonfile.delete(link)
    assert not target.exists() and link.is_symlink()
    jsonfile.delete(tmp_path / "never.json")  # nothing there: no error


def test_the_next_write_removes_a_temporary_file_a_killed_write_left(tmp_path: Path) -> None:
    target = tmp_path / "settings.local.json"
    target.write_text("{}\n")
    old = jsonfile.STALE_SECONDS + 60
    killed = tmp_path / ".settings.local.json.mdsel-claude-k1ll3d_x.tmp"  # ours: any age goes
    stale = tmp_path / ".settings.local.json.ab3d_f9z.tmp"  # an older version's, long left
    fresh = tmp_path / ".settings.local.json.q1w2e3r4.tmp"  # maybe another program's, now
    other = tmp_path / ".settings.local.json.notours.tmp"
    linked = tmp_path / ".settings.local.json.mdsel-claude-zzzzzzzz.tmp"
    for path in (killed, stale, fresh, other):
        path.write_text("{")
    linked.symlink_to(target)
    for path in (stale, other):
        os.utime(path, (os.stat(path).st_atime - old, os.stat(path).st_mtime - old))
    jsonfile.write_atomic(target, {"a": 1})
    assert json.loads(target.read_text()) == {"a": 1}
    assert not killed.exists() and not stale.exists()
    assert fresh.exists() and other.exists() and linked.is_symlink()


def test_a_write_killed_before_its_rename_leaves_a_file_the_next_run_removes(
    tmp_path: Path,
) -> None:
    """SIGKILL between writing the temporary file and renaming it over the target: the
    target is as it was, and the next run (at once, not minutes later) removes the leftover."""
    target = tmp_path / "settings.local.json"
    target.write_text("{}\n")
    killed = subprocess.run(
        [
            sys.executable,
            "-c",
            "import os, signal, sys; from pathlib import Path;"
            "from mdsel_claude.setup import jsonfile;"
            "os.replace = lambda *a: os.kill(os.getpid(), signal.SIGKILL);"
            "jsonfile.write_atomic(Path(sys.argv[1]), {'half': 1})",
            str(target),
        ],
        check=False,
    )
    assert killed.returncode == -signal.SIGKILL
    [left] = [p.name for p in tmp_path.iterdir() if p != target]
    assert left.startswith(".settings.local.json.") and left.endswith(".tmp")
    assert target.read_text() == "{}\n"
    jsonfile.write_atomic(target, {"a": 1})
    assert [p.name for p in tmp_path.iterdir()] == ["settings.local.json"]
    (tmp_path / left).write_text("{")  # and when the next run deletes the file instead
    jsonfile.delete(target)
    assert list(tmp_path.iterdir()) == []
