// The framework adapters (`toolpack/ai-sdk`, `toolpack/openai-agents`,
// `toolpack/langchain`), each driven through a whole agent turn by the framework's own
// test model (no network, no LLM): the model asks for a tool, toolpack answers, and the
// model's next turn sees exactly the tool's contract JSON. Also: every input schema goes
// through each framework's own conversion, and build_docs progress reaches onReport and
// the frameworks' progress channels.
import assert from 'node:assert/strict'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'

import { Agent, run, setTracingDisabled, Usage } from '@openai/agents'
import { BaseChatModel } from '@langchain/core/language_models/chat_models'
import { AIMessage, HumanMessage } from '@langchain/core/messages'
import { convertToOpenAITool } from '@langchain/core/utils/function_calling'
import { asSchema, generateText, jsonSchema, stepCountIs, streamText } from 'ai'
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test'
import { Toolpack } from 'toolpack'
import { aiSdkTools } from 'toolpack/ai-sdk'
import { langchainTools, REPORT_EVENT } from 'toolpack/langchain'
import { openaiAgentsTools } from 'toolpack/openai-agents'
import { TESTS_DIR } from './helpers.mjs'

setTracingDisabled(true)

const CASES = [
  ['ok', 'stationToilets', { stationName: 'Kings Cross' }, 'OK'],
  ['contract error', 'stationToilets', { stationName: 'xyzzy' }, 'STATION_NOT_FOUND'],
  ['disambiguation', 'stationToilets', { stationName: 'Edgware Road' }, 'DISAMBIGUATION_REQUIRED'],
]

/** What a bare `call` answers: the contract JSON the model must see. */
async function expected(tool, args) {
  return (await new Toolpack().call(tool, args)).structuredContent
}

function projectCopy() {
  const dir = mkdtempSync(join(tmpdir(), 'toolpack-adapters-'))
  cpSync(join(TESTS_DIR, '..', 'examples', 'loko', 'shop'), join(dir, 'shop'), { recursive: true })
  return { path: join(dir, 'shop'), remove: () => rmSync(dir, { recursive: true, force: true }) }
}

// --- AI SDK ---------------------------------------------------------------------------

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }

function aiModel(tool, args) {
  return new MockLanguageModelV3({
    doGenerate: [
      { content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: tool, input: JSON.stringify(args) }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] },
      { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] },
    ],
  })
}

for (const [label, tool, args, code] of CASES) {
  test(`AI SDK: the model's next turn sees the ${label} answer`, async () => {
    const model = aiModel(tool, args)
    const result = await generateText({ model, prompt: 'go', tools: aiSdkTools(new Toolpack(), { tools: [tool] }), stopWhen: stepCountIs(2) })
    assert.equal(result.text, 'done')
    const toolMessage = model.doGenerateCalls[1].prompt.find((m) => m.role === 'tool')
    const output = toolMessage.content[0].output
    assert.equal(output.type, 'json')
    assert.deepEqual(output.value, await expected(tool, args))
    assert.equal(output.value.code, code)
  })
}

test('AI SDK: build_docs reports stream as preliminary results, the answer last', async () => {
  const project = projectCopy()
  try {
    const args = { project_path: project.path, format: 'markdown' }
    const parts = [
      { type: 'stream-start', warnings: [] },
      { type: 'tool-call', toolCallId: 'call-1', toolName: 'build_docs', input: JSON.stringify(args) },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
    ]
    const model = new MockLanguageModelV3({ doStream: [{ stream: convertArrayToReadableStream(parts) }] })
    const stream = streamText({ model, prompt: 'go', tools: aiSdkTools(new Toolpack(), { tools: ['build_docs'] }) })
    const results = []
    for await (const part of stream.fullStream) if (part.type === 'tool-result') results.push(part)
    const preliminary = results.filter((r) => r.preliminary)
    const progress = preliminary.map((r) => r.output).filter((o) => o.type === 'report' && o.report.type === 'progress')
    assert.ok(progress.length >= 2, `progress reports: ${progress.length}`)
    const final = results.filter((r) => !r.preliminary)
    assert.equal(final.length, 1)
    assert.equal(final[0].output.success, true)
  } finally {
    project.remove()
  }
})

test('AI SDK: every input schema is accepted by jsonSchema', async () => {
  for (const info of Toolpack.tools()) {
    const schema = asSchema(jsonSchema(info.inputSchema))
    assert.deepEqual(await schema.jsonSchema, info.inputSchema, info.name)
    assert.ok(!JSON.stringify(info.inputSchema).includes('$ref'), info.name)
  }
})

// --- OpenAI Agents SDK ------------------------------------------------------------------

