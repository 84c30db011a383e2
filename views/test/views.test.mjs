// The MCP Apps views in headless Chromium, driven by the official host side (the SDK's
// AppBridge, test/host.js) in one `sandbox="allow-scripts"` iframe under a CSP that allows
// nothing external and no eval. The views' HTML and every answer come from the real
// `toolpack-mcp` over stdio (an MCP client that announces the extension), one server per
// shared vector case, against the fake upstream.
//
// - every vector of each view's tools renders without a console error, and the DOM holds
//   what the answer holds (rows, times, names, delays, cancellations, error codes);
// - a view's own tool calls reach the server and the view updates (departures refresh,
//   architecture drill-down and its D2 diagrams, toilet station choice);
// - screenshots at 1280 and 360 px, light and dark, into docs/views/;
// - each page is under 100 KB gzipped and renders an answer in under 100 ms (median of 20).
//
// Needs TOOLPACK_MCP_BIN, TOOLPACK_FAKE_UPSTREAM_BIN and TOOLPACK_TESTS_DIR (and
// CHROMIUM_BIN, default /usr/bin/chromium).
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import * as esbuild from "esbuild";
import { chromium } from "playwright-core";

import { loadVectors, settingsOf, startFake, withPaths } from "../../node/__test__/helpers.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const MCP_BIN = process.env.TOOLPACK_MCP_BIN;
if (!MCP_BIN) throw new Error("set TOOLPACK_MCP_BIN to the toolpack-mcp binary");
const EXTENSION = "io.modelcontextprotocol/ui";
const MIME = "text/html;profile=mcp-app";
/** The view of each tool (what the server must say in `_meta.ui.resourceUri`). */
const VIEW_OF = {
  planJourney: "ui://toolpack/journey",
  plan_trip: "ui://toolpack/journey",
  get_departures: "ui://toolpack/departures",
  query_architecture: "ui://toolpack/architecture",
  query_project: "ui://toolpack/architecture",
  stationToilets: "ui://toolpack/toilets",
  lineStatus: "ui://toolpack/lines",
  arrivals: "ui://toolpack/arrivals",
  get_alerts: "ui://toolpack/alerts",
  timetable: "ui://toolpack/timetable",
  crowding: "ui://toolpack/crowding",
  vehicle_positions: "ui://toolpack/vehicles",
};

/** Each severity's word on an alert line. */
const SEVERITY_WORD = { SEVERE: "Severe", WARNING: "Warning", INFO: "Info", UNKNOWN: "Notice" };

/** The alert lines inside `scope` say `alerts` (in brief or in full), in order, coloured by severity. */
async function checkAlertLines(scope, alerts) {
  const lines = scope.locator("details.alert");
  assert.equal(await lines.count(), alerts.length, "one line per alert");
  for (const [i, alert] of alerts.entries()) {
    const line = lines.nth(i);
    const text = spaced(await line.locator("summary").innerText());
    assert.ok(text.includes(spaced(alert.header)), text);
    assert.ok(text.toLowerCase().includes(SEVERITY_WORD[alert.severity].toLowerCase()), text);
    assert.equal(await line.getAttribute("class"), `alert ${alert.severity.toLowerCase()}`);
    assert.equal(await line.getAttribute("data-alert-id"), alert.id);
  }
}

/** An MCP client of a fresh `toolpack-mcp` with `settings`, announcing MCP Apps. */
async function server(settings, home) {
  const client = new Client(
    { name: "toolpack-views-test", version: "1" },
    { capabilities: { extensions: { [EXTENSION]: { mimeTypes: [MIME] } } } },
  );
  await client.connect(
    new StdioClientTransport({
      command: MCP_BIN,
      args: [],
      env: { PATH: process.env.PATH, HOME: home, ...settings },
      stderr: "ignore",
    }),
  );
  return client;
}

const clock = (iso) => (typeof iso === "string" && iso.length >= 16 ? iso.slice(11, 16) : "—");

let browser;
let page;
let fake;
/** The client whose server the shown view's tool calls go to. */
let current;
const consoleErrors = [];
const pages = new Map();

before(async () => {
  fake = await startFake();
  const host = await esbuild.build({
    entryPoints: [path.join(here, "host.js")],
    bundle: true,
    format: "iife",
    write: false,
    logLevel: "error",
  });
  const script = host.outputFiles[0].text.replaceAll("</script", "<\\/script");
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_BIN ?? "/usr/bin/chromium" });
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  page.on("pageerror", (error) => consoleErrors.push(String(error)));
  await page.exposeFunction("callTool", async (name, args) => current.callTool({ name, arguments: args }));
  // The views inherit this page's policy (srcdoc): nothing external, no eval.
  await page.setContent(`<!doctype html><html><head>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
</head><body style="margin:0"><script>globalThis.__zod_globalConfig = { jitless: true };</script><script>${script}</script></body></html>`);
});

