//! HSL's high-frequency positioning (HFP v2), read without I/O: a `vp` message's topic and
//! JSON payload into a [`Sighting`], and the topic filters that ask the broker for one
//! route's or one stop's vehicles.
//!
//! The topic is
//! `/hfp/v2/journey/ongoing/vp/<mode>/<operator>/<vehicle>/<route>/<direction>/<headsign>/<start>/<next stop>/<geohash level>/<geohash…>/<sid>`;
//! the payload `{"VP": {desi, dir, oper, veh, tst, spd, hdg, lat, long, dl, drst, route, occu, …}}`
//! (HSLdevcom/digitransit-site, the realtime API's HFP page). HFP direction 1 is GTFS
//! direction 0 and 2 is 1; `dl` is seconds ahead of the timetable (negative when late).

use jiff::Timestamp;
use serde::Deserialize;

use crate::digitransit::time::helsinki_iso;

/// The topic's fixed prefix of an ongoing journey's position (`vp`) message.
const POSITION_PREFIX: &str = "/hfp/v2/journey/ongoing/vp/";
/// The longest topic or payload read, in bytes: a real `vp` message is under 1 KB.
pub(crate) const MAX_MESSAGE_BYTES: usize = 8 * 1024;
/// The next-stop field of a vehicle at the end of its line.
const END_OF_LINE: &str = "EOL";
/// HSL's feed in GTFS ids: HFP writes a route or stop id without it.
pub(crate) const GTFS_FEED: &str = "HSL:";

/// One vehicle's position, as one `vp` message reported it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Sighting {
    /// The route as HFP names it: the GTFS route id without its feed, e.g. `2550`.
    pub(crate) route: String,
    /// The line as riders know it, e.g. `550`.
    pub(crate) line: String,
    /// The GTFS direction, 0 or 1.
    pub(crate) direction: Option<u8>,
    /// Where the vehicle is headed, as the topic says.
    pub(crate) headsign: Option<String>,
    /// The transport mode, e.g. `bus`, `tram`.
    pub(crate) mode: String,
    /// The operator's number.
    pub(crate) operator: u32,
    /// The vehicle's number within its operator.
    pub(crate) vehicle: u32,
    /// The next stop's number (its GTFS id without the feed), none at the end of the line.
    pub(crate) next_stop: Option<String>,
    /// Latitude, WGS84.
    pub(crate) lat: f64,
    /// Longitude, WGS84.
    pub(crate) lon: f64,
    /// Heading in degrees clockwise from north.
    pub(crate) heading: Option<f64>,
    /// Speed in metres a second.
    pub(crate) speed: Option<f64>,
    /// Seconds behind the timetable (negative when ahead).
    pub(crate) delay: Option<i64>,
    /// How full, as HSL reports it: 0 (seats free) to 100 (full).
    pub(crate) occupancy: Option<u8>,
    /// When the vehicle reported it.
    pub(crate) at: Timestamp,
    /// What every answer says of it, written once when it arrives: the vehicle's id as
    /// riders and HSL's tools write it (`operator/vehicle`), the route's and the next
    /// stop's GTFS ids, and when it reported, in Helsinki time.
    pub(crate) words: Words,
}

/// A sighting's texts as answers give them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Words {
    pub(crate) vehicle_id: String,
    pub(crate) route_id: String,
    pub(crate) next_stop_id: Option<String>,
    pub(crate) seen_at: String,
}

impl Words {
    fn of(
        operator: u32,
        vehicle: u32,
        route: &str,
        next_stop: Option<&str>,
        at: Timestamp,
    ) -> Self {
        Self {
            vehicle_id: format!("{operator}/{vehicle}"),
            route_id: format!("{GTFS_FEED}{route}"),
            next_stop_id: next_stop.map(|stop| format!("{GTFS_FEED}{stop}")),
            seen_at: helsinki_iso(at),
        }
    }
}

/// Why a message was skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Skipped {
    /// The topic is not an ongoing journey's position, or lacks a field.
    Topic,
    /// The payload is not a `VP` object HFP sends, or lacks the position or time.
    Payload,
}

/// The topic's fields this reader uses.
struct TopicFields<'a> {
    mode: &'a str,
    operator: &'a str,
    vehicle: &'a str,
    route: &'a str,
    direction: &'a str,
    headsign: &'a str,
    next_stop: &'a str,
}

