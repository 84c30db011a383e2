"""The MCP Apps views as resources, for a host that serves toolpack's tools in process."""

import pytest

from toolpack_agents import AsyncToolpack, Toolpack

VIEWS = ["journey", "departures", "architecture", "toilets", "lines", "arrivals", "alerts", "timetable", "crowding", "vehicles"]


def test_the_views_are_listed_as_mcp_resources() -> None:
    resources = Toolpack.resources()
    assert [r["uri"] for r in resources] == [f"ui://toolpack/{v}" for v in VIEWS]
    assert AsyncToolpack.resources() == resources
    for resource in resources:
        assert resource["mimeType"] == "text/html;profile=mcp-app"
        assert resource["_meta"]["ui"]["csp"] == {"connectDomains": [], "resourceDomains": []}
        assert resource["title"] and resource["description"]


def test_each_view_reads_as_its_html_page() -> None:
    for resource in Toolpack.resources():
        read = Toolpack.read_resource(resource["uri"])
        [item] = read["contents"]
        assert item["uri"] == resource["uri"]
        assert item["mimeType"] == resource["mimeType"]
        assert item["_meta"] == resource["_meta"]
        assert item["text"].startswith("<!doctype html>")
        assert f"<title>toolpack · {resource['title']}</title>" in item["text"]


def test_an_unknown_resource_is_a_lookup_error() -> None:
    with pytest.raises(LookupError, match="ui://toolpack/nope"):
        Toolpack.read_resource("ui://toolpack/nope")
