// Types of `toolpack/ai-sdk`: Vercel AI SDK tools from the toolpack catalog.
import type { Tool } from 'ai'
import type { Report, Toolpack, TOOL_NAMES } from './index.js'

/** Which catalog tools an adapter makes (every tool when `tools` is absent). */
export interface AdapterOptions {
  tools?: ReadonlyArray<(typeof TOOL_NAMES)[number]>
}

/** A preliminary result of a tool: one report of the running call. */
export interface ReportResult {
  type: 'report'
  report: Report
}

/**
 * AI SDK tools, by name, for `generateText` / `streamText`. Each resolves to the
 * contract JSON (a contract error included); reports stream as preliminary results.
 */
export declare function aiSdkTools(
  client: Toolpack,
  options?: AdapterOptions,
): Record<string, Tool<Record<string, unknown>, Record<string, unknown> | ReportResult>>
