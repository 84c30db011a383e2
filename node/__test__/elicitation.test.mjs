// The official TypeScript MCP client (@modelcontextprotocol/sdk) against toolpack-mcp,
// over stdio and an HTTP session. It answers the server's question when a station name
// means two stations: a pick answers OK in the same call; a decline, a cancel, or a client
// that announced no elicitation gets the answer as it always was. It lists the prompts,
// gets one rendered and completes a station argument. The test command sets
// TOOLPACK_MCP_BIN.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'

import { serveHttp } from './helpers.mjs'

const BIN = process.env.TOOLPACK_MCP_BIN
// stationToilets and liftOutages: the station_facilities prompt needs both.
const SERVE = ['serve', '--tools', 'stationToilets,liftOutages']
let http

before(async () => {
  http = await serveHttp(SERVE)
})

after(() => http.stop())

const transports = {
  stdio: () => new StdioClientTransport({ command: BIN, args: SERVE }),
  http: () => new StreamableHTTPClientTransport(new URL(http.url)),
}

// Calls stationToilets for "Edgware Road" as a client whose person answers with `answer`
// (no `answer`: a client that announces no elicitation); the body and the forms shown.
async function edgwareRoad(transport, answer) {
  const capabilities = answer ? { elicitation: { form: {} } } : {}
  const client = new Client({ name: 'toolpack-test', version: '1.0.0' }, { capabilities })
  const forms = []
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      forms.push(request.params)
      return answer
    })
  }
  await client.connect(transports[transport]())
  try {
    const result = await client.callTool({ name: 'stationToilets', arguments: { stationName: 'Edgware Road' } })
    return { body: result.structuredContent, forms }
  } finally {
    await client.close()
  }
}

function assertTodaysAnswer(body) {
  assert.equal(body.success, false)
  assert.equal(body.code, 'DISAMBIGUATION_REQUIRED')
  assert.deepEqual(
    body.stationDisambiguation.map((s) => s.stationUniqueId),
    ['940GZZLUERB', '940GZZLUERC'],
  )
}

for (const transport of Object.keys(transports)) {
  test(`${transport}: a pick answers OK in the same call`, async () => {
    const { body, forms } = await edgwareRoad(transport, { action: 'accept', content: { choice: '940GZZLUERC' } })
    assert.equal(body.code, 'OK')
    assert.equal(body.stationUniqueId, '940GZZLUERC')
    assert.equal(forms.length, 1)
    assert.equal(forms[0].message, 'Which station do you mean by "Edgware Road"?')
    const choice = forms[0].requestedSchema.properties.choice
    assert.deepEqual(choice.oneOf.map((o) => o.const), ['940GZZLUERB', '940GZZLUERC'])
    assert.deepEqual(forms[0].requestedSchema.required, ['choice'])
  })

  for (const action of ['decline', 'cancel']) {
    test(`${transport}: a ${action} gets the answer as it always was`, async () => {
      const { body, forms } = await edgwareRoad(transport, { action })
      assertTodaysAnswer(body)
      assert.equal(forms.length, 1)
    })
  }

  test(`${transport}: a client without elicitation is not asked`, async () => {
    const { body, forms } = await edgwareRoad(transport, undefined)
    assertTodaysAnswer(body)
    assert.equal(forms.length, 0)
  })
}

for (const transport of Object.keys(transports)) {
  test(`${transport}: prompts are listed, rendered and completed`, async () => {
    const client = new Client({ name: 'toolpack-test', version: '1.0.0' })
    await client.connect(transports[transport]())
    try {
      const { prompts } = await client.listPrompts()
      assert.deepEqual(prompts.map((p) => p.name), ['station_facilities'])
      assert.deepEqual(prompts[0].arguments, [{ name: 'station', description: 'The station', required: true }])
      const prompt = await client.getPrompt({ name: 'station_facilities', arguments: { station: 'Edgware Road' } })
      assert.equal(prompt.messages[0].role, 'user')
      assert.match(prompt.messages[0].content.text, /^What facilities does Edgware Road station have\?/)
      const { completion } = await client.complete({
        ref: { type: 'ref/prompt', name: 'station_facilities' },
        argument: { name: 'station', value: 'edgw' },
      })
      assert.deepEqual(completion.values, ['Edgware', 'Edgware Road'])
      await assert.rejects(client.getPrompt({ name: 'station_facilities', arguments: {} }), /needs the argument 'station'/)
    } finally {
      await client.close()
    }
  })
}
