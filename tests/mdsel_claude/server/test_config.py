"""Tests for server.config: defaults, every variable, and errors that name the variable."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from mdsel.settings import read_settings
from mdsel_claude.server.config import ConfigError, EngineSettings, Settings, load_settings


def test_defaults_match_the_spec(tmp_path: Path) -> None:
    settings = load_settings({}, cwd=str(tmp_path))
    assert settings == Settings()
    assert settings.json is False
    engine = settings.engine
    assert (engine.page_words, engine.max_headings) == (2000, 250)
    assert (engine.max_files, engine.max_bytes) == (2000, 8388608)
    assert engine.max_answer_tokens == 10000
    assert engine.max_total_bytes == 33554432
    assert settings.roots is None and settings.bin is None
    assert settings.cache_bytes == 576 * 1024 * 1024
    assert engine.max_blocks == 4_000_000
    assert settings.max_read_ms == 2000 and settings.read_seconds == 2.0


def test_no_time_for_reading_where_nothing_read_on_is_kept(tmp_path: Path) -> None:
    """With MDSEL_BIN or no parse cache, a call asked again would read from nothing again."""
    assert Settings(cache_bytes=0).read_seconds is None
    assert Settings(bin=str(tmp_path / "mdsel")).read_seconds is None


def test_the_engine_variables_are_the_engines_own_settings() -> None:
    """One reader for what the CLI and the server share: a variable added to the engine's
    Settings reaches the server without a line here."""
    environ = {"MDSEL_PAGE_WORDS": "7", "MDSEL_MAX_NAMES": "9"}
    settings = load_settings(environ)
    assert settings.engine == read_settings(environ)
    assert isinstance(settings.engine, EngineSettings)
    server_only = {name for name in Settings.__dataclass_fields__ if name != "engine"}
    assert not server_only & set(EngineSettings._fields)


def setting(settings: Settings, field: str) -> object:
    """A setting by name, wherever it is kept: the engine's own, or the server's."""
    if field in EngineSettings._fields:
        return getattr(settings.engine, field)
    return getattr(settings, field)


def test_block_limit_default_is_the_engines() -> None:
    from mdsel.tree import DEFAULT_MAX_NODES

    assert Settings().engine.max_blocks == DEFAULT_MAX_NODES


@pytest.mark.parametrize(
    ("value", "expected"), [("text", False), ("json", True), (" JSON ", True), ("", False)]
)
def test_format(value: str, expected: bool) -> None:
    assert load_settings({"MDSEL_FORMAT": value}).json is expected


@pytest.mark.parametrize(
    ("variable", "field"),
    [
        ("MDSEL_PAGE_WORDS", "page_words"),
        ("MDSEL_INDEX_MAX_HEADINGS", "max_headings"),
        ("MDSEL_MAX_FILES", "max_files"),
        ("MDSEL_MAX_BYTES", "max_bytes"),
        ("MDSEL_MAX_TOTAL_BYTES", "max_total_bytes"),
        ("MDSEL_MAX_DEPTH", "max_depth"),
        ("MDSEL_MAX_ENTRIES", "max_entries"),
        ("MDSEL_MAX_ENTRY_CHARS", "max_entry_chars"),
        ("MDSEL_MAX_GLOB_SEGMENTS", "max_glob_segments"),
        ("MDSEL_MAX_PROBLEMS", "max_problems"),
        ("MDSEL_MAX_ANSWER_CHARS", "max_answer_chars"),
        ("MDSEL_MAX_RESULT_TOKENS", "max_result_tokens"),
        ("MDSEL_MAX_REQUEST_BYTES", "max_request_bytes"),
        ("MDSEL_MAX_READ_MS", "max_read_ms"),
        ("MDSEL_MAX_BLOCKS", "max_blocks"),
        ("MDSEL_MAX_ANSWER_TOKENS", "max_answer_tokens"),
    ],
)
def test_integer_variables(variable: str, field: str) -> None:
    assert setting(load_settings({variable: " 42 "}), field) == 42


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("MDSEL_FORMAT", "yaml"),
        ("MDSEL_PAGE_WORDS", "0"),
        ("MDSEL_PAGE_WORDS", "-5"),
        ("MDSEL_INDEX_MAX_HEADINGS", "ten"),
        ("MDSEL_MAX_FILES", "1_000"),
        ("MDSEL_MAX_BYTES", "+7"),
        ("MDSEL_MAX_TOTAL_BYTES", "1e6"),
        ("MDSEL_MAX_TOTAL_BYTES", "\u0663"),  # an Arabic-Indic digit: int() would take it
        ("MDSEL_MAX_BLOCKS", "0"),
        ("MDSEL_ROOTS", "/definitely/not/a/directory"),
        ("MDSEL_BIN", "/definitely/not/mdsel"),
        ("MDSEL_BIN", "no-such-command-mdsel-xyz"),
    ],
)
def test_bad_values_name_the_variable(variable: str, value: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings({variable: value, "PATH": "/nonexistent"})
    assert caught.value.variable == variable
    assert str(caught.value).startswith(f"{variable}=")


def test_roots_are_resolved_deduplicated_and_relative_to_cwd(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "notes").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "docs")
    value = os.pathsep.join(["docs", "", str(tmp_path / "notes"), "link"])
    roots = load_settings({"MDSEL_ROOTS": value}, cwd=str(tmp_path)).roots
    real = os.path.realpath(tmp_path)
    assert roots == (os.path.join(real, "docs"), os.path.join(real, "notes"))


def test_roots_of_only_separators_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="MDSEL_ROOTS"):
        load_settings({"MDSEL_ROOTS": os.pathsep * 2}, cwd=str(tmp_path))


def test_roots_naming_a_file_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("x")
    with pytest.raises(ConfigError, match="MDSEL_ROOTS"):
        load_settings({"MDSEL_ROOTS": "a.md"}, cwd=str(tmp_path))


def _executable(path: Path) -> Path:
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_bin_by_path_becomes_absolute(tmp_path: Path) -> None:
    tool = _executable(tmp_path / "my-mdsel")
    assert load_settings({"MDSEL_BIN": "./my-mdsel"}, cwd=str(tmp_path)).bin == str(tool)


def test_bin_by_name_is_found_on_path(tmp_path: Path) -> None:
    tool = _executable(tmp_path / "my-mdsel")
    settings = load_settings({"MDSEL_BIN": "my-mdsel", "PATH": str(tmp_path)})
    assert settings.bin == str(tool)


def test_bin_that_is_not_executable_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("")
    with pytest.raises(ConfigError, match="MDSEL_BIN"):
        load_settings({"MDSEL_BIN": str(tmp_path / "plain")})
    with pytest.raises(ConfigError, match="MDSEL_BIN"):
        load_settings({"MDSEL_BIN": str(tmp_path)})


def test_settings_are_frozen() -> None:
    settings = Settings()
    with pytest.raises(AttributeError):
        settings.json = True  # type: ignore[misc]


ENGINE_VARIABLES = {
    "MDSEL_PAGE_WORDS": "page_words",
    "MDSEL_INDEX_MAX_HEADINGS": "max_headings",
    "MDSEL_MAX_FILES": "max_files",
    "MDSEL_MAX_BYTES": "max_bytes",
    "MDSEL_MAX_TOTAL_BYTES": "max_total_bytes",
    "MDSEL_MAX_DEPTH": "max_depth",
    "MDSEL_MAX_NAMES": "max_names",
}

# Value → what both readers make of it: a number, None for the default, or "error".
NUMBER_CASES: list[tuple[str, int | str | None]] = [
    ("2000", 2000),
    (" 42 ", 42),
    ("\t7\n", 7),
    ("0001", 1),
    ("9" * 18, 10**18 - 1),
    ("", None),
    ("   ", None),
    ("1_000", "error"),
    ("+7", "error"),
    ("-5", "error"),
    ("0", "error"),
    ("1e6", "error"),
    ("1.5", "error"),
    ("1 000", "error"),
    ("0x10", "error"),
    ("ten", "error"),
    ("\u0663", "error"),  # an Arabic-Indic digit: int() would take it
    ("\uff11", "error"),  # a fullwidth digit, likewise
    ("9" * 19, 10**18 - 1),  # past 18 digits: the largest of 18, more than anything reaches
]


@pytest.mark.parametrize("variable", ENGINE_VARIABLES)
@pytest.mark.parametrize(("value", "expected"), NUMBER_CASES)
def test_the_cli_and_the_server_read_numbers_alike(
    variable: str, value: str, expected: int | str | None
) -> None:
    from mdsel.cli import run
    from tests.conftest import FIXTURES

    field = ENGINE_VARIABLES[variable]
    environ = {variable: value}
    cli = run(["index", str(FIXTURES / "structure.md")], environ)
    if expected == "error":
        with pytest.raises(ConfigError) as caught:
            load_settings(environ)
        assert caught.value.variable == variable
        assert cli.exit_code == 2
        assert cli.stderr == f"mdsel: {caught.value}\n"  # the same words from both
        return
    assert cli.exit_code != 2 and not cli.stderr.startswith("mdsel: "), cli.stderr
    default = setting(Settings(), field)
    assert setting(load_settings(environ), field) == (default if expected is None else expected)


def test_request_caps_have_documented_defaults() -> None:
    settings = Settings()
    assert settings.engine.max_depth == 64
    assert (settings.max_entries, settings.max_entry_chars) == (100, 1024)
    assert (settings.max_glob_segments, settings.max_problems) == (32, 50)
    assert settings.max_request_bytes == 1024 * 1024
    # Where Claude Code stops showing a result: well above an answer within the token budget.
    assert settings.max_answer_chars == 100_000 > 3 * settings.engine.max_answer_tokens
    # Claude Code's MAX_MCP_OUTPUT_TOKENS; never below the answer budget.
    assert settings.result_tokens == settings.max_result_tokens == 25_000
    raised = load_settings({"MDSEL_MAX_ANSWER_TOKENS": "40000"})
    assert raised.result_tokens == 40_000


def test_a_number_of_thousands_of_digits_is_read_as_the_largest_not_a_crash() -> None:
    # int() refuses past 4300 digits: the value is never converted digit by digit.
    assert load_settings({"MDSEL_MAX_ENTRIES": "9" * 5000}).max_entries == 10**18 - 1
