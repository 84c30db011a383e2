// The live vehicles view (vehicle_positions): the route's stops as a line and each vehicle
// on it, drawn in SVG from the answer's coordinates (no map tiles, no external request),
// then each vehicle in words. While the view is shown it asks the host for fresh positions
// every few seconds; hidden, it stops asking.
import { errorBox, failure, h, startView, svg } from "./view.js";

/** Seconds between refreshes while the view is shown. */
const REFRESH_SECONDS = 5;

/** Every point the drawing must hold: the lines' stops, the stop asked about, the vehicles. */
function points(body) {
  return [
    ...(body.lines ?? []).flatMap((line) => line.stops),
    ...(body.stop ? [body.stop] : []),
    ...(body.vehicles ?? []),
  ].filter((p) => Number.isFinite(p.lat) && Number.isFinite(p.lon));
}

/** A projection of the points' box onto `width` × `height`, north up, metres kept square. */
function projection(all, width, height, margin) {
  const lats = all.map((p) => p.lat);
  const lons = all.map((p) => p.lon);
  const [south, north, west, east] = [Math.min(...lats), Math.max(...lats), Math.min(...lons), Math.max(...lons)];
  const squeeze = Math.cos((((south + north) / 2) * Math.PI) / 180);
  const spanX = Math.max((east - west) * squeeze, 1e-4);
  const spanY = Math.max(north - south, 1e-4);
  const scale = Math.min((width - 2 * margin) / spanX, (height - 2 * margin) / spanY);
  const [offsetX, offsetY] = [(width - spanX * scale) / 2, (height - spanY * scale) / 2];
  return (p) => [offsetX + (p.lon - west) * squeeze * scale, offsetY + (north - p.lat) * scale];
}

/** The delay in words: "3 min late", "1 min early", "on time". */
function delay(seconds) {
  if (!Number.isFinite(seconds) || Math.abs(seconds) < 60) return "on time";
  const minutes = Math.round(Math.abs(seconds) / 60);
  return `${minutes} min ${seconds > 0 ? "late" : "early"}`;
}

function drawing(body) {
  const all = points(body);
  if (!all.length) return null;
  const [width, height] = [480, 300];
  const at = projection(all, width, height, 16);
  const xy = (p) => at(p).map((v) => v.toFixed(1));
  return svg(
    "svg",
    { class: "vehicles-map", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": body.message ?? "Vehicles" },
    (body.lines ?? []).map((line) =>
      svg(
        "g",
        { class: `line direction-${line.directionId}` },
        svg("polyline", { class: "route", points: line.stops.map((s) => xy(s).join(",")).join(" ") }),
        line.stops.map((s) => {
          const [x, y] = xy(s);
          return svg("circle", { class: "stop", cx: x, cy: y, r: 2.5 }, svg("title", null, s.name));
        }),
      ),
    ),
    body.stop
      ? (() => {
          const [x, y] = xy(body.stop);
          return svg("circle", { class: "stop asked", cx: x, cy: y, r: 6 }, svg("title", null, body.stop.name));
        })()
      : null,
    (body.vehicles ?? []).map((v) => {
      const [x, y] = xy(v);
      const heading = Number.isFinite(v.heading) ? v.heading : 0;
      return svg(
        "g",
        { class: `vehicle direction-${v.directionId ?? "none"}${v.stale ? " stale" : ""}`, transform: `translate(${x} ${y})`, "data-id": v.id },
        Number.isFinite(v.heading) ? svg("path", { class: "heading", d: "M0,-11 L4,-5 L-4,-5 Z", transform: `rotate(${heading})` }) : null,
        svg("circle", { r: 6 }),
        svg("title", null, `${v.line} ${v.headsign ?? ""} · ${delay(v.delaySeconds)}`),
      );
    }),
  );
}

function row(v) {
  const next = v.nextStop ? ` · next ${v.nextStop.name ?? v.nextStop.gtfsId}` : "";
  const speed = Number.isFinite(v.speed) ? ` · ${Math.round(v.speed * 3.6)} km/h` : "";
  const full = v.occupancyPercent >= 100 ? " · full" : "";
  return h(
    "li",
    { class: `vehicle-row${v.stale ? " stale" : ""}`, "data-id": v.id },
    h("strong", { class: "badge" }, v.line),
    ` ${v.headsign ?? ""} `,
    h("span", { class: `delay ${delay(v.delaySeconds).replace(/.* /, "")}` }, delay(v.delaySeconds)),
    `${next}${speed}${full}`,
    h("span", { class: "muted" }, ` · ${v.ageSeconds} s ago`),
  );
}

/** Refreshes through the host every few seconds while the document is shown. */
function keepFresh(view) {
  if (view.refreshing) return;
  view.refreshing = true;
  setInterval(() => {
    if (document.visibilityState !== "visible" || !view.input || !Object.keys(view.input).length) return;
    view.refresh("vehicle_positions", view.input);
  }, REFRESH_SECONDS * 1000);
}

startView("vehicles", (result, view) => {
  keepFresh(view);
  const error = failure(result);
  if (error) return errorBox(error.message, error.code);
  const body = result.structuredContent ?? {};
  const title = body.route ? `${body.route.shortName ?? body.route.gtfsId} ${body.route.longName ?? ""}` : (body.stop?.name ?? "Vehicles");
  return h(
    "section",
    { class: "vehicles", "aria-label": title, "data-stale": String(Boolean(body.stale)) },
    h("h1", null, title.trim()),
    h("p", { class: body.stale ? "message stale" : "message" }, body.message),
    drawing(body),
    body.vehicles?.length ? h("ul", { class: "vehicle-list" }, body.vehicles.map(row)) : null,
    h("p", { class: "muted note" }, `Live from HSL (HFP), every ${REFRESH_SECONDS} s while shown.`),
  );
});