class ScriptedModel {
  constructor(tool, args) {
    this.requests = []
    this.responses = [
      { usage: new Usage(), responseId: 'r1', output: [{ type: 'function_call', callId: 'call-1', name: tool, arguments: JSON.stringify(args), status: 'completed' }] },
      { usage: new Usage(), responseId: 'r2', output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done' }] }] },
    ]
  }
  async getResponse(request) {
    this.requests.push(request)
    return this.responses.shift()
  }
  async *getStreamedResponse() {
    throw new Error('not streamed')
  }
}

for (const [label, tool, args, code] of CASES) {
  test(`OpenAI Agents: the model's next turn sees the ${label} answer`, async () => {
    const tools = openaiAgentsTools(new Toolpack(), { tools: [tool] })
    // A strict-mode model sends every optional property, as null when it has no value.
    const strictArgs = Object.fromEntries(Object.keys(tools[0].parameters.properties).map((k) => [k, null]))
    const model = new ScriptedModel(tool, { ...strictArgs, ...args })
    const result = await run(new Agent({ name: 'a', model, tools }), 'go')
    assert.equal(result.finalOutput, 'done')
    const sent = model.requests[1].input.find((item) => item.type === 'function_call_result')
    const seen = JSON.parse(sent.output.text ?? sent.output)
    assert.deepEqual(seen, await expected(tool, args))
    assert.equal(seen.code, code)
    assert.equal(tools[0].strict, true)
    assert.deepEqual(tools[0].parameters, Toolpack.tools().find((t) => t.name === tool).strictInputSchema)
  })
}

// --- LangChain.js -----------------------------------------------------------------------

class ScriptedChatModel extends BaseChatModel {
  constructor(tool, args) {
    super({})
    this.responses = [new AIMessage({ content: '', tool_calls: [{ id: 'call-1', name: tool, args, type: 'tool_call' }] }), new AIMessage('done')]
    this.seen = []
  }
  _llmType() {
    return 'scripted'
  }
  bindTools(tools) {
    this.bound = tools.map((t) => convertToOpenAITool(t))
    return this
  }
  async _generate(messages) {
    this.seen.push(messages)
    const message = this.responses.shift()
    return { generations: [{ message, text: typeof message.content === 'string' ? message.content : '' }] }
  }
}

async function langchainTurn(tools, model, config) {
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]))
  const llm = model.bindTools(tools)
  const messages = [new HumanMessage('go')]
  for (;;) {
    const answer = await llm.invoke(messages, config)
    messages.push(answer)
    if (!answer.tool_calls?.length) return messages
    for (const call of answer.tool_calls) messages.push(await byName[call.name].invoke(call, config))
  }
}

for (const [label, tool, args, code] of CASES) {
  test(`LangChain.js: the model's next turn sees the ${label} answer`, async () => {
    const model = new ScriptedChatModel(tool, args)
    await langchainTurn(langchainTools(new Toolpack(), { tools: [tool] }), model)
    const toolMessage = model.seen[1].at(-1)
    const seen = JSON.parse(toolMessage.content)
    assert.deepEqual(seen, await expected(tool, args))
    assert.equal(seen.code, code)
  })
}

test('LangChain.js: build_docs reports reach callbacks as custom events', async () => {
  const project = projectCopy()
  try {
    const events = []
    const callbacks = [{ handleCustomEvent: (name, data) => name === REPORT_EVENT && events.push(data) }]
    const model = new ScriptedChatModel('build_docs', { project_path: project.path, format: 'markdown' })
    const messages = await langchainTurn(langchainTools(new Toolpack(), { tools: ['build_docs'] }), model, { callbacks })
    assert.equal(JSON.parse(messages.at(-2).content).success, true)
    const progress = events.filter((e) => e.type === 'progress')
    assert.ok(progress.length >= 2, `progress events: ${progress.length}`)
    assert.ok(progress.every((e) => e.tool === 'build_docs'))
  } finally {
    project.remove()
  }
})

test('LangChain.js: every input schema converts unchanged', () => {
  const infos = Toolpack.tools()
  langchainTools(new Toolpack()).forEach((tool, i) => {
    const parameters = convertToOpenAITool(tool).function.parameters
    assert.deepEqual(parameters.properties, infos[i].inputSchema.properties, infos[i].name)
    assert.deepEqual(parameters.required, infos[i].inputSchema.required, infos[i].name)
  })
})

// --- onReport, tools(), unknown names -----------------------------------------------------

test('onReport receives build_docs progress before the call settles, per client and per call', async () => {
  const project = projectCopy()
  try {
    const args = { project_path: project.path, format: 'markdown', incremental: false }
    const fromClient = []
    await new Toolpack({ onReport: (r) => fromClient.push(r) }).forCaller('user-1').buildDocs(args)
    const progress = fromClient.filter((r) => r.type === 'progress')
    assert.ok(progress.length >= 2)
    assert.equal(progress.at(-1).progress, progress.at(-1).total)
    const perCall = []
    const client = new Toolpack().reportingTo(() => assert.fail('the per-call callback replaces the client one'))
    const result = await client.call('build_docs', args, { onReport: (r) => perCall.push(r) })
    assert.equal(result.isError, false)
    assert.equal(perCall.filter((r) => r.type === 'progress').length, progress.length)
  } finally {
    project.remove()
  }
})

test('tools() is a static and an instance method; unknown adapter tools throw', () => {
  assert.deepEqual(new Toolpack().tools(), Toolpack.tools())
  assert.throws(() => aiSdkTools(new Toolpack(), { tools: ['noSuchTool'] }), /unknown tools \["noSuchTool"\]/)
})
