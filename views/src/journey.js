// The journey view (planJourney, plan_trip): one row per option with its times, duration
// and a strip of legs coloured by line or mode; selecting a row opens its legs; plan_trip's
// route is drawn as a schematic SVG from the stops' coordinates (no map tiles). Above the
// options, what was asked ("Arriving by 09:00 (GMT) · step-free · no buses"); each leg shows
// its stops passed (folded), its tickets and its step-free notes.
import { clock, delayText, duration, errorBox, failure, h, minutesBetween, startView, svg } from "./view.js";
import { tflColour } from "./tfl.js";
import { alertLines } from "./alert-lines.js";

/** HSL's mode colours. */
const HSL_COLOURS = {
  BUS: "#007AC9",
  TRAM: "#00985F",
  SUBWAY: "#FF6319",
  RAIL: "#8C4799",
  FERRY: "#00B9E4",
  BICYCLE: "#FCB919",
  WALK: "#8A8F98",
};

const isWalk = (mode) => /^walk/i.test(mode ?? "");

/** TfL's answer as options. */
function tflOptions(body) {
  return (body.topJourneys ?? []).map((journey) => ({
    start: journey.startDateTime,
    end: journey.arrivalDateTime,
    minutes: journey.durationMinutes,
    fare: Number.isFinite(journey.totalFarePence) ? `£${(journey.totalFarePence / 100).toFixed(2)}` : undefined,
    disrupted: journey.isDisrupted,
    // A journey of one leg gives its times once, on the journey.
    legs: (journey.legs ?? []).map((leg) => ({
      mode: leg.mode,
      walk: isWalk(leg.mode),
      line: leg.routeName || undefined,
      colour: tflColour(leg.routeName, leg.mode),
      minutes: leg.durationMinutes ?? journey.durationMinutes,
      start: leg.departureTime ?? journey.startDateTime,
      end: leg.arrivalTime ?? journey.arrivalDateTime,
      instruction: leg.instruction,
      board: leg.departurePoint ?? undefined,
      alight: leg.arrivalPoint ?? undefined,
      disruptions: leg.disruptions ?? [],
      stops: leg.stops ?? [],
      stepFree: (leg.obstacles ?? []).map(obstacleText),
    })),
    fares: (journey.fares ?? []).map(tflFareText).filter(Boolean),
  }));
}

/** A step-free obstacle in words: "Stairs up, at the start". */
function obstacleText(obstacle) {
  const what = [obstacle.kind, obstacle.incline].filter(Boolean).join(" ").toLowerCase();
  const where = obstacle.position ? `, at the ${obstacle.position.toLowerCase()}` : "";
  return `${what.charAt(0).toUpperCase()}${what.slice(1)}${where}`;
}

const pounds = (pence) => `£${(pence / 100).toFixed(2)}`;

/** One of TfL's fare parts: "£2.90 (peak £2.90, off-peak £2.80), zones 1–2". */
function tflFareText(fare) {
  if (!Number.isFinite(fare.costPence)) return "";
  const both = Number.isFinite(fare.peakPence) && Number.isFinite(fare.offPeakPence);
  const split = both ? ` (peak ${pounds(fare.peakPence)}, off-peak ${pounds(fare.offPeakPence)})` : "";
  const zones = Number.isFinite(fare.lowZone) && Number.isFinite(fare.highZone) ? `, zones ${fare.lowZone}–${fare.highZone}` : "";
  return `${pounds(fare.costPence)}${split}${zones}`;
}

/** A Digitransit leg's tickets: "single-ticket €3.20". */
function legFareText(fare) {
  const price = Number.isFinite(fare.price) ? ` ${fare.currency === "EUR" ? "€" : `${fare.currency ?? ""} `}${fare.price.toFixed(2)}` : "";
  return `${fare.name}${price}`;
}