after(async () => {
  await browser?.close();
  fake?.stop();
});

/** The view page of `uri`, read from the server once. */
async function pageOf(client, uri) {
  if (!pages.has(uri)) {
    const read = await client.readResource({ uri });
    const [item] = read.contents;
    assert.equal(item.mimeType, MIME);
    assert.deepEqual(item._meta?.ui?.csp, { connectDomains: [], resourceDomains: [] });
    pages.set(uri, item.text);
  }
  return pages.get(uri);
}

const view = () => page.frameLocator("#view");

/** Shows `result` of `tool` (called with `input`) and waits for the view to render it. */
async function show(uri, client, input, result, options = {}) {
  const html = await pageOf(client, uri);
  current = client;
  await page.evaluate((a) => window.showView(a), { html, input, result, ...options });
  await view().locator("#root[data-rendered]").waitFor();
}

/** `text` with each run of white space as one space, as a page shows it. */
const spaced = (text) => text.replace(/\s+/g, " ");

/** What the DOM must hold for an error answer: the box, with its code and message. */
async function checkError(body) {
  const code = body?.error?.code ?? body?.code;
  const message = body?.error?.message ?? body?.message;
  const box = view().locator(".error");
  await box.waitFor();
  const text = await box.innerText();
  if (code) assert.ok(text.includes(code), `the error box names ${code}: ${text}`);
  // The page lays text out as HTML does: runs of spaces show as one.
  if (message) assert.ok(spaced(text).includes(spaced(message)), `the error box says the message: ${text}`);
}

/** The journey view says what was asked above the options: the time and each wish. */
async function checkAsked(time, arriving, wishes) {
  const asked = view().locator("p.asked");
  if (!time && wishes.length === 0) return;
  const text = await asked.innerText();
  if (time) assert.ok(text.includes(`${arriving ? "Arriving by" : "Leaving at"} ${clock(time)}`), text);
  for (const wish of wishes) assert.ok(text.includes(wish), `${wish}: ${text}`);
}

/** The live vehicles view holds each vehicle on the drawing and in the list, and the message. */
async function checkVehicles(body) {
  assert.equal(spaced(await view().locator("p.message").innerText()), spaced(body.message));
  assert.equal(await view().locator("svg.vehicles-map g.vehicle").count(), body.vehicles.length);
  assert.equal(await view().locator("svg.vehicles-map polyline.route").count(), body.lines.length);
  const rows = view().locator("li.vehicle-row");
  assert.equal(await rows.count(), body.vehicles.length);
  for (const [i, v] of body.vehicles.entries()) {
    assert.equal(await rows.nth(i).getAttribute("data-id"), v.id);
    assert.ok((await rows.nth(i).innerText()).includes(v.line));
  }
}

