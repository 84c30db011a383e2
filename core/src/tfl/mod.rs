//! TfL (London) tools: `planJourney` (TfL Journey Planner API) and `stationToilets`
//! (bundled TfL station data).
//!
//! Station data: "Powered by TfL Open Data" — TfL Transport Data Service terms
//! (OGL 2.0 with TfL amendments). TfL does not endorse this project.

mod plan_journey;
mod station_toilets;

pub use plan_journey::{
    ACCESSIBLE_PREFERENCE, DEFAULT_TIMEOUT as PLAN_JOURNEY_DEFAULT_TIMEOUT,
    JourneyDisambiguationSuggestion, JourneyLegSummary, JourneyOptionSummary, JourneyPlanRequest,
    JourneyPlanToolResponse, MAX_LOCATION_CHARS, PlanJourney, PlanJourneyCode,
    TOP_N as TOP_JOURNEYS, encode_segment,
};

pub use station_toilets::data::{StationData, StationDataError, StationDataSource};
pub use station_toilets::{
    StationDisambiguationSuggestion, StationToiletDetail, StationToiletLookupRequest,
    StationToiletToolResponse, StationToilets, StationToiletsCode,
};

/// Per-toolpack TfL state: the lazily loaded station data.
#[derive(Debug, Default)]
pub(crate) struct TflState {
    pub(crate) stations: tokio::sync::OnceCell<std::sync::Arc<StationData>>,
}

impl crate::Toolpack {
    /// `planJourney`: the 5 fastest London journeys from TfL (see [`PlanJourney`]).
    pub async fn plan_journey(&self, request: JourneyPlanRequest) -> JourneyPlanToolResponse {
        self.call::<PlanJourney>(request).await
    }

    /// `stationToilets`: toilet facilities at a London station (see [`StationToilets`]).
    pub async fn station_toilets(
        &self,
        request: StationToiletLookupRequest,
    ) -> StationToiletToolResponse {
        self.call::<StationToilets>(request).await
    }
}
