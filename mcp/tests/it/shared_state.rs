//! Replicas that share one key: several real `toolpack-mcp serve --http --stateless`
//! processes on one real PostgreSQL and the fake upstream. One answer per request and
//! freshness period over every replica; one budget per key (a fifth replica joining
//! included); a `Retry-After` seen by one replica pauses all; a database outage leaves
//! every call answered and the replicas share again when it is back; a caller's limit
//! holds across replicas.

use crate::common::stateless::{StatelessServer, serve, tool_call_result_on};

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use futures_util::future::join_all;
use serde_json::{Value, json};
use toolpack_testkit::postgres::PgCluster;
use toolpack_testkit::{FakeUpstream, Scenario, tests_dir};

const TOKEN: &str = "shared-state-test-token";

/// The callers' tokens file: `caller-N` has token `shared-token-N`.
const CALLERS: usize = 1000;

struct Fleet {
    fake: FakeUpstream,
    cluster: PgCluster,
    database_url: String,
    tokens: tempfile::NamedTempFile,
    replicas: Vec<StatelessServer>,
    client: reqwest::Client,
}

fn token(caller: usize) -> String {
    format!("shared-token-{caller}")
}

/// `count` replicas with `settings` on a fresh database, or `None` when there is no
/// PostgreSQL here (and it is not required).
async fn fleet(count: usize, settings: &[(&str, &str)]) -> Option<Fleet> {
    let cluster = PgCluster::start()?;
    let database_url = cluster.create_database();
    let fake = FakeUpstream::start(&tests_dir().join("fixtures"))
        .await
        .unwrap();
    let mut tokens = tempfile::NamedTempFile::new().unwrap();
    use std::io::Write;
    writeln!(tokens, "alice {TOKEN}").unwrap();
    for caller in 0..CALLERS {
        writeln!(tokens, "caller-{caller} {}", token(caller)).unwrap();
    }
    let mut fleet = Fleet {
        fake,
        cluster,
        database_url,
        tokens,
        replicas: Vec::new(),
        client: crate::common::http_client(),
    };
    for _ in 0..count {
        fleet.add_replica(settings).await;
    }
    Some(fleet)
}

impl Fleet {
    async fn add_replica(&mut self, settings: &[(&str, &str)]) {
        let base = self.fake.base_url();
        let mut env = vec![
            ("TOOLPACK_DATABASE_URL", self.database_url.clone()),
            (
                "TOOLPACK_HTTP_TOKENS",
                format!("@{}", self.tokens.path().display()),
            ),
            ("DIGITRANSIT_API_KEY", "shared-test-key".to_owned()),
            ("DIGITRANSIT_BASE_URL", base),
            ("DIGITRANSIT_ROUTER", "hsl".to_owned()),
        ];
        env.extend(settings.iter().map(|(k, v)| (*k, (*v).to_owned())));
        self.replicas.push(serve(TOKEN, &[], &env).await);
    }

    /// Departures of `stop` asked of replica `replica` by the caller of `token`: the
    /// error code, or `OK`.
    async fn departures(&self, replica: usize, token: &str, stop: &str) -> String {
        let base = &self.replicas[replica % self.replicas.len()].base;
        let arguments = json!({"stop": {"type": "id", "value": stop}});
        let result =
            tool_call_result_on(&self.client, base, token, "get_departures", arguments).await;
        if result["isError"] == json!(true) {
            let content = &result["structuredContent"];
            content
                .pointer("/error/code")
                .or_else(|| content.pointer("/code"))
                .and_then(Value::as_str)
                .unwrap_or_else(|| panic!("{result}"))
                .to_owned()
        } else {
            "OK".to_owned()
        }
    }

    /// Upstream requests the fake has seen for departures.
    fn upstream_requests(&self) -> usize {
        self.fake
            .requests()
            .iter()
            .filter(|r| r.path.contains("/routing/"))
            .count()
    }

