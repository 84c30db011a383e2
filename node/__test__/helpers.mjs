// Test support: the fake upstream (the Rust testkit's `fake-upstream` binary, driven
// through its admin API) and the shared vectors. Answers are judged by the testkit through
// the fake upstream (`judge`), as on every surface. And toolpack-mcp served over HTTP for the
// official client tests (`serveHttp`).
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

export const TESTS_DIR = process.env.TOOLPACK_TESTS_DIR
if (!TESTS_DIR) throw new Error('set TOOLPACK_TESTS_DIR to the repository tests/ directory')

/** Starts the fake upstream; resolves to `{ baseUrl, reset(scenarios), requests(), judge(…), stop() }`. */
export async function startFake(extraArgs = []) {
  const bin = process.env.TOOLPACK_FAKE_UPSTREAM_BIN
  if (!bin) throw new Error('set TOOLPACK_FAKE_UPSTREAM_BIN to the fake-upstream binary')
  const child = spawn(bin, ['--fixtures', join(TESTS_DIR, 'fixtures'), ...extraArgs], { stdio: ['pipe', 'pipe', 'inherit'] })
  const lines = createInterface({ input: child.stdout })
  const next = () =>
    new Promise((resolve, reject) => {
      lines.once('line', resolve)
      child.once('error', reject)
    })
  const baseUrl = await next()
  // With `--hfp-replay`, the second line is the MQTT broker's URL.
  const hfpUrl = extraArgs.includes('--hfp-replay') ? await next() : undefined
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
    hfpUrl,
    async reset(scenarios = []) {
      await admin('DELETE', '/__fake/scenarios')
      await admin('DELETE', '/__fake/requests')
      for (const scenario of scenarios) await admin('POST', '/__fake/scenarios', scenario)
    },
    requests: () => admin('GET', '/__fake/requests'),
    /**
     * The testkit's verdict on an answer to the shared vector case `caseId` (`<tool>: <name>`),
     * with the requests received since the last reset: `null` when it passes, else every way it differs.
     */
    async judge(caseId, isError, body) {
      const verdict = await admin('POST', '/__vectors/judge', { case: caseId, isError, body })
      return verdict.ok ? null : verdict.problems
    },
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

/** The case's settings with `${TESTS_DIR}`, `${UPSTREAM}`, `${HFP}` (it as an MQTT broker) and `${TEMP_DIR}` filled in. */
export function settingsOf(c, upstream, tempDir) {
  return Object.fromEntries(
    Object.entries(c.config ?? {}).map(([k, v]) => [
      k,
      v.replaceAll('${TESTS_DIR}', TESTS_DIR).replaceAll('${UPSTREAM}', upstream).replaceAll('${HFP}', upstream.replace('http://', 'mqtt://')).replaceAll('${TEMP_DIR}', tempDir),
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

/**
 * Runs `toolpack-mcp` (TOOLPACK_MCP_BIN) with `args` and `--http` on a free loopback port, with
 * `env` (the parent's when absent); resolves to `{ url, stop }` once it answers `/healthz`,
 * `url` being its `/mcp` endpoint.
 */
export async function serveHttp(args, env) {
  const port = await new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })
  const server = spawn(process.env.TOOLPACK_MCP_BIN, [...args, '--http', `127.0.0.1:${port}`], { stdio: 'ignore', env })
  const stop = () => server.kill()
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return { url: `http://127.0.0.1:${port}/mcp`, stop }
    } catch {}
    await new Promise((r) => setTimeout(r, 50))
  }
  stop()
  throw new Error('toolpack-mcp did not start')
}
