// The crowding view (crowding): the station, how busy it is now against its usual level,
// and the typical day as a bar chart of its 96 quarter hours (SVG, no external request),
// with the live figure's quarter hour marked "now", TfL's two peaks shaded and the quietest
// quarter hours listed. A name that fits several stations lists them to choose from.
import { errorBox, failure, h, startView, svg } from "./view.js";

const WORDS = { busier: "busier than usual", quieter: "quieter than usual", usual: "about as busy as usual" };
const DAYS = { mon: "Monday", tue: "Tuesday", wed: "Wednesday", thu: "Thursday", fri: "Friday", sat: "Saturday", sun: "Sunday" };

const percent = (value) => `${Math.round(value * 100)} %`;

/** The day (`tue`) of TfL's London time `2026-10-06 22:01:00`. */
function dayOf(local) {
  const date = Date.parse(`${(local ?? "").slice(0, 10)}T12:00:00Z`);
  return Number.isFinite(date) ? ["sun", "mon", "tue", "wed", "thu", "fri", "sat"][new Date(date).getUTCDay()] : undefined;
}

/** The minute of the day a band (`HH:MM-HH:MM`) starts at. */
function start(band) {
  const [hours, minutes] = (band ?? "").slice(0, 5).split(":").map(Number);
  return hours * 60 + minutes;
}

/** The live figure in words: "21 % now (22:01) · busier than usual (usually 14 %)". */
function now(live) {
  if (!live?.dataAvailable) return h("p", { class: "now muted" }, "No live figure from TfL now.");
  const at = live.timeLocal ? ` (${live.timeLocal.slice(11, 16)})` : "";
  const against = live.comparedWithUsual ? ` · ${WORDS[live.comparedWithUsual]}` : "";
  const usual = Number.isFinite(live.usual) ? ` (usually ${percent(live.usual)})` : "";
  return h(
    "p",
    { class: `now ${live.comparedWithUsual ?? ""}` },
    h("strong", null, `${percent(live.percentageOfBaseline)} now${at}`),
    `${against}${usual}`,
  );
}

/** The typical day's quarter hours as bars, 0 to the day's highest (at least 10 %). */
function chart(day, live) {
  const bands = day.timeBands ?? [];
  const top = Math.max(0.1, ...bands.map((b) => b.percentageOfBaseline), live?.percentageOfBaseline ?? 0);
  const [width, height, left, bottom] = [480, 160, 4, 18];
  const step = (width - left) / Math.max(bands.length, 1);
  const y = (value) => height - bottom - (value / top) * (height - bottom - 8);
  const peaks = [day.amPeakTimeBand, day.pmPeakTimeBand].filter(Boolean).map((band) => {
    const [from, to] = band.split("-");
    const x1 = left + (start(from + "-") / 15) * step;
    const x2 = left + ((to === "00:00" ? 1440 : start(to + "-")) / 15) * step;
    return svg("rect", { class: "peak", x: x1, y: 0, width: Math.max(x2 - x1, 0), height: height - bottom });
  });
  // "Now" is marked on the live figure's own day only.
  const marked = live?.dataAvailable && live.timeBand && dayOf(live.timeLocal) === day.day ? live.timeBand : undefined;
  const quiet = new Set(day.quietest ?? []);
  return svg(
    "svg",
    { class: "crowding-chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": `How busy ${DAYS[day.day] ?? "the day"} usually is, quarter hour by quarter hour` },
    peaks,
    bands.map((band, i) =>
      svg("rect", {
        class: `bar${band.timeBand === marked ? " current" : ""}${quiet.has(band.timeBand) ? " quiet" : ""}`,
        x: (left + i * step).toFixed(1),
        y: y(band.percentageOfBaseline).toFixed(1),
        width: Math.max(step - 1, 1).toFixed(1),
        height: Math.max(height - bottom - y(band.percentageOfBaseline), 0).toFixed(1),
        "data-band": band.timeBand,
      }),
    ),
    marked
      ? svg("line", {
          class: "now-line",
          x1: (left + (start(live.timeBand) / 15 + 0.5) * step).toFixed(1),
          x2: (left + (start(live.timeBand) / 15 + 0.5) * step).toFixed(1),
          y1: y(live.percentageOfBaseline).toFixed(1),
          y2: height - bottom,
        })
      : null,
    [0, 6, 12, 18].map((hour) =>
      svg("text", { class: "hour", x: left + hour * 4 * step, y: height - 4, "text-anchor": hour === 0 ? "start" : "middle" }, `${String(hour).padStart(2, "0")}:00`),
    ),
  );
}

/** The stations a name fits: each asks again with its id. */
function choose(error, view) {
  return h(
    "section",
    { class: "choose", "aria-label": "Choose a station" },
    h("p", null, error.message),
    h("ul", null, error.body.stopDisambiguation.map((stop) => h("li", null, h("button", { onclick: () => view.call("crowding", { ...view.input, station: stop.id }) }, stop.title ?? stop.name)))),
  );
}

startView("crowding", (result, view) => {
  const error = failure(result);
  if (error?.body?.stopDisambiguation?.length) return choose(error, view);
  if (error) return errorBox(error.message, error.code);
  const body = result.structuredContent ?? {};
  const day = body.typicalDay;
  return h(
    "section",
    { class: "crowding", "aria-label": `How busy ${body.station?.name ?? "the station"} is` },
    h("h1", null, body.station?.name ?? "Crowding"),
    now(body.live),
    day
      ? h(
          "figure",
          null,
          h("figcaption", null, `A typical ${DAYS[day.day] ?? day.day}${day.isAlwaysQuiet ? " (always quiet)" : ""}: busiest ${[day.amPeakTimeBand, day.pmPeakTimeBand].filter(Boolean).join(" and ")}`),
          chart(day, body.live),
        )
      : h("p", { class: "empty" }, "TfL has no typical day for this station."),
    day?.quietest?.length ? h("p", { class: "quietest" }, `Quietest between 06:00 and 22:00: ${day.quietest.join(", ")}`) : null,
    h("p", { class: "muted note" }, "Each station against its own usual level (TfL's baseline), not a head count."),
  );
});
