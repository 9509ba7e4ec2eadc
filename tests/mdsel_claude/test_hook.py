"""The Read hook in-process: payload table with exact stdout, word counting, early stops."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mdsel_claude.hook import files as hook_files
from tests.mdsel_claude.conftest import RunHook

CASES_FILE = Path(__file__).parents[1] / "cases" / "word_counts.json"

# Typed out here on purpose, not imported: the test must fail if the module's text drifts.
REMINDER = (
    "This is a Markdown file over the configured size threshold.\n"
    "Use mdsel_index and mdsel_select instead of Read."
)


def expected_output(event: str) -> str:
    return (
        '{"hookSpecificOutput": {"hookEventName": "' + event + '", "additionalContext": '
        '"This is a Markdown file over the configured size threshold.\\n'
        'Use mdsel_index and mdsel_select instead of Read."}}\n'
    )


def words(n: int) -> str:
    return " ".join(f"w{i}" for i in range(n)) + "\n"


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "big.md").write_text(words(201))
    (tmp_path / "exact.md").write_text(words(200))
    (tmp_path / "small.md").write_text(words(10))
    (tmp_path / "big.markdown").write_text(words(500))
    (tmp_path / "BIG.MD").write_text(words(500))
    (tmp_path / "big.mdx").write_text(words(500))
    (tmp_path / "big.mkdn").write_text(words(500))
    (tmp_path / "big.txt").write_text(words(500))
    (tmp_path / "big.md.bak").write_text(words(500))
    (tmp_path / "dir.md").mkdir()
    os.mkfifo(tmp_path / "fifo.md")
    (tmp_path / "binary.md").write_bytes(b"\0" + words(500).encode())
    (tmp_path / "words-then-nul.md").write_bytes(words(300).encode() + b"\0" + b"x " * 10)
    (tmp_path / "few-words-then-nul.md").write_bytes(words(5).encode() + b"\0" + b"x " * 500)
    (tmp_path / "bom.md").write_bytes(b"\xef\xbb\xbf " + words(200).encode())
    (tmp_path / "target.md").write_text(words(500))
    (tmp_path / "secret.txt").write_text(words(500))
    (tmp_path / "link.md").symlink_to("target.md")
    (tmp_path / "link-to-txt.md").symlink_to("secret.txt")
    (tmp_path / "link.txt").symlink_to("target.md")
    (tmp_path / "dangling.md").symlink_to("nowhere.md")
    return tmp_path


def read(path: str, event: str = "PreToolUse", cwd: str | None = None) -> dict[str, object]:
    payload: dict[str, object] = {
        "session_id": "s",
        "transcript_path": "/dev/null",
        "hook_event_name": event,
        "tool_name": "Read",
        "tool_input": {"file_path": path},
    }
    if cwd is not None:
        payload["cwd"] = cwd
    return payload


PRE = expected_output("PreToolUse")
POST = expected_output("PostToolUse")

# (id, payload built from the files directory, expected stdout)
PAYLOADS: list[tuple[str, Callable[[Path], object], str]] = [
    ("read-big-md", lambda d: read(str(d / "big.md")), PRE),
    ("read-exactly-threshold", lambda d: read(str(d / "exact.md")), ""),
    ("read-small-md", lambda d: read(str(d / "small.md")), ""),
    ("read-big-markdown", lambda d: read(str(d / "big.markdown")), PRE),
    ("read-uppercase-extension", lambda d: read(str(d / "BIG.MD")), PRE),
    ("read-mdx", lambda d: read(str(d / "big.mdx")), PRE),
    ("read-mkdn", lambda d: read(str(d / "big.mkdn")), PRE),
    ("read-txt", lambda d: read(str(d / "big.txt")), ""),
    ("read-md-bak", lambda d: read(str(d / "big.md.bak")), ""),
    ("read-missing", lambda d: read(str(d / "missing.md")), ""),
    ("read-directory", lambda d: read(str(d / "dir.md")), ""),
    ("read-fifo", lambda d: read(str(d / "fifo.md")), ""),
    ("read-binary", lambda d: read(str(d / "binary.md")), ""),
    ("read-words-then-nul", lambda d: read(str(d / "words-then-nul.md")), PRE),
    ("read-few-words-then-nul", lambda d: read(str(d / "few-words-then-nul.md")), ""),
    ("read-bom-not-a-word", lambda d: read(str(d / "bom.md")), ""),
    ("read-symlink-md-to-md", lambda d: read(str(d / "link.md")), PRE),
    ("read-symlink-md-to-txt", lambda d: read(str(d / "link-to-txt.md")), ""),
    ("read-symlink-txt-to-md", lambda d: read(str(d / "link.txt")), ""),
    ("read-dangling-symlink", lambda d: read(str(d / "dangling.md")), ""),
    ("relative-path-with-cwd", lambda d: read("big.md", cwd=str(d)), PRE),
    ("relative-path-small-with-cwd", lambda d: read("small.md", cwd=str(d)), ""),
    ("relative-path-parent", lambda d: read("../big.md", cwd=str(d / "dir.md")), PRE),
    ("post-tool-use", lambda d: read(str(d / "big.md"), "PostToolUse"), POST),
    ("post-tool-use-small", lambda d: read(str(d / "small.md"), "PostToolUse"), ""),
    ("other-event", lambda d: read(str(d / "big.md"), "UserPromptSubmit"), ""),
    ("no-event", lambda d: {**read(str(d / "big.md")), "hook_event_name": None}, ""),
    ("tool-write", lambda d: {**read(str(d / "big.md")), "tool_name": "Write"}, ""),
    ("tool-edit", lambda d: {**read(str(d / "big.md")), "tool_name": "Edit"}, ""),
    ("tool-lowercase-read", lambda d: {**read(str(d / "big.md")), "tool_name": "read"}, ""),
    ("no-tool-input", lambda d: {**read(str(d / "big.md")), "tool_input": None}, ""),
    ("file-path-number", lambda d: {**read(""), "tool_input": {"file_path": 7}}, ""),
    ("file-path-empty", lambda d: read(""), ""),
    ("file-path-with-nul", lambda d: read(str(d / "big.md") + "\0x"), ""),
    ("payload-array", lambda d: [read(str(d / "big.md"))], ""),
    ("payload-string", lambda d: "Read", ""),
    ("payload-null", lambda d: None, ""),
]


@pytest.mark.parametrize(
    ("payload", "expected"), [p[1:] for p in PAYLOADS], ids=[p[0] for p in PAYLOADS]
)
def test_payloads(
    run_hook: RunHook, files: Path, payload: Callable[[Path], object], expected: str
) -> None:
    status, out, err = run_hook(payload(files))
    assert (status, out, err) == (0, expected, "")


@pytest.mark.parametrize(
    "stdin",
    [b"", b"   \n", b"{", b"not json", b'{"tool_name": "Read",}', b"\xff\xfe\x00", b"[1, 2"],
    ids=["empty", "blank", "open-brace", "text", "trailing-comma", "bad-bytes", "open-array"],
)
def test_malformed_stdin_is_silent(run_hook: RunHook, stdin: bytes) -> None:
    assert run_hook(stdin) == (0, "", "")


def test_reminder_text_is_the_spec_text() -> None:
    assert hook_files.REMINDER == REMINDER
    assert hook_files.REMINDER.encode() == (
        b"This is a Markdown file over the configured size threshold.\n"
        b"Use mdsel_index and mdsel_select instead of Read."
    )


def test_output_never_blocks(run_hook: RunHook, files: Path) -> None:
    _, out, _ = run_hook(read(str(files / "big.md")))
    decoded = json.loads(out)
    assert decoded == {
        "hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": REMINDER}
    }
    assert "permissionDecision" not in out and "decision" not in out


def test_relative_path_without_cwd_uses_process_directory(
    run_hook: RunHook, files: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(files)
    assert run_hook(read("big.md")) == (0, PRE, "")


def test_fifo_is_never_opened(
    run_hook: RunHook, files: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[str] = []
    real_open = os.open

    def spy(path: str, *args: int, **kwargs: int) -> int:
        opened.append(str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", spy)
    assert run_hook(read(str(files / "fifo.md"))) == (0, "", "")
    assert not any(name.endswith("fifo.md") for name in opened)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_file_is_silent(run_hook: RunHook, files: Path) -> None:
    (files / "big.md").chmod(0)
    assert run_hook(read(str(files / "big.md"))) == (0, "", "")


# -- threshold ------------------------------------------------------------------------------


def test_min_words_flag(run_hook: RunHook, files: Path) -> None:
    payload = read(str(files / "small.md"))  # 10 words
    assert run_hook(payload, "--min-words", "9") == (0, PRE, "")
    assert run_hook(payload, "--min-words", "10") == (0, "", "")
    assert run_hook(payload, "--min-words=9") == (0, PRE, "")
    assert run_hook(payload, "--min-words", "0") == (0, PRE, "")


def test_environment_threshold(
    run_hook: RunHook, files: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    payload = read(str(files / "small.md"))
    monkeypatch.setenv("MDSEL_MIN_WORDS", "9")
    assert run_hook(payload) == (0, PRE, "")
    monkeypatch.setenv("MDSEL_MIN_WORDS", "10")
    assert run_hook(payload) == (0, "", "")
    # The flag (what install writes) wins over the environment.
    assert run_hook(payload, "--min-words", "9") == (0, PRE, "")


def test_a_threshold_of_many_digits_is_read_as_the_largest(
    run_hook: RunHook, files: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MDSEL_MIN_WORDS", "9" * 40)  # a whole number: no file reaches it
    assert run_hook(read(str(files / "big.md"))) == (0, "", "")


@pytest.mark.parametrize("value", ["-1", "abc", " ", "1.5", "1e3", "٣", "9 9"])
def test_invalid_threshold_falls_back_to_200(
    run_hook: RunHook, files: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    for args, env in (((f"--min-words={value}",), None), ((), f"x{value}")):
        if env is None:
            monkeypatch.delenv("MDSEL_MIN_WORDS", raising=False)
        else:
            monkeypatch.setenv("MDSEL_MIN_WORDS", env)
        assert run_hook(read(str(files / "small.md")), *args)[:2] == (0, "")
        status, out, err = run_hook(read(str(files / "big.md")), *args)
        assert (status, out) == (0, PRE)
        assert "not a non-negative integer; using 200" in err


def test_empty_environment_value_means_unset(
    run_hook: RunHook, files: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MDSEL_MIN_WORDS", "")
    assert run_hook(read(str(files / "big.md"))) == (0, PRE, "")
    assert run_hook(read(str(files / "exact.md"))) == (0, "", "")


def test_missing_flag_value_falls_back(run_hook: RunHook, files: Path) -> None:
    status, out, err = run_hook(read(str(files / "big.md")), "--min-words")
    assert (status, out) == (0, PRE)
    assert "using 200" in err


def test_unknown_argument_is_ignored(run_hook: RunHook, files: Path) -> None:
    status, out, err = run_hook(read(str(files / "big.md")), "--verbose")
    assert (status, out) == (0, PRE)
    assert "ignoring unknown argument '--verbose'" in err


def test_help(run_hook: RunHook) -> None:
    status, out, _ = run_hook(b"", "--help")
    assert status == 0 and out.startswith("usage: mdsel-claude hook")


# -- word counting --------------------------------------------------------------------------


def load_word_cases() -> list[tuple[str, bytes, int]]:
    cases = json.loads(CASES_FILE.read_text(encoding="utf-8"))
    return [
        (
            case["id"],
            bytes.fromhex(case["hex"]) if "hex" in case else case["text"].encode("utf-8"),
            case["words"],
        )
        for case in cases
    ]


WORD_CASES = load_word_cases()


def test_word_case_table_is_well_formed() -> None:
    ids = [case_id for case_id, _, _ in WORD_CASES]
    assert len(ids) == len(set(ids)) and len(ids) >= 20
    for _, data, _ in WORD_CASES:
        assert b"\0" not in data
        data.decode("utf-8")  # the engine's cases too: valid UTF-8 only


@pytest.mark.parametrize("chunk", [1, 2, 3, 5, 64 * 1024])
@pytest.mark.parametrize(
    ("data", "count"), [c[1:] for c in WORD_CASES], ids=[c[0] for c in WORD_CASES]
)
def test_word_cases(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: int, data: bytes, count: int
) -> None:
    monkeypatch.setattr(hook_files, "CHUNK_BYTES", chunk)
    path = tmp_path / "case.md"
    path.write_bytes(data)
    assert not hook_files.exceeds_word_threshold(str(path), count)
    if count:
        assert hook_files.exceeds_word_threshold(str(path), count - 1)


def reference_exceeds(data: bytes, threshold: int) -> bool:
    """The rule spelled out plainly: BOM skipped, bytes up to the first NUL, 8 MiB at most."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    data = data[: hook_files.MAX_BYTES].split(b"\0", 1)[0]
    return len(data.split()) > threshold


