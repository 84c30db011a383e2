"""Adapters from the toolpack catalog to agent frameworks. Each module imports its
framework lazily, when first used; install it with the matching extra:

- ``toolpack_agents.integrations.langchain`` (``pip install toolpack-agents[langchain]``):
  ``langchain_tools(client, tools=None)``, LangChain ``BaseTool``s, sync and async.
- ``toolpack_agents.integrations.openai_agents`` (``pip install toolpack-agents[openai-agents]``):
  ``function_tools(client, tools=None)``, OpenAI Agents SDK ``FunctionTool``s, strict
  where the tool's input allows it.
- ``toolpack_agents.integrations.pydantic_ai`` (``pip install toolpack-agents[pydantic-ai]``):
  ``toolset(client, tools=None)``, a pydantic-ai toolset for ``Agent(toolsets=[...])``.

In every adapter a contract error is the tool's result (the contract's error JSON), so the
model can act on it: pick a disambiguation candidate, fix an argument. A failure of the
call itself (an unknown tool, a client that cannot run) is raised as the framework
expects.
"""
