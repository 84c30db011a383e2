//! The bodies of the server's fuzz targets in `fuzz/` (cargo-fuzz, libFuzzer), beside the
//! core's (`toolpack::fuzzing`): what a stranger sends before any tool runs. Compiled for
//! the tests and with the `fuzzing` feature only: not part of the API.
//!
//! `bearer` is a request's `Authorization` header, given to the [`Authenticator`] that
//! `serve --http` builds: one static token and OAuth access tokens of one issuer, whose
//! keys (`tests/fixtures/oauth/jwks.json`) are served on loopback. An input's first byte
//! picks its form:
//! - even: the rest is the header, as it comes;
//! - odd: the rest is a JWT's header JSON, claims JSON and signature, split at the first two
//!   newlines and encoded as a token; with bit 1 clear the signature is replaced by a real
//!   EdDSA signature of the fixture key, so the fuzzer reaches the claims' checks.
//!
//! Each answer is checked: within [`BUDGET`], a caller only for the static token or for a
//! token signed by the key whose claims (`iss`, `aud`, `exp`, `nbf`, `sub`) a reading of
//! its own accepts, and a refusal that never repeats the token.

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use jsonwebtoken::{Algorithm, EncodingKey};
use serde_json::Value;
use toolpack::Scopes;

use crate::auth::{Authenticator, OAuthOptions, StaticToken, bearer_token};

/// A fuzz target's body.
pub type Body = fn(&[u8]);

/// How long one input may take: past it, the input hangs the server.
pub const BUDGET: Duration = Duration::from_secs(10);

/// The issuer whose access tokens are accepted.
const ISSUER: &str = "https://issuer.fuzz.invalid";
/// This server's resource identifier.
const AUDIENCE: &str = "https://mcp.fuzz.invalid/mcp";
/// The one static token, and its caller's id.
const STATIC_TOKEN: &str = "fuzz-static-token-0123456789";
const STATIC_CALLER: &str = "token:fuzz";
/// The slack of the oracle's clock around the validator's leeway.
const CLOCK_SLACK: u64 = 5;

/// Every fuzz target of the server: its name (its file in `fuzz/fuzz_targets/`, its corpus
/// folder in `fuzz/corpus/`) and its body.
pub fn targets() -> Vec<(&'static str, Body)> {
    vec![("bearer", bearer)]
}

/// The body of the target `name`.
pub fn target(name: &str) -> Option<Body> {
    targets()
        .into_iter()
        .find(|(n, _)| *n == name)
        .map(|(_, body)| body)
}

/// The authenticator under test, its runtime and the fixture's EdDSA signing key.
struct Fixture {
    runtime: tokio::runtime::Runtime,
    auth: Authenticator,
    key: EncodingKey,
}

/// A fuzz body's runtime: one worker, so an input's tasks run beside the fuzzer's thread.
fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a tokio runtime")
}

fn oauth_fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/oauth")
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let runtime = runtime();
        let jwks = std::fs::read_to_string(oauth_fixtures().join("jwks.json")).expect("jwks.json");
        let jwks_url = runtime.block_on(serve_jwks(jwks));
        let token = StaticToken::named("fuzz", STATIC_TOKEN, Scopes::ALL).expect("a valid name");
        let auth = Authenticator::new(
            vec![token],
            Some(OAuthOptions {
                issuer: ISSUER.to_owned(),
                audience: AUDIENCE.to_owned(),
                jwks_url: Some(jwks_url),
            }),
        );
        let pem =
            std::fs::read_to_string(oauth_fixtures().join("ed25519.pem")).expect("ed25519.pem");
        let der: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
        let key = EncodingKey::from_ed_der(&STANDARD.decode(der).expect("a PEM body"));
        Fixture { runtime, auth, key }
    })
}