fn topic_fields(topic: &str) -> Option<TopicFields<'_>> {
    let rest = topic.strip_prefix(POSITION_PREFIX)?;
    let mut parts = rest.split('/');
    let mut next = || parts.next().filter(|p| !p.is_empty());
    let mode = next()?;
    let operator = next()?;
    let vehicle = next()?;
    let route = next()?;
    let direction = next()?;
    let headsign = next()?;
    let _start = next()?;
    let next_stop = next()?;
    Some(TopicFields {
        mode,
        operator,
        vehicle,
        route,
        direction,
        headsign,
        next_stop,
    })
}

#[derive(Deserialize)]
struct Message {
    #[serde(rename = "VP")]
    vp: Position,
}

/// The payload's fields this reader uses (HFP sends some as strings, some as numbers,
/// any of them `null`).
#[derive(Deserialize)]
struct Position {
    desi: Option<Text>,
    oper: Option<Number>,
    veh: Option<Number>,
    tst: Option<String>,
    spd: Option<f64>,
    hdg: Option<f64>,
    lat: Option<f64>,
    long: Option<f64>,
    dl: Option<f64>,
    occu: Option<f64>,
}

/// A field HFP writes as a string in one version and a number in another.
#[derive(Deserialize)]
#[serde(untagged)]
enum Text {
    Text(String),
    Number(f64),
}

impl Text {
    fn into_string(self) -> String {
        match self {
            Self::Text(text) => text,
            Self::Number(number) => number.to_string(),
        }
    }
}

/// A whole number HFP writes as a number or a string of digits.
#[derive(Deserialize)]
#[serde(untagged)]
enum Number {
    Number(u32),
    Text(String),
}

impl Number {
    fn value(&self) -> Option<u32> {
        match self {
            Self::Number(number) => Some(*number),
            Self::Text(text) => text.trim().parse().ok(),
        }
    }
}

/// Reads one `vp` message. Coordinates out of range, a missing time, or a topic that is not
/// an ongoing journey's position are skipped, never guessed.
pub(crate) fn read(topic: &str, payload: &[u8]) -> Result<Sighting, Skipped> {
    if topic.len() > MAX_MESSAGE_BYTES {
        return Err(Skipped::Topic);
    }
    if payload.len() > MAX_MESSAGE_BYTES {
        return Err(Skipped::Payload);
    }
    let fields = topic_fields(topic).ok_or(Skipped::Topic)?;
    let position = serde_json::from_slice::<Message>(payload)
        .map_err(|_| Skipped::Payload)?
        .vp;
    let (Some(lat), Some(lon)) = (position.lat, position.long) else {
        return Err(Skipped::Payload);
    };
    if !(-90.0..=90.0).contains(&lat) || !(-180.0..=180.0).contains(&lon) {
        return Err(Skipped::Payload);
    }
    let at = position
        .tst
        .as_deref()
        .and_then(|t| t.parse::<Timestamp>().ok())
        .ok_or(Skipped::Payload)?;
    // The topic names the vehicle's owner and number, the key HSL's own tools use; the
    // payload's `oper` may be another number of the same operator (6 for 18).
    let operator = fields
        .operator
        .parse()
        .ok()
        .or_else(|| position.oper.as_ref().and_then(Number::value))
        .ok_or(Skipped::Topic)?;
    let vehicle = fields
        .vehicle
        .parse()
        .ok()
        .or_else(|| position.veh.as_ref().and_then(Number::value))
        .ok_or(Skipped::Topic)?;
    let next_stop = (fields.next_stop != END_OF_LINE).then_some(fields.next_stop);
    Ok(Sighting {
        route: fields.route.to_owned(),
        line: position
            .desi
            .map(Text::into_string)
            .unwrap_or_else(|| fields.route.to_owned()),
        direction: gtfs_direction(fields.direction),
        headsign: Some(fields.headsign.to_owned()),
        mode: fields.mode.to_owned(),
        operator,
        vehicle,
        next_stop: next_stop.map(str::to_owned),
        lat,
        lon,
        heading: position.hdg.filter(|h| (0.0..=360.0).contains(h)),
        speed: position.spd.filter(|s| s.is_finite() && *s >= 0.0),
        // HFP's `dl` is ahead of the timetable; the answer says behind it.
        delay: position.dl.filter(|d| d.is_finite()).map(|d| -(d as i64)),
        occupancy: position
            .occu
            .filter(|o| (0.0..=100.0).contains(o))
            .map(|o| o as u8),
        at,
        words: Words::of(operator, vehicle, fields.route, next_stop, at),
    })
}

