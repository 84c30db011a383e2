//! What the live vehicle feed holds, without I/O: the routes and stops followed, the latest
//! position of each of their vehicles, the broker link's state, and the bounds on all of
//! it. The link task writes sightings in; calls read snapshots out.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Notify;

use super::super::hfp::{Sighting, Skipped, Watched};
use crate::config::HfpSettings;

/// A vehicle no longer reporting on a followed route for this long has left it (its
/// journey ended): HFP reports each vehicle about once a second.
pub(crate) const GONE_FROM_ROUTE: Duration = Duration::from_secs(60);
/// A vehicle no longer reporting a stop as its next for this long has passed it.
pub(crate) const GONE_FROM_STOP: Duration = Duration::from_secs(10);

/// The state of the link to the broker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Link {
    /// Not connected yet, since this instant.
    Connecting(Instant),
    /// Connected, positions arriving.
    Up,
    /// Lost or refused since this instant, with why.
    Down(Instant, String),
}

/// One vehicle's latest position and when it arrived.
#[derive(Debug, Clone)]
pub(crate) struct Held {
    pub(crate) sighting: Arc<Sighting>,
    pub(crate) received: Instant,
}

/// A route or stop followed.
#[derive(Debug)]
struct Subscription {
    /// By operator and vehicle number: a snapshot comes out in that order.
    vehicles: BTreeMap<(u32, u32), Held>,
    last_asked: Instant,
    started: Instant,
    arrived: Arc<Notify>,
}

/// What asking for a route or stop did.
#[derive(Debug)]
pub(crate) struct Asked {
    /// Whether this call started following it (the broker must be asked).
    pub(crate) new: bool,
    /// What was dropped to make room (the broker may stop sending it).
    pub(crate) dropped: Option<Watched>,
    /// When following it started.
    pub(crate) started: Instant,
    /// Woken when one of its vehicles reports.
    pub(crate) arrived: Arc<Notify>,
}

/// What a call reads: the vehicles to show (by operator and vehicle number) and the link's
/// state.
#[derive(Debug, Clone)]
pub(crate) struct Snapshot {
    pub(crate) vehicles: Vec<Held>,
    pub(crate) link: Link,
}

/// Counts kept for operators and tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FeedCounts {
    /// Routes and stops followed now.
    pub subscriptions: usize,
    /// Vehicle positions held now.
    pub vehicles: usize,
    /// Messages held (a position kept for at least one route or stop).
    pub held: u64,
    /// Messages skipped: a topic or payload that does not read.
    pub malformed: u64,
    /// Positions not kept because the vehicle bound was reached.
    pub over_bound: u64,
    /// Times the broker was asked to follow a route or stop.
    pub subscribes: u64,
    /// Times the link to the broker was lost.
    pub disconnects: u64,
}

/// Everything the feed holds.
#[derive(Debug)]
pub(crate) struct Feed {
    settings: HfpSettings,
    subscriptions: HashMap<Watched, Subscription>,
    link: Link,
    counts: FeedCounts,
}

impl Feed {
    pub(crate) fn new(settings: HfpSettings, now: Instant) -> Self {
        Self {
            settings,
            subscriptions: HashMap::new(),
            link: Link::Connecting(now),
            counts: FeedCounts::default(),
        }
    }

    /// Follows `watched` (or keeps following it), as asked at `now`.
    pub(crate) fn ask(&mut self, watched: &Watched, now: Instant) -> Asked {
        if let Some(sub) = self.subscriptions.get_mut(watched) {
            sub.last_asked = now;
            return Asked {
                new: false,
                dropped: None,
                started: sub.started,
                arrived: Arc::clone(&sub.arrived),
            };
        }
        let dropped = (self.subscriptions.len() >= self.settings.max_subscriptions)
            .then(|| self.least_recently_asked())
            .flatten();
        if let Some(dropped) = &dropped {
            self.unfollow(dropped);
        }
        let arrived = Arc::new(Notify::new());
        self.subscriptions.insert(
            watched.clone(),
            Subscription {
                vehicles: BTreeMap::new(),
                last_asked: now,
                started: now,
                arrived: Arc::clone(&arrived),
            },
        );
        self.counts.subscribes += 1;
        Asked {
            new: true,
            dropped,
            started: now,
            arrived,
        }
    }

