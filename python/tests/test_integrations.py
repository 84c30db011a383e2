"""The framework adapters, each driven through a whole agent turn by the framework's own
test model (no network, no LLM): the model asks for a tool, toolpack answers, and the
model's next turn sees exactly the tool's contract JSON. Also: every tool's input schema
goes through each framework's own conversion, and progress reaches ``on_report`` and
LangChain callbacks during ``build_docs``."""

from __future__ import annotations

import asyncio
import copy
import json
import pathlib
import shutil
from typing import Any

import pytest

import toolpack_agents as toolpack
from conftest import TESTS_DIR

EXAMPLE = TESTS_DIR.parent / "examples" / "loko" / "shop"

OK = ("stationToilets", {"stationName": "Kings Cross"}, "OK")
CONTRACT_ERROR = ("stationToilets", {"stationName": "xyzzy"}, "STATION_NOT_FOUND")
DISAMBIGUATION = ("stationToilets", {"stationName": "Edgware Road"}, "DISAMBIGUATION_REQUIRED")
CASES = [OK, CONTRACT_ERROR, DISAMBIGUATION]
CASE_IDS = ["ok", "contract-error", "disambiguation"]


def expected_answer(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """What a bare ``call`` answers: the contract JSON the model must see."""
    body: dict[str, Any] = toolpack.Toolpack().call(tool, arguments)["structuredContent"]
    return body


def seen_json(text: str) -> dict[str, Any]:
    """The JSON a scripted model quoted after ``saw:``."""
    parsed: dict[str, Any] = json.loads(text.split("saw:", 1)[1])
    return parsed


# --- LangChain -------------------------------------------------------------------------

langchain_core = pytest.importorskip("langchain_core")
from langchain_core.callbacks import AsyncCallbackHandler, BaseCallbackHandler  # noqa: E402
from langchain_core.language_models import BaseChatModel  # noqa: E402
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage  # noqa: E402
from langchain_core.outputs import ChatGeneration, ChatResult  # noqa: E402
from langchain_core.utils.function_calling import convert_to_openai_tool  # noqa: E402

from toolpack_agents.integrations.langchain import REPORT_EVENT, langchain_tools  # noqa: E402


class ScriptedChatModel(BaseChatModel):
    """A chat model that asks for one tool call, then quotes the tool's answer."""

    tool: str
    arguments: dict[str, Any]

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **kwargs)

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any) -> ChatResult:
        last = messages[-1]
        if isinstance(last, ToolMessage):
            message = AIMessage(content=f"saw:{last.content}")
        else:
            call = {"name": self.tool, "args": self.arguments, "id": "call-1", "type": "tool_call"}
            message = AIMessage(content="", tool_calls=[call])
        return ChatResult(generations=[ChatGeneration(message=message)])


async def langchain_turn(tools: list[Any], model: ScriptedChatModel, config: dict[str, Any] | None = None) -> str:
    by_name = {t.name: t for t in tools}
    llm = model.bind_tools(tools)
    messages: list[BaseMessage] = [HumanMessage("go")]
    while True:
        answer = await llm.ainvoke(messages, config=config)
        messages.append(answer)
        if not answer.tool_calls:
            return str(answer.content)
        for call in answer.tool_calls:
            messages.append(await by_name[call["name"]].ainvoke(call, config=config))


@pytest.mark.parametrize(("tool", "arguments", "code"), CASES, ids=CASE_IDS)
def test_langchain_turn_sees_the_contract_json(tool: str, arguments: dict[str, Any], code: str) -> None:
    tools = langchain_tools(toolpack.AsyncToolpack(), [tool])
    final = asyncio.run(langchain_turn(tools, ScriptedChatModel(tool=tool, arguments=arguments)))
    seen = seen_json(final)
    assert seen == expected_answer(tool, arguments)
    assert seen["code"] == code
    # The same tool, sync, from the blocking client.
    sync_tool = langchain_tools(toolpack.Toolpack(), [tool])[0]
    assert sync_tool.invoke(arguments) == seen


