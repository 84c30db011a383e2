//! Bench support: a loopback JWKS endpoint with the test-only keys of
//! `tests/fixtures/oauth/`, and access tokens signed with them.

use std::path::PathBuf;

use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::json;

/// The issuer the bench tokens name.
pub const ISSUER: &str = "https://issuer.bench.invalid";

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/oauth")
}

/// Serves `jwks.json` on loopback; returns its URL.
pub async fn serve_jwks() -> String {
    let jwks = std::fs::read_to_string(fixtures().join("jwks.json")).unwrap();
    let app = axum::Router::new().route(
        "/jwks",
        axum::routing::get(move || {
            let jwks = jwks.clone();
            async move { ([("content-type", "application/json")], jwks) }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/jwks", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    url
}

/// An access token for `sub`, valid for an hour, for `audience`, signed with `alg`
/// (RS256, ES256 or EdDSA).
pub fn token(alg: Algorithm, sub: &str, audience: &str) -> String {
    let (file, kid) = match alg {
        Algorithm::RS256 => ("rs256.pem", "bench-rs"),
        Algorithm::ES256 => ("es256.pem", "bench-es"),
        _ => ("ed25519.pem", "bench-ed"),
    };
    let pem = std::fs::read(fixtures().join(file)).unwrap();
    let key = match alg {
        Algorithm::RS256 => EncodingKey::from_rsa_pem(&pem),
        Algorithm::ES256 => EncodingKey::from_ec_pem(&pem),
        _ => EncodingKey::from_ed_pem(&pem),
    }
    .unwrap();
    let mut header = Header::new(alg);
    header.kid = Some(kid.to_owned());
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let claims = json!({"iss": ISSUER, "sub": sub, "aud": audience, "iat": now, "exp": now + 3600,
                        "scope": "toolpack:read toolpack:write"});
    jsonwebtoken::encode(&header, &claims, &key).unwrap()
}
