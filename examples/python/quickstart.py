"""A first look at toolpack from Python: offline, no keys needed.

    pip install ./python
    python examples/python/quickstart.py
"""

from __future__ import annotations

import asyncio

from toolpack_agents import AsyncToolpack, DisambiguationRequiredError, Toolpack


def main() -> None:
    tp = Toolpack.from_env()
    answer = tp.station_toilets(station_name="King's Cross")
    print(f"{answer['stationName']} ({answer['stationUniqueId']}):")
    for toilet in answer["toilets"] or []:
        extras = [k for k in ("accessible", "babyChanging", "insideGateLine") if toilet[k]]
        print(f"  {toilet['type']:7} {toilet['location'] or '(no location)'} {extras}")

    try:
        tp.station_toilets(station_name="Edgware Road")
    except DisambiguationRequiredError as error:
        choices = error.payload["stationDisambiguation"]
        print(f"{error.code}: {[c['stationUniqueId'] for c in choices]}")
        first = tp.station_toilets(station_name=choices[0]["stationUniqueId"])
        print(f"  chose {first['stationName']}: {len(first['toilets'] or [])} toilets")

    async def concurrently() -> None:
        client = AsyncToolpack.from_env()
        names = ["Victoria", "Paddington", "Abbey Wood"]
        answers = await asyncio.gather(*(client.station_toilets(station_name=n) for n in names))
        for a in answers:
            print(f"{a['stationName']}: {len(a['toilets'] or [])} toilets")

    asyncio.run(concurrently())


if __name__ == "__main__":
    main()
