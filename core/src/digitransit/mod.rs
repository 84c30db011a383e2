//! Digitransit (Finland) tools: geocoding (Pelias), routing, departures and stops
//! (OpenTripPlanner GraphQL, routing v2), alerts, city bikes and scooters, HSL's live vehicle positions (HFP, MQTT), what runs at a stop, and saved places (SQLite or PostgreSQL). The
//! catalog (`with_every_tool!`) lists them.
//!
//! Every tool answers its success body or the envelope
//! `{"error":{"code","message","hint"?,"retryAfter"?,"correlationId"}}` with the contracts'
//! kebab-case codes ([`DigitransitErrorCode`]); every answer carries a `correlationId`.
//! The key (`DIGITRANSIT_API_KEY`) goes only in the `digitransit-subscription-key` header.

mod alerts;
mod departures;
mod find_stops;
mod geocode;
mod place;
mod plan_trip;
mod rental;
mod response;
mod stop_info;
mod time;
mod transit_mode;
mod upstream;
mod user_variables;
mod vehicles;

pub use alerts::{
    Alert, AlertRoute, AlertStop, AlertSummary, GetAlerts, GetAlertsRequest, GetAlertsResult,
};
pub use departures::{
    Departure, GetDepartures, GetDeparturesRequest, GetDeparturesResult, StopRef, TransitStatus,
};
pub use find_stops::{FindStops, FindStopsRequest, FindStopsResult, NearbyStop};
pub use geocode::{
    BoundingBox, GeocodeAddress, GeocodeAddressRequest, GeocodeAddressResult, GeocodeResult,
    GeocodeResultType, ReverseGeocode, ReverseGeocodeRequest, ReverseGeocodeResult,
};
pub use place::{Coordinate, Language};
pub use plan_trip::{
    Accessibility, AccessibilityInput, BikeUse, Itinerary, Leg, LegFare, LegPlace, LocationRef,
    Optimize, PlaceRef, PlanConstraints, PlanConstraintsInput, PlanMeta, PlanTrip, PlanTripRequest,
    PlanTripResult, RawSource, RequestedTime, ScheduleType, TripTime, ViaPoint, WhenType,
};
pub use rental::{
    FindRentalVehicles, FindRentalVehiclesRequest, FindRentalVehiclesResult, RentalStation,
    RentalVehicle,
};
pub use response::{
    DigitransitErrorBody, DigitransitErrorCode, DigitransitErrorEnvelope, DigitransitResponse,
    PlaceCandidate, Warning, WarningCode,
};
pub use stop_info::{
    GetStopInfo, GetStopInfoRequest, GetStopInfoResult, StopDetails, StopPattern, StopRoute,
};
pub use transit_mode::TransitMode;
pub use user_variables::{
    DATABASE_FILE, GetUserVariables, GetUserVariablesRequest, GetUserVariablesResult,
    PreviousVariable, SaveUserVariable, SaveUserVariableRequest, SaveUserVariableResult,
    SavedLocation, UserVariable, UserVariableType, UserVariableValue,
};
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) use vehicles::hfp;
pub use vehicles::{
    FeedCounts, LineStop, NextStop, VehiclePosition, VehiclePositions, VehiclePositionsRequest,
    VehiclePositionsResult, VehicleRouteLine,
};

/// Per-toolpack Digitransit state: the saved-variables store, and the live vehicle feed.
#[derive(Debug)]
pub(crate) struct DigitransitState {
    pub(crate) store: user_variables::store::UserStore,
    pub(crate) vehicles: vehicles::feed::VehicleFeed,
}

impl crate::family_state::FamilyState for DigitransitState {
    fn new(config: &crate::Config) -> Self {
        Self {
            store: user_variables::store::UserStore::new(config),
            vehicles: vehicles::feed::VehicleFeed::new(config.hfp()),
        }
    }
}

impl crate::Toolpack {
    /// The Digitransit state of this toolpack.
    pub(crate) fn digitransit(&self) -> std::sync::Arc<DigitransitState> {
        self.family()
    }
}

impl crate::Toolpack {
    /// The variable this handle's caller saved under `key` (what a `{type: 'label'}`
    /// origin resolves), if any.
    pub async fn user_variable(
        &self,
        key: &str,
    ) -> Result<Option<UserVariable>, DigitransitErrorEnvelope> {
        self.digitransit()
            .store
            .get(self.caller().id().to_owned(), key.to_owned())
            .await
            .map_err(|f| f.into_envelope(crate::http::new_correlation_id()))
    }
}
