//! The OAuth protected-resource side of `serve --http` (RFC 9728, RFC 6750): the
//! metadata document and the `WWW-Authenticate` challenges of 401 and 403 answers.

use serde_json::{Value, json};
use toolpack::Scope;

/// Where the protected-resource metadata is served (also with `/mcp` appended).
pub const METADATA_PATH: &str = "/.well-known/oauth-protected-resource";

/// What the server announces about itself as an OAuth protected resource.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProtectedResource {
    /// The resource identifier (the OAuth audience); `None`: `http://{Host}/mcp`.
    pub resource: Option<String>,
    /// The authorization server's issuer, when OAuth is on.
    pub issuer: Option<String>,
}

impl ProtectedResource {
    /// The resource identifier, for a request that came to `host`.
    pub fn resource(&self, host: &str) -> String {
        self.resource
            .clone()
            .unwrap_or_else(|| format!("http://{host}/mcp"))
    }

    /// The metadata document's absolute URL: the well-known path inserted before the
    /// resource's path (RFC 9728 §3.1).
    pub fn metadata_url(&self, host: &str) -> String {
        let resource = self.resource(host);
        let start = resource.find("://").map_or(0, |i| i + 3);
        let (origin, path) = match resource[start..].find('/') {
            Some(slash) => resource.split_at(start + slash),
            None => (resource.as_str(), ""),
        };
        format!("{origin}{METADATA_PATH}{}", path.trim_end_matches('/'))
    }

    /// The RFC 9728 metadata document.
    pub fn metadata(&self, host: &str) -> Value {
        json!({
            "resource": self.resource(host),
            "authorization_servers": self.issuer.iter().collect::<Vec<_>>(),
            "scopes_supported": Scope::ALL.map(Scope::as_str),
            "bearer_methods_supported": ["header"],
            "resource_name": "toolpack-mcp",
        })
    }

    /// The `WWW-Authenticate` value of a 401: no credential (`error` = `None`) or an
    /// invalid one (`invalid_token`, with a description that never holds the token).
    pub fn unauthorized(&self, host: &str, invalid: Option<&str>) -> String {
        let metadata = self.metadata_url(host);
        match invalid {
            None => format!("Bearer resource_metadata=\"{metadata}\""),
            Some(why) => format!(
                "Bearer error=\"invalid_token\", error_description=\"{}\", resource_metadata=\"{metadata}\"",
                why.replace(['"', '\\'], "'")
            ),
        }
    }

    /// The `WWW-Authenticate` value of a 403 for a caller lacking `scope`: the MCP
    /// step-up signal.
    pub fn insufficient_scope(&self, host: &str, scope: Scope) -> String {
        format!(
            "Bearer error=\"insufficient_scope\", scope=\"{}\", resource_metadata=\"{}\"",
            scope.as_str(),
            self.metadata_url(host)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_metadata_url_follows_the_resource() {
        let configured = ProtectedResource {
            resource: Some("https://mcp.example.com/mcp".into()),
            issuer: Some("https://idp.example.com".into()),
        };
        assert_eq!(
            configured.metadata_url("ignored:1"),
            "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
        );
        let metadata = configured.metadata("ignored:1");
        assert_eq!(metadata["resource"], "https://mcp.example.com/mcp");
        assert_eq!(
            metadata["authorization_servers"],
            json!(["https://idp.example.com"])
        );
        assert_eq!(
            metadata["scopes_supported"],
            json!(["toolpack:read", "toolpack:write"])
        );
        let local = ProtectedResource::default();
        assert_eq!(
            local.metadata_url("127.0.0.1:8080"),
            "http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp"
        );
        assert_eq!(local.metadata("h")["authorization_servers"], json!([]));
    }

    #[test]
    fn challenges_carry_the_metadata_url_and_the_missing_scope() {
        let r = ProtectedResource::default();
        assert_eq!(
            r.insufficient_scope("h:1", Scope::Write),
            "Bearer error=\"insufficient_scope\", scope=\"toolpack:write\", \
resource_metadata=\"http://h:1/.well-known/oauth-protected-resource/mcp\""
        );
        assert!(
            r.unauthorized("h:1", Some("the \"token\" expired"))
                .contains("'token'")
        );
        assert!(!r.unauthorized("h:1", None).contains("error="));
    }
}
