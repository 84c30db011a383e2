"""Runs loko v0.3 beside toolpack on the same projects and compares their answers.

    python3 tests/loko_parity/parity.py --loko /path/to/loko --toolpack target/debug/toolpack-mcp

Not part of CI: loko is not on the Go module proxy, so build it from a checkout of
madstone-tech/loko (v0.3.1) with `go build -o loko .`. Three projects are read by both:

- made by toolpack's tools (create_* and create_relationship with every path form, type
  and direction, then a delete_relationship);
- made by loko's own tools, the same way;
- tests/data/loko/v03-graph, written by hand in loko v0.3's format.

For each, both servers answer list_relationships, query_dependencies (per container and
per component, with a path), query_related_components and analyze_coupling; answers are
compared after normalising what differs on purpose (docs/loko.md: qualified ids, lists
instead of maps, order). Prints one line per comparison and exits 1 on a difference.
"""
import argparse, json, os, shutil, sys, tempfile

sys.path.insert(0, os.path.dirname(__file__))
from mcp_stdio import Server

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "..", "data", "loko", "v03-graph")

# (system, container, [components]) of the built projects.
LAYOUT = [
    ("shop", "api", ["orders", "cart", "auth"]),
    ("shop", "worker", ["mailer", "scheduler"]),
    ("shop", "db", []),
    ("billing", "core", ["invoicer", "ledger", "archive"]),
]
# (system, source, target, label, type, direction): every path form, type and direction.
EDGES = [
    ("shop", "shop/api/orders", "shop/api/cart", "reads the basket from", "sync", "forward"),
    ("shop", "shop/worker", "shop/api/auth", "authenticates with", "async", "forward"),
    ("shop", "orders", "mailer", "sends confirmations via", "event", "bidirectional"),
    ("shop", "shop/api/auth", "shop/db", "stores users in", "sync", "forward"),
    ("shop", "shop/api/cart", "shop/api/orders", "notifies", "async", "forward"),
    ("shop", "shop/api/orders", "shop/api/auth", "checks tokens with", "sync", "forward"),
    ("shop", "shop/api/orders", "billing/core/invoicer", "asks for an invoice from", "sync", "forward"),
    ("billing", "billing/core/invoicer", "billing/core/ledger", "posts to", "sync", "forward"),
    ("billing", "billing/core/ledger", "billing/core/archive", "to be deleted", "sync", "forward"),
]


def build(server, root):
    """Creates LAYOUT and EDGES through `server`'s tools; deletes the last edge."""
    key = "project_root"
    for system in sorted({s for s, _, _ in LAYOUT}):
        ok(server.call("create_system", {key: root, "name": system.title(), "description": system}))
    for system, container, components in LAYOUT:
        ok(server.call("create_container", {key: root, "system_name": system, "name": container.title(), "description": container}))
        if components:
            items = [{"name": c.title(), "description": c} for c in components]
            ok(server.call("create_components", {key: root, "system_name": system, "container_name": container, "components": items}))
    ids = []
    for system, source, target, label, kind, direction in EDGES:
        r = ok(server.call("create_relationship", {key: root, "system_name": system, "source": source, "target": target, "label": label, "type": kind, "direction": direction}))
        ids.append(r["relationship"]["id"])
    ok(server.call("delete_relationship", {key: root, "system_name": "billing", "relationship_id": ids[-1]}))


def ok(result):
    if result.get("isError") or "rpc_error" in result:
        raise SystemExit(f"call failed: {json.dumps(result)[:500]}")
    return result["body"]


def questions():
    """(tool, arguments) asked of both, without project_root."""
    asked = [("list_relationships", {"system_name": s}) for s in ("shop", "billing")]
    for system, container, components in LAYOUT:
        asked.append(("query_dependencies", {"system_id": system, "container_id": container}))
        for c in components:
            asked.append(("query_dependencies", {"system_id": system, "container_id": container, "component_id": c, "target_component_id": "shop/db"}))
            asked.append(("query_related_components", {"system_id": system, "container_id": container, "component_id": c}))
    asked += [("analyze_coupling", {}), ("analyze_coupling", {"system_id": "shop"})]
    return asked


def normal(tool, body):
    """What both must agree on, in one shape."""
    ids = lambda nodes: sorted(n["id"] for n in nodes or [])
    if tool == "list_relationships":
        keys = ("id", "source", "target", "label", "type", "technology", "direction")
        return sorted(tuple(r.get(k) for k in keys) for r in body["relationships"])
    if tool == "query_dependencies":
        return {
            "dependencies": ids(body["dependencies"]),
            "count": body.get("relationship_count", body.get("dependency_count")),
            "components": body.get("component_count"),
            "path": [n["id"] for n in body.get("path_to_target") or []],
        }
    if tool == "query_related_components":
        return {"id": body["component_id"], "dependencies": ids(body["dependencies"]), "dependents": ids(body["dependents"])}
    if tool == "analyze_coupling":
        as_map = lambda v: v if isinstance(v, dict) else {c["id"]: c["count"] for c in v}
        return {
            "isolated": sorted(body["isolated_components"] or []),
            "highly_coupled": as_map(body["highly_coupled_components"]),
            "central": as_map(body["central_components"]),
            "components": body["total_components"],
        }
    return body


def compare(label, root, loko, toolpack):
    differences = 0
    for tool, args in questions():
        args = {"project_root": root, **args}
        a, b = loko.call(tool, args), toolpack.call(tool, args)
        if a.get("isError") or b.get("isError"):
            same = bool(a.get("isError")) == bool(b.get("isError"))
            shown = "both refuse" if same else f"loko {a} / toolpack {b}"
        else:
            same = normal(tool, a["body"]) == normal(tool, b["body"])
            shown = json.dumps(normal(tool, b["body"]))[:160] if same else f"\n  loko:     {normal(tool, a['body'])}\n  toolpack: {normal(tool, b['body'])}"
        differences += not same
        print(f"{'same' if same else 'DIFF'}  {label}: {tool} {json.dumps({k: v for k, v in args.items() if k != 'project_root'})}  {shown}")
    return differences


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--loko", required=True)
    parser.add_argument("--toolpack", required=True)
    opts = parser.parse_args()
    loko = Server([opts.loko, "mcp"])
    toolpack = Server([opts.toolpack])
    differences = 0
    with tempfile.TemporaryDirectory() as temp:
        for label, server in (("made by toolpack", toolpack), ("made by loko", loko)):
            root = os.path.join(temp, label.replace(" ", "-"))
            os.makedirs(root)
            with open(os.path.join(root, "loko.toml"), "w") as f:
                f.write('[project]\nname = "parity"\n')
            build(server, root)
            differences += compare(label, root, loko, toolpack)
        fixture = os.path.join(temp, "v03-graph")
        shutil.copytree(FIXTURE, fixture)
        differences += compare("hand-written v0.3", fixture, loko, toolpack)
    loko.close()
    toolpack.close()
    print(f"{differences} difference(s)")
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
