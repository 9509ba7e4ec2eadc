"""What every stand-in model API shares: a quiet JSON handler and a server on a free local port.

Each stand-in (anthropic_stub, gemini_stub, openai_stub, opencode_stub) speaks its own API in a
subclass of `Handler`; `serving` runs it on 127.0.0.1 for the length of a `with` block.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class Handler(BaseHTTPRequestHandler):
    """A request handler that reads JSON bodies, writes whole replies and logs nothing."""

    def json_body(self) -> Any:
        raw = self.rfile.read(int(self.headers.get("content-length") or 0))
        return json.loads(raw or b"{}")

    def send(self, kind: str, data: bytes, status: int = 200) -> None:
        self.send_response(status)
        self.send_header("content-type", kind)
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def send_json(self, value: object, status: int = 200) -> None:
        self.send("application/json", json.dumps(value).encode(), status)

    def log_message(self, format: str, *args: object) -> None:
        pass  # the test reads what was sent, not a log on stderr


@contextmanager
def serving(handler: type[Handler]) -> Iterator[str]:
    """`handler` answering on a free local port for the block: its base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
