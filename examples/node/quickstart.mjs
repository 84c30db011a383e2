// A first look at toolpack from Node.js: offline, no keys needed.
//
//   npm install ./node   (or the packed tarball)
//   node examples/node/quickstart.mjs
import { Toolpack, ToolpackError } from 'toolpack'

const tp = Toolpack.fromEnv()
const answer = await tp.stationToilets({ stationName: "King's Cross" })
console.log(`${answer.stationName} (${answer.stationUniqueId}):`)
for (const toilet of answer.toilets ?? []) {
  console.log(`  ${toilet.type.padEnd(7)} ${toilet.location ?? '(no location)'}${toilet.accessible ? ' [accessible]' : ''}`)
}

try {
  await tp.stationToilets({ stationName: 'Edgware Road' })
} catch (error) {
  if (!(error instanceof ToolpackError)) throw error
  const choices = error.payload.stationDisambiguation
  console.log(`${error.code}: ${choices.map((c) => c.stationUniqueId).join(', ')}`)
  const chosen = await tp.stationToilets({ stationName: choices[0].stationUniqueId })
  console.log(`  chose ${chosen.stationName}: ${chosen.toilets?.length ?? 0} toilets`)
}

// Calls run concurrently; each tool allows 5 calls a second by default
// (TOOLPACK_RATE_LIMIT_PER_SECOND), past which it answers RATE_LIMIT_EXCEEDED.
const many = await Promise.all(['Victoria', 'Abbey Wood'].map((stationName) => tp.stationToilets({ stationName })))
for (const a of many) console.log(`${a.stationName}: ${a.toilets?.length ?? 0} toilets`)
