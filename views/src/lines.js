// The line status board (lineStatus): the answer's words as its headline, each line with a
// status in its colour with TfL's status and reason, the worst first; the lines with a good
// service (the answer names them) folded into one row.
import { errorBox, failure, h, startView } from "./view.js";
import { tflBadge } from "./tfl.js";

/** How bad a line's service is now: its lowest severity among the statuses that apply
 * now (0 Special Service … 9 Minor Delays; the informational ones above 10 count as 9.5). */
function badness(line) {
  const now = (line.statuses ?? []).filter((s) => s.isNow);
  const worst = Math.min(...now.map((s) => (s.severity >= 10 ? 9.5 : s.severity)), 10);
  return line.goodService ? 11 : worst;
}

function lineRow(line) {
  return h(
    "li",
    { class: "line" },
    h("span", { class: "badge", style: tflBadge(line.id, line.mode) }, line.name),
    h(
      "div",
      { class: "status" },
      (line.statuses ?? []).map((s) =>
        h(
          "p",
          { class: s.isNow ? "now" : "later" },
          h("strong", null, s.description),
          s.isNow ? null : h("span", { class: "muted" }, " (planned)"),
        ),
      ),
      [...new Set((line.statuses ?? []).map((s) => s.reason).filter(Boolean))].map((reason) =>
        h("p", { class: "reason" }, reason),
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
  const lines = [...(body.lines ?? [])];
  const troubled = lines.filter((l) => !l.goodService).sort((a, b) => badness(a) - badness(b));
  // Lines running well with something planned keep their row; the others are names.
  const planned = lines.filter((l) => l.goodService);
  const good = body.goodService ?? [];
  return h(
    "section",
    { class: "lines", "aria-label": "Line status" },
    h("h1", null, troubled.length ? `${troubled.length} of ${lines.length + good.length} lines disrupted` : "Good service"),
    body.message ? h("p", { class: "summary" }, body.message) : null,
    lines.length + good.length === 0 ? h("p", { class: "empty" }, "No lines to show.") : null,
    h(
      "ul",
      { class: "status-board" },
      troubled.map(lineRow),
      planned.map(lineRow),
      good.length
        ? h(
            "li",
            { class: "good" },
            h("strong", null, troubled.length ? "Good service on the other lines" : "Good service on every line"),
            h(
              "p",
              null,
              good.map((name) => h("span", { class: "badge", style: tflBadge(name) }, name)),
            ),
          )
        : null,
    ),
  );
});
