// The line status board (lineStatus): the answer's words as its headline, each line with a
// status in its colour with TfL's status and reason, the worst first; the lines with a good
// service (the answer names them) folded into one row.
import { errorBox, failure, h, startView } from "./view.js";
import { tflBadge } from "./tfl.js";

/** TfL's id of a line of the answer: its `id`, else its name in lower case. */
const lineId = (line) => line.id ?? (line.name ?? line.line ?? "").toLowerCase();

function lineRow(line, plans) {
  return h(
    "li",
    { class: "line" },
    h("span", { class: "badge", style: tflBadge(lineId(line)) }, line.name ?? line.line),
    h(
      "div",
      { class: "status" },
      line.status ? h("p", { class: "now" }, h("strong", null, line.status)) : null,
      line.reason ? h("p", { class: "reason" }, line.reason) : null,
      plans.map((plan) =>
        h(
          "p",
          { class: "later" },
          h("strong", null, plan.status),
          h("span", { class: "muted" }, " (planned)"),
          plan.reason ? h("span", { class: "reason" }, ` ${plan.reason}`) : null,
        ),
      ),
    ),
  );
}

startView("lines", (result) => {
  const error = failure(result);
  if (error) {
    const suggestions = error.body?.suggestions ?? [];
    return [
      errorBox(error.message, error.code),
      suggestions.length ? h("p", { class: "muted" }, `Known: ${suggestions.join(", ")}`) : null,
    ];
  }
  const body = result.structuredContent ?? {};
  // The core sends the lines not in good service the worst first, and what is planned apart.
  const troubled = body.lines ?? [];
  const planned = body.planned ?? [];
  const plansOf = (name) => planned.filter((plan) => plan.line === name);
  const good = body.goodService ?? [];
  // Lines running well with something planned keep their row; the others are names.
  const plannedGood = good.filter((name) => plansOf(name).length);
  const plainGood = good.filter((name) => !plansOf(name).length);
  return h(
    "section",
    { class: "lines", "aria-label": "Line status" },
    h("h1", null, troubled.length ? `${troubled.length} of ${troubled.length + good.length} lines disrupted` : "Good service"),
    body.message ? h("p", { class: "summary" }, body.message) : null,
    troubled.length + good.length === 0 ? h("p", { class: "empty" }, "No lines to show.") : null,
    h(
      "ul",
      { class: "status-board" },
      troubled.map((line) => lineRow(line, plansOf(line.name))),
      plannedGood.map((name) => lineRow({ name, id: plansOf(name)[0].id, status: "Good Service" }, plansOf(name))),
      plainGood.length
        ? h(
            "li",
            { class: "good" },
            h("strong", null, troubled.length ? "Good service on the other lines" : "Good service on every line"),
            h(
              "p",
              null,
              plainGood.map((name) => h("span", { class: "badge", style: tflBadge(name) }, name)),
            ),
          )
        : null,
    ),
  );
});
