//! OAuth 2.1 access tokens (JWTs) from one issuer: signature (RS256, ES256, EdDSA only),
//! `iss`, `aud`, `exp`/`nbf` with a small leeway. The issuer's keys come from its JWKS,
//! found through its RFC 8414 metadata or its OpenID configuration (or given), and are
//! cached: an unknown `kid` refetches the set once, never more often than
//! [`REFETCH_FLOOR`]. A token that passed is remembered until it expires (at most
//! [`VERIFIED_TTL`]), so a client's repeated requests cost a hash, not a signature check.
//!
//! Token text never reaches a log line, an error or a `Debug` print.

use std::collections::HashMap;
use std::sync::{Mutex, RwLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use jsonwebtoken::jwk::{Jwk, JwkSet};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use toolpack::{Caller, Scopes};

/// The signature algorithms accepted. Never `none`, never an HMAC (whose "secret" would
/// be the issuer's public key).
pub const ALGORITHMS: [Algorithm; 3] = [Algorithm::RS256, Algorithm::ES256, Algorithm::EdDSA];
/// Clock skew allowed on `exp` and `nbf`.
pub const LEEWAY: Duration = Duration::from_secs(30);
/// The least time between two JWKS fetches caused by unknown key ids.
pub const REFETCH_FLOOR: Duration = Duration::from_secs(30);
/// The longest a verified token is remembered.
pub const VERIFIED_TTL: Duration = Duration::from_secs(300);
/// Verified tokens remembered at most (the memory is cleared when full).
const VERIFIED_MAX: usize = 10_000;
/// The deadline of one metadata or JWKS request.
const FETCH_TIMEOUT: Duration = Duration::from_secs(5);

/// How `serve --http` accepts OAuth access tokens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OAuthOptions {
    /// The authorization server's issuer identifier (`iss`), e.g. `https://idp.example.com`.
    pub issuer: String,
    /// This server's resource identifier, required in `aud` (and announced as
    /// `resource` in the protected-resource metadata), e.g. `https://mcp.example.com/mcp`.
    pub audience: String,
    /// The JWKS URL; `None`: discovered from the issuer's metadata.
    pub jwks_url: Option<String>,
}

/// Why a token was refused. The message never contains the token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JwtError {
    /// Not a JWS compact token, or its header or claims cannot be read.
    #[error("the token is malformed")]
    Malformed,
    /// An algorithm other than RS256, ES256 and EdDSA (`none` and HMAC included).
    #[error("the token's algorithm is not accepted (RS256, ES256 or EdDSA)")]
    Algorithm,
    /// No key of the issuer has the token's `kid` (after one refetch).
    #[error("the token was signed with an unknown key")]
    UnknownKey,
    /// The signature does not verify with the issuer's key.
    #[error("the token's signature is invalid")]
    Signature,
    /// `exp` is past.
    #[error("the token has expired")]
    Expired,
    /// `nbf` is ahead.
    #[error("the token is not valid yet")]
    NotYetValid,
    /// `iss` is not the configured issuer.
    #[error("the token's issuer is not accepted")]
    Issuer,
    /// `aud` does not name this server.
    #[error("the token's audience is not this server")]
    Audience,
    /// A required claim (`sub`, `exp`, `iss`, `aud`) is missing.
    #[error("the token lacks a required claim")]
    MissingClaim,
    /// The issuer's keys could not be fetched.
    #[error("the issuer's keys are unavailable: {0}")]
    Keys(String),
}