/** What was asked, in words: "Arriving by 09:00 (GMT) · step-free · no buses · via Angel". */
function askedText(body) {
  const parts = [];
  const tfl = body.requested?.timeIs ? body.requested : undefined;
  if (tfl) {
    if (tfl.time) parts.push(`${tfl.timeIs === "arriving" ? "Arriving by" : "Leaving at"} ${clock(tfl.time)}${tfl.timeZone ? ` (${tfl.timeZone})` : ""}`);
    if ((tfl.accessibility ?? []).length) parts.push("step-free");
    parts.push(...modesText(tfl.modes ?? [], "bus"));
    if (tfl.via) parts.push(`via ${tfl.via}`);
    if (tfl.walkingSpeed) parts.push(`${tfl.walkingSpeed} walking`);
  } else if (body.requested?.time) {
    const c = body.constraints ?? {};
    parts.push(`${body.requested.type === "arrive" ? "Arriving by" : "Leaving at"} ${clock(body.requested.time)}`);
    if (c.accessibility?.stepFree) parts.push("step-free");
    parts.push(...modesText(c.modes ?? [], "BUS"));
    if (c.via) parts.push(`via ${c.via.name ?? c.via.label ?? c.via.stopId ?? `${c.via.coordinate?.lat}, ${c.via.coordinate?.lon}`}`);
    if (c.bike) parts.push({ own: "own bike", cityBike: "city bikes", park: "bike and ride" }[c.bike] ?? c.bike);
    if (c.walkingSpeed) parts.push(`${c.walkingSpeed} walking`);
  }
  return parts.join(" · ");
}

/** The modes asked for: "no buses" when buses are left out, then "only …". */
function modesText(modes, bus) {
  if (modes.length === 0) return [];
  const only = `only ${modes.map((m) => m.toLowerCase().replaceAll("-", " ")).join(", ")}`;
  return modes.includes(bus) ? [only] : ["no buses", only];
}

/** Digitransit's answer as options. */
function digitransitOptions(body) {
  return (body.itineraries ?? []).map((itinerary) => ({
    start: itinerary.start,
    end: itinerary.end,
    minutes: Math.round((itinerary.durationSeconds ?? 0) / 60),
    disrupted: Boolean(itinerary.disruptionFlag),
    transfers: itinerary.numberOfTransfers,
    // A leg that starts where the one before ended leaves its `from` out.
    legs: (itinerary.legs ?? []).map((leg, i, legs) => ({ ...leg, from: leg.from ?? legs[i - 1]?.to })).map((leg) => {
      const start = leg.realtimeDeparture ?? leg.scheduledDeparture;
      const end = leg.realtimeArrival ?? leg.scheduledArrival;
      const to = leg.to?.name ?? "";
      const what = isWalk(leg.mode) ? "Walk" : [leg.mode, leg.line].filter(Boolean).join(" ");
      return {
        mode: leg.mode,
        walk: isWalk(leg.mode),
        line: leg.line,
        colour: HSL_COLOURS[leg.mode] ?? "#5A6270",
        minutes: minutesBetween(start, end),
        start,
        end,
        instruction: `${what}${leg.headsign ? ` towards ${leg.headsign}` : ""} from ${leg.from?.name ?? ""} to ${to}`,
        board: leg.from?.name,
        alight: to || undefined,
        towards: leg.headsign,
        delay: leg.realtimeDelaySeconds,
        cancelled: leg.status === "cancelled",
        disruptions: [],
        alerts: leg.alerts ?? [],
        from: leg.from?.coordinate,
        to: leg.to?.coordinate,
        fares: (leg.fareProducts ?? []).map(legFareText),
        cityBike: Boolean(leg.rentedBike),
      };
    }),
    co2: itinerary.co2GramsPerPerson,
  }));
}