/** Per tool: what the view's DOM must hold for an answer. */
const CHECKS = {
  async get_departures(body, isError) {
    if (isError) return checkError(body);
    const rows = view().locator("tbody tr");
    assert.equal(await rows.count(), body.departures.length);
    for (const [i, d] of body.departures.entries()) {
      const row = rows.nth(i);
      const text = await row.innerText();
      assert.ok(text.includes(d.line) && text.includes(d.destination), text);
      const cancelled = d.status === "cancelled";
      assert.equal((await row.getAttribute("class")) === "cancelled", cancelled, text);
      if (cancelled) {
        assert.ok(text.includes("Cancelled") && text.includes(clock(d.scheduledTime)), text);
        assert.equal(await row.locator("s").count(), 1, "the time struck through");
      } else {
        assert.ok(text.includes(clock(d.realtimeTime ?? d.scheduledTime)), text);
        if (d.delaySeconds > 0) assert.match(text, /\+\d+ min late/);
        if (d.delaySeconds < 0) assert.match(text, /\d+ min early/);
      }
    }
    await checkAlertLines(view().locator("ul.alerts"), body.alerts ?? []);
  },
  async get_alerts(body, isError) {
    if (isError) return checkError(body);
    const alerts = body.alerts ?? [];
    if (alerts.length === 0) return assert.equal(await view().locator(".empty").count(), 1);
    await checkAlertLines(view().locator("ul.alerts"), alerts);
    // Full text in the answer: a line opens to it without asking the server.
    for (const [i, alert] of alerts.entries()) {
      const line = view().locator("details.alert").nth(i);
      await line.locator("summary").click();
      const text = spaced(await line.locator(".alert-text").innerText());
      assert.ok(text.includes(spaced(alert.description ?? alert.header)), text);
      const item = spaced(await view().locator("ul.alerts > li").nth(i).innerText());
      for (const route of alert.routes ?? []) if (route.shortName) assert.ok(item.includes(route.shortName), item);
      for (const stop of alert.stops ?? []) if (stop.name) assert.ok(item.includes(stop.name), item);
    }
  },
  async planJourney(body, isError) {
    if (isError && body.code === "DISAMBIGUATION_REQUIRED") {
      const places = [...(body.fromLocationDisambiguation ?? []), ...(body.toLocationDisambiguation ?? [])];
      const buttons = view().locator(".choose button");
      assert.equal(await buttons.count(), places.length);
      for (const [i, place] of places.entries()) {
        assert.equal(await buttons.nth(i).innerText(), place.commonName ?? place.parameterValue);
      }
      return;
    }
    if (isError) return checkError(body);
    const journeys = body.topJourneys ?? [];
    if (journeys.length === 0) return assert.equal(await view().locator(".empty").count(), 1);
    const options = view().locator("button.option");
    assert.equal(await options.count(), journeys.length);
    for (const [i, j] of journeys.entries()) {
      const text = await options.nth(i).innerText();
      assert.ok(text.includes(`${clock(j.startDateTime)} → ${clock(j.arrivalDateTime)}`), text);
      if (Number.isFinite(j.totalFarePence)) assert.ok(text.includes(`£${(j.totalFarePence / 100).toFixed(2)}`), text);
      assert.equal(text.includes("Disrupted"), Boolean(j.isDisrupted), text);
      // Where to board and where to get off, without a click.
      for (const leg of j.legs.filter((l) => l.mode !== "walking" && l.departurePoint && l.arrivalPoint)) {
        assert.ok(text.includes(`${leg.departurePoint} → ${leg.arrivalPoint}`), text);
      }
      // Inside the option: each leg's stops passed (folded), step-free notes, the fare parts.
      const details = view().locator(`#option-${i}`);
      const legs = details.locator("ol.legs > li");
      for (const [k, leg] of j.legs.entries()) {
        const stops = legs.nth(k).locator("details.stops");
        const passed = leg.stops ?? [];
        assert.equal(await stops.count(), passed.length ? 1 : 0);
        if (passed.length) {
          const list = await stops.locator("li").allTextContents();
          assert.deepEqual(list, passed);
        }
        assert.equal(await legs.nth(k).locator(".step-free").count(), (leg.obstacles ?? []).length);
      }
      const fares = (j.fares ?? []).filter((f) => Number.isFinite(f.costPence));
      assert.equal(await details.locator(".fares").count(), fares.length ? 1 : 0);
      for (const fare of fares) {
        const said = await details.locator(".fares").textContent();
        assert.ok(said.includes(`£${(fare.costPence / 100).toFixed(2)}`), said);
        if (Number.isFinite(fare.offPeakPence)) assert.ok(said.includes(`off-peak £${(fare.offPeakPence / 100).toFixed(2)}`), said);
      }
    }
    await checkAsked(body.requested?.time, body.requested?.timeIs === "arriving", [
      ...(body.requested?.accessibility?.length ? ["step-free"] : []),
      ...(body.requested?.modes?.length && !body.requested.modes.includes("bus") ? ["no buses"] : []),
      ...(body.requested?.via ? [`via ${body.requested.via}`] : []),
    ]);
  },
  async lineStatus(body, isError) {
    if (isError) return checkError(body);
    const lines = body.lines ?? [];
    const planned = body.planned ?? [];
    const good = body.goodService ?? [];
    const plannedGood = good.filter((name) => planned.some((plan) => plan.line === name));
    const rows = view().locator("li.line");
    assert.equal(await rows.count(), lines.length + plannedGood.length, "a row for each line with a status or a plan to show");
    for (let i = 0; i < lines.length; i += 1) {
      const text = await rows.nth(i).innerText();
      assert.ok(text.includes(lines[i].name), `the worst first, as the core sent them: ${text}`);
      assert.ok(text.includes(lines[i].status), text);
      if (lines[i].reason) assert.ok(spaced(text).includes(lines[i].reason), text);
    }
    assert.equal(await view().locator("p.summary").innerText(), body.message, "the answer's words as the headline");
    const plain = good.filter((name) => !plannedGood.includes(name));
    assert.equal(await view().locator("li.good").count(), plain.length ? 1 : 0, "the good lines folded into one row");
    if (plain.length) {
      const text = await view().locator("li.good").innerText();
      for (const name of plain) assert.ok(text.includes(name), text);
    }
  },
  async arrivals(body, isError) {
    const choices = body.stopDisambiguation ?? [];
    if (isError && choices.length > 0) {
      const buttons = view().locator(".choose button");
      assert.equal(await buttons.count(), choices.length);
      for (const [i, stop] of choices.entries()) {
        assert.ok(spaced(await buttons.nth(i).innerText()).includes(spaced(stop.name)));
      }
      return;
    }
    if (isError) return checkError(body);
    const rows = view().locator("tbody tr");
    assert.equal(await rows.count(), body.arrivals.length);
    for (const [i, a] of body.arrivals.entries()) {
      const text = await rows.nth(i).innerText();
      assert.ok(text.includes(a.line) && text.includes(a.destination ?? a.towards ?? ""), text);
      const said = a.minutes.map((m) => (m < 1 ? "due" : `${m} min`));
      for (const when of said) assert.ok(text.includes(when), `${when} in ${text}`);
    }
  },
  async plan_trip(body, isError) {
    if (isError) return checkError(body);
    const options = view().locator("button.option");
    assert.equal(await options.count(), body.itineraries.length);
    for (const [i, it] of body.itineraries.entries()) {
      const text = await options.nth(i).innerText();
      assert.ok(text.includes(`${clock(it.start)} → ${clock(it.end)}`), text);
      const details = view().locator(`#option-${i}`);
      assert.equal(await details.locator("ol.legs > li").count(), it.legs.length);
      const cancelled = it.legs.filter((l) => l.status === "cancelled").length;
      assert.equal(await details.locator("li.cancelled").count(), cancelled);
      assert.equal(await details.locator("svg.route").count(), 1, "the route sketch");
      const alerts = it.legs.flatMap((l) => l.alerts ?? []);
      await checkAlertLines(details, alerts);
      const count = new Set(alerts.map((a) => a.id)).size;
      if (count) assert.ok(text.includes(count === 1 ? "1 alert" : `${count} alerts`), text);
      else assert.ok(!text.includes("alert"), text);
      if (Number.isFinite(it.co2GramsPerPerson)) assert.ok(text.includes(`${Math.round(it.co2GramsPerPerson)} g CO₂`), text);
      // Each leg's tickets, and its city bike.
      const legs = details.locator("ol.legs > li");
      for (const [k, leg] of it.legs.entries()) {
        const fare = legs.nth(k).locator(".leg-fare");
        assert.equal(await fare.count(), leg.fareProducts?.length ? 1 : 0);
        for (const product of leg.fareProducts ?? []) assert.ok((await fare.textContent()).includes(product.name));
        assert.equal((await legs.nth(k).textContent()).includes("City bike"), Boolean(leg.rentedBike));
      }
    }
    const c = body.constraints ?? {};
    await checkAsked(body.requested?.time, body.requested?.type === "arrive", [
      ...(c.accessibility?.stepFree ? ["step-free"] : []),
      ...(c.modes?.length && !c.modes.includes("BUS") ? ["no buses"] : []),
      ...(c.via ? ["via "] : []),
      ...(c.bike ? [{ own: "own bike", cityBike: "city bikes", park: "bike and ride" }[c.bike]] : []),
    ]);
  },
  async vehicle_positions(body, isError) {
    if (isError) return checkError(body);
    await checkVehicles(body);
  },
  async crowding(body, isError) {
    const choices = body.stopDisambiguation ?? [];
    if (isError && choices.length > 0) {
      const buttons = view().locator(".choose button");
      assert.equal(await buttons.count(), choices.length);
      return;
    }
    if (isError) return checkError(body);
    assert.equal(await view().locator("h1").innerText(), body.station.name);
    const nowText = spaced(await view().locator("p.now").innerText());
    if (body.live.dataAvailable) {
      assert.ok(nowText.includes(`${Math.round(body.live.percentageOfBaseline * 100)} % now`), nowText);
      if (body.live.comparedWithUsual === "busier") assert.ok(nowText.includes("busier than usual"), nowText);
    } else assert.ok(nowText.includes("No live figure"), nowText);
    const day = body.typicalDay;
    const bars = view().locator("svg.crowding-chart rect.bar");
    // By hour, unless the answer has the quarter hours.
    const count = day ? (day.timeBands ?? day.hourly).length : 0;
    assert.equal(await bars.count(), count);
    if (!day) return;
    const minutes = (band) => band.slice(0, 5).split(":").map(Number).reduce((h, m) => h * 60 + m);
    const span = 1440 / count;
    const quietBars = Array.from({ length: count }, (_, i) => i * span).filter((from) =>
      day.quietest.some((range) => {
        const [a, b] = range.split("-");
        return from >= minutes(a) && from < (b === "00:00" ? 1440 : minutes(b));
      }),
    );
    assert.equal(await view().locator("rect.bar.quiet").count(), quietBars.length);
    const liveDay = body.live.time
      ? ["sun", "mon", "tue", "wed", "thu", "fri", "sat"][new Date(`${body.live.time.slice(0, 10)}T12:00:00Z`).getUTCDay()]
      : undefined;
    const marked = body.live.dataAvailable && liveDay === day.day ? 1 : 0;
    assert.equal(await view().locator("rect.bar.current").count(), marked, "now marked on the live figure's own day only");
    if (marked) {
      const band = await view().locator("rect.bar.current").getAttribute("data-band");
      const at = minutes(body.live.timeBand);
      assert.ok(minutes(band) <= at && at < minutes(band) + span, `${band} holds ${body.live.timeBand}`);
    }
    const quiet = await view().locator("p.quietest").innerText();
    for (const band of day.quietest) assert.ok(quiet.includes(band), quiet);
  },
  async timetable(body, isError) {
    const choices = body.stopDisambiguation ?? [];
    if (isError && choices.length > 0) {
      const buttons = view().locator(".choose button");
      assert.equal(await buttons.count(), choices.length);
      for (const [i, stop] of choices.entries()) assert.equal(await buttons.nth(i).innerText(), stop.title ?? stop.name);
      return;
    }
    if (isError) {
      await checkError(body);
      for (const name of body.suggestions ?? []) assert.ok((await view().locator(".suggestions").innerText()).includes(name));
      return;
    }
    assert.equal(await view().locator("p.summary").innerText(), body.message, "the answer's words");
    const directions = view().locator("article.direction");
    assert.equal(await directions.count(), body.directions.length);
    const at = (d) => (d ? `${d.time}${d.nextDay ? " (next day)" : ""}` : "—");
    for (const [i, direction] of body.directions.entries()) {
      const article = directions.nth(i);
      assert.equal(await article.locator("h2").innerText(), direction.direction);
      const rows = article.locator("table.days tbody tr");
      assert.equal(await rows.count(), direction.schedules.length);
      for (const [k, schedule] of direction.schedules.entries()) {
        assert.equal(await rows.nth(k).locator("td.first").innerText(), at(schedule.first));
        assert.equal(await rows.nth(k).locator("td.last").innerText(), at(schedule.last));
      }
      const inWindow = direction.schedules.reduce((n, s) => n + (s.departures ?? []).length, 0);
      assert.equal(await article.locator("ul.next > li").count(), inWindow);
      const patterns = direction.patterns ?? [];
      assert.equal(await article.locator("details.stops-after").count(), patterns.filter((p) => p.stops.length).length);
    }
  },
  async stationToilets(body, isError) {
    const choices = body.stationDisambiguation ?? [];
    if (isError && choices.length > 0) {
      const buttons = view().locator(".choose button");
      assert.equal(await buttons.count(), choices.length);
      for (const [i, station] of choices.entries()) {
        const text = await buttons.nth(i).innerText();
        assert.ok(text.includes(station.stationName) && text.includes(station.stationUniqueId), text);
      }
      return;
    }
    if (isError) return checkError(body);
    assert.equal(await view().locator("h1").innerText(), body.stationName);
    assert.equal(await view().locator("article.card").count(), body.toilets.length);
  },
  async query_architecture(body, isError) {
    if (isError) return checkError(body);
    if (body.format === "toon") return assert.equal(await view().locator("pre.toon").innerText(), body.toon);
    const systems = Array.isArray(body.systems) ? body.systems.length : body.system ? 1 : (body.system_names ?? []).length;
    assert.equal(await view().locator(".architecture > ul.tree > li").count(), systems);
  },
  async query_project(body, isError) {
    if (isError) return checkError(body);
    assert.equal(await view().locator("h1").innerText(), body.name);
    assert.equal(await view().locator(".architecture > ul.tree > li").count(), body.systems.length);
    const counts = await view().locator(".counts").innerText();
    assert.ok(counts.startsWith(`${body.system_count} system`), counts);
  },
};

