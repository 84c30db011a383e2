//! TfL (London) tools: `stationToilets` (bundled TfL station data).
//!
//! Station data: "Powered by TfL Open Data" — TfL Transport Data Service terms
//! (OGL 2.0 with TfL amendments). TfL does not endorse this project.

mod station_toilets;

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
    /// `stationToilets`: toilet facilities at a London station (see [`StationToilets`]).
    pub async fn station_toilets(
        &self,
        request: StationToiletLookupRequest,
    ) -> StationToiletToolResponse {
        self.call::<StationToilets>(request).await
    }
}
