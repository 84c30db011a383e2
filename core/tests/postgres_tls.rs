//! `sslmode` in `TOOLPACK_DATABASE_URL` against a real PostgreSQL with TLS on: `require`
//! connects over rustls and checks the server certificate against the trusted roots (the
//! platform's, or `SSL_CERT_FILE`); a server without TLS, or with a certificate nobody
//! trusts, is refused with the storage error, never a silent plain connection. One test in
//! its own binary, since `SSL_CERT_FILE` is process-wide.

use serde_json::{Value, json};
use toolpack_testkit::postgres::{PASSWORD, PgCluster};

#[path = "support/on_postgres.rs"]
mod on_postgres;

use on_postgres::toolpack;

async fn save(url: &str) -> (bool, Value) {
    let result = toolpack(url)
        .call_json(
            "save_user_variable",
            json!({"key": "home", "type": "preference", "value": "over TLS"}),
        )
        .await
        .unwrap();
    (result.is_error(), result.body)
}

fn refused((is_error, body): (bool, Value)) -> String {
    assert!(is_error, "{body}");
    assert_eq!(body["error"]["code"], "storage-error", "{body}");
    assert!(!body.to_string().contains(PASSWORD), "{body}");
    body.to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sslmode_require_uses_verified_tls_and_never_falls_back_to_plain() {
    let (Some(plain), Some(tls)) = (PgCluster::start(), PgCluster::start()) else {
        return;
    };
    let plain_url = plain.create_database();
    let tls_url = tls.create_database();
    let ca = tls.enable_tls();

    // No trusted root for the test CA yet: the certificate is refused.
    let body = refused(save(&format!("{tls_url}?sslmode=require")).await);
    assert!(body.to_lowercase().contains("certificate"), "{body}");

    // A server without TLS: `require` refuses, `prefer` (the default) falls back.
    refused(save(&format!("{plain_url}?sslmode=require")).await);
    assert!(!save(&plain_url).await.0);

    // Trusted through SSL_CERT_FILE (read when the pool is made): saved over TLS.
    // SAFETY: the only test of this binary; no other thread reads the environment now.
    unsafe { std::env::set_var("SSL_CERT_FILE", &ca) };
    let (is_error, body) = save(&format!("{tls_url}?sslmode=require")).await;
    assert!(!is_error, "{body}");
    assert_eq!(body["variable"]["value"], "over TLS", "{body}");
}
