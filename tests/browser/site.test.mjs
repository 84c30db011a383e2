// The built documentation site in a real headless browser (Debian's Chromium, driven by
// playwright-core): every page loads without console errors, navigation and breadcrumbs
// lead where they say, search finds a container by name, every diagram image shows,
// the phone-width layout has no horizontal scroll, and the theme switch works.
// Screenshots of the index and a container page go to target/artifacts/.
// Run by ./scripts/test-all (TOOLPACK_BIN_DIR: target/debug; d2 on PATH).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium } from 'playwright-core'

const REPO = process.env.TOOLPACK_REPO ?? new URL('../..', import.meta.url).pathname
const BIN = process.env.TOOLPACK_BIN_DIR ?? join(REPO, 'target/debug')
const ARTIFACTS = join(REPO, 'target/artifacts')
const work = mkdtempSync(join(tmpdir(), 'toolpack-site-'))
let browser

function buildSite(project) {
  const out = execFileSync(join(BIN, 'toolpack-mcp'), ['call', 'build_docs', JSON.stringify({ project_path: project, format: 'html' })], { encoding: 'utf8' })
  assert.equal(JSON.parse(out).success, true, out)
  return join(project, 'dist')
}

function pages(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return pages(path)
    return name.endsWith('.html') ? [path] : []
  })
}

const sites = {}

before(async () => {
  const example = join(work, 'shop')
  cpSync(join(REPO, 'examples/loko/shop'), example, { recursive: true })
  sites.example = buildSite(example)
  const generated = join(work, 'generated')
  execFileSync(join(BIN, 'loko-gen'), [generated, '2', '3', '2'])
  sites.generated = buildSite(generated)
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_BIN ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--allow-file-access-from-files'],
  })
  mkdirSync(ARTIFACTS, { recursive: true })
})

after(async () => {
  await browser?.close()
  rmSync(work, { recursive: true, force: true })
})

async function open(path, viewport = { width: 1280, height: 900 }) {
  const page = await browser.newPage({ viewport })
  const problems = []
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()) })
  page.on('pageerror', (e) => problems.push(String(e)))
  page.on('requestfailed', (r) => problems.push(`failed: ${r.url()}`))
  await page.goto(pathToFileURL(path).href, { waitUntil: 'load' })
  return { page, problems }
}

for (const which of ['example', 'generated']) {
  test(`${which}: every page loads without errors and every diagram shows`, async () => {
    const all = pages(sites[which])
    assert.ok(all.length > 5, `${all.length} pages`)
    for (const path of all) {
      const { page, problems } = await open(path)
      const images = await page.$$eval('figure.diagram img', (imgs) => imgs.map((i) => ({ src: i.getAttribute('src'), ok: i.complete && i.naturalWidth > 0 })))
      await page.close()
      assert.deepEqual(problems, [], relative(sites[which], path))
      for (const image of images) assert.ok(image.ok, `${relative(sites[which], path)}: ${image.src} did not show`)
      if (!path.endsWith('print.html')) assert.ok(images.length >= 1, `${relative(sites[which], path)} shows its diagram`)
    }
  })

  test(`${which}: the phone-width layout has no horizontal scroll`, async () => {
    for (const path of pages(sites[which])) {
      const { page } = await open(path, { width: 375, height: 740 })
      const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth])
      await page.close()
      assert.ok(scroll <= client, `${relative(sites[which], path)}: ${scroll} > ${client}`)
    }
  })
}

test('navigation and breadcrumbs lead where they say', async () => {
  const { page } = await open(join(sites.example, 'index.html'))
  await page.click('nav[aria-label="Architecture"] a:text-is("Gateway")')
  assert.match(page.url(), /containers\/payments_gateway\.html$/)
  assert.equal(await page.textContent('article h1'), 'Gateway')
  await page.click('.cards a:text-is("Card Processor")')
  assert.match(page.url(), /components\/payments_gateway_card-processor\.html$/)
  assert.equal(await page.textContent('.breadcrumb [aria-current="page"]'), 'Card Processor')
  await page.click('.breadcrumb a:text-is("Payments")')
  assert.match(page.url(), /systems\/payments\.html$/)
  assert.equal(await page.textContent('article h1'), 'Payments')
  await page.click('.breadcrumb a:text-is("Home")')
  assert.match(page.url(), /dist\/index\.html$/)
  await page.close()
})

test('search finds a container by name, description or technology', async () => {
  const { page } = await open(join(sites.example, 'systems/online-shop.html'))
  await page.fill('#search', 'gateway')
  const titles = await page.$$eval('#search-results a', (as) => as.map((a) => a.firstChild.textContent))
  assert.ok(titles.includes('Gateway'), titles.join(', '))
  await page.fill('#search', 'postgresql 16')
  assert.deepEqual(await page.$$eval('#search-results a', (as) => as.map((a) => a.firstChild.textContent)), ['Database'])
  await page.fill('#search', 'Gateway')
  await page.press('#search', 'Enter')
  await page.waitForURL(/containers\/payments_gateway\.html$/)
  await page.fill('#search', 'no such thing at all')
  assert.equal(await page.textContent('#search-results .empty'), 'No matches')
  await page.close()
})

test('the theme switch turns dark mode on and off', async () => {
  const { page } = await open(join(sites.example, 'index.html'))
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor)
  const light = await background()
  await page.click('.theme-toggle')
  assert.equal(await page.getAttribute('html', 'data-theme'), 'dark')
  assert.notEqual(await background(), light)
  await page.click('.theme-toggle')
  assert.equal(await background(), light)
  await page.close()
})

test('the phone menu opens the sidebar; screenshots are kept', async () => {
  const { page } = await open(join(sites.example, 'index.html'), { width: 375, height: 740 })
  assert.equal(await page.isVisible('nav[aria-label="Architecture"] a:text-is("Gateway")'), false)
  await page.click('.menu')
  await page.waitForTimeout(300)
  assert.equal(await page.isVisible('nav[aria-label="Architecture"] a:text-is("Gateway")'), true)
  await page.screenshot({ path: join(ARTIFACTS, 'site-index-phone.png') })
  await page.close()
  const desktop = await open(join(sites.example, 'index.html'))
  await desktop.page.screenshot({ path: join(ARTIFACTS, 'site-index.png'), fullPage: true })
  await desktop.page.close()
  const container = await open(join(sites.example, 'containers/online-shop_api.html'))
  await container.page.screenshot({ path: join(ARTIFACTS, 'site-container.png'), fullPage: true })
  await container.page.close()
})
