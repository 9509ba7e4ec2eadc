"""scripts/refresh-test-data.py, corpus part: copies what the source manifest lists, checks sizes.

Run on a copy of the repository's test data, never on the repository itself.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT


def refresh(project: Path, source: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(project / "scripts" / "refresh-test-data.py"), "--skip-commonmark",
         "--skip-prose", "--corpus", str(source)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def test_corpus_refresh_copies_listed_files_and_drops_unlisted_ones(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "refresh-test-data.py", project / "scripts")
    shutil.copytree(ROOT / "tests" / "corpus", project / "tests" / "corpus")
    source = tmp_path / "source"
    source.mkdir()
    header = "name\trepo\tpath\tcommit\tlicense\tbytes\tlines\twords\twhy_chosen\n"
    row = "new.md\to/r\tnew.md\t" + "0" * 40 + "\tMIT\t{size}\t1\t2\ta test\n"
    (source / "new.md").write_bytes(b"# New\r\n")
    (source / "MANIFEST.tsv").write_text(header + row.format(size=7), encoding="utf-8")

    done = refresh(project, source)
    assert done.returncode == 0, done.stderr
    corpus = project / "tests" / "corpus"
    assert (corpus / "new.md").read_bytes() == b"# New\r\n"
    assert sorted(p.name for p in corpus.glob("*.md*")) == ["README.md", "new.md"]
    assert "removed tests/corpus/fastapi_readme.md" in done.stdout

    (source / "MANIFEST.tsv").write_text(header + row.format(size=8), encoding="utf-8")
    done = refresh(project, source)
    assert done.returncode != 0 and "new.md: 7 bytes, the manifest says 8" in done.stderr
