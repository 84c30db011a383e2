// A real OAuth 2.1 / OpenID authorization server for the tests (npm oauth2-mock-server),
// on loopback. It serves discovery, the JWKS and the token endpoint, and signs with
// three keys in turn: RS256 (kid "rs"), ES256 ("es") and EdDSA ("ed").
//
// Token requests (POST /token, password grant: `username` becomes `sub`) may shape the
// claims for negative tests: `aud`, `iss`, `exp_in` and `nbf_in` (seconds from now).
// Besides the server's own endpoints, for tests only:
//   POST /__impostor {kid, sub, aud}  a token with this issuer's `iss`, signed by another
//                                     keystore under `kid` ("rs": right kid, wrong key)
//   POST /__hs256 {sub, aud}          a token signed HS256 with the RS256 public key (PEM)
//   GET  /__stats                     how often discovery and the JWKS were fetched
//
// Prints `{"issuer": URL}` on stdout once listening. Usage: node issuer.mjs
import { createPublicKey, createHmac } from 'node:crypto'
import { createServer } from 'node:http'

import { OAuth2Issuer, OAuth2Service } from 'oauth2-mock-server'

const issuer = new OAuth2Issuer()
await issuer.keys.generate('RS256', { kid: 'rs' })
await issuer.keys.generate('ES256', { kid: 'es' })
await issuer.keys.generate('EdDSA', { kid: 'ed', crv: 'Ed25519' })
const service = new OAuth2Service(issuer)

const impostor = new OAuth2Issuer()
await impostor.keys.generate('RS256', { kid: 'rs' })
await impostor.keys.generate('RS256', { kid: 'stranger' })

const now = () => Math.floor(Date.now() / 1000)
service.on('beforeTokenSigning', (token, req) => {
  const body = req.body ?? {}
  if (body.aud) token.payload.aud = body.aud
  if (body.iss) token.payload.iss = body.iss
  if (body.exp_in) token.payload.exp = now() + Number(body.exp_in)
  if (body.nbf_in) token.payload.nbf = now() + Number(body.nbf_in)
})

const stats = { discovery: 0, jwks: 0, token: 0 }

async function readJson(req) {
  let text = ''
  for await (const chunk of req) text += chunk
  return JSON.parse(text || '{}')
}

const b64 = (value) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url')

const server = createServer((req, res) => {
  handle(req, res).catch((error) => {
    res.statusCode = 500
    res.end(JSON.stringify({ error: String(error) }))
  })
})

async function handle(req, res) {
  const path = new URL(req.url, 'http://x').pathname
  if (path === '/__stats') return res.end(JSON.stringify(stats))
  if (path === '/__impostor') {
    const { kid, sub, aud } = await readJson(req)
    const token = await impostor.buildToken({
      kid,
      scopesOrTransform: (_header, payload) => Object.assign(payload, { iss: issuer.url, sub, aud, scope: 'toolpack:read toolpack:write' }),
    })
    return res.end(JSON.stringify({ token }))
  }
  if (path === '/__hs256') {
    const { sub, aud } = await readJson(req)
    const rsa = issuer.keys.toJSON().find((k) => k.kid === 'rs')
    const pem = createPublicKey({ key: rsa, format: 'jwk' }).export({ type: 'spki', format: 'pem' })
    const head = b64({ alg: 'HS256', typ: 'JWT', kid: 'rs' })
    const claims = b64({ iss: issuer.url, sub, aud, exp: now() + 600, iat: now(), scope: 'toolpack:read toolpack:write' })
    const signature = createHmac('sha256', pem).update(`${head}.${claims}`).digest('base64url')
    return res.end(JSON.stringify({ token: `${head}.${claims}.${signature}` }))
  }
  if (path.startsWith('/.well-known/')) stats.discovery++
  if (path === '/jwks') stats.jwks++
  if (path === '/token') stats.token++
  service.requestHandler(req, res)
}

server.listen(0, '127.0.0.1', () => {
  issuer.url = `http://127.0.0.1:${server.address().port}`
  impostor.url = issuer.url
  process.stdout.write(`${JSON.stringify({ issuer: issuer.url })}\n`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