/** Runs `vector` of `tool` on a fresh server: its `before` calls, then the call itself. */
async function answer(tool, vector, home) {
  const settings = settingsOf(vector, fake.baseUrl, home);
  const c = withPaths(vector, home);
  await fake.reset(c.upstream ?? []);
  const client = await server(settings, home);
  const served = (await client.listTools()).tools.some((x) => x.name === tool);
  if (!served) return { client, input: c.arguments, result: undefined };
  for (const call of c.before ?? []) await client.callTool({ name: call.tool, arguments: call.arguments });
  for (let i = 0; i < (c.calls_before ?? 0); i += 1) await client.callTool({ name: tool, arguments: c.arguments });
  const result = await client.callTool({ name: tool, arguments: c.arguments });
  return { client, input: c.arguments, result };
}

describe("every vector of each view's tools, shown", () => {
  // Not here: a case for another caller than the local one (stdio has one), and arguments
  // that are not an object (an MCP client does not send them).
  const names = (v) => v.caller || (v.before ?? []).some((b) => b.caller);
  const object = (v) => v.arguments !== null && typeof v.arguments === "object" && !Array.isArray(v.arguments);
  const vectors = loadVectors().filter(({ tool, case: v }) => tool in CHECKS && !names(v) && object(v));
  for (const { tool, case: vector } of vectors) {
    test(`${tool}: ${vector.name}`, async (t) => {
      const home = mkdtempSync(path.join(tmpdir(), "toolpack-views-"));
      const { client, input, result } = await answer(tool, vector, home);
      t.after(async () => {
        await client.close();
        rmSync(home, { recursive: true, force: true });
      });
      const listed = (await client.listTools()).tools.find((x) => x.name === tool);
      if (!listed) {
        // Without its key the server does not serve the tool: nothing to show.
        t.skip(`${tool} is not served with these settings`);
        return;
      }
      assert.equal(listed._meta?.ui?.resourceUri, VIEW_OF[tool]);
      consoleErrors.length = 0;
      await show(VIEW_OF[tool], client, input, result);
      await CHECKS[tool](result.structuredContent ?? {}, Boolean(result.isError));
      assert.deepEqual(consoleErrors, [], "no console error");
    });
  }
});