#[derive(Deserialize)]
struct Claims {
    sub: String,
    #[serde(default)]
    scope: Option<String>,
    #[serde(default)]
    scp: Option<ScopeList>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum ScopeList {
    Text(String),
    List(Vec<String>),
}

#[derive(Deserialize)]
struct Metadata {
    issuer: Option<String>,
    jwks_uri: Option<String>,
}

struct KeyCache {
    by_kid: HashMap<String, (Jwk, DecodingKey)>,
    fetched_at: Option<Instant>,
}

/// Validates access tokens of one issuer for one audience.
pub struct JwtValidator {
    options: OAuthOptions,
    http: reqwest::Client,
    keys: RwLock<KeyCache>,
    fetching: tokio::sync::Mutex<()>,
    verified: Mutex<HashMap<[u8; 32], (Caller, Instant)>>,
}

impl std::fmt::Debug for JwtValidator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JwtValidator")
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl JwtValidator {
    /// A validator for `options`; keys are fetched on first use.
    pub fn new(options: OAuthOptions) -> Self {
        toolpack::http::install_crypto_provider();
        let http = reqwest::Client::builder()
            .timeout(FETCH_TIMEOUT)
            .build()
            .unwrap_or_default();
        Self {
            options,
            http,
            keys: RwLock::new(KeyCache {
                by_kid: HashMap::new(),
                fetched_at: None,
            }),
            fetching: tokio::sync::Mutex::new(()),
            verified: Mutex::new(HashMap::new()),
        }
    }

    /// The options.
    pub fn options(&self) -> &OAuthOptions {
        &self.options
    }

    /// Whether `token` looks like a JWT (three dot-separated parts), so that static
    /// tokens are not sent through JWT validation.
    pub fn looks_like_jwt(token: &str) -> bool {
        token.split('.').count() == 3
    }

    /// The caller `token` stands for: `oauth:{iss}#{sub}`, with the toolpack scopes of
    /// its `scope` (or `scp`) claim.
    pub async fn validate(&self, token: &str) -> Result<Caller, JwtError> {
        let fingerprint: [u8; 32] = Sha256::digest(token.as_bytes()).into();
        if let Some(caller) = self.remembered(&fingerprint) {
            return Ok(caller);
        }
        let caller = self.verify(token).await?;
        self.remember(fingerprint, &caller, token);
        Ok(caller)
    }

    /// [`JwtValidator::validate`] without the memory of verified tokens: every call
    /// checks the signature and the claims.
    pub async fn verify(&self, token: &str) -> Result<Caller, JwtError> {
        let header = jsonwebtoken::decode_header(token).map_err(|_| JwtError::Malformed)?;
        if !header_and_claims_are_utf8(token) {
            return Err(JwtError::Malformed);
        }
        if !ALGORITHMS.contains(&header.alg) {
            return Err(JwtError::Algorithm);
        }
        let key = self.key_for(header.kid.as_deref(), header.alg).await?;
        let mut validation = Validation::new(header.alg);
        validation.set_issuer(&[&self.options.issuer]);
        validation.set_audience(&[&self.options.audience]);
        validation.set_required_spec_claims(&["exp", "sub", "iss", "aud"]);
        validation.leeway = LEEWAY.as_secs();
        validation.validate_nbf = true;
        let data = jsonwebtoken::decode::<Claims>(token, &key, &validation).map_err(classify)?;
        let claims = data.claims;
        let scopes = match (&claims.scope, &claims.scp) {
            (Some(scope), _) => Scopes::parse(scope),
            (None, Some(ScopeList::Text(text))) => Scopes::parse(text),
            (None, Some(ScopeList::List(list))) => Scopes::parse(&list.join(" ")),
            (None, None) => Scopes::NONE,
        };
        Caller::new(
            format!("oauth:{}#{}", self.options.issuer, claims.sub),
            scopes,
        )
        .map_err(|_| JwtError::MissingClaim)
    }

    fn remembered(&self, fingerprint: &[u8; 32]) -> Option<Caller> {
        let verified = self.verified.lock().unwrap_or_else(|p| p.into_inner());
        verified
            .get(fingerprint)
            .filter(|(_, until)| Instant::now() < *until)
            .map(|(caller, _)| caller.clone())
    }

    /// Remembers a verified token until its `exp` (at most [`VERIFIED_TTL`]).
    fn remember(&self, fingerprint: [u8; 32], caller: &Caller, token: &str) {
        let Some(exp) = expiry(token) else { return };
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default();
        let left = Duration::from_secs(exp)
            .saturating_sub(now)
            .min(VERIFIED_TTL);
        let mut verified = self.verified.lock().unwrap_or_else(|p| p.into_inner());
        if verified.len() >= VERIFIED_MAX {
            verified.clear();
        }
        verified.insert(fingerprint, (caller.clone(), Instant::now() + left));
    }

    /// The key for `kid` (or the only key fitting `alg` when the token names none),
    /// refetching the set once when it is unknown.
    async fn key_for(&self, kid: Option<&str>, alg: Algorithm) -> Result<DecodingKey, JwtError> {
        if let Some(key) = self.cached_key(kid, alg)? {
            return Ok(key);
        }
        let _one_at_a_time = self.fetching.lock().await;
        // Another request may have fetched while this one waited.
        if let Some(key) = self.cached_key(kid, alg)? {
            return Ok(key);
        }
        let fetched_at = self
            .keys
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .fetched_at;
        if fetched_at.is_some_and(|at| at.elapsed() < REFETCH_FLOOR) {
            return Err(JwtError::UnknownKey);
        }
        let set = self.fetch_keys().await;
        let mut cache = self.keys.write().unwrap_or_else(|p| p.into_inner());
        cache.fetched_at = Some(Instant::now());
        let set = set?;
        cache.by_kid = set
            .keys
            .into_iter()
            .filter_map(|jwk| {
                let key = DecodingKey::from_jwk(&jwk).ok()?;
                Some((jwk.common.key_id.clone().unwrap_or_default(), (jwk, key)))
            })
            .collect();
        drop(cache);
        self.cached_key(kid, alg)?.ok_or(JwtError::UnknownKey)
    }

    fn cached_key(
        &self,
        kid: Option<&str>,
        alg: Algorithm,
    ) -> Result<Option<DecodingKey>, JwtError> {
        let cache = self.keys.read().unwrap_or_else(|p| p.into_inner());
        let found = match kid {
            Some(kid) => cache.by_kid.get(kid),
            None => {
                let mut fitting = cache.by_kid.values().filter(|(jwk, _)| fits(jwk, alg));
                match (fitting.next(), fitting.next()) {
                    (Some(only), None) => Some(only),
                    _ => None,
                }
            }
        };
        match found {
            Some((jwk, key)) if fits(jwk, alg) => Ok(Some(key.clone())),
            // The right kid with another algorithm than the key's: never try it.
            Some(_) => Err(JwtError::Signature),
            None => Ok(None),
        }
    }

    async fn fetch_keys(&self) -> Result<JwkSet, JwtError> {
        let url = match &self.options.jwks_url {
            Some(url) => url.clone(),
            None => self.discover_jwks_url().await?,
        };
        let response = self
            .http
            .get(&url)
            .send()
            .await
            .map_err(|e| JwtError::Keys(format!("GET {url}: {}", e.without_url())))?;
        if !response.status().is_success() {
            return Err(JwtError::Keys(format!(
                "GET {url}: HTTP {}",
                response.status()
            )));
        }
        response
            .json::<JwkSet>()
            .await
            .map_err(|e| JwtError::Keys(format!("{url} is not a JWK set: {}", e.without_url())))
    }

    /// The `jwks_uri` of the issuer's RFC 8414 metadata, else of its OpenID
    /// configuration; the metadata must name the configured issuer.
    async fn discover_jwks_url(&self) -> Result<String, JwtError> {
        let issuer = self.options.issuer.trim_end_matches('/');
        let mut tried = Vec::new();
        for url in metadata_urls(issuer) {
            let Ok(response) = self.http.get(&url).send().await else {
                tried.push(format!("{url}: unreachable"));
                continue;
            };
            if !response.status().is_success() {
                tried.push(format!("{url}: HTTP {}", response.status()));
                continue;
            }
            let Ok(metadata) = response.json::<Metadata>().await else {
                tried.push(format!("{url}: not JSON metadata"));
                continue;
            };
            if metadata.issuer.as_deref().map(|i| i.trim_end_matches('/')) != Some(issuer) {
                tried.push(format!("{url}: names another issuer"));
                continue;
            }
            if let Some(jwks) = metadata.jwks_uri {
                return Ok(jwks);
            }
            tried.push(format!("{url}: no jwks_uri"));
        }
        Err(JwtError::Keys(format!(
            "no usable metadata ({})",
            tried.join("; ")
        )))
    }
}

/// Where the issuer's metadata may be: RFC 8414 (the well-known segment inserted before
/// the issuer's path), then OpenID Connect Discovery (appended to it).
fn metadata_urls(issuer: &str) -> [String; 2] {
    let (origin, path) = match issuer.find("://").map(|i| i + 3) {
        Some(start) => match issuer[start..].find('/') {
            Some(slash) => issuer.split_at(start + slash),
            None => (issuer, ""),
        },
        None => (issuer, ""),
    };
    [
        format!("{origin}/.well-known/oauth-authorization-server{path}"),
        format!("{issuer}/.well-known/openid-configuration"),
    ]
}

/// Whether `jwk` may verify a signature made with `alg`.
fn fits(jwk: &Jwk, alg: Algorithm) -> bool {
    use jsonwebtoken::jwk::AlgorithmParameters as P;
    let family = matches!(
        (&jwk.algorithm, alg),
        (P::RSA(_), Algorithm::RS256)
            | (P::EllipticCurve(_), Algorithm::ES256)
            | (P::OctetKeyPair(_), Algorithm::EdDSA)
    );
    let declared = jwk
        .common
        .key_algorithm
        .is_none_or(|a| format!("{a:?}") == format!("{alg:?}"));
    family && declared
}

/// The `exp` claim of an already verified token.
fn expiry(token: &str) -> Option<u64> {
    use base64::Engine;
    let payload = token.split('.').nth(1)?;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload)
        .ok()?;
    serde_json::from_slice::<serde_json::Value>(&bytes)
        .ok()?
        .get("exp")?
        .as_u64()
}

