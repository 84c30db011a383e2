//! TfL (London) tools, on TfL's Unified API and on TfL station data bundled in the crate.
//! The catalog (`with_every_tool!`) lists them. The live tools share one way to call TfL
//! (`upstream`: the key, the timeout, an invalid key told apart from throttling), one
//! lenient reading of its bodies (`lenient`) and one set of codes ([`TflCode`]).
//!
//! Station data: "Powered by TfL Open Data" — TfL Transport Data Service terms
//! (OGL 2.0 with TfL amendments). TfL does not endorse this project.

/// Implements [`crate::ToolOutput`] for a TfL response: TfL contracts share one shape
/// (`success`, `code`, `message`, …), an `error(code, message)` constructor and the
/// codes `VALIDATION_ERROR`, `RATE_LIMIT_EXCEEDED` and `INTERNAL_ERROR`. A live tool's
/// response (`live`) has a `served: Option<ServedFields>` field, filled on success.
macro_rules! tfl_tool_output {
    ($response:ty, $code:ident, $internal_message:literal, live) => {
        $crate::tfl::tfl_tool_output!($response, $code, $internal_message, {
            fn served_fields(
                &mut self,
            ) -> Option<&mut Option<$crate::http::ServedFields>> {
                self.success.then_some(&mut self.served)
            }
        });
    };
    ($response:ty, $code:ident, $internal_message:literal) => {
        $crate::tfl::tfl_tool_output!($response, $code, $internal_message, {});
    };
    ($response:ty, $code:ident, $internal_message:literal, { $($served:tt)* }) => {
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

            $($served)*
        }
    };
}
pub(crate) use tfl_tool_output;

mod arrivals;
mod bike_points;
mod checks;
mod code;
mod crowding;
mod lenient;
mod lift_outages;
mod line_route;
mod line_status;
mod london;
mod plan_journey;
mod station_toilets;
mod stop_point;
mod stop_search;
mod stops;
mod timetable;
mod upstream;

pub use arrivals::{
    ArrivalDirection, Arrivals, ArrivalsRequest, ArrivalsResponse, ArrivalsStop, PlatformArrivals,
};
pub use bike_points::{BikePoint, BikePoints, BikePointsRequest, BikePointsResponse};
pub use code::TflCode;
pub use crowding::{
    Busyness, Crowding, CrowdingRequest, CrowdingResponse, CrowdingStation, LiveCrowding, TimeBand,
    TypicalDay, Weekday,
};
pub use lift_outages::{LiftOutage, LiftOutages, LiftOutagesRequest, LiftOutagesResponse};
pub use line_route::{
    LineRoute, LineRouteRequest, LineRouteResponse, RouteBranch, RouteDirection, RouteLine,
    RouteStop, ServiceType,
};
pub use line_status::{
    DEFAULT_MODES as LINE_STATUS_DEFAULT_MODES, LineStatus, LineStatusLine, LineStatusRequest,
    LineStatusResponse, PlannedStatus,
};
pub use timetable::{
    DaySchedule, DirectionTimetable, FollowingStop, ScheduledDeparture, Timetable, TimetableLine,
    TimetablePattern, TimetableRequest, TimetableResponse, TimetableStop,
};

pub use plan_journey::{
    AccessibilityWish, DEFAULT_TIMEOUT as PLAN_JOURNEY_DEFAULT_TIMEOUT,
    JourneyDisambiguationSuggestion, JourneyFare, JourneyLegSummary, JourneyMode, JourneyObstacle,
    JourneyOptionSummary, JourneyPlanRequest, JourneyPlanToolResponse, JourneyPreference,
    JourneyRequested, MAX_WALKING_MINUTES, PlanJourney, PlanJourneyCode, TimeIs, WalkingSpeed,
};

pub use station_toilets::data::{StationData, StationDataError, StationDataSource};
pub(crate) use station_toilets::station_data;
pub use station_toilets::{
    StationDisambiguationSuggestion, StationToiletDetail, StationToiletLookupRequest,
    StationToiletToolResponse, StationToilets, StationToiletsCode, station_names,
};
pub use stop_search::{StopSearch, StopSearchRequest, StopSearchResponse, StopSummary};
pub use stops::StopCandidate;

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
