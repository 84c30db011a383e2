// toolpack for Node.js: the `Toolpack` client. Every catalog tool becomes a camelCase
// async method, defined here from the catalog itself; `index.d.ts` (generated from the
// catalog's JSON schemas by `codegen.mjs`) types them. No tool is written by hand.
'use strict'

const native = require('./native.js')

/** Every tool of the catalog (name, title, description, toolset, schemas, annotations). */
const TOOLS = Object.freeze(JSON.parse(native.toolsJson()))

/** A typed call answered with a contract error. */
class ToolpackError extends Error {
  constructor(tool, code, kind, payload) {
    super(`${tool}: ${code}: ${messageOf(payload)}`)
    this.name = 'ToolpackError'
    /** The tool's catalog name. */
    this.tool = tool
    /** The contract's exact error code. */
    this.code = code
    /** The error's kind: validation, not_found, disambiguation_required, rate_limited, upstream_timeout, upstream, data_not_available, already_exists, permission_denied, internal or other. */
    this.kind = kind
    /** The contract's error JSON. */
    this.payload = payload
  }
}

function messageOf(payload) {
  if (typeof payload?.message === 'string') return payload.message
  if (typeof payload?.error?.message === 'string') return payload.error.message
  return 'the tool reported an error'
}

/** Options (`{ tflApiKey: '…' }`) as the core's setting names (`TFL_API_KEY`). */
function settingsOf(options) {
  const settings = {}
  for (const [name, value] of Object.entries(options ?? {})) {
    if (value === undefined || value === null) continue
    settings[name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()] = String(value)
  }
  return settings
}

function camelCase(name) {
  return name.replace(/[_-]([a-z0-9])/g, (_, c) => c.toUpperCase())
}

class Toolpack {
  /** A client configured only by `options` (the environment is not read). */
  constructor(options) {
    this._native = new native.NativeToolpack(settingsOf(options), false)
  }

  /** A client configured from the process environment, with `overrides` on top. */
  static fromEnv(overrides) {
    const client = Object.create(Toolpack.prototype)
    client._native = new native.NativeToolpack(settingsOf(overrides), true)
    return client
  }

  /**
   * A client on the same toolpack (state, caches, limits) that acts for `callerId`: one of
   * the application's own users, with its own saved places and rate-limit budgets. A client
   * made without `forCaller` acts for the local caller. Throws on a blank, over-long
   * (> 512 bytes) or control-character id.
   */
  forCaller(callerId) {
    const client = Object.create(Object.getPrototypeOf(this))
    client._native = this._native.forCaller(String(callerId))
    return client
  }

  /** The id of the caller this client acts for (`'local'` by default). */
  get callerId() {
    return this._native.callerId
  }

  /** Every tool: name, description, input and output JSON schema, annotations. */
  static tools() {
    return JSON.parse(native.toolsJson())
  }

  /** Calls tool `name`; resolves to the MCP `CallToolResult` JSON, errors included. */
  async call(name, args) {
    // The native call answers at once for calls that never wait, else with a Promise.
    const outcome = await this._native.call(name, JSON.stringify(args ?? null), true)
    return JSON.parse(outcome.json)
  }

  async _typed(name, args) {
    const outcome = await this._native.call(name, JSON.stringify(args ?? null), false)
    const body = JSON.parse(outcome.json)
    if (outcome.code != null) throw new ToolpackError(name, outcome.code, outcome.kind ?? 'other', body)
    return body
  }
}

for (const tool of TOOLS) {
  const method = camelCase(tool.name)
  Object.defineProperty(Toolpack.prototype, method, {
    value: { [method](args) { return this._typed(tool.name, args) } }[method],
    writable: true,
    configurable: true,
  })
}

const TOOL_NAMES = Object.freeze(TOOLS.map((t) => t.name))

module.exports = { Toolpack, ToolpackError, TOOL_NAMES }
