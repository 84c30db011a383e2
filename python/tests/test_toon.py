"""`query_architecture` with `format: toon` is real TOON (spec v4): the official decoder
(PyPI `toon-format`) reads it back to exactly the JSON answer, and the official encoder
writes byte for byte the same text. Checked on the example project, the hand-written
variants, and a project made through the tools with names that need quoting."""

from __future__ import annotations

import json
import pathlib
import tempfile
from typing import Any

import pytest
import toon_format

import toolpack
from conftest import TESTS_DIR

EXAMPLE = TESTS_DIR.parent / "examples" / "loko" / "shop"
VARIANTS = TESTS_DIR / "data" / "loko" / "variants"
TRICKY = ["Auth, SSO: v2", "-leading dash", "# hash", "true", "42", "Quote \"q\" \\ back", "Ünïcödé ✓", "tab\there"]


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
            assert toon_format.decode(text) == body, arguments
            assert toon_format.encode(body) == text, arguments
            checked += 1
        assert checked >= 8


def test_a_changed_toon_text_is_caught() -> None:
    client = toolpack.Toolpack()
    answer = client.call("query_architecture", {"project_path": str(EXAMPLE), "detail": "structure", "format": "toon"})
    text = answer["structuredContent"]["toon"].replace("containers[3]", "containers[2]")
    with pytest.raises(Exception):
        toon_format.decode(text)


def test_toon_is_smaller_where_answers_are_tables(tmp_path: pathlib.Path) -> None:
    """TOON pays off on uniform lists: every summary, and a structure with many containers
    (tabular rows). Nested full-detail answers can be larger than compact JSON; the token
    counts are measured in `cargo bench -p toolpack --bench loko` and reported in docs/loko.md."""
    client = toolpack.Toolpack()

    def sizes(arguments: dict[str, Any]) -> tuple[int, int]:
        body = client.call("query_architecture", arguments)["structuredContent"]
        text = client.call("query_architecture", {**arguments, "format": "toon"})["structuredContent"]["toon"]
        return len(json.dumps(body, separators=(",", ":"), ensure_ascii=False)), len(text)

    project = tricky_project(client, str(tmp_path))
    for root in (project, str(EXAMPLE), str(VARIANTS)):
        for arguments in queries(client, root):
            if arguments.get("detail", "summary") == "summary":
                compact, toon = sizes(arguments)
                assert toon < compact, arguments
    compact, toon = sizes({"project_path": project, "detail": "structure"})
    assert toon < compact * 0.9, (compact, toon)