/** The strip of legs: widths by duration, walking hatched. */
function strip(option) {
  const total = option.legs.reduce((sum, leg) => sum + Math.max(leg.minutes || 0, 1), 0) || 1;
  return h(
    "div",
    { class: "strip", "aria-hidden": "true" },
    option.legs.map((leg) =>
      h(
        "span",
        {
          class: `leg${leg.walk ? " walk" : ""}${leg.cancelled ? " cancelled" : ""}`,
          style: `flex-grow:${Math.max(leg.minutes || 0, 1) / total};--leg:${leg.colour}`,
          title: leg.walk ? "Walk" : leg.line ?? leg.mode,
        },
        leg.walk ? "" : leg.line ?? "",
      ),
    ),
  );
}

/** Where to board, where to change and where to get off, without a click: one line per
 * transit leg ("Central: Bank → Mile End", "towards" when the leg says). */
function ways(option) {
  const transit = option.legs.filter((leg) => !leg.walk && (leg.board || leg.alight));
  if (transit.length === 0) return null;
  return transit.map((leg) =>
    h(
      "span",
      { class: "way" },
      h("span", { class: "badge", style: `--leg:${leg.colour}` }, leg.line ?? leg.mode ?? ""),
      ` ${leg.board ?? "?"} → ${leg.alight ?? "?"}`,
      leg.towards ? h("span", { class: "muted" }, ` (towards ${leg.towards})`) : null,
    ),
  );
}

/** The legs of one option, in words, each with its alerts (Digitransit's, in brief). */
function legList(option, view) {
  return h(
    "ol",
    { class: "legs" },
    option.legs.map((leg) =>
      h(
        "li",
        { class: leg.cancelled ? "cancelled" : null },
        h("span", { class: "badge", style: `--leg:${leg.colour}` }, leg.walk ? "Walk" : leg.line ?? leg.mode),
        h("span", { class: "times" }, `${clock(leg.start)}–${clock(leg.end)}`),
        h("span", { class: "text" }, leg.instruction ?? ""),
        leg.cancelled ? h("strong", { class: "flag" }, "Cancelled") : null,
        leg.delay ? h("span", { class: "flag late" }, delayText(leg.delay)) : null,
        leg.cityBike ? h("span", { class: "flag" }, "City bike") : null,
        leg.disruptions.map((d) => h("p", { class: "disruption" }, `⚠ ${d}`)),
        (leg.stepFree ?? []).map((note) => h("p", { class: "step-free" }, `♿ ${note}`)),
        (leg.fares ?? []).length ? h("p", { class: "leg-fare" }, `Ticket: ${leg.fares.join(" or ")}`) : null,
        passed(leg.stops ?? []),
        alertLines(leg.alerts, view, "Alerts on this leg"),
      ),
    ),
  );
}

/** The stops a leg passes, folded: "6 stops" opens to their names. */
function passed(stops) {
  if (stops.length === 0) return null;
  return h(
    "details",
    { class: "stops" },
    h("summary", null, stops.length === 1 ? "1 stop" : `${stops.length} stops`),
    h("ol", null, stops.map((stop) => h("li", null, stop))),
  );
}

/** plan_trip's route, drawn from the legs' coordinates into a 320×180 box. */
function routeMap(option) {
  const points = option.legs.flatMap((leg) => [leg.from, leg.to]).filter((p) => p && Number.isFinite(p.lat));
  if (points.length < 2) return null;
  const lats = points.map((p) => p.lat);
  const lons = points.map((p) => p.lon);
  // Equirectangular: a degree of longitude shrinks by cos(latitude).
  const shrink = Math.cos((((Math.min(...lats) + Math.max(...lats)) / 2) * Math.PI) / 180);
  const [west, east] = [Math.min(...lons) * shrink, Math.max(...lons) * shrink];
  const [south, north] = [Math.min(...lats), Math.max(...lats)];
  const scale = 280 / Math.max(east - west, (north - south) * (280 / 140), 1e-9);
  const x = (p) => (20 + (p.lon * shrink - west) * scale).toFixed(1);
  const y = (p) => (160 - (p.lat - south) * scale).toFixed(1);
  const legs = option.legs.filter((leg) => leg.from && leg.to);
  return svg(
    "svg",
    { class: "route", viewBox: "0 0 320 180", role: "img", "aria-label": "Route sketch" },
    legs.map((leg) =>
      svg("line", {
        x1: x(leg.from),
        y1: y(leg.from),
        x2: x(leg.to),
        y2: y(leg.to),
        stroke: leg.colour,
        "stroke-width": leg.walk ? 2 : 5,
        "stroke-dasharray": leg.walk ? "4 4" : null,
        "stroke-linecap": "round",
      }),
    ),
    [legs[0].from, ...legs.map((leg) => leg.to)].map((p) =>
      svg("circle", { cx: x(p), cy: y(p), r: 3.5, class: "stop" }),
    ),
  );
}

