// Added cost per tool call of each framework adapter over a bare `call()`, for
// `stationToilets` (bundled data: the call itself is local, so the adapters' own work
// shows). One run, interleaved rounds of batches; medians per call. A framework's own
// tool machinery costs the same whoever writes the tool, so LangChain.js and the OpenAI
// Agents SDK also run a hand-written tool whose body is the bare call (the floor): the
// adapter's own cost is its time minus that floor.
//
//   node benches/adapters.mjs        # from a project with toolpack and the frameworks installed
import { RunContext, tool as agentsTool } from '@openai/agents'
import { DynamicStructuredTool } from '@langchain/core/tools'
import { Toolpack } from 'toolpack'
import { aiSdkTools } from 'toolpack/ai-sdk'
import { langchainTools } from 'toolpack/langchain'
import { openaiAgentsTools } from 'toolpack/openai-agents'

const ARGS = { stationName: 'Kings Cross' }
const ROUNDS = 200
const BATCH = 50
const client = new Toolpack()
const schema = Toolpack.tools().find((t) => t.name === 'stationToilets').inputSchema
const only = { tools: ['stationToilets'] }
const aiTool = aiSdkTools(client, only).stationToilets
const [lcTool] = langchainTools(client, only)
const [oaTool] = openaiAgentsTools(client, only)
const bare = async () => (await client.call('stationToilets', ARGS)).structuredContent
const lcFloor = new DynamicStructuredTool({ name: 'stationToilets', description: 'd', schema, func: async (a) => JSON.stringify(await bare(a)) })
const oaFloor = agentsTool({ name: 'stationToilets', description: 'd', parameters: schema, strict: false, execute: bare })
const context = new RunContext()
const text = JSON.stringify(ARGS)

async function drain(generator) {
  let last
  for await (const value of generator) last = value
  return last
}

const contenders = {
  'bare call()': bare,
  'langchain floor (hand-written)': () => lcFloor.invoke(ARGS),
  'openai-agents floor (hand-written)': () => oaFloor.invoke(context, text),
  'ai-sdk execute': () => drain(aiTool.execute(ARGS, { toolCallId: 'c', messages: [] })),
  'langchain invoke': () => lcTool.invoke(ARGS),
  'openai-agents invoke': () => oaTool.invoke(context, text),
}
const floors = { 'ai-sdk execute': 'bare call()', 'langchain invoke': 'langchain floor (hand-written)', 'openai-agents invoke': 'openai-agents floor (hand-written)' }
const samples = Object.fromEntries(Object.keys(contenders).map((n) => [n, []]))
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, run] of Object.entries(contenders)) {
    const start = process.hrtime.bigint()
    for (let i = 0; i < BATCH; i++) await run()
    samples[name].push(Number(process.hrtime.bigint() - start) / BATCH / 1000)
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const over = (a, b) => median(samples[a].map((x, i) => x - samples[b][i]))
console.log('contender'.padEnd(36), 'µs/call'.padStart(9), 'added over bare'.padStart(16), 'adapter over floor'.padStart(19))
for (const name of Object.keys(contenders)) {
  const own = floors[name] ? over(name, floors[name]).toFixed(1).padStart(19) : ''
  console.log(name.padEnd(36), median(samples[name]).toFixed(1).padStart(9), over(name, 'bare call()').toFixed(1).padStart(16), own)
}
