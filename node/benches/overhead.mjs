// Per-call overhead of the Node layer over the Rust call, for `stationToilets`.
//
// In one run: the Rust catalog call (`Toolpack::call_json`, what the addon calls) is
// measured by the core's criterion benchmark, then the same call through the Node
// package (release addon), typed method and `call`, awaited one at a time. Each figure
// is a median of many calls; the overhead is the Node median minus the Rust median.
//
//   node node/benches/overhead.mjs
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const repo = join(here, '..', '..')
const cases = { exact_victoria: 'Victoria', kings_cross: 'Kings Cross' }
const rounds = 20000

execFileSync('node', [join(here, '..', 'build.mjs'), '--release'], { stdio: 'ignore' })
execFileSync('cargo', ['bench', '-q', '-p', 'toolpack', '--bench', 'station_toilets', '--', 'station_toilets/catalog_json/'], {
  cwd: repo,
  stdio: 'ignore',
})
const rust = Object.fromEntries(
  Object.keys(cases).map((c) => {
    const file = join(repo, 'target', 'criterion', 'station_toilets', `catalog_json_${c}`, 'new', 'estimates.json')
    return [c, JSON.parse(readFileSync(file, 'utf8')).median.point_estimate]
  }),
)

const { Toolpack } = createRequire(import.meta.url)('../index.js')
const tp = new Toolpack({ toolpackRateLimitPerSecond: 0 })
const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1]

console.log('case              rust call_json      typed       call')
for (const [label, stationName] of Object.entries(cases)) {
  const typed = []
  const call = []
  for (let i = 0; i < rounds; i++) {
    const t0 = process.hrtime.bigint()
    await tp.stationToilets({ stationName })
    const t1 = process.hrtime.bigint()
    await tp.call('stationToilets', { stationName })
    const t2 = process.hrtime.bigint()
    typed.push(Number(t1 - t0))
    call.push(Number(t2 - t1))
  }
  const r = rust[label]
  const us = (ns) => `${(ns / 1000).toFixed(2).padStart(8)} µs`
  console.log(`${label.padEnd(16)} ${us(r)} ${us(median(typed))} ${us(median(call))}`)
  console.log(`${'  added by Node'.padEnd(16)} ${' '.repeat(11)} ${us(median(typed) - r)} ${us(median(call) - r)}`)
}
