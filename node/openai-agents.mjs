// OpenAI Agents SDK tools from the toolpack catalog: `openaiAgentsTools(client, { tools })`.
// Peer dependency: `@openai/agents`.
//
// Where the tool's input allows it, a tool is strict, with toolpack's strict schema
// (every property required, the optional ones nullable; toolpack reads `null` as "not
// given"). A contract error is the tool's result (its error JSON); a failure of the call
// itself is thrown, which the SDK turns into its tool error. The SDK has no channel for a
// function tool's progress: give the client an `onReport` callback to see it.

import { tool } from '@openai/agents'

import { contractCall, selectedTools } from './adapters.mjs'

/** `@openai/agents` function tools for the catalog tools named in `options.tools`. */
export function openaiAgentsTools(client, options = {}) {
  return selectedTools(options.tools).map((info) =>
    tool({
      name: info.name,
      description: info.description,
      parameters: info.strictInputSchema ?? info.inputSchema,
      strict: info.strictInputSchema != null,
      execute: (args) => contractCall(client, info.name, args),
    }),
  )
}
