// Builds the native addon (`cargo build -p toolpack-node`, debug unless `--release`) and
// copies it next to the loader as `toolpack.<platform>-<arch>[-gnu].node`, without debug
// info so the npm tarball stays small.
import { execFileSync } from 'node:child_process'
import { copyFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const release = process.argv.includes('--release')
const args = ['build', '--locked', '-p', 'toolpack-node', ...(release ? ['--release'] : [])]
execFileSync('cargo', args, { cwd: here, stdio: 'inherit' })
const target = process.env.CARGO_TARGET_DIR ?? join(here, '..', 'target')
const ext = { linux: 'so', darwin: 'dylib', win32: 'dll' }[process.platform]
const prefix = process.platform === 'win32' ? '' : 'lib'
const built = join(target, release ? 'release' : 'debug', `${prefix}toolpack_node.${ext}`)
const libc = process.platform === 'linux' ? '-gnu' : ''
const out = join(here, `toolpack.${process.platform}-${process.arch}${libc}.node`)
copyFileSync(built, out)
if (process.platform === 'linux') {
  try {
    execFileSync('strip', ['--strip-debug', out])
  } catch {
    // No strip: the addon still works, only larger.
  }
}
console.log(`built ${out}`)
