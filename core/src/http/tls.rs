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
