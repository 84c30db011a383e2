// The architecture view (query_architecture, query_project): systems → containers →
// components as a tree with counts; each entity shows what the answer holds of it (its
// description, technology, tags and relationships) and opens in full detail through the
// host (query_architecture for its system or container).
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
  return (body.system_names ?? []).map((id) => ({ id }));
}

/** Opens an entity in full detail through the host. */
function opener(view, scope, target, label) {
  const project = view.input?.project_path ?? view.input?.project_root;
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

function component(component) {
  return h(
    "li",
    { class: "component" },
    h("span", { class: "name" }, component.name ?? component.id),
    h("code", { class: "id" }, component.id),
    facts(component),
    relationships(component),
  );
}

function container(view, system, container) {
  const components = container.components ?? [];
  return h(
    "li",
    null,
    h(
      "details",
      { open: components.length > 0 && components.length <= 12 },
      h(
        "summary",
        null,
        h("span", { class: "name" }, container.name ?? container.id),
        container.components ? h("span", { class: "count" }, plural(components.length, "component")) : null,
      ),
      opener(view, "container", `${system.id}/${container.id}`, container.name ?? container.id),
      facts(container),
      relationships(container),
      components.length ? h("ul", { class: "tree" }, components.map(component)) : null,
    ),
  );
}

function system(view, system, open) {
  const containers = system.containers ?? [];
  const count = system.container_count ?? (system.containers ? containers.length : undefined);
  return h(
    "li",
    null,
    h(
      "details",
      { open },
      h(
        "summary",
        null,
        h("span", { class: "name" }, system.name ?? system.id),
        count !== undefined ? h("span", { class: "count" }, plural(count, "container")) : null,
      ),
      opener(view, "system", system.id, system.name ?? system.id),
      facts(system),
      relationships(system),
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
    systems.length
      ? h("ul", { class: "tree", role: "list" }, systems.map((one) => system(view, one, systems.length <= 3)))
      : h("p", { class: "empty" }, "No systems yet."),
  );
});
