// Loads the native addon for this platform, the napi-rs way: from the platform package
// (`toolpack-<platform>`, an optional dependency of `toolpack`, installed by npm only where
// its `os`/`cpu`/`libc` match), or from a development build next to this file
// (`node build.mjs` writes `toolpack.<platform>.node`).
'use strict'

const { join } = require('node:path')
const { existsSync } = require('node:fs')

/** The platforms a platform package is published for. */
const SUPPORTED = ['linux-x64-gnu']

function libc() {
  if (process.platform !== 'linux') return ''
  const report = typeof process.report?.getReport === 'function' ? process.report.getReport() : null
  return report && report.header && report.header.glibcVersionRuntime ? '-gnu' : '-musl'
}

const platform = `${process.platform}-${process.arch}${libc()}`
if (!SUPPORTED.includes(platform)) {
  throw new Error(
    `toolpack: no native addon for ${platform}; supported platforms: ${SUPPORTED.join(', ')}`,
  )
}

function load() {
  const local = join(__dirname, `toolpack.${platform}.node`)
  if (existsSync(local)) return require(local)
  try {
    return require(`toolpack-${platform}`)
  } catch (error) {
    if (error && error.code === 'MODULE_NOT_FOUND') {
      throw new Error(
        `toolpack: the platform package toolpack-${platform} is not installed; ` +
          'reinstall without --omit=optional (npm installs it as an optional dependency)',
        { cause: error },
      )
    }
    throw error
  }
}

module.exports = load()
