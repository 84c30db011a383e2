"""The loko tools through the Python API: typed methods return the success body and
raise one exception class per error kind (``AlreadyExistsError``,
``PermissionDeniedError``, ``NotFoundError``, ``ValidationError``), sync and async."""

from __future__ import annotations

import asyncio
import pathlib

import pytest

import toolpack_agents as toolpack
from conftest import TESTS_DIR

EXAMPLE = str(TESTS_DIR.parent / "examples" / "loko" / "shop")


def test_typed_loko_calls_and_their_exceptions(tmp_path: pathlib.Path) -> None:
    client = toolpack.Toolpack()
    made = client.create_system(project_path=str(tmp_path), system_name="Payment Service")
    assert made["system"]["id"] == "payment-service"
    assert made["files_created"][0] == "loko.toml"
    with pytest.raises(toolpack.AlreadyExistsError) as again:
        client.create_system(project_path=str(tmp_path), system_name="payment_service")
    assert again.value.code == "ALREADY_EXISTS"
    assert again.value.payload["error"]["message"] == "System 'payment-service' already exists"
    with pytest.raises(toolpack.NotFoundError):
        client.create_container(project_path=str(tmp_path), system_name="ghost", container_name="API")
    with pytest.raises(toolpack.ValidationError) as syntax:
        client.update_diagram(project_path=str(tmp_path), scope="system", target="payment-service", d2_code="a: {")
    assert syntax.value.code == "INVALID_SYNTAX"
    summary = client.query_architecture(project_path=EXAMPLE, format="toon")
    assert summary["toon"].startswith("type: summary\n")


def test_allowed_roots_raise_permission_denied(tmp_path: pathlib.Path) -> None:
    fenced = toolpack.Toolpack(loko_allowed_roots=str(tmp_path))
    with pytest.raises(toolpack.PermissionDeniedError) as denied:
        fenced.query_project(project_path=EXAMPLE)
    assert denied.value.kind == "permission_denied"


def test_async_build_docs(tmp_path: pathlib.Path) -> None:
    async def go() -> dict[str, object]:
        client = toolpack.AsyncToolpack(chromium_bin=str(tmp_path / "no-chromium"))
        await client.create_system(project_path=str(tmp_path), system_name="Shop", description="Sells")
        return await client.build_docs(project_path=str(tmp_path), format="html")

    built = asyncio.run(go())
    assert built["build"]["diagrams_rendered"] == 2
    assert (tmp_path / "dist" / "index.html").is_file()
