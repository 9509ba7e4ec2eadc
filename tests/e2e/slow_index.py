"""A package index on a local port that serves a wheel directory slowly: a first start of the
plugin that takes longer than the client waits, on any machine, without network.

It speaks the simple repository API (PEP 503) that pip reads: a page per project listing its
wheels, each answered after `delay` seconds, and the wheels themselves. `silent_index` is one
that takes connections and never answers, as a black-holed network: pip gives up only after
its read timeout, so the install fails, but never within seconds.
"""

from __future__ import annotations

import html
import re
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.e2e import stub_http
from tests.e2e.stub_http import Handler


def project(wheel: str) -> str:
    """The normalized project name of a wheel file: `annotated_types-0.8.0-…`, `annotated-types`."""
    return re.sub(r"[-_.]+", "-", wheel.split("-")[0]).lower()


@contextmanager
def slow_index(wheels: Path, delay: float) -> Iterator[str]:
    """The index's URL (for PIP_INDEX_URL) for the length of the block."""
    names = sorted(path.name for path in wheels.glob("*.whl"))

    class Index(Handler):
        def do_GET(self) -> None:
            parts = [part for part in self.path.split("/") if part]
            if len(parts) == 3 and parts[:1] == ["files"] and parts[2] in names:
                self.send("application/octet-stream", (wheels / parts[2]).read_bytes())
                return
            if len(parts) == 2 and parts[0] == "simple":
                time.sleep(delay)
                found = [name for name in names if project(name) == parts[1].lower()]
                links = "".join(
                    f'<a href="/files/{parts[1]}/{html.escape(name)}">{html.escape(name)}</a>\n'
                    for name in found
                )
                self.send("text/html", f"<html><body>{links}</body></html>".encode())
                return
            self.send("text/plain", b"not found", 404)

    with stub_http.serving(Index) as url:
        yield f"{url}/simple"


@contextmanager
def silent_index() -> Iterator[str]:
    """The URL (for PIP_INDEX_URL) of an index that never answers, for the length of the block."""
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen(64)  # the system completes connections into the backlog; none is read
        yield f"http://127.0.0.1:{listening.getsockname()[1]}/simple"
