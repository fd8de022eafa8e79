//! HTTPS against a rustls test server: trust, resumption, ab's TLS lines, TLS failures.

mod common;

use std::io::{Read, Write};
use std::net::TcpListener;
use std::thread;

use common::tls_server::{Ending, TlsServer};
use common::{assert_contract, run_load};
use serde_json::json;

#[test]
fn keep_alive_makes_one_handshake_a_connection() {
    let server = TlsServer::start(Ending::Polite);
    let url = server.url();
    let run = run_load(&[
        "-n",
        "200",
        "-c",
        "4",
        "-k",
        "--cacert",
        server.ca(),
        "--json",
        "-",
        &url,
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_contract(&doc);
    assert_eq!(doc["requests_completed"], 200, "{doc}");
    assert_eq!(doc["requests_failed"], 0, "{doc}");
    assert_eq!(doc["keep_alive_requests"], 200);
    assert_eq!(doc["document_length_bytes"], 12);
    assert_eq!(doc["server_software"], "tls-test");
    assert_eq!(doc["tls"]["protocol"], "TLSv1.3");
    let handshakes = doc["tls"]["handshakes_full"].as_u64().unwrap()
        + doc["tls"]["handshakes_resumed"].as_u64().unwrap();
    assert_eq!(handshakes, 4, "one a connection: {doc}");
    assert_eq!(server.connections(), 4);
    assert_eq!(server.requests(), 200);
    assert_eq!(doc["options"]["tls_verify"], true);
}

#[test]
fn ab_report_has_the_tls_lines() {
    let server = TlsServer::start(Ending::Polite);
    let url = server.url();
    let run = run_load(&["-n", "10", "-c", "2", "--cacert", server.ca(), &url]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let port = server.address.port();
    let expected = format!(
        "Server Port:            {port}\n\
         SSL/TLS Protocol:       TLSv1.3,TLS13_"
    );
    assert!(run.stdout.contains(&expected), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("TLS Server Name:        localhost\n\nDocument Path:          /hello\n"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("Complete requests:      10\n"));
    assert!(run.stdout.contains("TLS handshakes:         "));
}

/// Without keep-alive every request makes a handshake; all but the first resume a session
/// from the shared cache (one connection at a time, so each finds the ticket before it).
#[test]
fn sessions_resume_without_keep_alive() {
    for (protocol, name) in [("TLS1.3", "TLSv1.3"), ("TLS1.2", "TLSv1.2")] {
        let server = TlsServer::start(Ending::Polite);
        let url = server.url();
        let run = run_load(&[
            "-n",
            "30",
            "-c",
            "1",
            "-f",
            protocol,
            "--cacert",
            server.ca(),
            "--json",
            "-",
            &url,
        ]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        let doc = run.json();
        assert_eq!(doc["requests_completed"], 30, "{doc}");
        assert_eq!(doc["requests_failed"], 0, "{doc}");
        assert_eq!(doc["tls"]["protocol"], name);
        assert_eq!(doc["options"]["tls_protocol"], protocol);
        assert_eq!(doc["tls"]["handshakes_full"], 1, "{protocol}: {doc}");
        assert_eq!(doc["tls"]["handshakes_resumed"], 29, "{protocol}: {doc}");
        assert_eq!(server.connections(), 30);
    }
}

#[test]
fn a_close_without_close_notify_after_a_complete_response_is_fine() {
    let server = TlsServer::start(Ending::AbruptClose);
    let url = server.url();
    let run = run_load(&[
        "-n",
        "20",
        "-c",
        "2",
        "-k",
        "--cacert",
        server.ca(),
        "--json",
        "-",
        &url,
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_eq!(doc["requests_completed"], 20, "{doc}");
    assert_eq!(doc["requests_failed"], 0, "{doc}");
    assert_eq!(
        doc["keep_alive_requests"], 0,
        "the server closed each: {doc}"
    );
}

#[test]
fn an_untrusted_certificate_is_a_connect_failure_with_its_reason() {
    let server = TlsServer::start(Ending::Polite);
    let url = server.url();
    let run = run_load(&["-n", "5", "-c", "1", "--json", "-", &url]);
    assert_eq!(run.code, Some(1), "nothing answered: {}", run.stderr);
    let doc = run.json();
    assert_contract(&doc);
    assert_eq!(doc["requests_completed"], 0);
    assert_eq!(doc["failures"]["connect"], 5, "{doc}");
    assert_eq!(doc["errors_by_kind"], json!({"tls_certificate": 5}));
    assert!(
        run.stderr.contains("UnknownIssuer") && run.stderr.contains("tls_certificate"),
        "{}",
        run.stderr
    );
    assert_eq!(server.requests(), 0, "no request left the client");
}

#[test]
fn a_name_the_certificate_does_not_carry_is_refused() {
    let server = TlsServer::start(Ending::Polite);
    let url = server.url_by_address();
    let run = run_load(&["-n", "3", "--cacert", server.ca(), "--json", "-", &url]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let doc = run.json();
    assert_eq!(
        doc["errors_by_kind"],
        json!({"tls_certificate": 3}),
        "{doc}"
    );
    assert!(
        run.stderr
            .contains("certificate not valid for name \"127.0.0.1\""),
        "{}",
        run.stderr
    );
}

#[test]
fn insecure_accepts_any_certificate() {
    let server = TlsServer::start(Ending::Polite);
    let url = server.url_by_address();
    let run = run_load(&[
        "-n",
        "20",
        "-c",
        "2",
        "-k",
        "--insecure",
        "--json",
        "-",
        &url,
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_eq!(doc["requests_completed"], 20, "{doc}");
    assert_eq!(doc["options"]["tls_verify"], false);
}

/// A plain HTTP server behind an https:// URL: its answer is not TLS.
#[test]
fn plain_http_behind_https_is_a_tls_protocol_failure() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    let server = thread::spawn(move || {
        for _ in 0..3 {
            let (mut stream, _) = listener.accept().unwrap();
            let mut hello = [0u8; 512];
            let _ = stream.read(&mut hello);
            let _ = stream.write_all(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
        }
    });
    let url = format!("https://{address}/");
    let run = run_load(&["-n", "3", "--insecure", "--json", "-", &url]);
    server.join().unwrap();
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let doc = run.json();
    assert_eq!(doc["failures"]["connect"], 3, "{doc}");
    assert_eq!(doc["errors_by_kind"], json!({"tls_protocol": 3}), "{doc}");
}

/// A server that closes during the handshake: a connect failure, not a hang.
#[test]
fn a_close_during_the_handshake_is_a_connect_failure() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    let server = thread::spawn(move || {
        for _ in 0..4 {
            let (mut stream, _) = listener.accept().unwrap();
            let mut hello = [0u8; 512];
            let _ = stream.read(&mut hello);
        }
    });
    let url = format!("https://{address}/");
    let run = run_load(&["-n", "4", "-c", "2", "--insecure", "--json", "-", &url]);
    server.join().unwrap();
    let doc = run.json();
    assert_eq!(doc["failures"]["connect"], 4, "{doc}");
    assert_eq!(
        doc["errors_by_kind"],
        json!({"connection_closed": 4}),
        "{doc}"
    );
}

/// A `--cacert` that cannot be read, or holds no certificate, is a bad argument: one line,
/// exit 2.
#[test]
fn a_bad_ca_file_is_one_clear_line() {
    let empty_file = common::TempFile::new("empty-ca", "pem");
    std::fs::write(&empty_file, "no certificate here\n").unwrap();
    let empty = empty_file.as_str().to_string();
    for (path, reason) in [
        (
            "/nonexistent/ca.pem",
            "cannot read /nonexistent/ca.pem: ".to_string(),
        ),
        (
            empty.as_str(),
            format!("cannot read CA certificates from {empty}: it holds no certificate"),
        ),
    ] {
        let run = run_load(&["--cacert", path, "https://localhost:1/"]);
        assert_eq!(run.code, Some(2), "{}", run.stderr);
        assert!(
            run.stderr.starts_with(&format!(
                "layerbench-load: invalid value '{path}' for '--cacert <FILE>': {reason}"
            )),
            "{}",
            run.stderr
        );
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    }
}