startView("journey", (result, view) => {
  const error = failure(result);
  if (error?.code === "DISAMBIGUATION_REQUIRED") return disambiguation(error.body, view);
  if (error) return errorBox(error.message, error.code);
  const body = result.structuredContent ?? {};
  const options = body.itineraries ? digitransitOptions(body) : tflOptions(body);
  if (options.length === 0) return h("p", { class: "empty" }, body.message ?? "No journeys were found.");
  const asked = askedText(body);
  return h(
    "section",
    { "aria-label": "Journey options" },
    asked ? h("p", { class: "asked" }, asked) : null,
    h("ul", { class: "options" }, options.map((option, index) => optionRow(option, index, view))),
  );
});

/** One option: a button row that opens its legs (and, for Digitransit, its route). */
function optionRow(option, index, view) {
  const fares = (option.fares ?? []).length ? h("p", { class: "fares" }, `Fares: ${option.fares.join("; ")}`) : null;
  const details = h("div", { class: "details", id: `option-${index}`, hidden: true }, legList(option, view), fares, routeMap(option));
  const delayed = option.legs.some((leg) => leg.delay > 0 || leg.cancelled);
  const alerts = new Set(option.legs.flatMap((leg) => (leg.alerts ?? []).map((a) => a.id))).size;
  const button = h(
    "button",
    {
      class: "option",
      "aria-expanded": "false",
      "aria-controls": `option-${index}`,
      onclick: () => {
        const open = button.getAttribute("aria-expanded") !== "true";
        button.setAttribute("aria-expanded", String(open));
        details.hidden = !open;
      },
    },
    h(
      "span",
      { class: "summary" },
      h("strong", { class: "times" }, `${clock(option.start)} → ${clock(option.end)}`),
      h("span", { class: "duration" }, duration(option.minutes)),
      option.fare ? h("span", { class: "fare" }, option.fare) : null,
      Number.isFinite(option.co2) ? h("span", { class: "muted co2" }, `${Math.round(option.co2)} g CO₂`) : null,
      option.disrupted ? h("span", { class: "flag" }, "Disrupted") : null,
      delayed ? h("span", { class: "flag late" }, "Delays") : null,
      alerts ? h("span", { class: "flag late alerts-count" }, alerts === 1 ? "1 alert" : `${alerts} alerts`) : null,
    ),
    strip(option),
    ways(option),
  );
  return h("li", null, button, details);
}

/** TfL's suggestions for an ambiguous place: each one plans again with it. */
function disambiguation(body, view) {
  const sides = [
    ["from", body.fromLocationDisambiguation],
    ["to", body.toLocationDisambiguation],
  ].filter(([, list]) => Array.isArray(list) && list.length > 0);
  return h(
    "section",
    { class: "choose", "aria-label": "Choose a place" },
    h("p", null, body.message ?? "Choose a place."),
    sides.map(([side, list]) =>
      h(
        "div",
        null,
        h("h2", null, side === "from" ? "From" : "To"),
        h(
          "ul",
          null,
          list.map((place) =>
            h(
              "li",
              null,
              h(
                "button",
                { onclick: () => view.call("planJourney", { ...view.input, [side]: place.parameterValue }) },
                place.commonName ?? place.parameterValue,
              ),
            ),
          ),
        ),
      ),
    ),
  );
}
