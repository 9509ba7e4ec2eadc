"""A stand-in for the Messages API, so that a real `claude -p` session runs offline.

Its first answer asks for one `Read` of a given file (with `offset`/`limit` if given; with no
file it answers text at once), or with `messages_api_calling` for one call of any tool, an MCP
server's included (`mcp__mdsel__mdsel_index`); once a request carries that tool's result it
ends the turn. Every request body is kept, so a test can see what Claude Code sent the model
after the call — the tool's result as the model sees it, and the context a hook added to it.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.e2e import stub_http
from tests.e2e.stub_http import Handler

USAGE = {"input_tokens": 10, "output_tokens": 5}


def _events(
    content: list[dict[str, Any]], stop: str, model: str, message_id: str
) -> list[dict[str, Any]]:
    """The server-sent events of one streamed message with `content`."""
    message: dict[str, Any] = {
        "id": message_id,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": USAGE,
    }
    events: list[dict[str, Any]] = [{"type": "message_start", "message": message}]
    for index, block in enumerate(content):
        if block["type"] == "text":
            start: dict[str, Any] = {"type": "text", "text": ""}
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
        {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None}},
        {"type": "message_stop"},
    ]
    return events


CALL_AGAIN = "Call again with the same arguments"
"""How our server's answer begins its advice when a call's time for reading ran out."""
MAX_CALLS = 4
"""Calls the stand-in model makes at most when told to call again."""


def _tool_results(body: dict[str, Any]) -> list[str]:
    """The texts of the stand-in's tool calls' results in a request, in order."""
    found = []
    for message in body.get("messages", []):
        content = message.get("content")
        for block in content if isinstance(content, list) else []:
            called = str(block.get("tool_use_id", ""))
            if block.get("type") == "tool_result" and called.startswith("toolu_stub"):
                inner = block.get("content")
                if isinstance(inner, list):
                    found.append("".join(part.get("text", "") for part in inner))
                else:
                    found.append(str(inner))
    return found


class Stub:
    def __init__(self, tool: str, tool_input: dict[str, Any] | None) -> None:
        """The model asks for one call of `tool` with `tool_input` (None: it answers text)."""
        self.tool = tool
        self.tool_input = tool_input
        self.requests: list[dict[str, Any]] = []

    def answer(self, body: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
        results = _tool_results(body)
        # As a model does, it calls again when our server says its time for reading ran out
        # and to call again (a loaded machine: server.read_budget), a few times at most.
        again = bool(results) and CALL_AGAIN in results[-1] and len(results) < MAX_CALLS
        if self.tool_input is None or (results and not again):
            return [{"type": "text", "text": "done"}], "end_turn"
        call_id = "toolu_stub" + (str(len(results) + 1) if results else "")
        call = {"type": "tool_use", "id": call_id, "name": self.tool, "input": self.tool_input}
        return [call], "tool_use"

    def tool_result(self) -> str:
        """The text of the tool's last tool_result, as the model was shown it."""
        found = [text for body in self.requests for text in _tool_results(body)]
        return found[-1] if found else ""

    def after_tool(self) -> str:
        """What Claude Code sent with the tool's result (the messages, as JSON text)."""
        sent = [json.dumps(r.get("messages", [])) for r in self.requests]
        return next((text for text in sent if "tool_result" in text), "")

    read_result = tool_result
    after_read = after_tool


def _handler(stub: Stub) -> type[Handler]:
    class MessagesAPI(Handler):
        def do_POST(self) -> None:
            body = self.json_body()
            stub.requests.append(body)
            if "count_tokens" in self.path:
                self.send_json({"input_tokens": 10})
                return
            content, stop = stub.answer(body)
            model = str(body.get("model", "stub"))
            message_id = f"msg_stub_{len(stub.requests)}"  # one per message, as the API's
            if body.get("stream"):
                data = "".join(
                    f"event: {event['type']}\ndata: {json.dumps(event)}\n\n"
                    for event in _events(content, stop, model, message_id)
                )
                self.send("text/event-stream", data.encode())
                return
            message = {
                "id": message_id,
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": content,
                "stop_reason": stop,
                "stop_sequence": None,
                "usage": USAGE,
            }
            self.send_json(message)

    return MessagesAPI


@contextmanager
def messages_api(read_path: str | None, **read_options: Any) -> Iterator[tuple[str, Stub]]:
    """A running stub on a free local port whose model asks for one Read of `read_path`: its
    base URL and the recorder."""
    read = None if read_path is None else {"file_path": read_path, **read_options}
    with serving(Stub("Read", read)) as running:
        yield running


@contextmanager
def messages_api_calling(tool: str, **tool_input: Any) -> Iterator[tuple[str, Stub]]:
    """The same, its model asking for one call of `tool` (e.g. `mcp__mdsel__mdsel_index`)."""
    with serving(Stub(tool, tool_input)) as running:
        yield running


@contextmanager
def serving(stub: Stub) -> Iterator[tuple[str, Stub]]:
    """`stub` answering on a free local port: its base URL and the recorder."""
    with stub_http.serving(_handler(stub)) as url:
        yield url, stub


def run_claude(
    claude_cli: str, url: str, env: Mapping[str, str], cwd: Path, prompt: str, *args: str
) -> None:
    """One `claude -p PROMPT ARGS` turn in `cwd` against the stand-in at `url` (with `env`, to
    which the API settings are added); the test fails unless it exits 0."""
    done = subprocess.run(
        [claude_cli, "-p", prompt, *args],
        cwd=cwd,
        env={
            **env,
            "ANTHROPIC_BASE_URL": url,
            "ANTHROPIC_API_KEY": "sk-ant-test-not-a-key",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        },
        capture_output=True,
        text=True,
        timeout=100,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
