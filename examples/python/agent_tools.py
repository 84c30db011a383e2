"""Hands toolpack's tools to an agent framework and answers the model's tool call.

`Toolpack.tools()` gives every tool's name, description and JSON schemas; here they
become OpenAI-style function-calling definitions (the format most agent frameworks
take). A tool call the model makes is answered with `Toolpack.call`, which returns the
MCP result JSON; its `structuredContent` goes back to the model as the tool message.

    python examples/python/agent_tools.py
"""

from __future__ import annotations

import json
from typing import Any

from toolpack_agents import Toolpack


def function_definitions(tp: Toolpack) -> list[dict[str, Any]]:
    """Every tool as a function-calling definition (JSON schema parameters)."""
    return [
        {
            "type": "function",
            "function": {
                "name": tool["name"],
                "description": tool["description"],
                "parameters": tool["inputSchema"],
            },
        }
        for tool in tp.tools()
    ]


def answer_tool_call(tp: Toolpack, call: dict[str, Any]) -> dict[str, Any]:
    """The tool message for one tool call from the model."""
    arguments = json.loads(call["function"]["arguments"])
    result = tp.call(call["function"]["name"], arguments)
    return {
        "role": "tool",
        "tool_call_id": call["id"],
        "content": json.dumps(result["structuredContent"]),
    }


def main() -> None:
    tp = Toolpack.from_env()
    definitions = function_definitions(tp)
    print(f"{len(definitions)} tools for the model: {[d['function']['name'] for d in definitions]}")
    # What a model would send back after reading the definitions:
    model_call = {
        "id": "call_1",
        "type": "function",
        "function": {"name": "stationToilets", "arguments": json.dumps({"stationName": "Abbey Wood"})},
    }
    message = answer_tool_call(tp, model_call)
    content = json.loads(message["content"])
    print(f"tool message for {model_call['id']}: {content['code']}, {len(content['toilets'])} toilets")


if __name__ == "__main__":
    main()