/** Waits for the diagram image `alt`, and checks that the browser drew its SVG. */
async function drawn(alt) {
  const image = view().getByRole("img", { name: alt, exact: true });
  await image.waitFor();
  assert.match(await image.getAttribute("src"), /^data:image\/svg\+xml;charset=utf-8,%3C/);
  await image.evaluate((img) => img.decode());
  assert.ok((await image.evaluate((img) => img.naturalWidth)) > 0, `${alt} has a size`);
}

/** Waits until no diagram of the shown view is still loading. */
async function settled() {
  const loading = view().locator('figure.diagram[data-state="loading"]');
  for (let i = 0; i < 200 && (await loading.count()) > 0; i += 1) await page.waitForTimeout(50);
  assert.equal(await loading.count(), 0, "every diagram loaded");
  await view().locator("figure.diagram img").evaluateAll((images) => Promise.all(images.map((i) => i.decode())));
  // The view reports its new height; the host resizes the frame.
  await page.waitForTimeout(200);
}

/** The first vector case of `tool` named like `name`. */
function vectorOf(tool, name) {
  const found = loadVectors().find((v) => v.tool === tool && v.case.name.includes(name));
  assert.ok(found, `${tool}: ${name}`);
  return found.case;
}

describe("a view's own tool calls go through the host to the server", () => {
  test("departures: Refresh asks the server again and the board updates", async () => {
    const home = mkdtempSync(path.join(tmpdir(), "toolpack-views-"));
    // Departures stay fresh for no time here, so the Refresh reaches the upstream (by
    // default the server would answer it from its cache for 20 s).
    const synthetic = vectorOf("get_departures", "synthetic HSL stop");
    const vector = { ...synthetic, config: { ...synthetic.config, TOOLPACK_FRESH_ARRIVALS_SECONDS: "0" } };
    const { client, input, result } = await answer("get_departures", vector, home);
    try {
      await show(VIEW_OF.get_departures, client, input, result);
      const before = Number(await view().locator("#root").getAttribute("data-rendered"));
      const asked = (await fake.requests()).length;
      await view().getByRole("button", { name: "Refresh" }).click();
      await view().locator(`#root[data-rendered="${before + 1}"]`).waitFor();
      assert.equal((await fake.requests()).length, asked + 1, "one more upstream request");
      assert.equal(await view().locator("tbody tr").count(), result.structuredContent.departures.length);
    } finally {
      await client.close();
      rmSync(home, { recursive: true, force: true });
    }
  });

  test("departures: a tap on an alert asks get_alerts and shows its full text", async () => {
    const home = mkdtempSync(path.join(tmpdir(), "toolpack-views-"));
    const { client, input, result } = await answer("get_departures", vectorOf("get_departures", "synthetic HSL stop"), home);
    try {
      await show(VIEW_OF.get_departures, client, input, result);
      const [known, gone] = result.structuredContent.alerts;
      // The router's alerts now: the first of the stop's, in full; the second has ended.
      const full = {
        id: known.id,
        alertHeaderText: known.header,
        alertDescriptionText: "Because of road works, bus 159 runs via Karhusuontie until Friday.",
        alertSeverityLevel: known.severity,
        effectiveStartDate: 1654376400,
        effectiveEndDate: 1654808400,
        entities: [],
      };
      await fake.reset([{ route: "/routing", json: { data: { alerts: [full] } } }]);
      const asked = (await fake.requests()).length;
      const lines = view().locator("details.alert");
      await lines.nth(0).locator("summary").click();
      await view().getByText("until Friday").waitFor();
      const text = spaced(await lines.nth(0).locator(".alert-text").innerText());
      assert.ok(text.includes("from 2022-06-05 00:00") && text.includes("until 2022-06-10 00:00"), text);
      const sent = (await fake.requests()).slice(asked);
      assert.equal(sent.length, 1, "one upstream request");
      assert.equal(JSON.parse(sent[0].body).operationName, "Alerts");
      await lines.nth(1).locator("summary").click();
      await view().getByText("no more text now").waitFor();
      assert.ok(spaced(await lines.nth(1).innerText()).includes(gone.header));
      // Closed and opened again: nothing is asked twice.
      await lines.nth(0).locator("summary").click();
      await lines.nth(0).locator("summary").click();
      assert.equal((await fake.requests()).length, asked + 1, "get_alerts answered from the cache");
    } finally {
      await client.close();
      rmSync(home, { recursive: true, force: true });
    }
  });

  test("architecture: opening a system shows it in full detail", async () => {
    const home = mkdtempSync(path.join(tmpdir(), "toolpack-views-"));
    const project = path.join(repo, "examples/loko/shop");
    const client = await server({}, home);
    try {
      const input = { project_path: project, detail: "structure" };
      const result = await client.callTool({ name: "query_architecture", arguments: input });
      await show(VIEW_OF.query_architecture, client, input, result);
      // The landscape and each open system's diagram, rendered by d2 on the server.
      for (const alt of ["Diagram of the landscape", "Diagram of Online Shop"]) await drawn(alt);
      await view().getByRole("button", { name: "Open Payments" }).click();
      await view().getByText("Card Processor").waitFor();
      await view().getByText("scores each payment with").waitFor();
      await drawn("Diagram of Payments");
      // A component's diagram is asked for when its "Diagram" is opened.
      await view().locator("li.component", { hasText: "Card Processor" }).locator("summary", { hasText: "Diagram" }).click();
      await drawn("Diagram of Card Processor");
    } finally {
      await client.close();
      rmSync(home, { recursive: true, force: true });
    }
  });

  test("toilets: choosing one of the stations a name fits shows its toilets", async () => {
    const home = mkdtempSync(path.join(tmpdir(), "toolpack-views-"));
    const client = await server({}, home);
    try {
      const input = { stationName: "Edgware Road" };
      const result = await client.callTool({ name: "stationToilets", arguments: input });
      assert.equal(result.structuredContent.code, "DISAMBIGUATION_REQUIRED");
      await show(VIEW_OF.stationToilets, client, input, result);
      const [first] = result.structuredContent.stationDisambiguation;
      await view().locator(".choose button").first().click();
      await view().locator("h1").filter({ hasText: first.stationName }).waitFor();
      const cards = await view().locator("article.card").count();
      const direct = await client.callTool({ name: "stationToilets", arguments: { stationName: first.stationUniqueId } });
      assert.equal(cards, direct.structuredContent.toilets.length);
    } finally {
      await client.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe("live vehicles: a real broker replaying HSL's recorded positions", () => {
  test("the vehicles are drawn on the line, refreshed through the host while shown, and shot", async () => {
    const home = mkdtempSync(path.join(tmpdir(), "toolpack-views-"));
    const live = await startFake(["--hfp-replay", "tram-15-2026-09-29"]);
    const client = await server(
      {
        DIGITRANSIT_API_KEY: "views-digitransit-key",
        DIGITRANSIT_BASE_URL: live.baseUrl,
        DIGITRANSIT_ROUTER: "hsl",
        DIGITRANSIT_HFP_URL: live.hfpUrl,
      },
      home,
    );
    try {
      const input = { route: "15" };
      let result = await client.callTool({ name: "vehicle_positions", arguments: input });
      for (let i = 0; i < 50 && (result.structuredContent?.vehicles?.length ?? 0) < 4; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        result = await client.callTool({ name: "vehicle_positions", arguments: input });
      }
      const body = result.structuredContent;
      assert.ok(body.vehicles.length >= 4, JSON.stringify(body));
      await show(VIEW_OF.vehicle_positions, client, input, result);
      await checkVehicles(body);
      // While shown, the view asks the host again every few seconds.
      const rendered = Number(await view().locator("#root").getAttribute("data-rendered"));
      await view().locator(`#root[data-rendered="${rendered + 1}"]`).waitFor({ timeout: 12_000 });
      await view().locator("svg.vehicles-map g.vehicle").first().waitFor();
      const html = await pageOf(client, VIEW_OF.vehicle_positions);
      assert.ok(gzipSync(html, { level: 9 }).length < 100 * 1024);
      const out = path.join(repo, "docs/views");
      mkdirSync(out, { recursive: true });
      for (const width of [1280, 360]) {
        for (const theme of ["light", "dark"]) {
          await page.setViewportSize({ width, height: 800 });
          await show(VIEW_OF.vehicle_positions, client, input, result, { theme, width });
          await page.waitForTimeout(50);
          await page.locator("#view").screenshot({ path: path.join(out, `vehicles-${width}-${theme}.png`) });
        }
      }
      await page.setViewportSize({ width: 1280, height: 800 });
    } finally {
      await client.close();
      live.stop();
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe("size, speed and screenshots", () => {
  /** One answer per view for the screenshots. */
  const SHOTS = [
    ["journey", "plan_trip", "a delayed (+6 min) and a cancelled leg"],
    ["departures", "get_departures", "synthetic HSL stop"],
    ["architecture", "query_architecture", "structure of the project"],
    ["toilets", "stationToilets", "quirky CSV: BOM"],
    ["lines", "lineStatus", "real: neither lines nor modes"],
    ["arrivals", "arrivals", "real: Oxford Circus by name"],
    ["journey-tfl", "planJourney", "real disrupted Overground journey"],
    ["alerts", "get_alerts", "the alerts in effect, most severe first"],
    ["timetable", "timetable", "real DLR timetable from Poplar"],
    ["journey-asked", "plan_trip", "fares and CO2"],
    ["journey-tfl-legs", "planJourney", "a leg's stops passed"],
    ["crowding", "crowding", "real: King's Cross St. Pancras on a Tuesday"],
  ];

  for (const [name, tool, caseName] of SHOTS) {
    test(`${name}: under 100 KB gzipped, renders in under 100 ms, screenshots`, async () => {
      const home = mkdtempSync(path.join(tmpdir(), "toolpack-views-"));
      const { client, input, result } = await answer(tool, vectorOf(tool, caseName), home);
      try {
        const html = await pageOf(client, VIEW_OF[tool]);
        const gzipped = gzipSync(html, { level: 9 }).length;
        assert.ok(gzipped < 100 * 1024, `${gzipped} bytes gzipped`);
        await show(VIEW_OF[tool], client, input, result);
        const times = [];
        for (let i = 0; i < 20; i += 1) {
          const rendered = Number(await view().locator("#root").getAttribute("data-rendered"));
          await page.evaluate((r) => window.sendResult(r), result);
          await view().locator(`#root[data-rendered="${rendered + 1}"]`).waitFor();
          times.push(Number(await view().locator("#root").getAttribute("data-render-ms")));
        }
        times.sort((a, b) => a - b);
        const median = times[10];
        console.log(`# ${name}: ${(gzipped / 1024).toFixed(1)} KB gzipped; render median ${median.toFixed(2)} ms (20 renders)`);
        assert.ok(median < 100, `${median} ms`);
        const out = path.join(repo, "docs/views");
        mkdirSync(out, { recursive: true });
        for (const width of [1280, 360]) {
          for (const theme of ["light", "dark"]) {
            await page.setViewportSize({ width, height: 800 });
            await show(VIEW_OF[tool], client, input, result, { theme, width });
            if (name.startsWith("journey")) await view().locator("button.option").first().click();
            if (name === "alerts") await view().locator("details.alert summary").first().click();
            if (name === "architecture") await settled();
            await page.waitForTimeout(50);
            await page.locator("#view").screenshot({ path: path.join(out, `${name}-${width}-${theme}.png`) });
          }
        }
        await page.setViewportSize({ width: 1280, height: 800 });
      } finally {
        await client.close();
        rmSync(home, { recursive: true, force: true });
      }
    });
  }
});
