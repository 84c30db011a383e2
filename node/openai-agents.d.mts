// Types of `toolpack/openai-agents`: OpenAI Agents SDK tools from the toolpack catalog.
import type { FunctionTool } from '@openai/agents'
import type { Toolpack, TOOL_NAMES } from './index.js'

/** Which catalog tools an adapter makes (every tool when `tools` is absent). */
export interface AdapterOptions {
  tools?: ReadonlyArray<(typeof TOOL_NAMES)[number]>
}

/** Function tools, strict where the tool's input allows it; results are the contract JSON. */
export declare function openaiAgentsTools(client: Toolpack, options?: AdapterOptions): FunctionTool[]