/// Serves `jwks` on loopback from the fixture's runtime; its URL.
async fn serve_jwks(jwks: String) -> String {
    let app = axum::Router::new().route(
        "/jwks",
        axum::routing::get(move || {
            let jwks = jwks.clone();
            async move { ([("content-type", "application/json")], jwks) }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let url = format!("http://{}/jwks", listener.local_addr().expect("an address"));
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

/// A request's `Authorization` header from the fuzzer (see the module's docs).
pub fn bearer(data: &[u8]) {
    let fixture = fixture();
    let Some((header, signed)) = authorization(data, &fixture.key) else {
        return;
    };
    let answer = fixture.runtime.block_on(async {
        tokio::time::timeout(BUDGET, fixture.auth.caller(Some(&header)))
            .await
            .unwrap_or_else(|_| panic!("bearer: no answer within {BUDGET:?}"))
    });
    let token = bearer_token(&header);
    match answer {
        Ok(caller) if token == Some(STATIC_TOKEN) => assert_eq!(caller.id(), STATIC_CALLER),
        Ok(caller) => {
            assert!(signed, "a token without the key's signature was accepted");
            let token = token.expect("an accepted header carries a bearer token");
            let sub = acceptable_claims(token)
                .unwrap_or_else(|why| panic!("a token was accepted whose {why}"));
            assert_eq!(caller.id(), format!("oauth:{ISSUER}#{sub}"));
        }
        Err(refusal) => {
            if let Some(token) = token.filter(|t| t.len() >= 12) {
                assert!(
                    !refusal.to_string().contains(token),
                    "a refusal repeats the token"
                );
            }
        }
    }
}

/// The `Authorization` header an input stands for, and whether its token carries the
/// key's signature; `None` for the empty input.
fn authorization(data: &[u8], key: &EncodingKey) -> Option<(String, bool)> {
    let (&form, rest) = data.split_first()?;
    Some(if form % 2 == 0 {
        (String::from_utf8_lossy(rest).into_owned(), false)
    } else {
        let real_signature = form & 2 == 0;
        let token = encode_token(rest, real_signature, key);
        (format!("Bearer {token}"), real_signature)
    })
}

/// `header.claims.signature` from the input's three newline-separated parts.
fn encode_token(parts: &[u8], real_signature: bool, key: &EncodingKey) -> String {
    let mut parts = parts.splitn(3, |b| *b == b'\n');
    let header = parts.next().unwrap_or_default();
    let claims = parts.next().unwrap_or_default();
    let signature = parts.next().unwrap_or_default();
    let message = format!(
        "{}.{}",
        URL_SAFE_NO_PAD.encode(header),
        URL_SAFE_NO_PAD.encode(claims)
    );
    let signature = if real_signature {
        jsonwebtoken::crypto::sign(message.as_bytes(), key, Algorithm::EdDSA)
            .expect("the fixture key signs")
    } else {
        URL_SAFE_NO_PAD.encode(signature)
    };
    format!("{message}.{signature}")
}

/// The `sub` of `token` when its header names EdDSA and its claims are this server's and
/// current; otherwise what is wrong with it.
fn acceptable_claims(token: &str) -> Result<String, &'static str> {
    let mut parts = token.split('.');
    let mut json = || -> Option<Value> {
        let part = URL_SAFE_NO_PAD.decode(parts.next()?).ok()?;
        serde_json::from_slice(&part).ok()
    };
    let (Some(header), Some(claims)) = (json(), json()) else {
        return Err("header or claims are not JSON");
    };
    if header["alg"] != "EdDSA" {
        return Err("algorithm is not the key's");
    }
    if claims["iss"] != ISSUER {
        return Err("issuer is another");
    }
    let audience_named = match &claims["aud"] {
        Value::String(one) => one == AUDIENCE,
        Value::Array(many) => many.iter().any(|a| a == AUDIENCE),
        _ => false,
    };
    if !audience_named {
        return Err("audience is not this server");
    }
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs();
    let leeway = crate::auth::LEEWAY.as_secs() + CLOCK_SLACK;
    match claims["exp"].as_f64() {
        Some(exp) if exp + leeway as f64 >= now as f64 => {}
        _ => return Err("expiry is past or missing"),
    }
    if let Some(nbf) = claims.get("nbf")
        && nbf.as_f64().is_none_or(|nbf| nbf > (now + leeway) as f64)
    {
        return Err("start is ahead or not a number");
    }
    claims["sub"]
        .as_str()
        .map(str::to_owned)
        .ok_or("subject is missing")
}

#[cfg(test)]
mod replay {
    //! The server's fuzz targets over their committed inputs, in every test run (see
    //! `toolpack_testkit::fuzz_inputs`): the seed corpus and the regressions replayed, then
    //! a short deterministic mutation run over the corpus.

    use toolpack_testkit::fuzz_inputs::{declared, exercise, target_source};

    use super::*;

    /// Mutated inputs each target answers in a test run.
    const SMOKE_MUTATIONS: usize = 5000;

    #[test]
    fn every_target_answers_its_committed_inputs_and_mutations_of_them() {
        exercise(targets(), SMOKE_MUTATIONS);
    }

    #[test]
    fn every_target_has_its_file_in_the_fuzz_crate() {
        for (name, _) in targets() {
            assert!(
                target_source(name).contains(&format!("toolpack_fuzz::server_target!(\"{name}\")")),
                "fuzz/fuzz_targets/{name}.rs runs the server's body {name}"
            );
            assert!(declared(name), "fuzz/Cargo.toml has no [[bin]] {name}");
        }
    }

    /// A valid token's input: form 1 (real signature), the fixture key's header, `claims`.
    fn signed(claims: Value) -> Vec<u8> {
        let mut input = vec![1];
        input.extend_from_slice(br#"{"alg":"EdDSA","kid":"bench-ed","typ":"JWT"}"#);
        input.push(b'\n');
        input.extend_from_slice(claims.to_string().as_bytes());
        input
    }

    fn caller_of(input: &[u8]) -> Result<String, String> {
        let fixture = fixture();
        let (header, _) = authorization(input, &fixture.key).expect("a non-empty input");
        fixture
            .runtime
            .block_on(fixture.auth.caller(Some(&header)))
            .map(|c| c.id().to_owned())
            .map_err(|e| e.to_string())
    }

    /// The body's own oracle is right about the forms it builds: what it takes for
    /// acceptable is accepted, and each flaw is refused.
    #[test]
    fn the_body_builds_tokens_the_server_judges() {
        let claims = serde_json::json!({"iss": ISSUER, "aud": AUDIENCE, "sub": "ann",
                                        "exp": 4_102_444_800u64});
        assert_eq!(
            caller_of(&signed(claims.clone())),
            Ok(format!("oauth:{ISSUER}#ann"))
        );
        bearer(&signed(claims.clone()));
        let mut forged = signed(claims.clone());
        forged[0] = 3;
        forged.extend_from_slice(b"\nnot the signature");
        assert!(caller_of(&forged).unwrap_err().contains("signature"));
        for (field, value) in [
            ("iss", "https://other.invalid"),
            ("aud", "https://other.invalid/mcp"),
        ] {
            let mut wrong = claims.clone();
            wrong[field] = value.into();
            assert!(caller_of(&signed(wrong)).is_err(), "{field}");
        }
        let mut expired = claims;
        expired["exp"] = 1_000_000_000u64.into();
        assert_eq!(
            caller_of(&signed(expired)),
            Err("the token has expired".into())
        );
        let mut static_header = vec![0];
        static_header.extend_from_slice(format!("bearer  {STATIC_TOKEN} ").as_bytes());
        assert_eq!(caller_of(&static_header), Ok(STATIC_CALLER.into()));
        assert_eq!(
            caller_of(b"\0Basic abc"),
            Err("a bearer token is required".into())
        );
    }
}
