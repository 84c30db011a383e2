//! What JWT authentication costs per request (release build): signature and claims
//! checked (`verify`, a token's first request) and a token seen before (`validate`,
//! every later request), for RS256, ES256 and EdDSA, with the issuer's keys cached.
//! Run: `cargo bench -p toolpack-mcp --bench jwt`.

#[path = "support/oauth.rs"]
mod oauth;

use criterion::{Criterion, criterion_group, criterion_main};
use jsonwebtoken::Algorithm;
use toolpack_mcp::{JwtValidator, OAuthOptions};

const AUDIENCE: &str = "https://mcp.bench.invalid/mcp";

fn jwt(c: &mut Criterion) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let jwks_url = runtime.block_on(oauth::serve_jwks());
    let validator = JwtValidator::new(OAuthOptions {
        issuer: oauth::ISSUER.to_owned(),
        audience: AUDIENCE.to_owned(),
        jwks_url: Some(jwks_url),
    });
    let mut group = c.benchmark_group("jwt");
    for (name, alg) in [
        ("RS256", Algorithm::RS256),
        ("ES256", Algorithm::ES256),
        ("EdDSA", Algorithm::EdDSA),
    ] {
        let token = oauth::token(alg, "alice", AUDIENCE);
        // Fetch the keys and check the token once, outside the measurement.
        let caller = runtime.block_on(validator.validate(&token)).unwrap();
        assert_eq!(caller.id(), format!("oauth:{}#alice", oauth::ISSUER));
        group.bench_function(format!("verify {name} (first request of a token)"), |b| {
            b.to_async(&runtime)
                .iter(|| async { validator.verify(&token).await.unwrap() })
        });
        group.bench_function(format!("validate {name} (token seen before)"), |b| {
            b.to_async(&runtime)
                .iter(|| async { validator.validate(&token).await.unwrap() })
        });
    }
    group.finish();
}

criterion_group!(benches, jwt);
criterion_main!(benches);