    fn least_recently_asked(&self) -> Option<Watched> {
        self.subscriptions
            .iter()
            .min_by_key(|(_, sub)| sub.last_asked)
            .map(|(watched, _)| watched.clone())
    }

    fn unfollow(&mut self, watched: &Watched) {
        if let Some(sub) = self.subscriptions.remove(watched) {
            self.counts.vehicles -= sub.vehicles.len();
        }
    }

    /// Keeps a message's position for every route and stop it belongs to.
    pub(crate) fn record(&mut self, read: Result<Sighting, Skipped>, now: Instant) {
        let sighting = match read {
            Ok(sighting) => Arc::new(sighting),
            Err(_) => {
                self.counts.malformed += 1;
                return;
            }
        };
        let key = (sighting.operator, sighting.vehicle);
        let mut kept = false;
        for (watched, sub) in &mut self.subscriptions {
            if !watched.sees(&sighting) {
                continue;
            }
            let held = Held {
                sighting: Arc::clone(&sighting),
                received: now,
            };
            match sub.vehicles.get_mut(&key) {
                Some(known) => *known = held,
                None if self.counts.vehicles < self.settings.max_vehicles => {
                    sub.vehicles.insert(key, held);
                    self.counts.vehicles += 1;
                }
                None => {
                    self.counts.over_bound += 1;
                    continue;
                }
            }
            kept = true;
            sub.arrived.notify_waiters();
        }
        if kept {
            self.counts.held += 1;
        }
    }

    /// The link came up: every route and stop followed must be asked of the broker again.
    pub(crate) fn link_up(&mut self) -> Vec<Watched> {
        self.link = Link::Up;
        self.subscriptions.keys().cloned().collect()
    }

    /// The link went down at `now`, for `why`; calls waiting for first positions are woken
    /// to answer so.
    pub(crate) fn link_down(&mut self, now: Instant, why: String) {
        if !matches!(self.link, Link::Down(..)) {
            self.counts.disconnects += 1;
            self.link = Link::Down(now, why);
            for sub in self.subscriptions.values() {
                sub.arrived.notify_waiters();
            }
        }
    }

    /// Stops following what no call asked for within the idle time, and forgets positions
    /// too old to serve; answers what the broker may stop sending.
    pub(crate) fn sweep(&mut self, now: Instant) -> Vec<Watched> {
        let idle = self.settings.idle;
        let idle_ones: Vec<Watched> = self
            .subscriptions
            .iter()
            .filter(|(_, sub)| now.saturating_duration_since(sub.last_asked) > idle)
            .map(|(watched, _)| watched.clone())
            .collect();
        for watched in &idle_ones {
            self.unfollow(watched);
        }
        let keep_for = self.settings.stale_after.max(GONE_FROM_ROUTE);
        let mut forgotten = 0;
        for sub in self.subscriptions.values_mut() {
            let before = sub.vehicles.len();
            sub.vehicles
                .retain(|_, held| now.saturating_duration_since(held.received) <= keep_for);
            forgotten += before - sub.vehicles.len();
        }
        self.counts.vehicles -= forgotten;
        idle_ones
    }

