//! Who is calling `serve --http`: the request's bearer credential becomes a
//! [`Caller`]. A static token (`TOOLPACK_HTTP_TOKENS`) is its own caller; an OAuth
//! access token (a JWT of the configured issuer) is `oauth:{iss}#{sub}`. With neither
//! configured, every request acts for the local caller (loopback use).

mod jwt;
mod resource;
mod tokens;

#[cfg(any(test, feature = "fuzzing"))]
pub(crate) use jwt::LEEWAY;
pub use jwt::{ALGORITHMS, JwtError, JwtValidator, OAuthOptions};
pub use resource::{METADATA_PATH, ProtectedResource};
pub use tokens::{StaticToken, parse_tokens};

use toolpack::Caller;

/// Why a request was not authenticated (the 401's `error_description`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuthFailure {
    /// No `Authorization: Bearer …` header.
    #[error("a bearer token is required")]
    Missing,
    /// A token that is neither a listed static token nor a valid access token.
    #[error("{0}")]
    Invalid(String),
}

/// The credentials a server accepts.
#[derive(Debug, Default)]
pub struct Authenticator {
    tokens: Vec<StaticToken>,
    jwt: Option<JwtValidator>,
}

impl Authenticator {
    /// Accepts `tokens`, and the access tokens of `oauth` when given.
    pub fn new(tokens: Vec<StaticToken>, oauth: Option<OAuthOptions>) -> Self {
        Self {
            tokens,
            jwt: oauth.map(JwtValidator::new),
        }
    }

    /// Whether requests must carry a credential.
    pub fn is_enabled(&self) -> bool {
        !self.tokens.is_empty() || self.jwt.is_some()
    }

    /// The OAuth settings, when OAuth is on.
    pub fn oauth(&self) -> Option<&OAuthOptions> {
        self.jwt.as_ref().map(JwtValidator::options)
    }

    /// The caller of a request whose `Authorization` header is `authorization`.
    pub async fn caller(&self, authorization: Option<&str>) -> Result<Caller, AuthFailure> {
        if !self.is_enabled() {
            return Ok(Caller::local());
        }
        let token = authorization
            .and_then(bearer_token)
            .ok_or(AuthFailure::Missing)?;
        // Every static token is compared (in constant time), whatever matches first.
        let matched = self.tokens.iter().fold(None, |found, candidate| {
            if constant_time_eq(candidate.secret(), token.as_bytes()) {
                Some(candidate)
            } else {
                found
            }
        });
        if let Some(candidate) = matched {
            return Ok(candidate.caller().clone());
        }
        match &self.jwt {
            Some(jwt) if JwtValidator::looks_like_jwt(token) => jwt
                .validate(token)
                .await
                .map_err(|e| AuthFailure::Invalid(e.to_string())),
            _ => Err(AuthFailure::Invalid("the token is not accepted".into())),
        }
    }
}

/// The token of an `Authorization: Bearer …` header value (scheme case-insensitive,
/// spaces around the token ignored); `None` for another scheme or an empty token.
pub(crate) fn bearer_token(authorization: &str) -> Option<&str> {
    let (scheme, rest) = authorization.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| rest.trim())
        .filter(|t| !t.is_empty())
}

/// Equality whose time depends only on the lengths.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparison_is_exact() {
        assert!(constant_time_eq(b"secret", b"secret"));
        assert!(!constant_time_eq(b"secret", b"secreT"));
        assert!(!constant_time_eq(b"secret", b"secret2"));
    }

    #[tokio::test]
    async fn each_static_token_is_its_caller_and_others_are_refused() {
        let auth = Authenticator::new(parse_tokens("alice:ta,bob:tb toolpack:read").unwrap(), None);
        assert_eq!(
            auth.caller(Some("Bearer ta")).await.unwrap().id(),
            "token:alice"
        );
        assert_eq!(
            auth.caller(Some("bearer  tb ")).await.unwrap().id(),
            "token:bob"
        );
        assert_eq!(auth.caller(None).await, Err(AuthFailure::Missing));
        assert_eq!(
            auth.caller(Some("Basic ta")).await,
            Err(AuthFailure::Missing)
        );
        assert!(matches!(
            auth.caller(Some("Bearer tc")).await,
            Err(AuthFailure::Invalid(_))
        ));
        let open = Authenticator::default();
        assert_eq!(open.caller(None).await.unwrap(), Caller::local());
    }
}