def test_langchain_failure_of_the_call_itself_raises_tool_exception() -> None:
    from langchain_core.tools import ToolException

    tool = langchain_tools(toolpack.Toolpack(), ["stationToilets"])[0]
    object.__setattr__(tool, "name", "noSuchTool")
    with pytest.raises(ToolException, match="unknown tool"):
        tool.invoke({"stationName": "Kings Cross"})
    with pytest.raises(ValueError, match="unknown tools"):
        langchain_tools(toolpack.Toolpack(), ["noSuchTool"])


def test_langchain_build_docs_progress_reaches_callbacks(tmp_path: pathlib.Path) -> None:
    project = tmp_path / "shop"
    shutil.copytree(EXAMPLE, project)
    seen_async: list[dict[str, Any]] = []
    seen_sync: list[dict[str, Any]] = []

    class AsyncEvents(AsyncCallbackHandler):
        async def on_custom_event(self, name: str, data: Any, **kwargs: Any) -> None:
            if name == REPORT_EVENT:
                seen_async.append(data)

    class SyncEvents(BaseCallbackHandler):
        def on_custom_event(self, name: str, data: Any, **kwargs: Any) -> None:
            if name == REPORT_EVENT:
                seen_sync.append(data)

    arguments = {"project_path": str(project), "format": "markdown"}
    tool = langchain_tools(toolpack.AsyncToolpack(), ["build_docs"])[0]
    model = ScriptedChatModel(tool="build_docs", arguments=arguments)
    final = asyncio.run(langchain_turn([tool], model, {"callbacks": [AsyncEvents()]}))
    assert seen_json(final)["success"] is True
    progress = [r for r in seen_async if r["type"] == "progress"]
    assert len(progress) >= 2 and all(r["tool"] == "build_docs" for r in progress)
    assert [r["progress"] for r in progress] == sorted(r["progress"] for r in progress)
    sync_tool = langchain_tools(toolpack.Toolpack(), ["build_docs"])[0]
    sync_tool.invoke({**arguments, "incremental": False}, config={"callbacks": [SyncEvents()]})
    assert len([r for r in seen_sync if r["type"] == "progress"]) >= 2


def test_every_schema_converts_with_langchain() -> None:
    for tool, info in zip(langchain_tools(toolpack.Toolpack()), toolpack.Toolpack.tools(), strict=True):
        converted = convert_to_openai_tool(tool)
        assert converted["function"]["name"] == info["name"]
        parameters = converted["function"]["parameters"]
        for keyword in ("properties", "required", "additionalProperties"):
            assert parameters.get(keyword) == info["inputSchema"].get(keyword), (info["name"], keyword)
        assert "$ref" not in json.dumps(converted) and "$defs" not in json.dumps(converted)


# --- OpenAI Agents SDK -----------------------------------------------------------------

pytest.importorskip("agents")
from agents import Agent, Runner, set_tracing_disabled  # noqa: E402
from agents.strict_schema import ensure_strict_json_schema  # noqa: E402
from agents.testing import ModelStep, ScriptedModel, assistant_message, function_call  # noqa: E402

from toolpack_agents.integrations.openai_agents import function_tools  # noqa: E402

set_tracing_disabled(True)


def agents_model(tool: str, arguments: dict[str, Any]) -> ScriptedModel:
    def quote(call: Any) -> list[Any]:
        outputs = [i for i in call.input if isinstance(i, dict) and i.get("type") == "function_call_output"]
        return [assistant_message(f"saw:{outputs[-1]['output']}")]

    return ScriptedModel([[function_call(tool, arguments, call_id="call-1")], ModelStep.respond(quote)])


@pytest.mark.parametrize(("tool", "arguments", "code"), CASES, ids=CASE_IDS)
def test_openai_agents_turn_sees_the_contract_json(tool: str, arguments: dict[str, Any], code: str) -> None:
    agent = Agent(name="a", model=agents_model(tool, arguments), tools=function_tools(toolpack.AsyncToolpack(), [tool]))
    result = asyncio.run(Runner.run(agent, "go"))
    seen = seen_json(str(result.final_output))
    assert seen == expected_answer(tool, arguments)
    assert seen["code"] == code
    # run_sync with the blocking client, and a strict-mode call with every optional as null.
    strict_args = {name: None for name in function_tools(toolpack.Toolpack(), [tool])[0].params_json_schema["properties"]}
    agent = Agent(
        name="a", model=agents_model(tool, {**strict_args, **arguments}), tools=function_tools(toolpack.Toolpack(), [tool])
    )
    assert seen_json(str(Runner.run_sync(agent, "go").final_output)) == seen


