//! The link to HSL's MQTT broker: one connection per toolpack, whatever the number of
//! routes, stops and callers. It subscribes to what the feed follows, writes each position
//! into it, reconnects with backoff when the broker drops (subscribing again to all of it),
//! and stops following what no call asked for within the idle time.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use rumqttc::{
    AsyncClient, Event, EventLoop, MqttOptions, Packet, QoS, TlsConfiguration, Transport,
};
use tokio::task::JoinHandle;

use super::super::hfp::{self, Watched};
use super::held::Feed;
use crate::config::HfpUrl;

/// The first wait after the broker drops; it doubles up to [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(250);
/// The longest wait between two attempts to reach the broker.
const MAX_BACKOFF: Duration = Duration::from_secs(30);
/// How often idle subscriptions and old positions are looked for.
const SWEEP_EVERY: Duration = Duration::from_secs(1);
/// Requests waiting to reach the broker (subscribe, unsubscribe).
const REQUESTS_QUEUED: usize = 256;

/// The feed's state, shared by the link and the calls.
pub(crate) type SharedFeed = Arc<Mutex<Feed>>;

/// The feed, locked (a poisoned lock still holds consistent counts: nothing panics while
/// holding it).
pub(crate) fn lock(feed: &SharedFeed) -> MutexGuard<'_, Feed> {
    feed.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A running link: asks the broker for routes and stops; its tasks end when it is dropped.
#[derive(Debug)]
pub(crate) struct Link {
    client: AsyncClient,
    tasks: [JoinHandle<()>; 2],
}

impl Drop for Link {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

impl Link {
    /// Starts the link to `url` for `feed`, on the current tokio runtime.
    pub(crate) fn start(url: &HfpUrl, feed: SharedFeed) -> Self {
        let id = format!("toolpack-{}", crate::http::new_correlation_id());
        let mut options = MqttOptions::new(id, url.host.clone(), url.port);
        options
            .set_keep_alive(Duration::from_secs(30))
            .set_clean_session(true)
            .set_max_packet_size(hfp::MAX_MESSAGE_BYTES * 2, 4 * 1024);
        let (client, events) = AsyncClient::new(options, REQUESTS_QUEUED);
        let tasks = [
            tokio::spawn(receive(events, client.clone(), Arc::clone(&feed), url.tls)),
            tokio::spawn(sweep(client.clone(), feed)),
        ];
        Self { client, tasks }
    }

    /// Asks the broker for `watched`'s vehicles (queued while the broker is away: the
    /// link asks again for everything followed when it comes back).
    pub(crate) fn subscribe(&self, watched: &Watched) {
        let _ = self
            .client
            .try_subscribe(watched.topic_filter(), QoS::AtMostOnce);
    }

    /// Tells the broker `watched` is no longer followed.
    pub(crate) fn unsubscribe(&self, watched: &Watched) {
        unsubscribe(&self.client, watched);
    }
}

fn unsubscribe(client: &AsyncClient, watched: &Watched) {
    let _ = client.try_unsubscribe(watched.topic_filter());
}

/// Reads the broker's packets into the feed, for the life of the link.
async fn receive(mut events: EventLoop, client: AsyncClient, feed: SharedFeed, tls: bool) {
    if tls {
        match tokio::task::spawn_blocking(crate::http::platform_tls_config).await {
            Ok(Ok(config)) => events
                .mqtt_options
                .set_transport(Transport::tls_with_config(TlsConfiguration::Rustls(
                    Arc::new(config),
                ))),
            Ok(Err(why)) => {
                lock(&feed).link_down(Instant::now(), why);
                return;
            }
            Err(_) => return,
        };
    }
    let mut backoff = FIRST_BACKOFF;
    loop {
        match events.poll().await {
            Ok(Event::Incoming(Packet::Publish(message))) => {
                let read = hfp::read(&message.topic, &message.payload);
                lock(&feed).record(read, Instant::now());
            }
            Ok(Event::Incoming(Packet::ConnAck(_))) => {
                backoff = FIRST_BACKOFF;
                let followed = lock(&feed).link_up();
                tracing::info!(followed = followed.len(), "HFP broker connected");
                for watched in &followed {
                    let _ = client.try_subscribe(watched.topic_filter(), QoS::AtMostOnce);
                }
            }
            Ok(_) => {}
            Err(error) => {
                tracing::warn!(%error, retry_in_ms = backoff.as_millis() as u64, "HFP broker unreachable");
                lock(&feed).link_down(Instant::now(), error.to_string());
                tokio::time::sleep(jittered(backoff)).await;
                backoff = (backoff * 2).min(MAX_BACKOFF);
            }
        }
    }
}

/// `backoff` less up to a quarter, so replicas that lost the broker together do not all
/// come back in the same instant.
fn jittered(backoff: Duration) -> Duration {
    backoff.mul_f64(1.0 - fastrand::f64() / 4.0)
}

/// Stops following what nobody asked for lately, for the life of the link.
async fn sweep(client: AsyncClient, feed: SharedFeed) {
    let mut every = tokio::time::interval(SWEEP_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        let idle = lock(&feed).sweep(Instant::now());
        for watched in &idle {
            unsubscribe(&client, watched);
        }
    }
}
