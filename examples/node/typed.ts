// The generated TypeScript types in use; checked with `tsc --noEmit --strict`.
import { Toolpack, ToolpackError, type JourneyOptionSummary, type StationToiletToolResponse } from 'toolpack'

function describe(journey: JourneyOptionSummary): string {
  const legs = journey.legs.map((leg) => `${leg.mode ?? '?'}${leg.routeName ? ` (${leg.routeName})` : ''}`)
  const fare = journey.totalFarePence == null ? '' : `, £${(journey.totalFarePence / 100).toFixed(2)}`
  return `${journey.durationMinutes ?? '?'} min: ${legs.join(' → ')}${fare}`
}

export async function main(): Promise<void> {
  const tp = Toolpack.fromEnv()
  const toilets: StationToiletToolResponse = await tp.stationToilets({ stationName: 'Victoria' })
  const accessible: number = (toilets.toilets ?? []).filter((t) => t.accessible).length
  console.log(`${toilets.stationName}: ${accessible} accessible toilets`)
  try {
    const plan = await tp.planJourney({ from: 'Bank', to: 'Mile End', needAccessibleRoute: true })
    for (const journey of plan.topJourneys ?? []) console.log(describe(journey))
  } catch (error) {
    if (error instanceof ToolpackError) console.log(`${error.code} (${error.kind})`)
    else throw error
  }
}
