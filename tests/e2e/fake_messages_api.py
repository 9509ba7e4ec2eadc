"""A stand-in for the Anthropic Messages API on 127.0.0.1, for running the real `claude -p`.

Its first answer is a `tool_use` of Read on a given file (when given one); once a request
carries that tool's result, it answers with plain text and the turn ends. Every request body is
recorded, so a test can read exactly what the model would have been shown. Streaming requests
get server-sent events, as the CLI asks for them.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

TOOL_USE_ID = "toolu_read_1"
MODEL = "claude-sonnet-4-5"


@dataclass
class FakeApi:
    """What the server answers with, and every request body it received (in order)."""

    read_input: dict[str, Any] | None
    """The Read to ask for first; None to answer with text at once."""
    requests: list[dict[str, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    base_url: str = ""

    def tool_results(self) -> list[dict[str, Any]]:
        """The tool_result blocks answering our Read, from the last request that carries one."""
        for body in reversed(self.requests):
            found = [
                block
                for message in body.get("messages", [])
                if isinstance(message.get("content"), list)
                for block in message["content"]
                if block.get("type") == "tool_result" and block.get("tool_use_id") == TOOL_USE_ID
            ]
            if found:
                return found
        return []

    def texts_after_result(self) -> str:
        """All text of the user turn that carries the Read's result (results and context)."""
        for body in reversed(self.requests):
            for message in body.get("messages", []):
                content = message.get("content")
                if not isinstance(content, list):
                    continue
                if any(b.get("tool_use_id") == TOOL_USE_ID for b in content):
                    return json.dumps(content, ensure_ascii=False)
        return ""


def _blocks(api: FakeApi, body: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
    tools = {tool.get("name") for tool in body.get("tools", []) if isinstance(tool, dict)}
    answered = any(
        isinstance(message.get("content"), list)
        and any(block.get("type") == "tool_result" for block in message["content"])
        for message in body.get("messages", [])
    )
    if api.read_input is not None and "Read" in tools and not answered:
        read = {"type": "tool_use", "id": TOOL_USE_ID, "name": "Read", "input": api.read_input}
        return [read], "tool_use"
    return [{"type": "text", "text": "Done."}], "end_turn"


def _events(blocks: list[dict[str, Any]], stop: str) -> bytes:
    usage = {"input_tokens": 10, "output_tokens": 1}
    message = {"id": "msg_fake", "type": "message", "role": "assistant", "model": MODEL}
    events: list[dict[str, Any]] = [
        {
            "type": "message_start",
            "message": {**message, "content": [], "stop_reason": None, "usage": usage},
        }
    ]
    for index, block in enumerate(blocks):
        if block["type"] == "text":
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        else:
            start = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        events += [
            {"type": "content_block_start", "index": index, "content_block": start},
            {"type": "content_block_delta", "index": index, "delta": delta},
            {"type": "content_block_stop", "index": index},
        ]
    events += [
        {"type": "message_delta", "delta": {"stop_reason": stop}, "usage": {"output_tokens": 5}},
        {"type": "message_stop"},
    ]
    return b"".join(
        f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode() for event in events
    )


def _handler(api: FakeApi) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except ValueError:
                body = {}
            with api.lock:
                api.requests.append({"path": self.path, **body})
            if "/count_tokens" in self.path:
                self._send("application/json", json.dumps({"input_tokens": 10}).encode())
                return
            blocks, stop = _blocks(api, body)
            if body.get("stream"):
                self._send("text/event-stream", _events(blocks, stop))
                return
            whole = {
                "id": "msg_fake",
                "type": "message",
                "role": "assistant",
                "model": MODEL,
                "content": blocks,
                "stop_reason": stop,
                "usage": {"input_tokens": 10, "output_tokens": 5},
            }
            self._send("application/json", json.dumps(whole).encode())

        def do_GET(self) -> None:
            self.send_response(404)
            self.send_header("content-length", "0")
            self.end_headers()

        def _send(self, kind: str, data: bytes) -> None:
            self.send_response(200)
            self.send_header("content-type", kind)
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # quiet: the test reads the recorded requests instead

    return Handler


@contextmanager
def fake_messages_api(read_input: dict[str, Any] | None) -> Iterator[FakeApi]:
    """Serve on a free port of 127.0.0.1 for the duration of the block."""
    api = FakeApi(read_input)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(api))
    api.base_url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield api
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
