// Vercel AI SDK tools from the toolpack catalog: `aiSdkTools(client, { tools })`, the
// record `generateText` / `streamText` take. Peer dependency: `ai` (v5 or v6).
//
// Each tool's `execute` is an async generator: every progress or log report of the call
// is yielded as a preliminary result `{ type: 'report', report }` (it reaches
// `streamText`'s stream as a preliminary tool result), and the last value, the one the
// model sees, is the contract JSON: the answer, or the contract's error JSON.

import { jsonSchema, tool } from 'ai'

import { reportingCall, selectedTools } from './adapters.mjs'

/** AI SDK tools for the catalog tools named in `options.tools` (every tool when absent). */
export function aiSdkTools(client, options = {}) {
  const tools = {}
  for (const info of selectedTools(options.tools)) {
    tools[info.name] = tool({
      description: info.description,
      inputSchema: jsonSchema(info.inputSchema),
      async *execute(args) {
        const call = reportingCall(client, info.name, args)
        for (;;) {
          const step = await call.next()
          if (step.done) {
            yield step.value
            return
          }
          yield { type: 'report', report: step.value.report }
        }
      },
    })
  }
  return tools
}
