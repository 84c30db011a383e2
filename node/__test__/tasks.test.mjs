// build_docs as an MCP task (the io.modelcontextprotocol/tasks extension, as rmcp 3.9
// implements it) with the official TypeScript MCP client (@modelcontextprotocol/sdk), over
// stdio and an HTTP session. A client that declares the extension in its capabilities gets
// a task at once, polls tasks/get (whose status message is the build's progress) until the
// result comes, and can cancel it with tasks/cancel; a client without the extension gets
// the build's result as a plain call. (Whose tasks are whose: mcp/tests/it/tasks.rs.) The SDK
// has no typed API for this extension: its requests go through client.request with a
// passthrough schema. The test command sets TOOLPACK_MCP_BIN, TOOLPACK_TESTS_DIR and puts
// d2 on PATH.
import assert from 'node:assert/strict'
import { cpSync, existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { z } from 'zod'

import { serveHttp } from './helpers.mjs'

const BIN = process.env.TOOLPACK_MCP_BIN
const TASKS = 'io.modelcontextprotocol/tasks'
const ANY = z.object({}).passthrough()
const root = mkdtempSync(join(tmpdir(), 'toolpack-tasks-'))
const env = { PATH: process.env.PATH, LOKO_ALLOWED_ROOTS: root }
const SERVE = ['serve', '--toolsets', 'loko']
let http

before(async () => {
  http = await serveHttp(SERVE, env)
})

after(() => http.stop())

const transports = {
  stdio: () => new StdioClientTransport({ command: BIN, args: SERVE, env }),
  http: () => new StreamableHTTPClientTransport(new URL(http.url)),
}

let projects = 0
// A fresh copy of the test project under the allowed root.
function project() {
  const path = join(root, `project-${projects++}`)
  cpSync(join(process.env.TOOLPACK_TESTS_DIR, 'data', 'loko', 'v03-graph'), path, { recursive: true })
  return path
}

// A connected client; `tasks`: it declares the tasks extension.
async function connect(transport, tasks) {
  const capabilities = tasks ? { extensions: { [TASKS]: {} } } : {}
  const client = new Client({ name: 'toolpack-test', version: '1.0.0' }, { capabilities })
  await client.connect(transports[transport]())
  return client
}

const build = (client, path) =>
  client.request(
    {
      method: 'tools/call',
      params: { name: 'build_docs', arguments: { project_path: path, format: 'html', incremental: false } },
    },
    ANY,
  )

const state = (client, taskId) => client.request({ method: 'tasks/get', params: { taskId } }, ANY)

// Polls the task until it is no longer working; every state seen.
async function untilDone(client, taskId) {
  const seen = []
  for (let i = 0; i < 1200; i++) {
    const now = await state(client, taskId)
    seen.push(now)
    if (now.status !== 'working') return seen
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error('the task never ended')
}

for (const transport of Object.keys(transports)) {
  test(`${transport}: a client with the tasks extension gets the build as a task, its progress as status`, async () => {
    const client = await connect(transport, true)
    try {
      const path = project()
      const created = await build(client, path)
      assert.equal(created.resultType, 'task', JSON.stringify(created))
      assert.equal(created.status, 'working')
      assert.equal(created.statusMessage, 'started')
      const seen = await untilDone(client, created.taskId)
      const done = seen.at(-1)
      assert.equal(done.status, 'completed', JSON.stringify(done))
      assert.equal(done.result.structuredContent.success, true, JSON.stringify(done.result))
      // The build's progress reports became the task's status message.
      assert.ok(
        seen.some((s) => s.statusMessage?.startsWith('page ')),
        seen.map((s) => s.statusMessage).join(' | '),
      )
      assert.ok(existsSync(join(path, 'dist', 'index.html')))
    } finally {
      await client.close()
    }
  })

  test(`${transport}: tasks/cancel stops the build and the task says so`, async () => {
    const client = await connect(transport, true)
    try {
      const created = await build(client, project())
      await client.request({ method: 'tasks/cancel', params: { taskId: created.taskId } }, ANY)
      const done = (await untilDone(client, created.taskId)).at(-1)
      assert.equal(done.status, 'cancelled', JSON.stringify(done))
    } finally {
      await client.close()
    }
  })

  test(`${transport}: a client without the extension gets the build as a plain call`, async () => {
    const client = await connect(transport, false)
    try {
      const result = await client.callTool({
        name: 'build_docs',
        arguments: { project_path: project(), format: 'html', incremental: false },
      })
      assert.equal(result.structuredContent.success, true, JSON.stringify(result))
    } finally {
      await client.close()
    }
  })
}
