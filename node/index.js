// toolpack for Node.js: the `Toolpack` client. Every catalog tool becomes a camelCase
// async method, defined here from the catalog itself; `index.d.ts` (generated from the
// catalog's JSON schemas by `cargo xtask codegen`) types them. No tool is written by hand.
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
    if (value === undefined || value === null || name === 'onReport' || name === 'onChoice') continue
    settings[name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()] = String(value)
  }
  return settings
}

function camelCase(name) {
  return name.replace(/[_-]([a-z0-9])/g, (_, c) => c.toUpperCase())
}

/**
 * Calls tool `name` on the native `handle`; `onReport` (optional) receives each report of
 * the call, parsed, and all of them before this settles. An exception in `onReport` never
 * fails the call: it becomes a process warning.
 */
async function nativeCall(handle, name, args, asMcp, onReport) {
  const json = JSON.stringify(args ?? null)
  if (typeof onReport !== 'function') return await handle.call(name, json, asMcp)
  let received = 0
  let wake = null
  const deliver = (text) => {
    received += 1
    try {
      onReport(JSON.parse(text))
    } catch (error) {
      process.emitWarning(`toolpack: onReport threw: ${error}`)
    }
    if (wake) wake()
  }
  // The native call answers at once for calls that never wait, else with a Promise.
  const outcome = await handle.call(name, json, asMcp, deliver)
  while (received < (outcome.reports ?? 0)) {
    await new Promise((resolve) => {
      wake = resolve
    })
  }
  return outcome
}

/**
 * The native `handle` asking `onChoice` (when it is a function) which place a name means:
 * it gets the question, parsed, and returns (or resolves to) the picked value; anything
 * else, or an exception (a process warning), gives the answer without it.
 */
function asking(handle, onChoice) {
  if (typeof onChoice !== 'function') return handle
  return handle.asking(async (text) => {
    try {
      const picked = await onChoice(JSON.parse(text))
      return typeof picked === 'string' ? picked : null
    } catch (error) {
      process.emitWarning(`toolpack: onChoice threw: ${error}`)
      return null
    }
  })
}

/** A client of `prototype`'s class over the native `handle`, reporting to `onReport`. */
function clientOf(prototype, handle, onReport) {
  const client = Object.create(prototype)
  client._native = handle
  client._onReport = typeof onReport === 'function' ? onReport : undefined
  return client
}

class Toolpack {
  /**
   * A client configured only by `options` (the environment is not read). `options.onReport`
   * receives every call's progress and log reports (see `reportingTo`). `options.onChoice`
   * is asked when a place name means several places (planJourney's from and to, arrivals'
   * stop, stationToilets, liftOutages): it gets `{field, message, choices: [{value, title}]}`
   * and returns (or resolves to) the picked `value`, and the call goes on with it; `null`
   * gives the answer without it (DISAMBIGUATION_REQUIRED with the candidates).
   */
  constructor(options) {
    this._native = asking(new native.NativeToolpack(settingsOf(options), false), options?.onChoice)
    this._onReport = typeof options?.onReport === 'function' ? options.onReport : undefined
  }

  /** A client configured from the process environment, with `overrides` on top. */
  static fromEnv(overrides) {
    const handle = asking(new native.NativeToolpack(settingsOf(overrides), true), overrides?.onChoice)
    return clientOf(Toolpack.prototype, handle, overrides?.onReport)
  }

  /**
   * A client on the same toolpack and caller whose calls hand their progress and log
   * reports (the ones MCP sends as notifications) to `onReport`, one report object each,
   * in order, on the event loop, before the call's Promise settles.
   */
  reportingTo(onReport) {
    return clientOf(Object.getPrototypeOf(this), this._native, onReport)
  }

  /**
   * A client on the same toolpack (state, caches, limits) that acts for `callerId`: one of
   * the application's own users, with its own saved places and rate-limit budgets. A client
   * made without `forCaller` acts for the local caller. Throws on a blank, over-long
   * (> 512 bytes) or control-character id.
   */
  forCaller(callerId) {
    const handle = this._native.forCaller(String(callerId))
    return clientOf(Object.getPrototypeOf(this), handle, this._onReport)
  }

  /** The id of the caller this client acts for (`'local'` by default). */
  get callerId() {
    return this._native.callerId
  }

  /** Every tool: name, description, input schemas (plain, strict, Gemini), output schema, annotations. */
  static tools() {
    return JSON.parse(native.toolsJson())
  }

  /** The same as the static `Toolpack.tools()`. */
  tools() {
    return Toolpack.tools()
  }

  /** The MCP Apps views as MCP `resources/list` entries (uri, name, title, description, mimeType, `_meta.ui`). */
  static resources() {
    return JSON.parse(native.resourcesJson())
  }

  /** The MCP `resources/read` result of the view at `uri`; throws for an unknown URI. */
  static readResource(uri) {
    const text = native.readResourceJson(String(uri))
    if (text === null || text === undefined) throw new Error(`no resource '${uri}'`)
    return JSON.parse(text)
  }

  /**
   * Calls tool `name`; resolves to the MCP `CallToolResult` JSON, errors included.
   * `options.onReport` receives this call's reports (instead of the client's).
   */
  async call(name, args, options) {
    const onReport = options?.onReport ?? this._onReport
    const outcome = await nativeCall(this._native, name, args, true, onReport)
    return JSON.parse(outcome.json)
  }

  async _typed(name, args) {
    const outcome = await nativeCall(this._native, name, args, false, this._onReport)
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
