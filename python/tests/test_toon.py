"""`query_architecture` with `format: toon` is real TOON (spec v4) laid out as tables: the
official decoder (PyPI `toon-format`) reads it, `nest` (the mapping back documented in
docs/loko.md) turns that reading into exactly the JSON answer, and the official encoder
writes the reading byte for byte as the same text. Checked on the example project, the
hand-written variants, and a project made through the tools with names that need quoting."""

from __future__ import annotations

import json
import pathlib
import tempfile
from typing import Any

import pytest
import toon_format

import toolpack_agents as toolpack
from conftest import TESTS_DIR

EXAMPLE = TESTS_DIR.parent / "examples" / "loko" / "shop"
VARIANTS = TESTS_DIR / "data" / "loko" / "variants"
TRICKY = ["Auth, SSO: v2", "-leading dash", "# hash", "true", "42", "Quote \"q\" \\ back", "Ünïcödé ✓", "tab\there"]


LEVELS = ("system", "container", "component")
CHILD_TABLE = {"system": "containers", "container": "components", "component": "relationships"}
ENTITY_TABLES = {"systems", "containers", "components"}


def nest(laid_out: dict[str, Any]) -> dict[str, Any]:
    """The JSON answer from the TOON answer's tables (docs/loko.md, "TOON layout")."""
    if laid_out["type"] == "summary":
        return laid_out
    optional = {"description"} if laid_out["type"] == "structure" else {"technology", "diagram", "tags"}
    frontmatter, lists = laid_out.get("frontmatter", {}), laid_out.get("lists", {})

    def restore(table: str, row: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
        item = {k: v for k, v in row.items() if k not in LEVELS}
        if table not in ENTITY_TABLES:
            return item
        item = {k: v for k, v in item.items() if not (k in optional and v == "")}
        if "tags" in item:
            item["tags"] = item["tags"].split(";")
        item.update(lists.get("/".join(path), {}))
        if "/".join(path) in frontmatter:
            item["frontmatter"] = frontmatter["/".join(path)]
        return item

    def attach(item: dict[str, Any], level: str, path: tuple[str, ...]) -> dict[str, Any]:
        table = CHILD_TABLE[level]
        if table in laid_out:
            entry = laid_out[table]
            # A table of the top-level entity's list, or tables grouped by the id of the
            # ancestor just below it; deeper ancestors are columns.
            grouped = entry.items() if isinstance(entry, dict) else [(None, entry)]
            rows = [r for group, table_rows in grouped for r in table_rows
                    if (() if group is None else (group,)) + tuple(r[c] for c in LEVELS if c in r) == path]
            below = table.removesuffix("s")
            item[table] = [
                attach(restore(table, r, path + (r["id"],)), below, path + (r["id"],)) if "id" in r
                else restore(table, r, path)
                for r in rows
            ]
        return item

    answer = {k: v for k, v in laid_out.items() if k not in CHILD_TABLE.values() and k not in ("systems", "frontmatter", "lists")}
    if "systems" in laid_out:
        answer["systems"] = [attach(restore("systems", r, (r["id"],)), "system", (r["id"],)) for r in laid_out["systems"]]
    for level in ("system", "container"):
        if isinstance(laid_out.get(level), dict):
            answer[level] = attach(dict(laid_out[level]), level, ())
    return answer


def queries(client: toolpack.Toolpack, project: str) -> list[dict[str, Any]]:
    """Every scope and detail, for every system and container of `project`."""
    found = [{"project_path": project}, {"project_path": project, "detail": "structure"}]
    structure = client.call("query_architecture", {"project_path": project, "detail": "structure"})
    for system in structure["structuredContent"]["systems"]:
        for detail in ("summary", "structure", "full"):
            found.append({"project_path": project, "scope": "system", "target": system["id"], "detail": detail})
            for container in system["containers"]:
                target = f"{system['id']}/{container['id']}"
                found.append({"project_path": project, "scope": "container", "target": target, "detail": detail})
    return found


def tricky_project(client: toolpack.Toolpack, root: str) -> str:
    client.call("create_system", {"project_path": root, "system_name": "Shop", "description": TRICKY[0]})
    for i, name in enumerate(TRICKY):
        client.call("create_container", {"project_path": root, "system_name": "shop", "container_name": f"{name} {i}",
                                         "description": TRICKY[-1 - i], "technology": name})
        client.call("create_component", {"project_path": root, "system_name": "shop", "container_name": f"{name} {i}",
                                         "component_name": name, "description": ""})
    return root


@pytest.mark.parametrize("which", ["example", "variants", "tricky"])
def test_toon_decodes_to_the_json_answer_and_matches_the_reference_encoder(which: str) -> None:
    client = toolpack.Toolpack()
    with tempfile.TemporaryDirectory() as temp:
        project = {"example": str(EXAMPLE), "variants": str(VARIANTS)}.get(which) or tricky_project(client, temp)
        checked = 0
        for arguments in queries(client, project):
            as_json = client.call("query_architecture", arguments)
            as_toon = client.call("query_architecture", {**arguments, "format": "toon"})
            assert not as_json["isError"] and not as_toon["isError"], (as_json, as_toon)
            body = as_json["structuredContent"]
            text = as_toon["structuredContent"]["toon"]
            decoded = toon_format.decode(text)
            assert nest(decoded) == body, arguments
            delimiter = "," if decoded["type"] == "summary" else "\t"
            assert toon_format.encode(decoded, delimiter=delimiter) == text, arguments
            checked += 1
        assert checked >= 8


def test_a_changed_toon_text_is_caught() -> None:
    client = toolpack.Toolpack()
    answer = client.call("query_architecture", {"project_path": str(EXAMPLE), "detail": "structure", "format": "toon"})
    text = answer["structuredContent"]["toon"].replace("systems[2\t]", "systems[1\t]")
    with pytest.raises(Exception):
        toon_format.decode(text)


def test_toon_is_smaller_than_compact_json(tmp_path: pathlib.Path) -> None:
    """Every TOON answer is shorter than compact JSON: summaries are lists of ids, structure
    and full detail are tables. The o200k token counts are asserted in
    `cargo bench -p toolpack --bench loko` and reported in docs/loko.md."""
    client = toolpack.Toolpack()

    def sizes(arguments: dict[str, Any]) -> tuple[int, int]:
        body = client.call("query_architecture", arguments)["structuredContent"]
        text = client.call("query_architecture", {**arguments, "format": "toon"})["structuredContent"]["toon"]
        return len(json.dumps(body, separators=(",", ":"), ensure_ascii=False)), len(text)

    project = tricky_project(client, str(tmp_path))
    for root in (project, str(EXAMPLE), str(VARIANTS)):
        for arguments in queries(client, root):
            compact, toon = sizes(arguments)
            assert toon < compact, arguments
    compact, toon = sizes({"project_path": project, "detail": "structure"})
    assert toon < compact * 0.9, (compact, toon)
