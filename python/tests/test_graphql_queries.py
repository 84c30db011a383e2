"""Every GraphQL query the Digitransit tools send is valid against the recorded OTP schema
(OpenTripPlanner's own, checked with graphql-core, the reference implementation's port), and is
what the tools really send."""

from __future__ import annotations

import json
import pathlib

import pytest
from graphql import build_schema, parse, validate

import toolpack_agents as toolpack
from conftest import TESTS_DIR, FakeUpstream

QUERIES = sorted((TESTS_DIR.parent / "core" / "src" / "digitransit" / "queries").glob("*.graphql"))
SCHEMA = build_schema((TESTS_DIR / "fixtures" / "digitransit" / "otp" / "schema.graphqls").read_text())


def test_every_query_file_was_found() -> None:
    assert {q.stem for q in QUERIES} == {"plan_trip", "departures", "find_stops"}


@pytest.mark.parametrize("query", QUERIES, ids=[q.stem for q in QUERIES])
def test_the_query_is_valid_against_the_otp_schema(query: pathlib.Path) -> None:
    errors = validate(SCHEMA, parse(query.read_text()))
    assert not errors, [str(e) for e in errors]


def test_a_query_with_a_mistake_is_caught() -> None:
    plan = next(q for q in QUERIES if q.stem == "plan_trip")
    broken = plan.read_text().replace("numberOfTransfers", "numberOfTransfer", 1)
    assert broken != plan.read_text()
    assert validate(SCHEMA, parse(broken))


CALLS = {
    "plan_trip": ("plan_trip", {
        "origin": {"type": "coords", "value": {"lat": 60.17, "lon": 24.94}},
        "destination": {"type": "coords", "value": {"lat": 60.19, "lon": 24.9}},
    }),
    "departures": ("get_departures", {"stop": {"type": "id", "value": "HSL:2434202"}}),
    "find_stops": ("find_stops", {"coordinate": {"lat": 60.17, "lon": 24.93}}),
}


@pytest.mark.parametrize("query", QUERIES, ids=[q.stem for q in QUERIES])
def test_the_tool_sends_exactly_that_query(query: pathlib.Path, fake: FakeUpstream) -> None:
    fake.reset([])
    tool, arguments = CALLS[query.stem]
    client = toolpack.Toolpack(digitransit_api_key="k", digitransit_base_url=fake.base_url,
                               digitransit_router="hsl")
    assert not client.call(tool, arguments)["isError"]
    (sent,) = fake.requests()
    body = json.loads(sent["body"])
    assert body["query"] == query.read_text()
    assert not validate(SCHEMA, parse(body["query"]))
