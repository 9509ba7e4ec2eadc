"""Shared by the backend tests: a stand-in `mdsel`, and a working directory of documents."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

import pytest

from mdsel import Problem

# A stand-in for an external mdsel: reports what it was given, prints what it is told to.
FAKE = """\
import json, os, sys
args = sys.argv[1:]
report = {"argv": args, "stdin": sys.stdin.read(), "cwd": os.getcwd(),
          "page_words": os.environ.get("MDSEL_PAGE_WORDS"), "encoding": sys.stdout.encoding}
behaviour = os.environ.get("FAKE_MDSEL", "report")
if behaviour == "report":
    sys.stdout.write(json.dumps(report) + "\\n")
elif behaviour == "fail":
    sys.stdout.write("partial\\n")
    sys.stderr.write("!h9.9 SELECTOR_NOT_FOUND: nope\\n")
    sys.exit(1)
elif behaviour == "crlf":
    sys.stdout.buffer.write("caf\\u00e9\\r\\nline\\r\\n".encode() + b"\\xff")
elif behaviour == "kill":
    os.kill(os.getpid(), 9)
elif behaviour == "hang":
    import time
    time.sleep(60)
"""


@pytest.fixture
def fake_mdsel(tmp_path: Path) -> str:
    script = tmp_path / "fake-mdsel"
    script.write_text(f"#!{sys.executable}\n{FAKE}")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script)


# The real engine, both ways: in process, and as this project's own `mdsel` executable.

DOC_A = (
    "# Guide\n\nIntro words here.\n\n## Install\n\nRun it.\n\n"
    "```sh\npip install x\n```\n\n## Use\n\nCall it.\n"
)
DOC_B = "Title\n=====\n\nSome text.\r\n\r\n## Other\r\n\r\n- one\r\n- two\r\n"


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "guide.md").write_text(DOC_A, encoding="utf-8")
    (tmp_path / "b.markdown").write_bytes(DOC_B.encode())
    (tmp_path / "bad.md").write_bytes(b"# Bad\n\xff\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def problems() -> list[Problem]:
    """Two problems the server found itself, as it hands them to a backend."""
    return [
        Problem("PROCESSING_ERROR", "NOT_MARKDOWN", "not a Markdown file name", file="x.txt"),
        Problem("FILE_NOT_FOUND", "NO_MATCH", "no file matches this pattern", file="*.mdx"),
    ]
