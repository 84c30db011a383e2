// toolpack's tools in three TypeScript agent frameworks, through the adapters
// (`toolpack/ai-sdk`, `toolpack/openai-agents`, `toolpack/langchain`). Swap the test
// models for real ones to use them for real.
//
//   npx tsc --strict --module nodenext --moduleResolution nodenext adapters.ts
import { Agent } from '@openai/agents'
import { generateText, stepCountIs } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { Toolpack } from 'toolpack'
import { aiSdkTools } from 'toolpack/ai-sdk'
import { langchainTools } from 'toolpack/langchain'
import { openaiAgentsTools } from 'toolpack/openai-agents'

const client = new Toolpack({ onReport: (report) => console.error(report.type) })

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
}
const model = new MockLanguageModelV3({
  doGenerate: [
    {
      content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'stationToilets', input: '{"stationName":"Abbey Wood"}' }],
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage,
      warnings: [],
    },
    { content: [{ type: 'text', text: 'Two toilets.' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] },
  ],
})
const answer = await generateText({
  model,
  prompt: 'Toilets at Abbey Wood?',
  tools: aiSdkTools(client, { tools: ['stationToilets'] }),
  stopWhen: stepCountIs(2),
})
console.log('AI SDK:', answer.text)

const agent = new Agent({ name: 'helper', tools: openaiAgentsTools(client, { tools: ['stationToilets'] }) })
console.log('OpenAI Agents:', agent.tools.map((t) => t.name))

const [station] = langchainTools(client, { tools: ['stationToilets'] })
const text: string = await station.invoke({ stationName: 'Edgware Road' })
console.log('LangChain:', JSON.parse(text).code)
