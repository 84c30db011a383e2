//! The live vehicle feed: many callers, one subscription. The first call for a route or
//! stop subscribes and waits up to [`FIRST_WAIT`] for positions; the subscription then
//! stays while calls keep asking, holding each vehicle's latest position, so later calls
//! answer from memory at once.

mod held;
mod link;

use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

pub use held::FeedCounts;
pub(crate) use held::{Link as LinkState, Snapshot};

use super::hfp::Watched;
use crate::config::HfpSettings;
use held::Feed;
use link::{Link, SharedFeed, lock};

/// The longest a call waits for a new subscription's first positions.
pub(crate) const FIRST_WAIT: Duration = Duration::from_millis(1500);

/// One toolpack's live vehicle feed.
#[derive(Debug)]
pub(crate) struct VehicleFeed {
    settings: HfpSettings,
    feed: SharedFeed,
    link: OnceLock<Link>,
}

impl VehicleFeed {
    /// A feed for `settings`; nothing connects until the first call.
    pub(crate) fn new(settings: HfpSettings) -> Self {
        Self {
            feed: Arc::new(Mutex::new(Feed::new(settings.clone(), Instant::now()))),
            settings,
            link: OnceLock::new(),
        }
    }

    /// The vehicles of `watched` now: at once when it is followed already and has
    /// positions, else after its first positions arrive or [`FIRST_WAIT`] passes.
    pub(crate) async fn watch(&self, watched: &Watched) -> Snapshot {
        let link = self
            .link
            .get_or_init(|| Link::start(&self.settings.url, Arc::clone(&self.feed)));
        let asked = lock(&self.feed).ask(watched, Instant::now());
        if let Some(dropped) = &asked.dropped {
            link.unsubscribe(dropped);
        }
        if asked.new {
            link.subscribe(watched);
        }
        let deadline = asked.started + FIRST_WAIT;
        loop {
            let arrived = asked.arrived.notified();
            tokio::pin!(arrived);
            arrived.as_mut().enable();
            let now = Instant::now();
            let snapshot = lock(&self.feed).snapshot(watched, now);
            let away = matches!(snapshot.link, LinkState::Down(..));
            if !snapshot.vehicles.is_empty() || away || now >= deadline {
                return snapshot;
            }
            let _ = tokio::time::timeout_at(deadline.into(), arrived).await;
        }
    }

    /// How old held positions may be and still be served while the broker is away.
    pub(crate) fn stale_after(&self) -> Duration {
        self.settings.stale_after
    }

    /// What the feed holds and has counted.
    pub(crate) fn counts(&self) -> FeedCounts {
        lock(&self.feed).counts()
    }
}
