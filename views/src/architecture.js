// The architecture view (query_architecture, query_project): systems → containers →
// components as a tree with counts; each entity shows what the answer holds of it (its
// description, technology, tags and relationships) and its D2 diagram (render_diagram
// through the host, from the render cache build_docs uses, once an entity is opened), and
// opens in full detail through the host (query_architecture for its system or container).
import { errorBox, failure, h, startView } from "./view.js";

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The answer as a list of systems: `{id, name, description, containers: [...]}`. */
function systemsOf(body) {
  if (Array.isArray(body.systems)) return body.systems;
  if (body.system && typeof body.system === "object") return [body.system];
  if (typeof body.system === "string" && body.container) {
    return [{ id: body.system, name: body.system, containers: [body.container] }];
  }
  if (typeof body.system === "string") {
    return [
      { id: body.system, name: body.name ?? body.system, containers: (body.container_names ?? []).map((id) => ({ id })) },
    ];
  }
  // A summary names its systems (loko's names); a system is found by its name too.
  return (body.system_names ?? []).map((name) => ({ id: name, name }));
}

/** The project the answer is about. */
const projectOf = (view) => view.input?.project_path ?? view.input?.project_root;

/** Diagrams asked for, by project and target: the server renders each one once per view. */
const diagrams = new Map();

/**
 * The diagram of `target` (the landscape when it is undefined), as an SVG image, asked
 * for by `load()`: `{figure, load}`, or nothing when the answer names no project.
 */
