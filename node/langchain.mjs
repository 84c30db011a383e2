// LangChain.js tools from the toolpack catalog: `langchainTools(client, { tools })`,
// `DynamicStructuredTool`s with each tool's real (inlined) argument schema. Peer
// dependency: `@langchain/core`.
//
// A contract error is the tool's result (its error JSON as the `ToolMessage` content). A
// failure of the call itself is thrown. Each progress or log report is dispatched as a
// LangChain custom event named `toolpack_report` (`handleCustomEvent` in callbacks,
// `streamEvents`), with the report's fields plus `tool`.

import { dispatchCustomEvent } from '@langchain/core/callbacks/dispatch'
import { DynamicStructuredTool } from '@langchain/core/tools'

import { contractCall, selectedTools } from './adapters.mjs'

/** The name of the custom events that carry a tool's reports. */
export const REPORT_EVENT = 'toolpack_report'

/** LangChain tools for the catalog tools named in `options.tools` (every tool when absent). */
export function langchainTools(client, options = {}) {
  return selectedTools(options.tools).map(
    (info) =>
      new DynamicStructuredTool({
        name: info.name,
        description: info.description,
        schema: info.inputSchema,
        func: async (args, runManager, config) => {
          const events = []
          const body = await contractCall(client, info.name, args, (report) => {
            events.push(dispatchCustomEvent(REPORT_EVENT, { ...report, tool: info.name }, {
              ...config,
              callbacks: runManager?.getChild(),
            }).catch(() => {}))
          })
          await Promise.all(events)
          return JSON.stringify(body)
        },
      }),
  )
}
