//! `timetable` behaviour the shared vectors cannot express: asked without a direction at a
//! stop TfL needs one for, both directions go out side by side, so in either order.

use std::collections::BTreeSet;

use toolpack::tfl::{RouteDirection, TimetableRequest};
use toolpack::{Config, Toolpack};
use toolpack_testkit::FakeUpstream;

#[tokio::test]
async fn without_a_direction_tfls_question_sends_both_directions() {
    let fake = FakeUpstream::start(&toolpack_testkit::default_fixtures_dir())
        .await
        .unwrap();
    let toolpack = Toolpack::new(
        Config::builder()
            .tfl_api_base_url(fake.base_url())
            .default_rate_limit(0)
            .build(),
    )
    .unwrap();
    let answer = toolpack
        .call::<toolpack::tfl::Timetable>(TimetableRequest::new("dlr", "940GZZDLPOP"))
        .await;
    assert!(answer.success, "{answer:?}");
    let directions = answer.directions.unwrap();
    assert_eq!(directions.len(), 1, "inbound answers TfL's question again");
    assert_eq!(directions[0].direction, "outbound");
    let requests = fake.requests();
    assert!(
        requests
            .iter()
            .all(|r| r.path == "/Line/dlr/Timetable/940GZZDLPOP")
    );
    assert!(
        requests[0].query.is_empty(),
        "asked first with no direction"
    );
    let asked: BTreeSet<Option<&str>> = requests[1..]
        .iter()
        .map(|r| r.query.get("direction").map(String::as_str))
        .collect();
    assert_eq!(
        (requests.len(), asked),
        (3, BTreeSet::from([Some("inbound"), Some("outbound")]))
    );

    // Asked with the direction, the answer is the same timetable, from the cache.
    let outbound = TimetableRequest {
        direction: Some(RouteDirection::Outbound),
        ..TimetableRequest::new("dlr", "940GZZDLPOP")
    };
    let again = toolpack.call::<toolpack::tfl::Timetable>(outbound).await;
    assert_eq!(again.directions.unwrap(), directions);
    assert_eq!(fake.requests().len(), 3);
}