fn classify(error: jsonwebtoken::errors::Error) -> JwtError {
    use jsonwebtoken::errors::ErrorKind as K;
    match error.kind() {
        K::ExpiredSignature => JwtError::Expired,
        K::ImmatureSignature => JwtError::NotYetValid,
        K::InvalidIssuer => JwtError::Issuer,
        K::InvalidAudience => JwtError::Audience,
        K::MissingRequiredClaim(_) => JwtError::MissingClaim,
        K::InvalidSignature | K::InvalidAlgorithm | K::InvalidEcdsaKey | K::InvalidRsaKey(_) => {
            JwtError::Signature
        }
        K::InvalidAlgorithmName => JwtError::Algorithm,
        _ => JwtError::Malformed,
    }
}

/// Whether the token's header and claims are UTF-8, as RFC 7519 (7.2) requires of a JWT.
/// The JSON readers skip the fields they do not know without checking them, so a signed
/// token with other bytes in such a field would otherwise pass (found by fuzzing:
/// `fuzz/regressions/bearer/`).
fn header_and_claims_are_utf8(token: &str) -> bool {
    use base64::Engine;
    token.split('.').take(2).all(|part| {
        base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(part)
            .is_ok_and(|bytes| std::str::from_utf8(&bytes).is_ok())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_is_looked_up_per_rfc_8414_then_openid() {
        assert_eq!(
            metadata_urls("https://idp.example.com"),
            [
                "https://idp.example.com/.well-known/oauth-authorization-server",
                "https://idp.example.com/.well-known/openid-configuration"
            ]
        );
        assert_eq!(
            metadata_urls("https://idp.example.com/tenant/1"),
            [
                "https://idp.example.com/.well-known/oauth-authorization-server/tenant/1",
                "https://idp.example.com/tenant/1/.well-known/openid-configuration"
            ]
        );
    }

    #[test]
    fn only_three_part_tokens_are_taken_for_jwts() {
        assert!(JwtValidator::looks_like_jwt("a.b.c"));
        assert!(!JwtValidator::looks_like_jwt("static-token"));
        assert!(!JwtValidator::looks_like_jwt("a.b"));
    }
}
