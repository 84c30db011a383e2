// Types of `toolpack/langchain`: LangChain.js tools from the toolpack catalog.
import type { DynamicStructuredTool } from '@langchain/core/tools'
import type { Toolpack, TOOL_NAMES } from './index.js'

/** Which catalog tools an adapter makes (every tool when `tools` is absent). */
export interface AdapterOptions {
  tools?: ReadonlyArray<(typeof TOOL_NAMES)[number]>
}

/** The name of the custom events that carry a tool's reports. */
export declare const REPORT_EVENT: 'toolpack_report'

/** `DynamicStructuredTool`s; each returns the contract JSON as text. */
export declare function langchainTools(client: Toolpack, options?: AdapterOptions): DynamicStructuredTool[]
