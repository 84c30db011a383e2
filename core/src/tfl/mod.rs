//! TfL (London) tools, on TfL's Unified API and on TfL station data bundled in the crate.
//! The catalog (`with_every_tool!`) lists them.
//!
//! Station data: "Powered by TfL Open Data" — TfL Transport Data Service terms
//! (OGL 2.0 with TfL amendments). TfL does not endorse this project.

/// Implements [`crate::ToolOutput`] for a TfL response: TfL contracts share one shape
/// (`success`, `code`, `message`, …), an `error(code, message)` constructor and the
/// codes `VALIDATION_ERROR`, `RATE_LIMIT_EXCEEDED` and `INTERNAL_ERROR`.
macro_rules! tfl_tool_output {
    ($response:ty, $code:ident, $internal_message:literal) => {
        impl $crate::tool::ToolOutput for $response {
            type Success = Self;
            type Error = Self;
            const ERROR_CODE_AT: &'static str = "/code";
            const SUCCESS_CODE: Option<&'static str> = Some("OK");

            fn error_code(&self) -> Option<&str> {
                (!self.success).then(|| self.code.as_str())
            }

            fn into_success(self) -> Result<Self, Self> {
                if self.success { Ok(self) } else { Err(self) }
            }

            fn invalid_arguments(_tool: &str, message: String) -> Self {
                Self::error($code::ValidationError, message)
            }

            fn rate_limited(tool: &str) -> Self {
                Self::error(
                    $code::RateLimitExceeded,
                    format!("Rate limit exceeded for {tool}."),
                )
            }

            fn internal_error(_tool: &str) -> Self {
                Self::error($code::InternalError, $internal_message)
            }
        }
    };
}
pub(crate) use tfl_tool_output;

mod plan_journey;
mod station_toilets;

pub use plan_journey::{
    DEFAULT_TIMEOUT as PLAN_JOURNEY_DEFAULT_TIMEOUT, JourneyDisambiguationSuggestion,
    JourneyLegSummary, JourneyOptionSummary, JourneyPlanRequest, JourneyPlanToolResponse,
    PlanJourney, PlanJourneyCode,
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

impl crate::family_state::FamilyState for TflState {
    fn new(_: &crate::Config) -> Self {
        Self::default()
    }
}

impl crate::Toolpack {
    /// The TfL state of this toolpack.
    pub(crate) fn tfl(&self) -> std::sync::Arc<TflState> {
        self.family()
    }
}
