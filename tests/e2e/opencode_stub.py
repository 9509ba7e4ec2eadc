"""A stand-in for an OpenAI-compatible Chat Completions API, so that `opencode run` runs offline.

OpenCode reaches it as a provider of its own: `provider.stub` with `npm:
"@ai-sdk/openai-compatible"` (a provider package the OpenCode binary carries inside it, so
nothing is downloaded) and `options.baseURL` this server's `/v1`; every model call is one `POST
/v1/chat/completions`, answered with server-sent events. The stand-in's first answer to a
request that offers tools calls one tool (`read` or `bash`) with given arguments; once a request
carries that call's result (a `tool` message), it ends the turn with a short message. A request
without tools (the session title OpenCode asks for on the side) gets a short text. Every request
body is kept, so a test can see what OpenCode sent the model after the call: the tool's output
as the model is shown it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.e2e.stub_http import Handler, serving

CALL_ID = "call_stub"
MODEL = "stub/model"
"""The provider/model name OpenCode is run with (`--model`)."""
USAGE = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}


def provider_config(url: str) -> dict[str, Any]:
    """OpenCode configuration (given inline, as `OPENCODE_CONFIG_CONTENT`) that makes the stand-in
    at `url` the only model, and turns off what would reach the network."""
    provider, model = MODEL.split("/")
    return {
        "provider": {
            provider: {
                "npm": "@ai-sdk/openai-compatible",
                "name": "Stand-in",
                "options": {"baseURL": f"{url}/v1", "apiKey": "test-not-a-key"},
                "models": {model: {"name": "Stand-in model", "tool_call": True}},
            }
        },
        "model": MODEL,
        "small_model": MODEL,
        "autoupdate": False,
        "share": "disabled",
    }


class Stub:
    def __init__(self, tool: str, arguments: dict[str, Any]) -> None:
        """The model calls `tool` once with `arguments`."""
        self.tool = tool
        self.arguments = arguments
        self.requests: list[dict[str, Any]] = []

    @staticmethod
    def _result(body: dict[str, Any]) -> str | None:
        for message in body.get("messages", []):
            if message.get("role") == "tool" and message.get("tool_call_id") == CALL_ID:
                content = message.get("content")
                if isinstance(content, list):  # parts, in some versions
                    return "".join(str(part.get("text", "")) for part in content)
                return str(content)
        return None

    def delta(self, body: dict[str, Any]) -> tuple[dict[str, Any], str]:
        """The answer to one request, as one streamed delta and its finish reason."""
        if not body.get("tools"):
            return {"role": "assistant", "content": "Reading a document"}, "stop"
        if self._result(body) is not None:
            return {"role": "assistant", "content": "done"}, "stop"
        call = {
            "index": 0,
            "id": CALL_ID,
            "type": "function",
            "function": {"name": self.tool, "arguments": json.dumps(self.arguments)},
        }
        return {"role": "assistant", "tool_calls": [call]}, "tool_calls"

    def tool_result(self) -> str:
        """The tool's output as OpenCode sent it to the model ("" if the call never ran)."""
        for body in self.requests:
            result = self._result(body)
            if result is not None:
                return result
        return ""


def _chunks(delta: dict[str, Any], finish: str) -> list[dict[str, Any]]:
    base = {"id": "chatcmpl-stub", "object": "chat.completion.chunk", "created": 0, "model": "m"}
    return [
        {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
        {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}], "usage": USAGE},
    ]


def _handler(stub: Stub) -> type[Handler]:
    class ChatAPI(Handler):
        def do_POST(self) -> None:
            body = self.json_body()
            stub.requests.append(body)
            delta, finish = stub.delta(body)
            # OpenCode streams every call (the session title's too).
            events = [f"data: {json.dumps(chunk)}\n\n" for chunk in _chunks(delta, finish)]
            self.send("text/event-stream", "".join([*events, "data: [DONE]\n\n"]).encode())

    return ChatAPI


@contextmanager
def chat_api(tool: str, **arguments: Any) -> Iterator[tuple[str, Stub]]:
    """A running stand-in on a free local port whose model calls `tool` with `arguments`: its
    base URL and the recorder."""
    stub = Stub(tool, arguments)
    with serving(_handler(stub)) as url:
        yield url, stub
