"""A stand-in for the OpenAI Responses API, so that a real `codex exec` session runs offline.

Codex CLI reaches it as a model provider of its own (`model_providers.stub` in `config.toml`,
`wire_api = "responses"`, `base_url` this server's `/v1`): every turn is one `POST
/v1/responses` answered with server-sent events. The stand-in's first answer calls the shell
tool (`exec_command`, which Codex offers the model) with one command line; once a request
carries that call's output, it ends the turn with a short message. Every request body is kept,
so a test can see what Codex sent the model after the command: its output, and the developer
messages a hook added beside it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.e2e.stub_http import Handler, serving

CALL_ID = "call_stub"
USAGE = {
    "input_tokens": 10,
    "input_tokens_details": {"cached_tokens": 0},
    "output_tokens": 5,
    "output_tokens_details": {"reasoning_tokens": 0},
    "total_tokens": 15,
}


def provider_config(key_variable: str) -> str:
    """`config.toml` lines (top-level keys first) that make the stand-in Codex's provider; its
    address, known once it runs, comes with each run (`base_url_override`)."""
    return (
        'model = "gpt-5.5"\n'
        'model_provider = "stub"\n\n'
        "[model_providers.stub]\n"
        'name = "stub"\n'
        'base_url = "http://127.0.0.1:9/v1"\n'
        'wire_api = "responses"\n'
        f'env_key = "{key_variable}"\n'
    )


def base_url_override(url: str) -> list[str]:
    """Codex's command-line override that sends this run's requests to the stand-in at `url`."""
    return ["-c", f'model_providers.stub.base_url="{url}/v1"']


class Stub:
    def __init__(self, command: str) -> None:
        """The model runs `command` through the shell tool, then stops."""
        self.command = command
        self.requests: list[dict[str, Any]] = []

    def item(self, body: dict[str, Any]) -> dict[str, Any]:
        """The one output item of the next answer: the shell call, or the closing message."""
        if self._output(body) is None:
            arguments = json.dumps({"cmd": self.command})
            return {
                "type": "function_call",
                "id": "fc_stub",
                "call_id": CALL_ID,
                "name": "exec_command",
                "arguments": arguments,
            }
        text = {"type": "output_text", "text": "done", "annotations": []}
        return {"type": "message", "id": "msg_stub", "role": "assistant", "content": [text]}

    @staticmethod
    def _output(body: dict[str, Any]) -> dict[str, Any] | None:
        for item in body.get("input") or []:
            if item.get("type") == "function_call_output" and item.get("call_id") == CALL_ID:
                return dict(item)
        return None

    def after_tool(self) -> dict[str, Any] | None:
        """The first request that carries the command's output (what the model saw next)."""
        return next((body for body in self.requests if self._output(body)), None)

    def tool_output(self) -> str:
        """The command's output, as Codex showed it to the model ("" if it never ran)."""
        body = self.after_tool()
        output = self._output(body) if body else None
        return str(output.get("output", "")) if output else ""

    def developer_notes(self) -> list[str]:
        """The texts of the developer messages after the call (where hooks' context goes)."""
        body = self.after_tool()
        items = body.get("input", []) if body else []
        after = False
        notes: list[str] = []
        for item in items:
            after = after or item.get("call_id") == CALL_ID
            if after and item.get("type") == "message" and item.get("role") == "developer":
                notes += [part.get("text", "") for part in item.get("content", [])]
        return notes


def _events(item: dict[str, Any]) -> list[dict[str, Any]]:
    response = {"id": "resp_stub", "object": "response", "status": "completed"}
    return [
        {"type": "response.created", "response": {**response, "status": "in_progress"}},
        {"type": "response.output_item.done", "output_index": 0, "item": item},
        # The output again in the closing event, as the API sends it (Copilot CLI reads it there).
        {"type": "response.completed", "response": {**response, "usage": USAGE, "output": [item]}},
    ]


def _handler(stub: Stub) -> type[Handler]:
    class ResponsesAPI(Handler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            if self.headers.get("content-encoding", "identity") != "identity":
                self.rfile.read(int(self.headers.get("content-length") or 0))
                self.send_json({"error": "compressed body"}, 415)
                return
            body = self.json_body()
            stub.requests.append(body)
            if not self.path.rstrip("/").endswith("/responses"):
                self.send_json({"error": "not found"}, 404)
                return
            data = "".join(
                f"event: {event['type']}\ndata: {json.dumps(event)}\n\n"
                for event in _events(stub.item(body))
            )
            self.send("text/event-stream", data.encode())

        def do_GET(self) -> None:
            # Model listings and the like: nothing here, Codex falls back to its defaults.
            self.send_json({"error": "not found"}, 404)

    return ResponsesAPI


@contextmanager
def responses_api(command: str, stub: Stub | None = None) -> Iterator[tuple[str, Stub]]:
    """A running stand-in on a free local port whose model runs `command` in the shell (or
    whatever `stub` calls): its base URL (without `/v1`) and the recorder."""
    stub = stub or Stub(command)
    with serving(_handler(stub)) as url:
        yield url, stub