/// HFP's direction (1 or 2) as GTFS numbers it (0 or 1).
fn gtfs_direction(hfp: &str) -> Option<u8> {
    match hfp {
        "1" => Some(0),
        "2" => Some(1),
        _ => None,
    }
}

/// What a subscription asks the broker for: one route's vehicles, or the vehicles whose
/// next stop is one stop.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Watched {
    /// A route, by HFP's route id (`2550`).
    Route(String),
    /// A stop, by its number (`1130446`).
    NextStop(String),
}

impl Watched {
    /// The MQTT topic filter for it.
    pub(crate) fn topic_filter(&self) -> String {
        match self {
            Self::Route(route) => format!("{POSITION_PREFIX}+/+/+/{route}/#"),
            Self::NextStop(stop) => format!("{POSITION_PREFIX}+/+/+/+/+/+/+/{stop}/#"),
        }
    }

    /// Whether `sighting` is one of its vehicles.
    pub(crate) fn sees(&self, sighting: &Sighting) -> bool {
        match self {
            Self::Route(route) => sighting.route == *route,
            Self::NextStop(stop) => sighting.next_stop.as_deref() == Some(stop.as_str()),
        }
    }

    /// Whether an id may stand in a topic filter's level: MQTT levels cannot hold `/`,
    /// `+` or `#` (HSL's route ids may hold a space: `1004 4`).
    pub(crate) fn is_topic_safe(id: &str) -> bool {
        !id.is_empty()
            && id.len() <= 64
            && id.trim() == id
            && id
                .chars()
                .all(|c| !c.is_control() && !matches!(c, '/' | '+' | '#'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Recorded from HSL's broker: tram 15 and the end-of-line topic from the recording in
    // tests/fixtures/digitransit/hfp (see PROVENANCE.md there); bus 520, whose topic and
    // payload name its operator differently, from HSLdevcom/transitdata-partial-apc-
    // expander-combiner `tests/testData/currentStopNull/hfp.dump` (f17cfed, EUPL-1.2).
    const TOPIC: &str = "/hfp/v2/journey/ongoing/vp/tram/0040/00623/2015/1/Keilaniemi (M)/06:54/2222405/3/60;24/18/82/47";
    const PAYLOAD: &str = r#"{"VP":{"desi":"15","dir":"1","oper":40,"veh":623,"tst":"2026-09-29T04:53:23.251Z","tsi":1790657603,"spd":5.46,"hdg":127,"lat":60.184519,"long":24.827023,"acc":-0.19,"dl":-217,"odo":23624,"drst":0,"oday":"2026-09-29","jrn":2142,"line":1142,"start":"06:54","loc":"GPS","stop":null,"route":"2015","occu":0}}"#;
    const END_OF_LINE_TOPIC: &str =
        "/hfp/v2/journey/ongoing/vp/tram/0040/00459/1009/1/Ilmala/07:09/EOL/0/60;24/29/02/60";
    const OWNER_TOPIC: &str = "/hfp/v2/journey/ongoing/vp/bus/0018/01029/5520/2/Matinkylä (M)/18:48/4170215/0/60;24/28/75/72";
    const OWNER_PAYLOAD: &str = r#"{"VP":{"desi":"520","dir":"2","oper":6,"veh":1029,"tst":"2024-02-13T16:47:21.931Z","tsi":1707842841,"spd":null,"hdg":null,"lat":60.277200,"long":24.852980,"acc":null,"dl":38,"odo":null,"drst":0,"oday":"2024-02-13","jrn":442,"line":1110,"start":"18:48","loc":"ODO","stop":4170215,"route":"5520","occu":0}}"#;
    const NO_POSITION_TOPIC: &str =
        "/hfp/v2/journey/ongoing/vp/tram/0040/00621/2015/2/Itäkeskus (M)/07:23/1291406/0////";
    const NO_POSITION_PAYLOAD: &str = r#"{"VP":{"desi":"15","dir":"2","oper":40,"veh":621,"tst":"2026-09-29T04:53:20.255Z","tsi":1790657600,"spd":null,"hdg":null,"lat":null,"long":null,"acc":null,"dl":-169,"odo":10565,"drst":0,"oday":"2026-09-29","jrn":992,"line":1142,"start":"07:23","loc":"GPS","stop":null,"route":"2015","occu":0}}"#;

    #[test]
    fn a_position_reads_with_gtfs_direction_and_delay_behind_the_timetable() {
        let s = read(TOPIC, PAYLOAD.as_bytes()).expect("reads");
        assert_eq!(s.route, "2015");
        assert_eq!(s.line, "15");
        assert_eq!(s.mode, "tram");
        assert_eq!(s.direction, Some(0));
        assert_eq!(s.headsign.as_deref(), Some("Keilaniemi (M)"));
        assert_eq!(s.words.vehicle_id, "40/623");
        assert_eq!(s.words.route_id, "HSL:2015");
        assert_eq!(s.words.next_stop_id.as_deref(), Some("HSL:2222405"));
        assert_eq!(s.words.seen_at, "2026-09-29T07:53:23+03:00");
        assert_eq!(s.next_stop.as_deref(), Some("2222405"));
        assert_eq!(s.delay, Some(217));
        assert_eq!(s.speed, Some(5.46));
        assert_eq!(s.heading, Some(127.0));
        assert_eq!(s.occupancy, Some(0));
        assert_eq!(s.at.to_string(), "2026-09-29T04:53:23.251Z");
    }

    #[test]
    fn end_of_line_has_no_next_stop_direction_two_is_one_and_the_topic_names_the_owner() {
        let s = read(END_OF_LINE_TOPIC, PAYLOAD.as_bytes()).expect("reads");
        assert_eq!(s.next_stop, None);
        let s = read(OWNER_TOPIC, OWNER_PAYLOAD.as_bytes()).expect("reads");
        assert_eq!(s.direction, Some(1));
        assert_eq!(s.words.vehicle_id, "18/1029");
        assert_eq!(s.delay, Some(-38));
        assert_eq!((s.speed, s.heading), (None, None));
    }

    #[test]
    fn what_is_not_a_position_is_skipped() {
        let skipped = |topic: &str, payload: &str| read(topic, payload.as_bytes()).err();
        assert_eq!(
            skipped(NO_POSITION_TOPIC, NO_POSITION_PAYLOAD),
            Some(Skipped::Payload)
        );
        assert_eq!(
            skipped("/hfp/v2/journey/ongoing/dep/tram/0040", PAYLOAD),
            Some(Skipped::Topic)
        );
        assert_eq!(
            skipped("/hfp/v2/journey/ongoing/vp/tram/0040/00623", PAYLOAD),
            Some(Skipped::Topic)
        );
        assert_eq!(skipped(TOPIC, r#"{"VP":{}}"#), Some(Skipped::Payload));
        assert_eq!(skipped(TOPIC, "not json"), Some(Skipped::Payload));
        assert_eq!(
            skipped(TOPIC, &PAYLOAD.replace("60.184519", "160.1")),
            Some(Skipped::Payload)
        );
        assert_eq!(
            skipped(TOPIC, &PAYLOAD.replace("2026-09-29T04:53:23.251Z", "later")),
            Some(Skipped::Payload)
        );
    }

    #[test]
    fn the_filters_ask_for_a_route_or_a_next_stop() {
        let s = read(TOPIC, PAYLOAD.as_bytes()).expect("reads");
        let route = Watched::Route("2015".into());
        let stop = Watched::NextStop("2222405".into());
        assert_eq!(
            route.topic_filter(),
            "/hfp/v2/journey/ongoing/vp/+/+/+/2015/#"
        );
        assert_eq!(
            stop.topic_filter(),
            "/hfp/v2/journey/ongoing/vp/+/+/+/+/+/+/+/2222405/#"
        );
        assert!(route.sees(&s) && stop.sees(&s));
        assert!(!Watched::Route("1009".into()).sees(&s));
        assert!(Watched::is_topic_safe("1004 4"));
        for unsafe_id in ["25/50", "#", "+", "", " 2015"] {
            assert!(!Watched::is_topic_safe(unsafe_id), "{unsafe_id:?}");
        }
    }
}
