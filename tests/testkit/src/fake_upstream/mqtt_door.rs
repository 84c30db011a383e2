//! The fake upstream's port also takes MQTT: a connection whose first byte is an MQTT
//! CONNECT is passed through to a real broker (mosquitto, started on the first such
//! connection, fed with the recorded HSL HFP messages of [`RECORDING`]); any other
//! connection is HTTP, served as before. So a vector asks for live vehicles with
//! `DIGITRANSIT_HFP_URL: "${HFP}"`, which every runner fills in as `${UPSTREAM}` with the
//! `mqtt://` scheme: no surface starts a broker of its own.

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OnceCell, mpsc};

use crate::mqtt::{Broker, Publisher, Replay, recording};

/// The recording the broker replays (`tests/fixtures/digitransit/hfp/<name>.jsonl`).
pub const RECORDING: &str = "tram-15-2026-09-29";
/// How much faster than recorded it is replayed (near HSL's once a second per vehicle).
const SPEEDUP: u64 = 20;
/// An MQTT CONNECT packet's first byte.
const MQTT_CONNECT: u8 = 0x10;

/// The broker behind the door, once started (`None` when mosquitto is missing).
type Behind = Arc<OnceCell<Option<(Broker, Replay)>>>;

/// A listener that hands axum its HTTP connections and passes MQTT ones to the broker.
pub(super) struct Door {
    local: SocketAddr,
    http: mpsc::Receiver<(TcpStream, SocketAddr)>,
}

impl Door {
    /// Takes the connections of `listener`: each is read (its first byte) on its own task,
    /// so a quiet client never holds up the others.
    pub(super) fn new(listener: TcpListener) -> std::io::Result<Self> {
        let local = listener.local_addr()?;
        let (sender, http) = mpsc::channel(64);
        let behind: Behind = Arc::new(OnceCell::new());
        tokio::spawn(async move {
            loop {
                // Ends with the server (its receiver dropped), and with it the broker.
                let (stream, peer) = tokio::select! {
                    accepted = listener.accept() => match accepted {
                        Ok(accepted) => accepted,
                        Err(_) => break,
                    },
                    () = sender.closed() => break,
                };
                let (sender, behind) = (sender.clone(), Arc::clone(&behind));
                tokio::spawn(async move {
                    let mut first = [0u8; 1];
                    match stream.peek(&mut first).await {
                        Ok(1) if first[0] == MQTT_CONNECT => {
                            let port = broker_port(&behind).await;
                            // The broker stops with the server, not with its last client.
                            drop(behind);
                            if let Some(port) = port {
                                pass_through(stream, port).await;
                            }
                        }
                        Ok(_) => {
                            let _ = sender.send((stream, peer)).await;
                        }
                        Err(_) => {}
                    }
                });
            }
        });
        Ok(Self { local, http })
    }
}

/// The broker's port, starting it (and its replay) on first use; `None` without mosquitto.
async fn broker_port(behind: &Behind) -> Option<u16> {
    let started = behind
        .get_or_init(|| async {
            let broker = tokio::task::spawn_blocking(Broker::start)
                .await
                .ok()
                .flatten()?;
            let replay = Publisher::replay(broker.port(), recording(RECORDING), SPEEDUP);
            Some((broker, replay))
        })
        .await;
    if started.is_none() {
        eprintln!(
            "fake upstream: an MQTT client came, but mosquitto is not installed (`cargo xtask tools apt`)"
        );
    }
    started.as_ref().map(|(broker, _)| broker.port())
}

/// Joins `client` to the broker on `port`, both ways, until either side closes.
async fn pass_through(mut client: TcpStream, port: u16) {
    if let Ok(mut broker) = TcpStream::connect(("127.0.0.1", port)).await {
        let _ = tokio::io::copy_bidirectional(&mut client, &mut broker).await;
    }
}

impl axum::serve::Listener for Door {
    type Io = TcpStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        match self.http.recv().await {
            Some(connection) => connection,
            // The accepting task ended (the listener failed): nothing more will come.
            None => std::future::pending().await,
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        Ok(self.local)
    }
}