    /// The vehicles of `watched` to show at `now`: while the link is up, those still
    /// reporting; while it is down, every one held (the caller marks them stale).
    pub(crate) fn snapshot(&self, watched: &Watched, now: Instant) -> Snapshot {
        let gone_after = match watched {
            Watched::Route(_) => GONE_FROM_ROUTE,
            Watched::NextStop(_) => GONE_FROM_STOP,
        };
        let vehicles = self
            .subscriptions
            .get(watched)
            .map(|sub| {
                sub.vehicles
                    .values()
                    .filter(|held| {
                        self.link != Link::Up
                            || now.saturating_duration_since(held.received) <= gone_after
                    })
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        Snapshot {
            vehicles,
            link: self.link.clone(),
        }
    }

    /// The counts, with what is held now.
    pub(crate) fn counts(&self) -> FeedCounts {
        FeedCounts {
            subscriptions: self.subscriptions.len(),
            ..self.counts
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::HfpUrl;

    fn settings() -> HfpSettings {
        HfpSettings {
            url: HfpUrl::default(),
            idle: Duration::from_secs(300),
            max_subscriptions: 2,
            max_vehicles: 3,
            stale_after: Duration::from_secs(120),
        }
    }

    fn sighting(route: &str, vehicle: u32, next_stop: &str) -> Result<Sighting, Skipped> {
        let topic = format!(
            "/hfp/v2/journey/ongoing/vp/bus/0022/{vehicle:05}/{route}/1/Kamppi/07:00/{next_stop}/4/60;24/19/63/55"
        );
        let payload = r#"{"VP":{"tst":"2026-09-29T04:53:23.251Z","lat":60.17,"long":24.94}}"#;
        super::super::super::hfp::read(&topic, payload.as_bytes())
    }

    #[test]
    fn one_subscription_serves_every_ask_and_the_oldest_ask_makes_room() {
        let t0 = Instant::now();
        let mut feed = Feed::new(settings(), t0);
        let a = Watched::Route("2550".into());
        let b = Watched::Route("1001".into());
        let c = Watched::NextStop("1130446".into());
        assert!(feed.ask(&a, t0).new);
        assert!(!feed.ask(&a, t0).new);
        assert!(feed.ask(&b, t0 + Duration::from_secs(1)).new);
        feed.ask(&a, t0 + Duration::from_secs(2));
        let asked = feed.ask(&c, t0 + Duration::from_secs(3));
        assert_eq!(asked.dropped, Some(b));
        assert_eq!(feed.counts().subscriptions, 2);
        assert_eq!(feed.counts().subscribes, 3);
    }

    #[test]
    fn positions_land_where_they_belong_within_the_vehicle_bound() {
        let t0 = Instant::now();
        let mut feed = Feed::new(settings(), t0);
        let route = Watched::Route("2550".into());
        let stop = Watched::NextStop("1130446".into());
        feed.ask(&route, t0);
        feed.ask(&stop, t0);
        feed.link_up();
        feed.record(sighting("2550", 1, "1130446"), t0);
        feed.record(sighting("2550", 1, "1130446"), t0);
        feed.record(sighting("2550", 2, "9"), t0);
        feed.record(sighting("2550", 3, "9"), t0);
        feed.record(sighting("1001", 4, "9"), t0);
        feed.record(Err(Skipped::Payload), t0);
        assert_eq!(feed.snapshot(&route, t0).vehicles.len(), 2);
        assert_eq!(feed.snapshot(&stop, t0).vehicles.len(), 1);
        let counts = feed.counts();
        assert_eq!((counts.vehicles, counts.over_bound), (3, 1));
        assert_eq!((counts.held, counts.malformed), (3, 1));
    }

    #[test]
    fn gone_vehicles_are_hidden_while_up_and_held_while_down() {
        let t0 = Instant::now();
        let mut feed = Feed::new(settings(), t0);
        let stop = Watched::NextStop("1130446".into());
        feed.ask(&stop, t0);
        feed.link_up();
        feed.record(sighting("2550", 1, "1130446"), t0);
        let later = t0 + GONE_FROM_STOP + Duration::from_secs(1);
        assert!(feed.snapshot(&stop, later).vehicles.is_empty());
        feed.link_down(later, "reset".into());
        assert_eq!(feed.snapshot(&stop, later).vehicles.len(), 1);
        assert_eq!(feed.counts().disconnects, 1);
        assert!(feed.sweep(t0 + Duration::from_secs(121)).is_empty());
        assert_eq!(feed.counts().vehicles, 0);
        assert_eq!(feed.sweep(t0 + Duration::from_secs(301)), vec![stop]);
    }
}
