//! The TLS crypto provider of every HTTPS connection: rustls with ring.

use std::sync::Once;

/// Installs ring as rustls' process-wide crypto provider, unless the process has installed
/// one already (then that one is used). toolpack's own clients call this before they are
/// built; a program that builds its own `reqwest` client beside toolpack in the same build
/// (reqwest's `rustls-no-provider`, as toolpack uses it) calls it first too, or installs a
/// provider of its own. Calling it again does nothing.
pub fn install_crypto_provider() {
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        // Err means another provider came first, which is as good.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// A TLS client configuration trusting the platform's root certificates (read from disk:
/// it blocks, so call it on the blocking pool), for connections reqwest does not make
/// (PostgreSQL in `toolpack-postgres`, HSL's MQTT broker).
#[cfg(feature = "digitransit")]
#[allow(
    clippy::disallowed_methods,
    reason = "reads the certificates from disk; its callers run it on the blocking pool"
)]
pub fn platform_tls_config() -> Result<rustls::ClientConfig, String> {
    let mut roots = rustls::RootCertStore::empty();
    for cert in rustls_native_certs::load_native_certs().certs {
        let _ = roots.add(cert);
    }
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    Ok(rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("cannot set up TLS: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth())
}

#[cfg(test)]
mod tests {
    use super::install_crypto_provider;

    #[test]
    fn a_client_builds_once_the_provider_is_installed() {
        install_crypto_provider();
        install_crypto_provider();
        assert!(rustls::crypto::CryptoProvider::get_default().is_some());
        reqwest::Client::builder().build().expect("a client");
    }
}
