"""What the mdsel Agent Skill costs an agent at session start, against the MCP server's tools.

An agent that reads skills loads each one's `name` and `description` at session start and the
body only when it uses the skill; an MCP server costs its tool definitions (name, description,
input schema, as `tools/list` returns them) and its instructions on every session. Both are
counted here with the Claude tokenizer of bench/token_economy.py; the server's side is taken
from the real server over stdio with the MCP SDK's client.

    .venv/bin/python bench/bench_skill.py     # prints one JSON object
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

sys.path.insert(0, str(Path(__file__).parent))
from token_economy import load_counter

SKILL = Path(__file__).resolve().parents[1] / "skills" / "mdsel" / "SKILL.md"


def front_matter(text: str) -> dict[str, str]:
    """`name` and `description` from the skill's front matter (one line each, as it is kept)."""
    head = text.split("---", 2)[1]
    fields = {}
    for line in head.strip().splitlines():
        key, _, value = line.partition(":")
        fields[key.strip()] = value.strip()
    return fields


async def server_side() -> tuple[str, str]:
    """The tool definitions (JSON, as the client receives them) and the server's instructions."""
    script = Path(sys.executable).with_name("mdsel-claude")
    params = StdioServerParameters(command=str(script), args=["serve"])
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        init = await session.initialize()
        tools = await session.list_tools()
    definitions = [tool.model_dump(mode="json", exclude_none=True) for tool in tools.tools]
    return json.dumps(definitions), init.instructions or ""


def main() -> int:
    count, counter, real = load_counter()
    text = SKILL.read_text(encoding="utf-8")
    fields = front_matter(text)
    listing = f"{fields['name']}: {fields['description']}"
    tools, instructions = anyio.run(server_side)
    result: dict[str, Any] = {
        "counter": counter,
        "real_tokenizer": real,
        "skill_listing_tokens": count(listing),
        "skill_body_tokens": count(text),
        "tools_tokens": count(tools),
        "instructions_tokens": count(instructions),
    }
    result["session_start_ratio"] = result["skill_listing_tokens"] / (
        result["tools_tokens"] + result["instructions_tokens"]
    )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
