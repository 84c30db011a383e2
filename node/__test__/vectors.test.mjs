// Every shared vector through the typed methods and through `call`, against the fake
// upstream: the same expectations as every other surface.
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'

import { Toolpack, ToolpackError } from 'toolpack'
import { loadVectors, optionsOf, settingsOf, startFake, withPaths } from './helpers.mjs'

const schemas = Object.fromEntries(Toolpack.tools().map((t) => [t.name, t.inputSchema]))
const camel = (s) => s.replace(/[_-]([a-z0-9])/g, (_, c) => c.toUpperCase())

/** Whether a typed call can express these arguments (an object with known, complete fields). */
function typedCanExpress(tool, args) {
  const schema = schemas[tool]
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return false
  const known = Object.keys(schema.properties ?? {})
  return Object.keys(args).every((k) => known.includes(k)) && (schema.required ?? []).every((k) => k in args)
}

async function typedOutcome(client, tool, args) {
  try {
    return [false, await client[camel(tool)](args)]
  } catch (error) {
    assert.ok(error instanceof ToolpackError, `rejects with a ToolpackError, got ${error}`)
    const code = error.payload?.error?.code ?? error.payload?.code
    assert.equal(error.code, code)
    return [true, error.payload]
  }
}

async function callOutcome(client, tool, args) {
  const result = await client.call(tool, args)
  assert.deepEqual(Object.keys(result).sort(), ['content', 'isError', 'structuredContent'])
  assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent)
  return [result.isError, result.structuredContent]
}

// The vectors run in lanes, side by side, each lane with its own fake upstream: a lane's
// cases run one at a time (each resets its fake), and most of a case's time is spent waiting
// (retry back-offs, timeouts), so lanes finish the file in about a third of the time.
const LANES = 3

describe('shared vectors', { concurrency: LANES }, () => {
  const vectors = loadVectors()
  for (let lane = 0; lane < LANES; lane++) {
    describe(`lane ${lane + 1} of ${LANES}`, { concurrency: 1 }, () => {
      let fake
      before(async () => {
        fake = await startFake()
      })
      after(() => fake.stop())

      for (const { tool, case: vector } of vectors.filter((_, i) => i % LANES === lane)) {
        for (const path of ['typed', 'call']) {
          test(`${path} · ${tool}: ${vector.name}`, async (t) => {
            if (path === 'typed' && !typedCanExpress(tool, vector.arguments)) {
              t.skip('a typed call cannot express these arguments')
              return
            }
            const tempDir = mkdtempSync(join(tmpdir(), 'toolpack-vector-'))
            t.after(() => rmSync(tempDir, { recursive: true, force: true }))
            const settings = settingsOf(vector, fake.baseUrl, tempDir)
            const c = withPaths(vector, tempDir)
            await fake.reset(c.upstream ?? [])
            const local = new Toolpack(optionsOf(settings))
            const actingFor = (caller) => (caller ? local.forCaller(caller) : local)
            for (const setup of c.before ?? []) await actingFor(setup.caller).call(setup.tool, setup.arguments)
            const client = actingFor(c.caller)
            let outcome
            for (let i = 0; i <= (c.callsBefore ?? 0); i++) {
              outcome = path === 'typed' ? await typedOutcome(client, tool, c.arguments) : await callOutcome(client, tool, c.arguments)
            }
            const [isError, body] = outcome
            assert.equal(await fake.judge(`${tool}: ${vector.name}`, isError, body), null)
          })
        }
      }
    })
  }
})