@settings(max_examples=300, deadline=None)
@given(
    data=st.lists(
        st.sampled_from(
            [
                b"a",
                b"bc",
                b" ",
                b"\n",
                b"\t",
                b"\r\n",
                b"\x0b",
                b"\x0c",
                b"\0",
                b"\xef\xbb\xbf",
                b"\xc2\xa0",
                b"#",
            ]
        ),
        max_size=60,
    ).map(b"".join),
    threshold=st.integers(min_value=0, max_value=30),
    chunk=st.integers(min_value=1, max_value=9),
)
def test_counting_matches_the_rule_for_any_chunking(
    data: bytes, threshold: int, chunk: int
) -> None:
    with tempfile.TemporaryDirectory() as temp:
        path = Path(temp, "x.md")
        path.write_bytes(data)
        original = hook_files.CHUNK_BYTES
        hook_files.CHUNK_BYTES = chunk
        try:
            assert hook_files.exceeds_word_threshold(str(path), threshold) == reference_exceeds(
                data, threshold
            )
        finally:
            hook_files.CHUNK_BYTES = original


# -- bounded work ---------------------------------------------------------------------------


@pytest.fixture
def read_bytes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record how many bytes each os.read returns."""
    sizes: list[int] = []
    real_read = os.read

    def spy(fd: int, n: int) -> bytes:
        data = real_read(fd, n)
        sizes.append(len(data))
        return data

    monkeypatch.setattr(os, "read", spy)
    return sizes


def test_stops_once_threshold_passed(tmp_path: Path, read_bytes: list[int]) -> None:
    path = tmp_path / "huge.md"
    path.write_bytes(b"word " * 2_000_000)  # 10 MB of words
    assert hook_files.exceeds_word_threshold(str(path), 200)
    assert sum(read_bytes) <= hook_files.CHUNK_BYTES + 3


def test_stops_at_first_nul(tmp_path: Path, read_bytes: list[int]) -> None:
    path = tmp_path / "zeros.md"
    with path.open("wb") as f:
        f.truncate(1 << 30)  # sparse: 1 GiB of NUL bytes
    assert not hook_files.exceeds_word_threshold(str(path), 200)
    assert sum(read_bytes) <= hook_files.CHUNK_BYTES + 3


def test_stops_after_max_bytes(tmp_path: Path, read_bytes: list[int]) -> None:
    path = tmp_path / "one-long-word.md"
    path.write_bytes(b"x" * (hook_files.MAX_BYTES + 3 * hook_files.CHUNK_BYTES) + b" y" * 300)
    assert not hook_files.exceeds_word_threshold(str(path), 200)
    assert sum(read_bytes) <= hook_files.MAX_BYTES + 3


def test_small_file_is_not_read(tmp_path: Path, read_bytes: list[int]) -> None:
    path = tmp_path / "small.md"
    path.write_bytes(b"a " * 200)  # 400 bytes cannot hold 201 words
    assert not hook_files.exceeds_word_threshold(str(path), 200)
    assert read_bytes == []


def test_an_invalid_flag_falls_through_to_the_environment(
    run_hook: RunHook, files: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MDSEL_MIN_WORDS", "100000000")
    status, out, err = run_hook(read(str(files / "big.md")), "--min-words", "5,000")
    assert (status, out) == (0, "")
    assert "--min-words='5,000' is not a non-negative integer; using 100000000" in err


def test_an_oversized_payload_is_silence(run_hook: RunHook, files: Path) -> None:
    payload = json.dumps(read(str(files / "big.md")))
    assert run_hook(" " * 1000 + payload)[:2] == (0, PRE)  # valid JSON, reminded
    assert run_hook(" " * (16 * 1024 * 1024) + payload)[:2] == (0, "")  # past the cap: silence


@pytest.mark.parametrize("client", ["gemini", "codex", "opencode", "cline", "qwen", "factory"])
def test_other_clients_get_no_notes_on_stderr(
    run_hook: RunHook, monkeypatch: pytest.MonkeyPatch, client: str
) -> None:
    # Gemini CLI shows a hook's stderr to the user when stdout is empty: a bad setting must not
    # turn every read into a message there.
    monkeypatch.setenv("MDSEL_HOOK_MODE", "bogus")
    monkeypatch.setenv("MDSEL_MIN_WORDS", "many")
    status, out, err = run_hook({}, "--client", client)
    assert (status, out, err) == (0, "", "")


def test_claude_code_is_told_about_a_bad_setting(
    run_hook: RunHook, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MDSEL_HOOK_MODE", "bogus")
    status, out, err = run_hook({})
    assert status == 0 and out == "" and "MDSEL_HOOK_MODE='bogus'" in err
