//! loko v0.3's QA script for its MCP tools (`specs/008-mcp-ux-improvements/qa-mcp.md` in
//! madstone-tech/loko, T01–T28), walked in order on a fresh project in toolpack's terms:
//! the same calls with loko's argument names, each pass criterion checked against
//! toolpack's answer shapes (docs/loko.md says where they differ and why).

use serde_json::{Value, json};
use toolpack::{Config, Toolpack};

struct Qa {
    toolpack: Toolpack,
    root: String,
}

impl Qa {
    /// Calls `tool` with `project_root` added; the answer and whether it is an error.
    async fn call(&self, tool: &str, mut arguments: Value) -> (bool, Value) {
        if tool != "validate_diagram" {
            arguments["project_root"] = json!(self.root);
        }
        let result = self.toolpack.call_json(tool, arguments).await.unwrap();
        (result.is_error(), result.body)
    }

    async fn ok(&self, step: &str, tool: &str, arguments: Value) -> Value {
        let (failed, body) = self.call(tool, arguments).await;
        assert!(!failed, "{step} {tool}: {body}");
        body
    }

    async fn error(&self, step: &str, tool: &str, arguments: Value) -> Value {
        let (failed, body) = self.call(tool, arguments).await;
        assert!(failed, "{step} {tool} should fail: {body}");
        body["error"].clone()
    }
}

