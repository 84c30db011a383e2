"""``on_choice``: a client given one asks it which station a name means, and the call
goes on with the pick; without it, or when it returns ``None`` or raises, the answer is
the disambiguation as always. It runs off the event loop, so it may wait for a person."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

import toolpack_agents as toolpack

EDGWARE_ROAD = {"stationName": "Edgware Road"}


def test_the_blocking_client_goes_on_with_the_pick() -> None:
    asked: list[toolpack.Question] = []

    def choose(question: toolpack.Question) -> str | None:
        asked.append(question)
        return question["choices"][1]["value"]

    client = toolpack.Toolpack(on_choice=choose)
    answer = client.station_toilets(station_name="Edgware Road")
    assert answer["code"] == "OK" and answer["stationUniqueId"] == "940GZZLUERC"
    assert len(asked) == 1
    question = asked[0]
    assert question["field"] == "stationName"
    assert question["message"] == 'Which station do you mean by "Edgware Road"?'
    assert [c["value"] for c in question["choices"]] == ["940GZZLUERB", "940GZZLUERC"]
    assert all(c["title"].startswith("Edgware Road — ") for c in question["choices"])
    # Another caller's handle on the same client asks the same callback.
    assert client.for_caller("alice").station_toilets(station_name="Edgware Road")["code"] == "OK"
    assert len(asked) == 2


@pytest.mark.parametrize("answer", [None, "940GZZLUOXC"])
def test_no_pick_or_a_pick_not_offered_gives_the_disambiguation(answer: str | None) -> None:
    client = toolpack.Toolpack(on_choice=lambda question: answer)
    result = client.call("stationToilets", EDGWARE_ROAD)
    assert result["isError"] is True
    assert result["structuredContent"]["code"] == "DISAMBIGUATION_REQUIRED"


def test_a_callback_that_raises_gives_the_disambiguation(monkeypatch: pytest.MonkeyPatch) -> None:
    raised: list[Any] = []
    monkeypatch.setattr("sys.unraisablehook", raised.append)

    def broken(question: toolpack.Question) -> str | None:
        raise RuntimeError("the dialog crashed")

    result = toolpack.Toolpack(on_choice=broken).call("stationToilets", EDGWARE_ROAD)
    assert result["structuredContent"]["code"] == "DISAMBIGUATION_REQUIRED"
    assert len(raised) == 1 and "the dialog crashed" in str(raised[0].exc_value)


def test_without_a_callback_nothing_is_asked() -> None:
    result = toolpack.Toolpack().call("stationToilets", EDGWARE_ROAD)
    assert result["structuredContent"]["code"] == "DISAMBIGUATION_REQUIRED"


def test_the_asyncio_client_asks_off_the_event_loop() -> None:
    threads: list[threading.Thread] = []

    def slow_person(question: toolpack.Question) -> str | None:
        threads.append(threading.current_thread())
        threading.Event().wait(0.3)
        return question["choices"][0]["value"]

    async def main() -> tuple[dict[str, Any], int]:
        client = toolpack.AsyncToolpack(on_choice=slow_person)
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        ticker = asyncio.create_task(tick())
        answer = await client.station_toilets(station_name="Edgware Road")
        ticker.cancel()
        return answer, ticks

    answer, ticks = asyncio.run(main())
    assert answer["stationUniqueId"] == "940GZZLUERB"
    assert threads and threads[0] is not threading.main_thread()
    assert ticks >= 10, "the event loop ran while the person chose"