function diagram(view, target, label) {
  const project = projectOf(view);
  if (typeof project !== "string") return { figure: null, load: () => {} };
  const figure = h("figure", { class: "diagram" });
  // `data-state`: loading, then shown or none.
  const note = (text, state) => {
    figure.dataset.state = state;
    figure.replaceChildren(h("p", { class: "muted" }, text));
  };
  const load = () => {
    if (figure.dataset.state) return;
    note("Loading the diagram…", "loading");
    const key = `${project}\u0000${target ?? ""}`;
    if (!diagrams.has(key)) {
      const args = target === undefined ? { project_path: project } : { project_path: project, target };
      diagrams.set(key, view.ask("render_diagram", args));
    }
    diagrams.get(key).then(
      (result) => {
        const error = failure(result);
        const svg = result.structuredContent?.svg;
        if (error || typeof svg !== "string") return note(error?.message ?? "No diagram.", "none");
        figure.dataset.state = "shown";
        figure.replaceChildren(
          h("img", { src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`, alt: `Diagram of ${label}` }),
        );
      },
      (error) => {
        diagrams.delete(key);
        note(`The diagram could not be loaded: ${error?.message ?? error}`, "none");
      },
    );
  };
  return { figure, load };
}

/** A `<details>` that asks for `shown`'s diagram whenever it is open. */
function opening(shown, open, ...children) {
  const details = h("details", { open, ontoggle: (event) => event.target.open && shown.load() }, ...children);
  if (open) shown.load();
  return details;
}

/** Opens an entity in full detail through the host. */
function opener(view, scope, target, label) {
  const project = projectOf(view);
  return h(
    "button",
    {
      class: "open",
      "aria-label": `Open ${label}`,
      onclick: () => view.call("query_architecture", { project_path: project, scope, target, detail: "full" }),
    },
    "Open",
  );
}

function facts(entity) {
  return [
    entity.description ? h("p", { class: "description" }, entity.description) : null,
    entity.technology ? h("span", { class: "tech" }, entity.technology) : null,
    (entity.tags ?? []).map((tag) => h("span", { class: "tag" }, tag)),
  ];
}

function relationships(entity) {
  const list = entity.relationships ?? [];
  if (list.length === 0) return null;
  return h(
    "ul",
    { class: "relationships", "aria-label": "Relationships" },
    list.map((r) =>
      h("li", { class: r.resolved === false ? "dangling" : null }, "→ ", h("code", null, r.target), r.description ? ` ${r.description}` : ""),
    ),
  );
}

function component(view, path, component) {
  const label = component.name ?? component.id;
  const shown = diagram(view, `${path}/${component.id}`, label);
  return h(
    "li",
    { class: "component" },
    h("span", { class: "name" }, label),
    h("code", { class: "id" }, component.id),
    facts(component),
    relationships(component),
    shown.figure ? opening(shown, false, h("summary", null, "Diagram"), shown.figure) : null,
  );
}

function container(view, system, container) {
  const components = container.components ?? [];
  const path = `${system.id}/${container.id}`;
  const shown = diagram(view, path, container.name ?? container.id);
  return h(
    "li",
    null,
    opening(
      shown,
      components.length > 0 && components.length <= 12,
      h(
        "summary",
        null,
        h("span", { class: "name" }, container.name ?? container.id),
        container.components ? h("span", { class: "count" }, plural(components.length, "component")) : null,
      ),
      opener(view, "container", path, container.name ?? container.id),
      facts(container),
      relationships(container),
      shown.figure,
      components.length ? h("ul", { class: "tree" }, components.map((one) => component(view, path, one))) : null,
    ),
  );
}

function system(view, system, open) {
  const containers = system.containers ?? [];
  const count = system.container_count ?? (system.containers ? containers.length : undefined);
  const shown = diagram(view, system.id, system.name ?? system.id);
  return h(
    "li",
    null,
    opening(
      shown,
      open,
      h(
        "summary",
        null,
        h("span", { class: "name" }, system.name ?? system.id),
        count !== undefined ? h("span", { class: "count" }, plural(count, "container")) : null,
      ),
      opener(view, "system", system.id, system.name ?? system.id),
      facts(system),
      relationships(system),
      shown.figure,
      containers.length ? h("ul", { class: "tree" }, containers.map((c) => container(view, system, c))) : null,
    ),
  );
}

startView("architecture", (result, view) => {
  const error = failure(result);
  if (error) return errorBox(error.message, error.code);
  const body = result.structuredContent ?? {};
  if (body.format === "toon") return h("pre", { class: "toon" }, body.toon ?? "");
  const systems = systemsOf(body);
  const counts = [
    body.system_count ?? (typeof body.systems === "number" ? body.systems : undefined),
    body.total_containers ?? (typeof body.containers === "number" ? body.containers : undefined),
    body.total_components ?? (typeof body.components === "number" ? body.components : undefined),
  ];
  // A structure answer has no counts: count its tree.
  const containers = systems.flatMap((one) => (Array.isArray(one.containers) ? one.containers : []));
  if (counts.every((n) => n === undefined) && containers.length > 0) {
    counts[0] = systems.length;
    counts[1] = containers.length;
    if (containers.some((one) => Array.isArray(one.components))) {
      counts[2] = containers.reduce((sum, one) => sum + (one.components?.length ?? 0), 0);
    }
  }
  const [s, c, k] = counts;
  // A whole project's answer shows its landscape, as build_docs draws it.
  const landscape = Array.isArray(body.systems) || Array.isArray(body.system_names) ? diagram(view, undefined, "the landscape") : null;
  landscape?.load();
  return h(
    "section",
    { class: "architecture", "aria-label": "Architecture" },
    h("h1", null, body.name ?? "Architecture"),
    body.description ? h("p", { class: "description" }, body.description) : null,
    counts.some((n) => n !== undefined)
      ? h(
          "p",
          { class: "counts" },
          [s !== undefined ? plural(s, "system") : null, c !== undefined ? plural(c, "container") : null, k !== undefined ? plural(k, "component") : null]
            .filter(Boolean)
            .join(" · "),
        )
      : null,
    landscape?.figure,
    systems.length
      ? h("ul", { class: "tree", role: "list" }, systems.map((one) => system(view, one, systems.length <= 3)))
      : h("p", { class: "empty" }, "No systems yet."),
  );
});
