// The MCP Apps views as resources, for a host that serves toolpack's tools in process.
import assert from 'node:assert/strict'
import { test } from 'node:test'

import { Toolpack } from 'toolpack'

const VIEWS = ['journey', 'departures', 'architecture', 'toilets', 'lines', 'arrivals', 'alerts', 'timetable', 'crowding', 'vehicles']

test('the views are listed as MCP resources', () => {
  const resources = Toolpack.resources()
  assert.deepEqual(
    resources.map((r) => r.uri),
    VIEWS.map((v) => `ui://toolpack/${v}`),
  )
  for (const resource of resources) {
    assert.equal(resource.mimeType, 'text/html;profile=mcp-app')
    assert.deepEqual(resource._meta.ui.csp, { connectDomains: [], resourceDomains: [] })
    assert.ok(resource.title && resource.description)
  }
})

test('each view reads as its HTML page', () => {
  for (const resource of Toolpack.resources()) {
    const { contents } = Toolpack.readResource(resource.uri)
    assert.equal(contents.length, 1)
    const [item] = contents
    assert.equal(item.uri, resource.uri)
    assert.equal(item.mimeType, resource.mimeType)
    assert.deepEqual(item._meta, resource._meta)
    assert.ok(item.text.startsWith('<!doctype html>'))
    assert.ok(item.text.includes(`<title>toolpack · ${resource.title}</title>`))
  }
})

test('an unknown resource throws', () => {
  assert.throws(() => Toolpack.readResource('ui://toolpack/nope'), /no resource 'ui:\/\/toolpack\/nope'/)
})