fn ids(list: &Value) -> Vec<&str> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|n| n["id"].as_str().unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lokos_qa_script_t01_to_t28() {
    let dir = tempfile::tempdir().unwrap();
    let qa = Qa {
        toolpack: Toolpack::new(Config::builder().build()).unwrap(),
        root: dir.path().to_str().unwrap().to_owned(),
    };
    // Setup: the QA project, a notification service with three containers.
    qa.ok(
        "setup",
        "create_system",
        json!({"name": "Notification Service", "description": "Sends notifications"}),
    )
    .await;
    for (container, components) in [
        ("API Gateway", vec![]),
        ("Message Queue", vec![]),
        ("Processing Layer", vec!["Email Sender"]),
        ("Delivery Channels", vec!["SES Email Service"]),
    ] {
        qa.ok(
            "setup",
            "create_container",
            json!({"system_name": "Notification Service", "name": container}),
        )
        .await;
        for component in components {
            qa.ok("setup", "create_component", json!({"system_name": "Notification Service", "container_name": container, "name": component})).await;
        }
    }

    // T01–T03: the project and its architecture.
    let t01 = qa.ok("T01", "query_project", json!({})).await;
    assert!(
        t01["system_count"].as_u64() >= Some(1) && t01["total_components"].as_u64() >= Some(1),
        "{t01}"
    );
    let t02 = qa
        .ok(
            "T02",
            "query_architecture",
            json!({"detail": "summary", "format": "toon"}),
        )
        .await;
    assert!(!t02["toon"].as_str().unwrap().is_empty(), "{t02}");
    let t03 = qa
        .ok(
            "T03",
            "query_architecture",
            json!({"detail": "full", "system_name": "notification-service"}),
        )
        .await;
    assert_eq!(t03["system"]["id"], "notification-service");

    // T04–T07: create the order service, a container and components (one batch).
    let t04 = qa.ok("T04", "create_system", json!({"name": "Order Service", "description": "Handles order lifecycle", "responsibilities": ["Create orders", "Track fulfilment"], "primary_language": "Go", "tags": ["backend", "orders"]})).await;
    assert_eq!(t04["system"]["id"], "order-service");
    assert!(dir.path().join("src/order-service/system.md").is_file());
    let t05 = qa.ok("T05", "create_container", json!({"system_name": "Order Service", "name": "API Gateway", "description": "HTTP entry point", "technology": "Go + Fiber"})).await;
    assert_eq!(t05["container"]["id"], "api-gateway");
    assert!(
        dir.path()
            .join("src/order-service/api-gateway/container.d2")
            .is_file()
    );
    let t06 = qa.ok("T06", "create_component", json!({"system_name": "Order Service", "container_name": "API Gateway", "name": "Create Order Handler", "technology": "Go"})).await;
    assert_eq!(t06["component"]["id"], "create-order-handler");
    let t07 = qa.ok("T07", "create_components", json!({"system_name": "Order Service", "container_name": "API Gateway", "components": [{"name": "Auth Middleware"}, {"name": "Rate Limiter"}, {"name": "Request Logger"}]})).await;
    assert_eq!(
        (t07["created"].as_u64(), t07["failed"].as_u64()),
        (Some(3), Some(0))
    );
    assert_eq!(
        ids(&t07["results"]),
        ["auth-middleware", "rate-limiter", "request-logger"]
    );

    // T08–T10: relationships, container-level and component-level; an unknown path.
    let t08_args = json!({"system_name": "Notification Service", "source": "notification-service/api-gateway", "target": "notification-service/message-queue", "label": "Enqueue notification job", "type": "async", "technology": "AWS SQS"});
    let t08 = qa.ok("T08", "create_relationship", t08_args.clone()).await;
    let t08_id = t08["relationship"]["id"].as_str().unwrap().to_owned();
    assert!(t08_id.len() == 8 && t08_id.chars().all(|c| c.is_ascii_hexdigit()));
    assert_eq!(t08["relationship"]["type"], "async");
    assert_eq!(t08["diagram_updated"], true);
    let system_d2 =
        std::fs::read_to_string(dir.path().join("src/notification-service/system.d2")).unwrap();
    assert!(
        system_d2.contains("api-gateway -> message-queue"),
        "{system_d2}"
    );
    let t09 = qa.ok("T09", "create_relationship", json!({"system_name": "Notification Service", "source": "notification-service/processing-layer/email-sender", "target": "notification-service/delivery-channels/ses-email-service", "label": "Send email via SES", "technology": "AWS SDK"})).await;
    assert_eq!(t09["diagram_updated"], true);
    assert!(
        t09["diagram_path"]
            .as_str()
            .unwrap()
            .contains("notification-service")
    );
    // T10 in toolpack's terms: another spelling of an element is stored as its id; a
    // path to nothing is refused with the nearest id.
    let t10 = qa.error("T10", "create_relationship", json!({"system_name": "Notification Service", "source": "notification-service/api-gatway", "target": "notification-service/message-queue", "label": "Should fail"})).await;
    assert_eq!(t10["code"], "NOT_FOUND");
    assert!(
        t10["message"]
            .as_str()
            .unwrap()
            .contains("did you mean 'notification-service/api-gateway'"),
        "{t10}"
    );

    // T11: list.
    let t11 = qa
        .ok(
            "T11",
            "list_relationships",
            json!({"system_name": "Notification Service"}),
        )
        .await;
    assert_eq!(t11["count"], 2);

    // T12–T16: the graph tools see relationships.toml.
    let t12 = qa
        .ok(
            "T12",
            "query_dependencies",
            json!({"system_id": "notification-service", "container_id": "api-gateway"}),
        )
        .await;
    assert_eq!(t12["container"]["id"], "notification-service/api-gateway");
    assert_eq!(
        ids(&t12["dependencies"]),
        ["notification-service/message-queue"],
        "a container without components is its own node"
    );
    let t13 = qa.ok("T13", "query_dependencies", json!({"system_id": "notification-service", "container_id": "processing-layer", "component_id": "email-sender"})).await;
    assert_eq!(t13["relationship_count"], 1);
    assert_eq!(
        ids(&t13["dependencies"]),
        ["notification-service/delivery-channels/ses-email-service"]
    );
    let t14 = qa.ok("T14", "query_related_components", json!({"system_id": "notification-service", "container_id": "processing-layer", "component_id": "email-sender"})).await;
    assert_eq!(
        (
            t14["dependency_count"].as_u64(),
            t14["dependent_count"].as_u64()
        ),
        (Some(1), Some(0))
    );
    let t15 = qa
        .ok(
            "T15",
            "analyze_coupling",
            json!({"system_id": "notification-service"}),
        )
        .await;
    assert_eq!(t15["total_components"], 2);
    assert_eq!(t15["isolated_components"], json!([]));
    let t16 = qa.ok("T16", "analyze_coupling", json!({})).await;
    assert_eq!(
        (
            t16["total_systems"].as_u64(),
            t16["total_components"].as_u64()
        ),
        (Some(2), Some(6))
    );

    // T17–T19: validate and validate_diagram.
    let t17 = qa.ok("T17", "validate", json!({})).await;
    assert!(t17["success"].is_boolean());
    let t18 = qa.ok("T18", "validate_diagram", json!({"d2_source": "api -> queue: \"Enqueue job\"\nqueue -> worker: \"Process job\"", "level": "container"})).await;
    assert_eq!(
        (&t18["syntax_valid"], &t18["errors"]),
        (&json!(true), &json!([]))
    );
    assert!(t18["suggestions"].is_array());
    let t19 = qa
        .ok(
            "T19",
            "validate_diagram",
            json!({"d2_source": "{ broken ::: syntax"}),
        )
        .await;
    assert_eq!(t19["syntax_valid"], false);
    assert!(!t19["errors"].as_array().unwrap().is_empty());

    // T20–T21: update a system, replace a diagram.
    let t20 = qa.ok("T20", "update_system", json!({"system_name": "Order Service", "description": "Handles complete order lifecycle including fulfilment", "tags": ["backend", "orders", "updated"]})).await;
    assert_eq!(
        t20["entity"]["description"],
        "Handles complete order lifecycle including fulfilment"
    );
    assert!(
        t20["entity"]["tags"]
            .as_array()
            .unwrap()
            .contains(&json!("updated"))
    );
    assert!(!t20["message"].as_str().unwrap().is_empty());
    let d2 = "# Notification System\ndirection: right\napi-gateway -> message-queue: \"Enqueue\"\nmessage-queue -> processing-layer: \"Process\"\n";
    let t21 = qa
        .ok(
            "T21",
            "update_diagram",
            json!({"system_name": "Notification Service", "d2_source": d2}),
        )
        .await;
    assert_eq!(t21["success"], true);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("src/notification-service/system.d2")).unwrap(),
        d2
    );

    // T22–T23: search.
    let t22 = qa
        .ok("T22", "search_elements", json!({"query": "*email*"}))
        .await;
    assert_eq!(
        ids(&t22["results"]),
        [
            "notification-service/delivery-channels/ses-email-service",
            "notification-service/processing-layer/email-sender"
        ]
    );
    let t23 = qa
        .ok(
            "T23",
            "search_elements",
            json!({"query": "*", "type": "container"}),
        )
        .await;
    assert_eq!(t23["total_matched"], 5);
    assert!(
        t23["results"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["type"] == "container")
    );

    // T24–T25: delete, and an id that does not exist.
    let t24 = qa
        .ok(
            "T24",
            "delete_relationship",
            json!({"system_name": "Notification Service", "relationship_id": t08_id}),
        )
        .await;
    assert_eq!(
        (&t24["deleted"], &t24["relationship_id"]),
        (&json!(true), &json!(t08_id))
    );
    let after = qa
        .ok(
            "T24",
            "list_relationships",
            json!({"system_name": "Notification Service"}),
        )
        .await;
    assert!(!ids(&after["relationships"]).contains(&t08_id.as_str()));
    let t25 = qa
        .error(
            "T25",
            "delete_relationship",
            json!({"system_name": "Notification Service", "relationship_id": "00000000"}),
        )
        .await;
    assert_eq!(t25["code"], "NOT_FOUND");

    // T26: build the docs into another directory.
    let t26 = qa
        .ok(
            "T26",
            "build_docs",
            json!({"output_dir": "dist-qa", "format": "html"}),
        )
        .await;
    assert_eq!(t26["success"], true);
    assert!(dir.path().join("dist-qa/index.html").is_file());

    // T27 in toolpack's terms: a name finds the system; a typo gets the nearest id.
    qa.ok(
        "T27",
        "query_dependencies",
        json!({"system_id": "Notification Service", "container_id": "api-gateway"}),
    )
    .await;
    let t27 = qa
        .error(
            "T27",
            "query_dependencies",
            json!({"system_id": "notification-servce", "container_id": "api-gateway"}),
        )
        .await;
    assert!(
        t27["message"]
            .as_str()
            .unwrap()
            .contains("did you mean 'notification-service'"),
        "{t27}"
    );

    // T28: the same relationship twice is one edge with one id.
    let first = qa.ok("T28", "create_relationship", t08_args.clone()).await;
    let second = qa.ok("T28", "create_relationship", t08_args).await;
    assert_eq!(first["relationship"]["id"], second["relationship"]["id"]);
    assert_eq!(second["created"], false);
    let listed = qa
        .ok(
            "T28",
            "list_relationships",
            json!({"system_name": "Notification Service"}),
        )
        .await;
    assert_eq!(listed["count"], 2);
}
