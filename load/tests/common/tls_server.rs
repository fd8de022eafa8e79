//! An HTTPS test server (rustls, one thread per connection) with a certificate from a
//! throwaway CA, and the CA's PEM file for `--cacert`.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::Duration;

use rcgen::{BasicConstraints, CertificateParams, IsCa, KeyPair};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use rustls::{ServerConfig, ServerConnection, StreamOwned};

/// How the server ends a response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Keep the connection for the next request unless the client asked to close; close
    /// with a close_notify.
    Polite,
    /// Close the TCP connection after each response without a close_notify, as many
    /// servers do.
    AbruptClose,
}

pub struct TlsServer {
    pub address: SocketAddr,
    /// The CA that signed the server's certificate (for "localhost" only), as a PEM file.
    pub ca_file: PathBuf,
    pub connections: Arc<AtomicU64>,
    pub requests: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    accept: Option<thread::JoinHandle<()>>,
}

impl TlsServer {
    pub fn start(ending: Ending) -> TlsServer {
        let ca_key = KeyPair::generate().unwrap();
        let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
        ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        let ca = ca_params.self_signed(&ca_key).unwrap();
        let key = KeyPair::generate().unwrap();
        let certificate = CertificateParams::new(vec!["localhost".to_string()])
            .unwrap()
            .signed_by(&key, &ca, &ca_key)
            .unwrap();
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = ServerConfig::builder_with_provider(provider)
            .with_protocol_versions(rustls::ALL_VERSIONS)
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(
                vec![CertificateDer::from(certificate.der().to_vec())],
                PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der())),
            )
            .unwrap();
        let config = Arc::new(config);
        // The address "localhost" resolves to first, as the client picks it.
        let listener = TcpListener::bind(("localhost", 0)).unwrap();
        let address = listener.local_addr().unwrap();
        let ca_file = std::env::temp_dir().join(format!(
            "layerbench-load-test-ca-{}-{}.pem",
            std::process::id(),
            address.port()
        ));
        std::fs::write(&ca_file, ca.pem()).unwrap();
        let connections = Arc::new(AtomicU64::new(0));
        let requests = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let accept = {
            let (connections, requests, stop) =
                (connections.clone(), requests.clone(), stop.clone());
            thread::spawn(move || {
                for stream in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(stream) = stream else { continue };
                    connections.fetch_add(1, Ordering::SeqCst);
                    let (config, requests) = (config.clone(), requests.clone());
                    thread::spawn(move || serve(stream, config, &requests, ending));
                }
            })
        };
        TlsServer {
            address,
            ca_file,
            connections,
            requests,
            stop,
            accept: Some(accept),
        }
    }

    /// `https://localhost:PORT/hello`: the name on the certificate.
    pub fn url(&self) -> String {
        format!("https://localhost:{}/hello", self.address.port())
    }

    /// The same server by its address, a name the certificate does not carry.
    pub fn url_by_address(&self) -> String {
        format!("https://{}/hello", self.address)
    }

    pub fn ca(&self) -> &str {
        self.ca_file.to_str().unwrap()
    }

    pub fn connections(&self) -> u64 {
        self.connections.load(Ordering::SeqCst)
    }

    pub fn requests(&self) -> u64 {
        self.requests.load(Ordering::SeqCst)
    }
}

impl Drop for TlsServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect_timeout(&self.address, Duration::from_secs(1));
        if let Some(accept) = self.accept.take() {
            let _ = accept.join();
        }
        let _ = std::fs::remove_file(&self.ca_file);
    }
}

const BODY: &str = "Hello, TLS!\n";

fn serve(tcp: TcpStream, config: Arc<ServerConfig>, requests: &AtomicU64, ending: Ending) {
    let _ = tcp.set_read_timeout(Some(Duration::from_secs(10)));
    let Ok(connection) = ServerConnection::new(config) else {
        return;
    };
    let mut stream = StreamOwned::new(connection, tcp);
    let mut pending = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        let head = loop {
            if let Some(end) = pending.windows(4).position(|w| w == b"\r\n\r\n") {
                let head: Vec<u8> = pending.drain(..end + 4).collect();
                break String::from_utf8_lossy(&head).to_ascii_lowercase();
            }
            match stream.read(&mut buffer) {
                Ok(0) | Err(_) => return,
                Ok(n) => pending.extend_from_slice(&buffer[..n]),
            }
        };
        requests.fetch_add(1, Ordering::SeqCst);
        let close = head.contains("\r\nconnection: close") || ending == Ending::AbruptClose;
        let response = format!(
            "HTTP/1.1 200 OK\r\nServer: tls-test\r\nContent-Length: {}\r\n{}\r\n{BODY}",
            BODY.len(),
            if close { "Connection: close\r\n" } else { "" }
        );
        if stream.write_all(response.as_bytes()).is_err() || stream.flush().is_err() {
            return;
        }
        if close {
            if ending == Ending::Polite {
                stream.conn.send_close_notify();
                let _ = stream.flush();
            }
            return;
        }
    }
}
