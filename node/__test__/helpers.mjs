// Test support: the fake upstream (the Rust testkit's `fake-upstream` binary, driven
// through its admin API) and the shared vectors with the checks every surface applies.
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

export const TESTS_DIR = process.env.TOOLPACK_TESTS_DIR
if (!TESTS_DIR) throw new Error('set TOOLPACK_TESTS_DIR to the repository tests/ directory')

/** Starts the fake upstream; resolves to `{ baseUrl, reset(scenarios), requests(), stop() }`. */
export async function startFake() {
  const bin = process.env.TOOLPACK_FAKE_UPSTREAM_BIN
  if (!bin) throw new Error('set TOOLPACK_FAKE_UPSTREAM_BIN to the fake-upstream binary')
  const child = spawn(bin, ['--fixtures', join(TESTS_DIR, 'fixtures')], { stdio: ['pipe', 'pipe', 'inherit'] })
  const lines = createInterface({ input: child.stdout })
  const baseUrl = await new Promise((resolve, reject) => {
    lines.once('line', resolve)
    child.once('error', reject)
  })
  const admin = async (method, path, body) => {
    const response = await fetch(baseUrl + path, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status}`)
    const text = await response.text()
    return text ? JSON.parse(text) : null
  }
  return {
    baseUrl,
    async reset(scenarios = []) {
      await admin('DELETE', '/__fake/scenarios')
      await admin('DELETE', '/__fake/requests')
      for (const scenario of scenarios) await admin('POST', '/__fake/scenarios', scenario)
    },
    requests: () => admin('GET', '/__fake/requests'),
    stop() {
      child.stdin.end()
      child.kill()
    },
  }
}

function jsonFiles(dir) {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return jsonFiles(path)
    return name.endsWith('.json') ? [path] : []
  })
}

/** Every case of every vector file: `{ tool, case }`. */
export function loadVectors() {
  return jsonFiles(join(TESTS_DIR, 'vectors')).flatMap((path) => {
    const file = JSON.parse(readFileSync(path, 'utf8'))
    return file.cases.map((c) => ({ tool: file.tool, case: c }))
  })
}

/** The case's settings with `${TESTS_DIR}`, `${UPSTREAM}` and `${TEMP_DIR}` filled in. */
export function settingsOf(c, upstream, tempDir) {
  return Object.fromEntries(
    Object.entries(c.config ?? {}).map(([k, v]) => [
      k,
      v.replaceAll('${TESTS_DIR}', TESTS_DIR).replaceAll('${UPSTREAM}', upstream).replaceAll('${TEMP_DIR}', tempDir),
    ]),
  )
}

/** The case with `${TESTS_DIR}` and `${TEMP_DIR}` filled in in its arguments and its `before` calls' arguments. */
export function withPaths(c, tempDir) {
  let text = JSON.stringify(c)
  for (const [name, value] of [['${TESTS_DIR}', TESTS_DIR], ['${TEMP_DIR}', tempDir]]) {
    text = text.replaceAll(name, JSON.stringify(value).slice(1, -1))
  }
  return JSON.parse(text)
}

/** Core setting names (`TFL_API_KEY`) as client options (`tflApiKey`). */
export function optionsOf(settings) {
  return Object.fromEntries(
    Object.entries(settings).map(([k, v]) => [k.toLowerCase().replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase()), v]),
  )
}

function pointer(body, path) {
  let current = body
  for (const raw of path.split('/').slice(1)) {
    const part = raw.replaceAll('~1', '/').replaceAll('~0', '~')
    if (current === null || typeof current !== 'object' || !(part in current)) return undefined
    current = current[part]
  }
  return current
}


/** A copy of `body` without the values at `paths`. */
function without(body, paths) {
  const out = structuredClone(body)
  for (const path of paths) {
    const cut = path.lastIndexOf('/')
    const parent = cut > 0 ? pointer(out, path.slice(0, cut)) : out
    const key = path.slice(cut + 1).replaceAll('~1', '/').replaceAll('~0', '~')
    if (Array.isArray(parent)) parent.splice(Number(key), 1)
    else if (parent && typeof parent === 'object') delete parent[key]
  }
  return out
}

function deepEqual(a, b) {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const ka = Object.keys(a)
  if (ka.length !== Object.keys(b).length) return false
  return ka.every((k) => k in b && deepEqual(a[k], b[k]))
}

/** Every way an answer differs from the case's expectations ([] when it passes). */
export function problems(c, settings, isError, body, received) {
  const expect = c.expect
  const found = []
  if (isError !== expect.isError) found.push(`isError is ${isError}, expected ${expect.isError}`)
  const patterns = expect.patterns ?? {}
  for (const [path, pattern] of Object.entries(patterns)) {
    const actual = pointer(body, path)
    if (typeof actual !== 'string' || !new RegExp(pattern).test(actual)) {
      found.push(`${path} is ${JSON.stringify(actual)}, expected a string matching ${pattern}`)
    }
  }
  if ('body' in expect && !deepEqual(expect.body, without(body, Object.keys(patterns)))) {
    found.push(`body differs: expected ${JSON.stringify(expect.body)}`)
  }
  for (const [path, value] of Object.entries(expect.pointers ?? {})) {
    const actual = pointer(body, path)
    if (!deepEqual(actual, value)) found.push(`${path} is ${JSON.stringify(actual)}, expected ${JSON.stringify(value)}`)
  }
  for (const [path, length] of Object.entries(expect.lengths ?? {})) {
    const actual = pointer(body, path)
    if (!Array.isArray(actual) || actual.length !== length) found.push(`${path} has length ${actual?.length}, expected ${length}`)
  }
  if (expect.requests) {
    if (expect.requests.length !== received.length) {
      found.push(`the fake upstream received ${received.length} requests, expected ${expect.requests.length}`)
    }
    expect.requests.forEach((want, i) => {
      const got = received[i]
      if (!got) return
      if ('path' in want && want.path !== got.path) found.push(`request ${i}: path ${got.path}, expected ${want.path}`)
      if ('query' in want && !deepEqual(want.query, got.query)) found.push(`request ${i}: query ${JSON.stringify(got.query)}`)
      for (const [name, value] of Object.entries(want.headers ?? {})) {
        if (got.headers[name] !== value) found.push(`request ${i}: header ${name} is ${got.headers[name]}`)
      }
      for (const name of want.absentHeaders ?? []) {
        if (name in got.headers) found.push(`request ${i}: header ${name} must be absent`)
      }
      let sent = null
      try {
        sent = JSON.parse(got.body)
      } catch {}
      for (const [path, value] of Object.entries(want.bodyPointers ?? {})) {
        const actual = pointer(sent, path)
        if (!deepEqual(actual, value)) found.push(`request ${i}: body ${path} is ${JSON.stringify(actual)}, expected ${JSON.stringify(value)}`)
      }
    })
  }
  const text = JSON.stringify(body)
  for (const [name, value] of Object.entries(settings)) {
    if (name.endsWith('_API_KEY') && value.trim() && text.includes(value.trim())) found.push(`the answer contains the value of ${name}`)
  }
  return found
}
