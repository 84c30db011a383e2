// The Node examples, run from the installed package: the quick start, and the MCP host
// driven by the official SDK's client over stdio.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { test } from 'node:test'

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'

test('the quick start runs', () => {
  const out = execFileSync(process.execPath, ['quickstart.mjs'], { encoding: 'utf8' })
  assert.match(out, /King's Cross St Pancras \(HUBKGX\)/)
  assert.match(out, /DISAMBIGUATION_REQUIRED: 940GZZLUERB, 940GZZLUERC/)
})

test('the MCP host serves every catalog tool to the official SDK client', async () => {
  const { Toolpack } = await import('toolpack')
  const client = new Client({ name: 'toolpack-test', version: '0.1.0' })
  await client.connect(new StdioClientTransport({ command: process.execPath, args: ['mcp-host.mjs'] }))
  try {
    const { tools } = await client.listTools()
    assert.deepEqual(tools.map((t) => t.name), Toolpack.tools().map((t) => t.name))
    const ok = await client.callTool({ name: 'stationToilets', arguments: { stationName: 'Abbey Wood' } })
    assert.equal(ok.isError, false)
    assert.equal(ok.structuredContent.stationUniqueId, 'HUBABW')
    const bad = await client.callTool({ name: 'stationToilets', arguments: { stationName: 'xyzzy' } })
    assert.equal(bad.isError, true)
    assert.equal(bad.structuredContent.code, 'STATION_NOT_FOUND')
  } finally {
    await client.close()
  }
})