    /// Upstream requests the fake has seen that asked for `stop`.
    fn upstream_requests_for(&self, stop: &str) -> usize {
        self.fake
            .requests()
            .iter()
            .filter(|r| r.body.contains(stop))
            .count()
    }

    /// Replica `replica`'s metric samples whose line starts with `prefix`, summed.
    async fn metric(&self, replica: usize, prefix: &str) -> f64 {
        let text = self
            .client
            .get(format!("{}/metrics", self.replicas[replica].base))
            .bearer_auth(TOKEN)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        text.lines()
            .filter(|line| line.starts_with(prefix))
            .filter_map(|line| line.rsplit(' ').next()?.parse::<f64>().ok())
            .sum()
    }
}

/// How many answers had each code.
fn tally(codes: impl IntoIterator<Item = String>) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for code in codes {
        *counts.entry(code).or_default() += 1;
    }
    counts
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn four_replicas_ask_the_upstream_once_per_request_and_freshness_period() {
    // Both waves inside one freshness period (departures are fresh for 20 s by default,
    // which two waves of 1,000 calls on four replicas can outlast on a loaded machine).
    let settings = [
        ("TOOLPACK_RATE_LIMIT_PER_SECOND", "0"),
        ("TOOLPACK_FRESH_ARRIVALS_SECONDS", "600"),
    ];
    let Some(fleet) = fleet(4, &settings).await else {
        return;
    };
    // The upstream answers slowly, so most of the first wave is in flight at once.
    fleet
        .fake
        .push_scenario(Scenario::on("/routing").delay_ms(200));
    let stops: Vec<String> = (0..20).map(|i| format!("HSL:10000{i:02}")).collect();
    let wave = |offset: usize, callers: std::ops::Range<usize>| {
        join_all(callers.map(|i| {
            let (fleet, stops) = (&fleet, &stops);
            async move {
                fleet
                    .departures(i + offset, &token(i), &stops[i % stops.len()])
                    .await
            }
        }))
    };
    let first = tally(wave(0, 0..CALLERS).await);
    assert_eq!(first, BTreeMap::from([("OK".to_owned(), CALLERS)]));
    assert_eq!(
        fleet.upstream_requests(),
        20,
        "one request per stop over 4 replicas (each alone would have sent 20: 80)"
    );
    // Every replica has each answer now, from its own fetch or the shared cache: the same
    // callers on other replicas cost nothing. A hundred at a time: 1,000 shared-cache
    // lookups at once on a loaded two-core machine queue past the shared state's 1 s
    // deadline, and a replica then rightly goes on alone and fetches again (the path
    // `calls_are_answered_while_the_database_is_away_and_sharing_resumes_after` tests).
    let mut second = Vec::new();
    for start in (0..CALLERS).step_by(100) {
        second.extend(wave(1, start..start + 100).await);
    }
    let second = tally(second);
    assert_eq!(second, BTreeMap::from([("OK".to_owned(), CALLERS)]));
    assert_eq!(fleet.upstream_requests(), 20);
    let mut shared = 0.0;
    for replica in 0..4 {
        shared += fleet
            .metric(
                replica,
                "toolpack_upstream_cache_total{family=\"digitransit\",outcome=\"shared_hit\"}",
            )
            .await;
        shared += fleet
            .metric(
                replica,
                "toolpack_upstream_cache_total{family=\"digitransit\",outcome=\"shared_wait\"}",
            )
            .await;
    }
    assert!(shared >= 1.0, "replicas took answers another fetched");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn one_budget_holds_over_every_replica_and_a_fifth_that_joins() {
    let settings = [
        ("TOOLPACK_RATE_LIMIT_PER_SECOND", "0"),
        ("DIGITRANSIT_API_BUDGET_PER_MINUTE", "100"),
        ("TOOLPACK_UPSTREAM_BUDGET_WAIT_MS", "1"),
    ];
    let Some(mut fleet) = fleet(4, &settings).await else {
        return;
    };
    let started = Instant::now();
    let first = tally(burst(&fleet, 0..1000).await);
    let sent = fleet.upstream_requests();
    assert!(
        (90..=100).contains(&sent),
        "1,000 distinct requests, a budget of 100: {sent} sent, answers {first:?}"
    );
    assert_eq!(first.get("OK"), Some(&sent), "{first:?}");
    assert_eq!(
        first.get("rate-limited").copied().unwrap_or(0),
        1000 - sent,
        "the rest are told to wait: {first:?}"
    );
    fleet.add_replica(&settings).await;
    let later = tally(burst(&fleet, 1000..1500).await);
    assert!(
        started.elapsed() < Duration::from_secs(55),
        "the test ran inside the minute"
    );
    assert!(
        fleet.upstream_requests() <= 100,
        "a fifth replica takes from the same budget: {} sent in the minute, then {later:?}",
        fleet.upstream_requests()
    );
}

/// Departures of a distinct stop for each of `calls`, round-robin over the replicas.
async fn burst(fleet: &Fleet, calls: std::ops::Range<usize>) -> Vec<String> {
    join_all(calls.map(|i| async move {
        fleet
            .departures(i, &token(i % CALLERS), &format!("HSL:2{i:06}"))
            .await
    }))
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_retry_after_seen_by_one_replica_pauses_them_all() {
    let settings = [
        ("TOOLPACK_RATE_LIMIT_PER_SECOND", "0"),
        ("DIGITRANSIT_API_BUDGET_PER_MINUTE", "1000"),
        ("TOOLPACK_UPSTREAM_BUDGET_WAIT_MS", "500"),
    ];
    let Some(fleet) = fleet(4, &settings).await else {
        return;
    };
    fleet.fake.push_scenario(
        Scenario::on("/routing")
            .status(429)
            .retry_after("4")
            .times(1),
    );
    let throttled = fleet.departures(0, TOKEN, "HSL:3000000").await;
    assert_ne!(throttled, "OK");
    assert_eq!(fleet.upstream_requests(), 1);
    // Every other replica holds back for the pause: nothing more reaches the upstream.
    for replica in 1..4 {
        let code = fleet
            .departures(replica, TOKEN, &format!("HSL:300000{replica}"))
            .await;
        assert_eq!(code, "rate-limited", "replica {replica}");
    }
    assert_eq!(
        fleet.upstream_requests(),
        1,
        "the pause held on every replica"
    );
    // After the pause, requests go out again.
    tokio::time::sleep(Duration::from_millis(4200)).await;
    assert_eq!(fleet.departures(2, TOKEN, "HSL:3000009").await, "OK");
    assert_eq!(fleet.upstream_requests(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn calls_are_answered_while_the_database_is_away_and_sharing_resumes_after() {
    let Some(fleet) = fleet(4, &[("TOOLPACK_RATE_LIMIT_PER_SECOND", "0")]).await else {
        return;
    };
    let stops: Vec<String> = (0..20).map(|i| format!("HSL:40000{i:02}")).collect();
    let load = |round: usize| {
        let (fleet, stops) = (&fleet, &stops);
        join_all((0..200).map(move |i| async move {
            let asked = Instant::now();
            let code = fleet
                .departures(i + round, &token(i), &stops[i % stops.len()])
                .await;
            (code, asked.elapsed())
        }))
    };
    for (code, _) in load(0).await {
        assert_eq!(code, "OK");
    }
    fleet.cluster.stop_server();
    // Fresh answers from each replica's own cache, new requests from the upstream: every
    // call answers, and in time.
    for round in 1..4 {
        for (code, took) in load(round).await {
            assert_eq!(code, "OK");
            assert!(took < Duration::from_secs(3), "{took:?}");
        }
        let fresh = format!("HSL:40001{round:02}");
        assert_eq!(fleet.departures(round, TOKEN, &fresh).await, "OK");
    }
    let mut fallbacks = 0.0;
    for replica in 0..4 {
        fallbacks += fleet
            .metric(replica, "toolpack_shared_state_fallbacks_total")
            .await;
    }
    assert!(fallbacks >= 4.0, "every replica went on alone: {fallbacks}");
    fleet.cluster.start_server();
    // Back by itself: a request one replica fetched is another's shared hit again.
    let healed = Instant::now() + Duration::from_secs(40);
    let mut attempt = 0;
    loop {
        attempt += 1;
        let stop = format!("HSL:40002{attempt:02}");
        assert_eq!(fleet.departures(0, TOKEN, &stop).await, "OK");
        assert_eq!(fleet.departures(1, TOKEN, &stop).await, "OK");
        if fleet.upstream_requests_for(&stop) == 1 {
            break;
        }
        assert!(Instant::now() < healed, "the replicas did not share again");
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    assert_eq!(fleet.metric(0, "toolpack_shared_state_up").await, 1.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_callers_limit_holds_across_replicas() {
    let Some(fleet) = fleet(4, &[("TOOLPACK_RATE_LIMIT_PER_SECOND", "5")]).await else {
        return;
    };
    assert_eq!(fleet.departures(0, TOKEN, "HSL:5000000").await, "OK");
    tokio::time::sleep(Duration::from_millis(1100)).await;
    // Eight loops ask as fast as they can, round-robin over the replicas, for 3 seconds.
    let started = Instant::now();
    let stop_at = started + Duration::from_secs(3);
    let loops = (0..8).map(|lane| {
        let fleet = &fleet;
        async move {
            let mut codes = Vec::new();
            let mut i = lane;
            while Instant::now() < stop_at {
                codes.push(fleet.departures(i, TOKEN, "HSL:5000000").await);
                i += 1;
            }
            codes
        }
    });
    let codes = tally(join_all(loops).await.into_iter().flatten());
    let seconds = started.elapsed().as_secs_f64();
    let answered = codes.get("OK").copied().unwrap_or(0) as f64;
    assert!(
        answered <= 5.0 * seconds + 5.0 + 1.0,
        "at most 5 a second and a burst of 5 over {seconds:.1} s: {codes:?}"
    );
    assert!(
        answered >= 5.0 * (seconds - 1.0),
        "the limit lets 5 a second through: {codes:?}"
    );
    assert!(
        codes.get("rate-limited").copied().unwrap_or(0) > 0,
        "{codes:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_copy_another_replica_shared_stands_in_when_the_upstream_fails() {
    let settings = [
        ("TOOLPACK_RATE_LIMIT_PER_SECOND", "0"),
        ("TOOLPACK_FRESH_ARRIVALS_SECONDS", "1"),
    ];
    let Some(fleet) = fleet(2, &settings).await else {
        return;
    };
    let ask = |replica: usize| {
        let base = &fleet.replicas[replica].base;
        let arguments = json!({"stop": {"type": "id", "value": "HSL:6000000"}});
        tool_call_result_on(&fleet.client, base, TOKEN, "get_departures", arguments)
    };
    let fetched = ask(0).await;
    assert_eq!(fetched["isError"], json!(false), "{fetched}");
    assert!(fetched["structuredContent"].get("stale").is_none());
    tokio::time::sleep(Duration::from_millis(1200)).await;
    fleet
        .fake
        .push_scenario(Scenario::on("/routing").status(503));
    // Replica 1 never fetched it: the copy replica 0 shared stands in, marked stale, with
    // the time replica 0 fetched it.
    let standing_in = ask(1).await;
    assert_eq!(standing_in["isError"], json!(false), "{standing_in}");
    let content = &standing_in["structuredContent"];
    assert_eq!(content["stale"], json!(true), "{content}");
    assert_eq!(content["asOf"], fetched["structuredContent"]["asOf"]);
    assert_eq!(
        content["departures"],
        fetched["structuredContent"]["departures"]
    );
}
