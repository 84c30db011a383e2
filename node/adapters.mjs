// What the framework adapters share: choosing tools from the catalog, and calling one
// so that its result is the contract JSON (a contract error included), with the call's
// reports as they come.

import toolpack from './index.js'

const { Toolpack } = toolpack

/**
 * The catalog's tools named in `names` (every tool when absent), in catalog order. An
 * unknown name throws, naming it and the known ones.
 */
export function selectedTools(names) {
  const catalog = Toolpack.tools()
  if (names == null) return catalog
  const known = new Set(catalog.map((t) => t.name))
  const unknown = [...names].filter((n) => !known.has(n))
  if (unknown.length > 0) {
    throw new TypeError(`unknown tools ${JSON.stringify(unknown)}; the catalog has ${[...known].join(', ')}`)
  }
  return catalog.filter((t) => names.includes(t.name))
}

/** The contract JSON of a call: the success body, or the contract's error JSON. */
export async function contractCall(client, name, args, onReport) {
  const result = await client.call(name, args, onReport ? { onReport } : undefined)
  return result.structuredContent
}

/**
 * Calls `name` and yields `{ report }` for each report as it arrives, then returns the
 * contract JSON. A failure of the call itself is thrown.
 */
export async function* reportingCall(client, name, args) {
  const queue = []
  let wake = null
  let settled = false
  let answer
  let failure
  const push = (report) => {
    queue.push(report)
    if (wake) wake()
  }
  contractCall(client, name, args, push).then(
    (body) => {
      answer = body
    },
    (error) => {
      failure = error ?? new Error('toolpack call failed')
    },
  ).finally(() => {
    settled = true
    if (wake) wake()
  })
  for (;;) {
    while (queue.length > 0) yield { report: queue.shift() }
    if (settled) break
    await new Promise((resolve) => {
      wake = resolve
    })
    wake = null
  }
  if (failure !== undefined) throw failure
  return answer
}
