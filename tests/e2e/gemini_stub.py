"""A stand-in for the Gemini API, so that a real `gemini -p` session runs offline.

Gemini CLI talks to `$GOOGLE_GEMINI_BASE_URL/v1beta/models/<model>:streamGenerateContent?alt=sse`
(and `:generateContent`, `:countTokens` for its side requests). The stand-in's first answer to
a request is one `functionCall` of a given tool (`read_file` on a path, say); once a request
carries a `functionResponse`, it ends the turn with a line of text. Every request is kept with
its path, so a test can see what the CLI sent the model after the call: the tool's result as
the model sees it, with whatever a hook added to it or put in its place.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from tests.e2e.stub_http import Handler, serving

USAGE = {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}
CALL_ID = "call_stub"
"""The id of the one function call the stand-in asks for."""


def _reply(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """One GenerateContentResponse whose single candidate is `parts`, finished."""
    candidate = {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
    return {"candidates": [candidate], "usageMetadata": USAGE, "modelVersion": "stub"}


@dataclass
class Request:
    path: str
    """The URL path and query the CLI posted to (`/v1beta/models/m:streamGenerateContent?...`)."""
    body: dict[str, Any]
    """The JSON body it sent."""


@dataclass
class Stub:
    tool: str
    """The function the model calls on its first turn."""
    args: dict[str, Any] | None
    """Its arguments; None: the model answers text at once."""
    requests: list[Request] = field(default_factory=list)

    def answer(self, body: dict[str, Any]) -> dict[str, Any]:
        if self.args is None or self.function_responses(body):
            return _reply([{"text": "done"}])
        call = {"functionCall": {"id": CALL_ID, "name": self.tool, "args": self.args}}
        return _reply([call])

    @staticmethod
    def function_responses(body: dict[str, Any]) -> list[dict[str, Any]]:
        """The functionResponse parts of one request body, in order."""
        found: list[dict[str, Any]] = []
        for content in body.get("contents", []):
            for part in content.get("parts", []) if isinstance(content, dict) else []:
                if isinstance(part, dict) and isinstance(part.get("functionResponse"), dict):
                    found.append(part["functionResponse"])
        return found

    def tool_response(self) -> dict[str, Any]:
        """The `response` object of the tool's functionResponse, as the model was sent it
        (`{"output": ...}` for a result, `{"error": ...}` for a failure or a hook's denial)."""
        for request in self.requests:
            for response in self.function_responses(request.body):
                if response.get("name") == self.tool:
                    inner = response.get("response")
                    return inner if isinstance(inner, dict) else {}
        return {}

    def after_tool(self) -> str:
        """Everything the CLI sent the model with the tool's result (the contents, as JSON)."""
        for request in self.requests:
            if self.function_responses(request.body):
                return json.dumps(request.body.get("contents", []))
        return ""


def _handler(stub: Stub) -> type[Handler]:
    class GeminiAPI(Handler):
        def do_POST(self) -> None:
            body = self.json_body()
            stub.requests.append(Request(self.path, body))
            if ":countTokens" in self.path:
                self.send_json({"totalTokens": 10})
            elif ":streamGenerateContent" in self.path:
                data = f"data: {json.dumps(stub.answer(body))}\r\n\r\n"
                self.send("text/event-stream", data.encode())
            else:
                self.send_json(stub.answer(body))

    return GeminiAPI


@contextmanager
def gemini_api(tool: str, args: dict[str, Any] | None) -> Iterator[tuple[str, Stub]]:
    """A running stand-in on a free local port whose model calls `tool` with `args` once:
    its base URL (for GOOGLE_GEMINI_BASE_URL) and the recorder."""
    stub = Stub(tool, args)
    with serving(_handler(stub)) as url:
        yield url, stub
