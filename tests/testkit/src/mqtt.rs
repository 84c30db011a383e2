//! A real MQTT broker for tests (Debian's `mosquitto` on a free loopback port, stopped on
//! drop, restartable on the same port), the broker's own subscription count, and a
//! replayer that publishes recorded HSL HFP messages at their recorded times.
//!
//! Without `mosquitto` a test skips, saying so, unless `TOOLPACK_REQUIRE_MOSQUITTO` is set
//! (the test command sets it): then it fails.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use rumqttc::{AsyncClient, Event, MqttOptions, Packet, QoS};
use serde::Deserialize;
use tokio::task::JoinHandle;

/// A running mosquitto.
pub struct Broker {
    dir: tempfile::TempDir,
    bin: PathBuf,
    port: u16,
    child: Option<Child>,
}

fn mosquitto() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join("mosquitto"))
            .find(|p| p.is_file())
    });
    on_path.or_else(|| {
        let sbin = PathBuf::from("/usr/sbin/mosquitto");
        sbin.is_file().then_some(sbin)
    })
}

impl Broker {
    /// A broker on a free loopback port, accepting connections; `None` (the test skips)
    /// when mosquitto is not installed and not required.
    pub fn start() -> Option<Self> {
        let Some(bin) = mosquitto() else {
            return crate::missing(
                "TOOLPACK_REQUIRE_MOSQUITTO",
                "it is not installed",
                "mosquitto",
            );
        };
        let port = crate::free_port();
        let dir = tempfile::Builder::new()
            .prefix("toolpack-mqtt-")
            .tempdir()
            .expect("a temporary directory");
        let config = format!(
            "listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\nsys_interval 1\nmax_queued_messages 100000\nlog_dest none\n"
        );
        std::fs::write(dir.path().join("mosquitto.conf"), config).expect("the broker's config");
        let mut broker = Self {
            dir,
            bin,
            port,
            child: None,
        };
        broker.resume();
        Some(broker)
    }

    /// The broker's URL, as `DIGITRANSIT_HFP_URL` takes it.
    pub fn url(&self) -> String {
        format!("mqtt://127.0.0.1:{}", self.port)
    }

    /// Its port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Stops the broker (its port then refuses connections).
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts it again on the same port, once it accepts connections.
    pub fn resume(&mut self) {
        self.stop();
        let child = Command::new(&self.bin)
            .arg("-c")
            .arg(self.dir.path().join("mosquitto.conf"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("mosquitto starts");
        self.child = Some(child);
        for _ in 0..200 {
            if std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("mosquitto did not listen on {}", self.port);
    }

    /// The broker's own count of active subscriptions (`$SYS/broker/subscriptions/count`,
    /// published every second), less the one this reading makes: the first count published
    /// after it subscribed, not the retained one from before.
    pub async fn subscription_count(&self) -> u64 {
        let (client, mut events) = client(self.port, "count");
        client
            .subscribe("$SYS/broker/subscriptions/count", QoS::AtMostOnce)
            .await
            .expect("subscribes");
        let read = async {
            loop {
                if let Ok(Event::Incoming(Packet::Publish(p))) = events.poll().await
                    && !p.retain
                {
                    let text = String::from_utf8_lossy(&p.payload).trim().to_owned();
                    return text.parse::<u64>().expect("a count") - 1;
                }
            }
        };
        tokio::time::timeout(Duration::from_secs(5), read)
            .await
            .expect("the broker publishes its subscription count")
    }
}

impl Drop for Broker {
    fn drop(&mut self) {
        self.stop();
    }
}

fn client(port: u16, role: &str) -> (AsyncClient, rumqttc::EventLoop) {
    let id = format!("testkit-{role}-{}-{}", std::process::id(), fastid());
    let mut options = MqttOptions::new(id, "127.0.0.1", port);
    options.set_keep_alive(Duration::from_secs(5));
    options.set_max_packet_size(64 * 1024, 64 * 1024);
    AsyncClient::new(options, 10_000)
}

fn fastid() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// One recorded message: when it came (milliseconds after the recording's first), its
/// topic and its payload.
#[derive(Debug, Clone, Deserialize)]
pub struct Recorded {
    /// Milliseconds after the first message.
    pub at_ms: u64,
    /// The MQTT topic.
    pub topic: String,
    /// The JSON payload.
    pub payload: serde_json::Value,
}

/// The messages of `tests/fixtures/digitransit/hfp/<name>.jsonl` (one JSON object a line).
pub fn recording(name: &str) -> Vec<Recorded> {
    let path = crate::default_fixtures_dir().join(format!("digitransit/hfp/{name}.jsonl"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).expect("a recorded message"))
        .collect()
}

/// Publishes messages to a broker, for as long as it lives.
pub struct Publisher {
    client: AsyncClient,
    task: JoinHandle<()>,
}

impl Publisher {
    /// A publisher to the broker on `port`; it reconnects by itself when the broker returns.
    pub fn new(port: u16) -> Self {
        let (client, mut events) = client(port, "publisher");
        let task = tokio::spawn(async move {
            loop {
                if events.poll().await.is_err() {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
        });
        Self { client, task }
    }

    /// Publishes `payload` on `topic` (at most once).
    pub async fn publish(&self, topic: &str, payload: impl Into<Vec<u8>>) {
        self.client
            .publish(topic, QoS::AtMostOnce, false, payload.into())
            .await
            .expect("the publisher's queue takes it");
    }

    /// Publishes `messages` at their recorded times divided by `speedup`, over and over,
    /// until dropped. (HSL's vehicles report every second; a recording trimmed to one
    /// message a vehicle is replayed faster to come near that.)
    pub fn replay(port: u16, messages: Vec<Recorded>, speedup: u64) -> Replay {
        let publisher = Self::new(port);
        let speedup = speedup.max(1);
        let period = (messages.last().map_or(0, |m| m.at_ms) + 1000) / speedup;
        let task = tokio::spawn(async move {
            let start = tokio::time::Instant::now();
            for round in 0u64.. {
                for message in &messages {
                    let at =
                        start + Duration::from_millis(round * period + message.at_ms / speedup);
                    tokio::time::sleep_until(at).await;
                    let payload = serde_json::to_vec(&message.payload).expect("JSON");
                    publisher.publish(&message.topic, payload).await;
                }
            }
        });
        Replay { task }
    }
}

impl Drop for Publisher {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A replay running; it stops when dropped.
pub struct Replay {
    task: JoinHandle<()>,
}

impl Drop for Replay {
    fn drop(&mut self) {
        self.task.abort();
    }
}
