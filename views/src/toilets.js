// The toilets view (stationToilets): a card per toilet (where, accessible, baby changing,
// inside the gates, fee) and, for a name that fits several stations, a list that asks again
// with the chosen one.
import { errorBox, failure, h, startView } from "./view.js";

const yesNo = (value, yes, no) => h("li", { class: value ? "yes" : "no" }, value ? yes : no);

function card(toilet) {
  const platforms = toilet.platformNumbers ?? [];
  return h(
    "article",
    { class: "card" },
    h("h2", null, toilet.type ? `${toilet.type} toilet` : "Toilet"),
    h("p", null, toilet.location ?? ""),
    platforms.length ? h("p", { class: "muted" }, `Platform ${platforms.join(", ")}`) : null,
    h(
      "ul",
      { class: "facts" },
      yesNo(toilet.accessible, "Accessible", "Not step-free accessible"),
      yesNo(toilet.babyChanging, "Baby changing", "No baby changing"),
      yesNo(toilet.insideGateLine, "Inside the gates", "Outside the gates"),
      yesNo(!toilet.feeCharged, "Free", "A fee is charged"),
    ),
  );
}

startView("toilets", (result, view) => {
  const error = failure(result);
  const choices = error?.body?.stationDisambiguation;
  if (Array.isArray(choices) && choices.length > 0) {
    return h(
      "section",
      { class: "choose", "aria-label": "Choose a station" },
      h("p", null, error.message ?? "Choose a station."),
      h(
        "ul",
        null,
        choices.map((station) =>
          h(
            "li",
            null,
            h(
              "button",
              { onclick: () => view.call("stationToilets", { stationName: station.stationUniqueId }) },
              station.stationName,
              h("small", { class: "muted" }, ` ${station.stationUniqueId}`),
            ),
          ),
        ),
      ),
    );
  }
  if (error) return errorBox(error.message, error.code);
  const body = result.structuredContent ?? {};
  const toilets = body.toilets ?? [];
  return h(
    "section",
    { "aria-label": `Toilets at ${body.stationName ?? "the station"}` },
    h("h1", null, body.stationName ?? "Toilets"),
    toilets.length === 0
      ? h("p", { class: "empty" }, "This station has no toilets.")
      : h("div", { class: "cards" }, toilets.map(card)),
  );
});