def test_every_strict_schema_passes_the_agents_sdk_check_unchanged() -> None:
    for info, tool in zip(toolpack.Toolpack.tools(), function_tools(toolpack.Toolpack()), strict=True):
        strict = info["strictInputSchema"]
        assert strict is not None, info["name"]
        assert ensure_strict_json_schema(copy.deepcopy(strict)) == strict, info["name"]
        assert tool.strict_json_schema and tool.params_json_schema == strict


# --- pydantic-ai -----------------------------------------------------------------------

pytest.importorskip("pydantic_ai")
from pydantic_ai import Agent as PydanticAgent  # noqa: E402
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart  # noqa: E402
from pydantic_ai.models.function import AgentInfo, FunctionModel  # noqa: E402
from pydantic_ai.profiles.google import GoogleJsonSchemaTransformer  # noqa: E402
from pydantic_ai.profiles.openai import OpenAIJsonSchemaTransformer  # noqa: E402

from toolpack_agents.integrations.pydantic_ai import toolset  # noqa: E402


def pydantic_model(tool: str, arguments: dict[str, Any]) -> FunctionModel:
    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        last = messages[-1].parts[-1]
        if isinstance(last, ToolReturnPart):
            return ModelResponse(parts=[TextPart(f"saw:{last.model_response_str()}")])
        assert [t.name for t in info.function_tools] == [tool]
        return ModelResponse(parts=[ToolCallPart(tool, arguments, tool_call_id="call-1")])

    return FunctionModel(respond)


@pytest.mark.parametrize(("tool", "arguments", "code"), CASES, ids=CASE_IDS)
def test_pydantic_ai_turn_sees_the_contract_json(tool: str, arguments: dict[str, Any], code: str) -> None:
    agent = PydanticAgent(pydantic_model(tool, arguments), toolsets=[toolset(toolpack.AsyncToolpack(), [tool])])
    seen = seen_json(asyncio.run(agent.run("go")).output)
    assert seen == expected_answer(tool, arguments)
    assert seen["code"] == code
    agent = PydanticAgent(pydantic_model(tool, arguments), toolsets=[toolset(toolpack.Toolpack(), [tool])])
    assert seen_json(agent.run_sync("go").output) == seen


def test_every_schema_is_accepted_by_pydantic_ai_transformers() -> None:
    for info in toolpack.Toolpack.tools():
        strict = info["strictInputSchema"]
        assert strict is not None
        openai = OpenAIJsonSchemaTransformer(copy.deepcopy(strict), strict=True)
        openai.walk()
        assert openai.is_strict_compatible, info["name"]
        google = GoogleJsonSchemaTransformer(copy.deepcopy(info["geminiInputSchema"])).walk()
        assert "$ref" not in json.dumps(google), info["name"]


# --- on_report ---------------------------------------------------------------------------


def test_on_report_receives_build_docs_progress_sync_async_and_per_call(tmp_path: pathlib.Path) -> None:
    project = tmp_path / "shop"
    shutil.copytree(EXAMPLE, project)
    arguments = {"project_path": str(project), "format": "markdown", "incremental": False}
    client_reports: list[toolpack.Report] = []
    sync = toolpack.Toolpack(on_report=client_reports.append)
    sync.build_docs(**arguments)  # type: ignore[arg-type]
    progress = [r for r in client_reports if r["type"] == "progress"]
    assert len(progress) >= 2 and progress[-1]["progress"] == progress[-1]["total"]

    async def per_call() -> tuple[list[toolpack.Report], list[toolpack.Report]]:
        client_seen: list[toolpack.Report] = []
        call_seen: list[toolpack.Report] = []
        client = toolpack.AsyncToolpack(on_report=client_seen.append).for_caller("user-1")
        result = await client.call("build_docs", arguments, on_report=call_seen.append)
        assert result["isError"] is False
        return client_seen, call_seen

    client_seen, call_seen = asyncio.run(per_call())
    assert client_seen == [] and len([r for r in call_seen if r["type"] == "progress"]) == len(progress)
