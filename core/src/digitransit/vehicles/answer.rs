//! A call's answer from what the feed holds: each vehicle in the contract's form, stale
//! when the broker is away, and the answer in words.

use std::time::{Duration, Instant, SystemTime};

use super::feed::{LinkState, Snapshot};
use super::hfp::Sighting;
use super::route::FoundRoute;
use super::types::{LineStop, NextStop, VehiclePosition, VehiclePositionsResult};
use crate::digitransit::response::{DigitransitErrorCode, Failure};
use crate::digitransit::stop_info::StopDetails;
use crate::http::ServedFields;

/// What the call asked about, found.
pub(crate) enum Asked<'a> {
    /// A route, and maybe one direction of it.
    Route(&'a FoundRoute, Option<u8>),
    /// A stop.
    Stop(StopDetails),
}

/// The answer to `asked` from `snapshot`; positions older than `stale_after` are not
/// served while the broker is away.
pub(crate) fn answer(
    asked: Asked<'_>,
    snapshot: Snapshot,
    stale_after: Duration,
    correlation_id: String,
) -> Result<VehiclePositionsResult, Failure> {
    let now = Instant::now();
    let stale = !matches!(snapshot.link, LinkState::Up);
    let mut held: Vec<_> = snapshot
        .vehicles
        .into_iter()
        .filter(|h| !stale || now.saturating_duration_since(h.received) <= stale_after)
        .filter(|h| match &asked {
            Asked::Route(_, Some(direction)) => h.sighting.direction == Some(*direction),
            _ => true,
        })
        .collect();
    if held.is_empty() {
        match &snapshot.link {
            LinkState::Up => {}
            LinkState::Connecting(_) => return Err(unanswered()),
            LinkState::Down(since, why) => return Err(unreachable(now - *since, why)),
        }
    }
    // By direction, then vehicle: the snapshot comes by vehicle, and a stable sort on the
    // direction alone keeps that order within each direction.
    held.sort_by_key(|h| h.sighting.direction);
    let newest = held.iter().map(|h| h.received).max();
    let vehicles: Vec<VehiclePosition> = held
        .iter()
        .map(|h| {
            position(
                &h.sighting,
                &asked,
                now.saturating_duration_since(h.received),
                stale,
            )
        })
        .collect();
    let as_of = newest.map_or_else(SystemTime::now, |received| {
        SystemTime::now() - now.saturating_duration_since(received)
    });
    let message = words(&asked, &vehicles, stale);
    let (route, stop, lines) = match asked {
        Asked::Route(found, _) => (Some(found.route.clone()), None, found.lines.clone()),
        Asked::Stop(stop) => (None, Some(line_stop(stop)), Vec::new()),
    };
    Ok(VehiclePositionsResult {
        message,
        route,
        stop,
        vehicles,
        lines,
        correlation_id,
        served: Some(ServedFields::of(crate::http::ServedAs { as_of, stale })),
    })
}

fn position(s: &Sighting, asked: &Asked<'_>, age: Duration, stale: bool) -> VehiclePosition {
    let next_stop = s
        .next_stop
        .as_ref()
        .zip(s.words.next_stop_id.as_ref())
        .map(|(number, id)| NextStop {
            gtfs_id: id.clone(),
            name: match asked {
                Asked::Route(found, _) => found.stop_names.get(number).cloned(),
                Asked::Stop(stop) => Some(stop.name.clone()),
            },
        });
    VehiclePosition {
        id: s.words.vehicle_id.clone(),
        line: s.line.clone(),
        route_id: s.words.route_id.clone(),
        direction_id: s.direction,
        headsign: s.headsign.clone(),
        lat: s.lat,
        lon: s.lon,
        heading: s.heading,
        speed: s.speed,
        delay_seconds: s.delay,
        next_stop,
        occupancy_percent: s.occupancy,
        seen_at: s.words.seen_at.clone(),
        age_seconds: age.as_secs(),
        stale,
    }
}

fn line_stop(stop: StopDetails) -> LineStop {
    LineStop {
        gtfs_id: stop.gtfs_id,
        name: stop.name,
        lat: stop.lat,
        lon: stop.lon,
    }
}

/// The answer in words.
fn words(asked: &Asked<'_>, vehicles: &[VehiclePosition], stale: bool) -> String {
    let count = match vehicles.len() {
        1 => "1 vehicle".to_owned(),
        n => format!("{n} vehicles"),
    };
    let mut text = match asked {
        Asked::Route(found, direction) => {
            let towards = direction
                .and_then(|d| found.lines.iter().find(|l| l.direction_id == d))
                .and_then(|l| l.headsign.as_deref())
                .map(|h| format!(" towards {h}"))
                .unwrap_or_default();
            if vehicles.is_empty() {
                format!("No vehicle of {}{towards} is reporting now.", found.line())
            } else {
                format!("{count} of {}{towards} reporting.", found.line())
            }
        }
        Asked::Stop(stop) if vehicles.is_empty() => {
            format!("No vehicle is heading to {} next right now.", stop.name)
        }
        Asked::Stop(stop) => format!("{count} heading to {} next.", stop.name),
    };
    if stale {
        let oldest = vehicles.iter().map(|v| v.age_seconds).max().unwrap_or(0);
        text += &format!(
            " HSL's live feed cannot be reached now: these are the last positions held, up to {oldest} s old."
        );
    }
    text
}

/// The broker has not answered since the first call.
fn unanswered() -> Failure {
    Failure::new(
        DigitransitErrorCode::UpstreamTimeout,
        "HSL's live vehicle feed did not answer in time.",
    )
    .hint("Try again in a few seconds.")
}

/// The broker is away and no position held is recent enough.
fn unreachable(for_how_long: Duration, why: &str) -> Failure {
    Failure::new(
        DigitransitErrorCode::NetworkError,
        format!(
            "HSL's live vehicle feed cannot be reached (for {} s: {why}), and no position held is recent enough to show.",
            for_how_long.as_secs()
        ),
    )
    .hint("Try again later; departures from get_departures still carry delays.")
}
