"""A stand-in for the OpenAI Chat Completions API, so that a real Qwen Code or Factory Droid
session runs offline.

Both CLIs reach an OpenAI-compatible model at a base URL of the user's choosing (Qwen Code's
`OPENAI_BASE_URL`, Droid's `customModels[].baseUrl`) and post `/chat/completions`, streaming
or not. The stand-in's first answer calls one tool (`read_file`, `Read`) with given arguments;
once a request carries a `tool` message for that call, it ends the turn with a short text. Every
request body is kept, so a test can see what the CLI sent the model after the call: the tool's
result, and any message a hook added beside it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from tests.e2e.stub_http import Handler, serving

CALL_ID = "call_stub"
USAGE = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}


@dataclass
class Stub:
    tool: str
    """The function the model calls on its first turn."""
    args: dict[str, Any]
    requests: list[dict[str, Any]] = field(default_factory=list)

    def message(self, body: dict[str, Any]) -> dict[str, Any]:
        """The assistant message of the next answer: the tool call, or the closing text."""
        if self.tool_result(body) is not None or not body.get("tools"):
            return {"role": "assistant", "content": "done"}
        call = {
            "id": CALL_ID,
            "type": "function",
            "function": {"name": self.tool, "arguments": json.dumps(self.args)},
        }
        return {"role": "assistant", "content": None, "tool_calls": [call]}

    @staticmethod
    def tool_result(body: dict[str, Any]) -> str | None:
        """The text of the `tool` message answering our call in one request, if any."""
        for message in body.get("messages") or []:
            if message.get("role") == "tool" and message.get("tool_call_id") == CALL_ID:
                return _text(message.get("content"))
        return None

    def after_tool(self) -> dict[str, Any] | None:
        """The first request that carries the tool's result (what the model saw next)."""
        return next((b for b in self.requests if self.tool_result(b) is not None), None)

    def tool_output(self) -> str:
        """The tool's result as the model was sent it ("" if the tool never ran)."""
        body = self.after_tool()
        return (self.tool_result(body) or "") if body else ""

    def after_call(self) -> str:
        """Every message after the assistant's call, as text (the result, and what hooks
        added beside it)."""
        body = self.after_tool() or {}
        messages = body.get("messages") or []
        start = next(
            (i for i, m in enumerate(messages) if m.get("tool_calls") or m.get("role") == "tool"),
            len(messages),
        )
        return "\n".join(_text(m.get("content")) for m in messages[start:])


def _text(content: object) -> str:
    """A message's content as text: the string, or its text parts joined."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return ""


def _chunks(message: dict[str, Any]) -> list[dict[str, Any]]:
    """The streamed form of one message: a delta with all of it, then the finish."""
    base = {"id": "chatcmpl-stub", "object": "chat.completion.chunk", "model": "stub"}
    delta: dict[str, Any] = {"role": "assistant", "content": message.get("content") or ""}
    finish = "stop"
    if message.get("tool_calls"):
        delta = {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"index": 0, **call} for call in message["tool_calls"]],
        }
        finish = "tool_calls"
    return [
        {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
        {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}], "usage": USAGE},
    ]


def _handler(stub: Stub) -> type[Handler]:
    class ChatAPI(Handler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            body = self.json_body()
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self.send_json({"error": {"message": "not found"}}, 404)
                return
            stub.requests.append(body)
            message = stub.message(body)
            if body.get("stream"):
                data = "".join(f"data: {json.dumps(c)}\n\n" for c in _chunks(message))
                self.send("text/event-stream", (data + "data: [DONE]\n\n").encode())
                return
            finish = "tool_calls" if message.get("tool_calls") else "stop"
            choice = {"index": 0, "message": message, "finish_reason": finish}
            reply = {"id": "chatcmpl-stub", "object": "chat.completion", "model": "stub"}
            self.send_json({**reply, "choices": [choice], "usage": USAGE})

        def do_GET(self) -> None:
            # Model listings: one model, the stand-in.
            self.send_json({"object": "list", "data": [{"id": "stub", "object": "model"}]})

    return ChatAPI


@contextmanager
def chat_api(tool: str, args: dict[str, Any]) -> Iterator[tuple[str, Stub]]:
    """A running stand-in on a free local port whose model calls `tool` with `args` once: its
    base URL (add `/v1` for the OpenAI form) and the recorder."""
    stub = Stub(tool, args)
    with serving(_handler(stub)) as url:
        yield url, stub
