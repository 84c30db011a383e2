"""toolpack's tools inside three agent frameworks, through the ready-made adapters
(``pip install 'toolpack-agents[langchain,openai-agents,pydantic-ai]'``). Each framework runs
with its own offline test model here; swap in a real model to use it for real.

    python examples/python/frameworks.py
"""

from __future__ import annotations

from agents import Agent, Runner, set_tracing_disabled
from agents.testing import ModelStep, ScriptedModel, assistant_message, function_call
from pydantic_ai import Agent as PydanticAgent
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from toolpack_agents import AsyncToolpack, Toolpack
from toolpack_agents.integrations.langchain import langchain_tools
from toolpack_agents.integrations.openai_agents import function_tools
from toolpack_agents.integrations.pydantic_ai import toolset


def pydantic_ai_turn(client: Toolpack) -> str:
    """A pydantic-ai agent asks for Abbey Wood's toilets and reads the answer."""

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        last = messages[-1].parts[-1]
        if isinstance(last, ToolReturnPart):
            return ModelResponse(parts=[TextPart(f"stationToilets said: {last.model_response_str()[:60]}…")])
        return ModelResponse(parts=[ToolCallPart("stationToilets", {"stationName": "Abbey Wood"})])

    agent = PydanticAgent(FunctionModel(model), toolsets=[toolset(client, ["stationToilets"])])
    return agent.run_sync("Where are the toilets at Abbey Wood?").output


def openai_agents_turn(client: AsyncToolpack) -> str:
    """An OpenAI Agents SDK agent gets a contract error back as the tool's result."""
    set_tracing_disabled(True)
    model = ScriptedModel(
        [
            [function_call("stationToilets", {"stationName": "Atlantis"}, call_id="call-1")],
            ModelStep.respond(lambda call: [assistant_message("No such station: I'll ask the user.")]),
        ]
    )
    agent = Agent(name="helper", model=model, tools=function_tools(client, ["stationToilets"]))
    return str(Runner.run_sync(agent, "Toilets at Atlantis?").final_output)


def main() -> None:
    client = Toolpack()
    print("pydantic-ai:", pydantic_ai_turn(client))
    print("openai-agents:", openai_agents_turn(AsyncToolpack()))
    tool = langchain_tools(client, ["stationToilets"])[0]
    answer = tool.invoke({"stationName": "Edgware Road"})
    print("langchain:", answer["code"], [c["stationUniqueId"] for c in answer["stationDisambiguation"]])


if __name__ == "__main__":
    main()
