// onChoice: a client given one asks it which station a name means and the call goes on
// with the pick (a plain value or a Promise); null, a value not offered, or an exception
// give the disambiguation as always, and so does a client without it.
import assert from 'node:assert/strict'
import { test } from 'node:test'

import { Toolpack } from 'toolpack'

const EDGWARE_ROAD = { stationName: 'Edgware Road' }

test('the call goes on with the value onChoice picks', async () => {
  const asked = []
  const client = new Toolpack({
    onChoice: async (question) => {
      asked.push(question)
      await new Promise((resolve) => setTimeout(resolve, 50))
      return question.choices[1].value
    },
  })
  const answer = await client.stationToilets(EDGWARE_ROAD)
  assert.equal(answer.code, 'OK')
  assert.equal(answer.stationUniqueId, '940GZZLUERC')
  assert.equal(asked.length, 1)
  assert.equal(asked[0].field, 'stationName')
  assert.equal(asked[0].message, 'Which station do you mean by "Edgware Road"?')
  assert.deepEqual(asked[0].choices.map((c) => c.value), ['940GZZLUERB', '940GZZLUERC'])
  assert.ok(asked[0].choices.every((c) => c.title.startsWith('Edgware Road — ')))
  // Another caller's handle asks the same callback; a plain value works as well as a Promise.
  const plain = new Toolpack({ onChoice: (question) => question.choices[0].value }).forCaller('alice')
  assert.equal((await plain.stationToilets(EDGWARE_ROAD)).stationUniqueId, '940GZZLUERB')
})

for (const [what, onChoice] of [
  ['null', () => null],
  ['a value not offered', () => '940GZZLUOXC'],
  ['an exception', () => {
    throw new Error('the dialog crashed')
  }],
  ['no callback', undefined],
]) {
  test(`${what} gives the disambiguation`, async () => {
    const client = new Toolpack({ onChoice })
    const result = await client.call('stationToilets', EDGWARE_ROAD)
    assert.equal(result.isError, true)
    assert.equal(result.structuredContent.code, 'DISAMBIGUATION_REQUIRED')
  })
}
