// Loads the native addon built for this platform: `toolpack.<platform>-<arch>[-<libc>].node`
// next to this file (built by `node build.mjs` from the `toolpack-node` crate).
'use strict'

const { join } = require('node:path')
const { existsSync } = require('node:fs')

function libc() {
  if (process.platform !== 'linux') return ''
  const report = typeof process.report?.getReport === 'function' ? process.report.getReport() : null
  return report && report.header && report.header.glibcVersionRuntime ? '-gnu' : '-musl'
}

const file = `toolpack.${process.platform}-${process.arch}${libc()}.node`
const path = join(__dirname, file)
if (!existsSync(path)) {
  throw new Error(`toolpack: no native addon for this platform (looked for ${file}); build it with \`node build.mjs\``)
}
module.exports = require(path)
