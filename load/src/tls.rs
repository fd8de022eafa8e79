//! HTTPS: the run's rustls client configuration, from the options that say which
//! certificates to trust and which protocol versions to offer.
//!
//! One configuration serves every connection of every thread, so its session cache lets
//! new connections resume earlier sessions, as a browser's would.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::WebPkiSupportedAlgorithms;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme};

use crate::input_file;

/// Which server certificates are accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trust {
    /// Those that chain to the system's trusted roots.
    System,
    /// Those that chain to the certificates of this PEM file (`--cacert`).
    CaFile(CaFile),
    /// Any (`--insecure`): the handshake's signatures are still checked, the certificate's
    /// issuer and name are not.
    Anything,
}

/// `--cacert`: the certificates of a PEM file, read and parsed with the flags (a file that
/// cannot be read or holds no certificate is a bad argument).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaFile {
    pub path: PathBuf,
    pub certificates: Vec<CertificateDer<'static>>,
}

impl CaFile {
    pub fn read(path: &str) -> Result<CaFile, String> {
        let pem = input_file::read(Path::new(path), input_file::MAX_CA_FILE_BYTES)?;
        let failed = |reason: String| format!("cannot read CA certificates from {path}: {reason}");
        let certificates = CertificateDer::pem_slice_iter(&pem)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|error| failed(error.to_string()))?;
        if certificates.is_empty() {
            return Err(failed("it holds no certificate".to_string()));
        }
        Ok(CaFile {
            path: PathBuf::from(path),
            certificates,
        })
    }
}

/// ab's `-f`: the protocol versions offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Versions {
    All,
    Tls12,
    Tls13,
}

impl Versions {
    /// ab's name for the choice.
    pub fn name(self) -> &'static str {
        match self {
            Versions::All => "ALL",
            Versions::Tls12 => "TLS1.2",
            Versions::Tls13 => "TLS1.3",
        }
    }

    /// ab's names: `ALL`, `TLS1.2`, `TLS1.3`; the older ones rustls does not speak.
    pub fn parse(text: &str) -> Result<Versions, String> {
        match text.to_ascii_uppercase().as_str() {
            "ALL" => Ok(Versions::All),
            "TLS1.2" => Ok(Versions::Tls12),
            "TLS1.3" => Ok(Versions::Tls13),
            "SSL2" | "SSL3" | "TLS1" | "TLS1.1" => Err(format!(
                "{text} is obsolete and not offered; use TLS1.2, TLS1.3 or ALL"
            )),
            _ => Err(format!(
                "unknown protocol {text:?}; use TLS1.2, TLS1.3 or ALL"
            )),
        }
    }
}

/// How a run speaks TLS.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsOptions {
    pub trust: Trust,
    pub versions: Versions,
}

impl Default for TlsOptions {
    fn default() -> Self {
        TlsOptions {
            trust: Trust::System,
            versions: Versions::All,
        }
    }
}

/// What every TLS connection of a run is opened with.
#[derive(Debug, Clone)]
pub struct TlsClient {
    pub config: Arc<ClientConfig>,
    /// The name the certificate must carry, sent as SNI when it is a DNS name.
    pub server_name: ServerName<'static>,
}

/// Why TLS could not be set up; each message says what to do.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("cannot read CA certificates from {path}: {reason}; give a PEM file with --cacert")]
    CaFile { path: String, reason: String },
    #[error(
        "no trusted root certificates found on this system; install ca-certificates, or give \
         --cacert FILE or --insecure"
    )]
    NoSystemRoots,
    #[error("{0:?} is not a valid TLS server name")]
    ServerName(String),
    #[error("cannot set up TLS: {0}")]
    Config(rustls::Error),
}

