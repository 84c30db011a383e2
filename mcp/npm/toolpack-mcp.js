#!/usr/bin/env node
// The `toolpack-mcp` command of the npm package `toolpack-mcp` (`npx -y toolpack-mcp`): finds
// the release binary in this platform's package (an optional dependency npm installs only
// where it runs) and runs it with the same arguments, standard streams, environment and
// signals, then exits as it did. Nothing else: the server is the binary.
'use strict';

const { spawn } = require('node:child_process');

/** The platform packages, by `process.platform`-`process.arch`. */
const PLATFORMS = { 'linux-x64': 'toolpack-mcp-linux-x64-gnu' };

function binary() {
  const key = `${process.platform}-${process.arch}`;
  const name = PLATFORMS[key];
  if (name !== undefined) {
    try {
      return require.resolve(`${name}/bin/toolpack-mcp`);
    } catch {
      // Not installed: a musl Linux (the package needs glibc), or optional dependencies off.
    }
  }
  const supported = Object.keys(PLATFORMS)
    .map((platform) => `${platform} (glibc 2.28 or newer)`)
    .join(', ');
  process.stderr.write(
    `toolpack-mcp: no build for ${key}${name ? ' here (is it a musl system, or were optional dependencies skipped?)' : ''}. ` +
      `Supported: ${supported}. Elsewhere: cargo install toolpack-mcp.\n`,
  );
  process.exit(1);
}

// The handlers are in place before the server starts: a signal that came between the two
// would kill this command by default and leave the server running without its parent.
const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];
let child;
let pending;
const forward = (signal) => {
  if (child === undefined) pending = signal;
  else child.kill(signal);
};
for (const signal of forwarded) process.on(signal, forward);
child = spawn(binary(), process.argv.slice(2), { stdio: 'inherit' });
if (pending !== undefined) child.kill(pending);
child.on('error', (error) => {
  process.stderr.write(`toolpack-mcp: cannot start the server: ${error.message}\n`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  if (signal) {
    // Die of the same signal, so the caller sees what the server saw.
    for (const s of forwarded) process.off(s, forward);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
