// The crowding view (crowding): the station, how busy it is now against its usual level,
// and the typical day as a bar chart of its 24 hours (or 96 quarter hours, when asked for)
// (SVG, no external request), with the live figure's bar marked "now", TfL's two peaks
// shaded and the quietest times listed. A name that fits several stations lists them to
// choose from.
import { errorBox, failure, h, startView, svg } from "./view.js";

const WORDS = { busier: "busier than usual", quieter: "quieter than usual", usual: "about as busy as usual" };
const DAYS = { mon: "Monday", tue: "Tuesday", wed: "Wednesday", thu: "Thursday", fri: "Friday", sat: "Saturday", sun: "Sunday" };

const percent = (value) => `${Math.round(value * 100)} %`;

/** The day (`tue`) of a London time (`2026-10-06T22:01:00+01:00`). */
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
  const at = live.time ? ` (${live.time.slice(11, 16)})` : "";
  const against = live.comparedWithUsual ? ` · ${WORDS[live.comparedWithUsual]}` : "";
  const usual = Number.isFinite(live.usual) ? ` (usually ${percent(live.usual)})` : "";
  return h(
    "p",
    { class: `now ${live.comparedWithUsual ?? ""}` },
    h("strong", null, `${percent(live.percentageOfBaseline)} now${at}`),
    `${against}${usual}`,
  );
}

const clock = (minute) => `${String(Math.floor(minute / 60) % 24).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;

/** The typical day's bars: its quarter hours when the answer has them, else its hours. */
function bandsOf(day) {
  if (day.timeBands) return day.timeBands;
  return (day.hourly ?? []).map((value, hour) => ({ timeBand: `${clock(hour * 60)}-${clock(hour * 60 + 60)}`, percentageOfBaseline: value }));
}

/** Whether a bar starting at `minute` lies in one of the quietest times (`06:00-06:45`). */
function inQuiet(minute, quietest) {
  return (quietest ?? []).some((range) => {
    const [from, to] = range.split("-");
    const end = to === "00:00" ? 1440 : start(to + "-");
    return minute >= start(from + "-") && minute < end;
  });
}

/** The typical day as bars, 0 to the day's highest (at least 10 %). */
function chart(day, live) {
  const bands = bandsOf(day);
  const top = Math.max(0.1, ...bands.map((b) => b.percentageOfBaseline), live?.percentageOfBaseline ?? 0);
  const [width, height, left, bottom] = [480, 160, 4, 18];
  const step = (width - left) / Math.max(bands.length, 1);
  const span = 1440 / Math.max(bands.length, 1);
  const y = (value) => height - bottom - (value / top) * (height - bottom - 8);
  const peaks = [day.amPeakTimeBand, day.pmPeakTimeBand].filter(Boolean).map((band) => {
    const [from, to] = band.split("-");
    const x1 = left + (start(from + "-") / span) * step;
    const x2 = left + ((to === "00:00" ? 1440 : start(to + "-")) / span) * step;
    return svg("rect", { class: "peak", x: x1, y: 0, width: Math.max(x2 - x1, 0), height: height - bottom });
  });
  // "Now" is marked on the live figure's own day only.
  const liveMinute = live?.dataAvailable && live.timeBand && dayOf(live.time) === day.day ? start(live.timeBand) : undefined;
  const marked = liveMinute === undefined ? undefined : bands.find((b) => start(b.timeBand) <= liveMinute && liveMinute < start(b.timeBand) + span)?.timeBand;
  return svg(
    "svg",
    { class: "crowding-chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": `How busy ${DAYS[day.day] ?? "the day"} usually is, ${day.timeBands ? "quarter hour by quarter hour" : "hour by hour"}` },
    peaks,
    bands.map((band, i) =>
      svg("rect", {
        class: `bar${band.timeBand === marked ? " current" : ""}${inQuiet(start(band.timeBand), day.quietest) ? " quiet" : ""}`,
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
          x1: (left + (liveMinute / span) * step).toFixed(1),
          x2: (left + (liveMinute / span) * step).toFixed(1),
          y1: y(live.percentageOfBaseline).toFixed(1),
          y2: height - bottom,
        })
      : null,
    [0, 6, 12, 18].map((hour) =>
      svg("text", { class: "hour", x: left + ((hour * 60) / span) * step, y: height - 4, "text-anchor": hour === 0 ? "start" : "middle" }, `${String(hour).padStart(2, "0")}:00`),
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