impl TlsClient {
    pub fn new(host: &str, options: &TlsOptions) -> Result<TlsClient, TlsError> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let versions: &[&rustls::SupportedProtocolVersion] = match options.versions {
            Versions::All => rustls::ALL_VERSIONS,
            Versions::Tls12 => &[&rustls::version::TLS12],
            Versions::Tls13 => &[&rustls::version::TLS13],
        };
        let builder = ClientConfig::builder_with_provider(provider.clone())
            .with_protocol_versions(versions)
            .map_err(TlsError::Config)?;
        let config = match &options.trust {
            Trust::Anything => builder
                .dangerous()
                .with_custom_certificate_verifier(Arc::new(AcceptAnyCertificate {
                    algorithms: provider.signature_verification_algorithms,
                }))
                .with_no_client_auth(),
            Trust::System => builder
                .with_root_certificates(system_roots()?)
                .with_no_client_auth(),
            Trust::CaFile(ca) => builder
                .with_root_certificates(file_roots(ca)?)
                .with_no_client_auth(),
        };
        let server_name = ServerName::try_from(host.to_string())
            .map_err(|_| TlsError::ServerName(host.to_string()))?;
        Ok(TlsClient {
            config: Arc::new(config),
            server_name,
        })
    }
}

fn system_roots() -> Result<RootCertStore, TlsError> {
    let mut roots = RootCertStore::empty();
    let found = rustls_native_certs::load_native_certs();
    roots.add_parsable_certificates(found.certs);
    if roots.is_empty() {
        return Err(TlsError::NoSystemRoots);
    }
    Ok(roots)
}

fn file_roots(ca: &CaFile) -> Result<RootCertStore, TlsError> {
    let mut roots = RootCertStore::empty();
    for certificate in &ca.certificates {
        roots
            .add(certificate.clone())
            .map_err(|error| TlsError::CaFile {
                path: ca.path.display().to_string(),
                reason: error.to_string(),
            })?;
    }
    Ok(roots)
}

/// `--insecure`: any certificate will do, but the handshake must still be signed by the key
/// of the certificate the server sent.
#[derive(Debug)]
struct AcceptAnyCertificate {
    algorithms: WebPkiSupportedAlgorithms,
}

impl ServerCertVerifier for AcceptAnyCertificate {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}

/// The names ab prints: `TLSv1.3`, `TLSv1.2`.
pub fn protocol_name(version: rustls::ProtocolVersion) -> String {
    match version {
        rustls::ProtocolVersion::TLSv1_3 => "TLSv1.3".to_string(),
        rustls::ProtocolVersion::TLSv1_2 => "TLSv1.2".to_string(),
        other => format!("{other:?}"),
    }
}

/// The `errors_by_kind` key of a TLS failure.
pub fn error_kind(error: &rustls::Error) -> &'static str {
    match error {
        rustls::Error::InvalidCertificate(_) | rustls::Error::NoCertificatesPresented => {
            "tls_certificate"
        }
        rustls::Error::AlertReceived(_) => "tls_alert",
        rustls::Error::InvalidMessage(_)
        | rustls::Error::InappropriateMessage { .. }
        | rustls::Error::InappropriateHandshakeMessage { .. }
        | rustls::Error::PeerMisbehaved(_)
        | rustls::Error::PeerIncompatible(_)
        | rustls::Error::DecryptError => "tls_protocol",
        _ => "tls",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_as_ab_names_them() {
        assert_eq!(Versions::parse("ALL"), Ok(Versions::All));
        assert_eq!(Versions::parse("tls1.2"), Ok(Versions::Tls12));
        assert_eq!(Versions::parse("TLS1.3"), Ok(Versions::Tls13));
        for versions in [Versions::All, Versions::Tls12, Versions::Tls13] {
            assert_eq!(Versions::parse(versions.name()), Ok(versions));
        }
        assert!(Versions::parse("SSL3").unwrap_err().contains("obsolete"));
        assert!(Versions::parse("TLS9").unwrap_err().contains("unknown"));
    }

    #[test]
    fn server_names() {
        let options = TlsOptions {
            trust: Trust::Anything,
            versions: Versions::All,
        };
        let dns = TlsClient::new("localhost", &options).unwrap();
        assert!(matches!(dns.server_name, ServerName::DnsName(_)));
        let ip = TlsClient::new("::1", &options).unwrap();
        assert!(matches!(ip.server_name, ServerName::IpAddress(_)));
    }

    #[test]
    fn a_missing_ca_file_is_named() {
        let error = CaFile::read("/nonexistent/ca.pem").unwrap_err();
        assert!(
            error.starts_with("cannot read /nonexistent/ca.pem: "),
            "{error}"
        );
    }
}
