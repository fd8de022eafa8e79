//! ab's request flags (-H, -m, -p, -u, -T, -i, -l, -r) reach the server as sent.

mod common;

use std::sync::{Arc, Mutex};

use common::{Reply, Request, TestServer, ok, response, run_load};

/// The method line, headers and body of a request as the server saw it.
#[derive(Debug, Clone)]
struct Seen {
    head: String,
    body: Vec<u8>,
}

impl Seen {
    fn of(request: &Request) -> Seen {
        Seen {
            head: request.head.clone(),
            body: request.body.clone(),
        }
    }

    fn request_line(&self) -> &str {
        self.head.split("\r\n").next().unwrap_or_default()
    }

    /// Every value of header `name`, in order.
    fn values(&self, name: &str) -> Vec<&str> {
        self.head
            .split("\r\n")
            .skip(1)
            .filter_map(|line| line.split_once(':'))
            .filter(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.trim())
            .collect()
    }
}

/// A server that answers `reply` and keeps what it saw.
fn recording_server(
    reply: impl Fn(&Request) -> Reply + Send + Sync + 'static,
) -> (TestServer, Arc<Mutex<Vec<Seen>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let kept = seen.clone();
    let server = TestServer::start(move |request| {
        kept.lock().unwrap().push(Seen::of(request));
        reply(request)
    });
    (server, seen)
}

fn body_file(name: &str, contents: &[u8]) -> common::TempFile {
    let path = common::TempFile::new(name, "body");
    std::fs::write(&path, contents).unwrap();
    path
}

#[test]
fn post_file_with_content_type_and_headers() {
    let (server, seen) = recording_server(|_| Reply::Respond(ok("posted")));
    let body = b"name=value&other=\x00\xffbinary";
    let path = body_file("post", body);
    let url = server.url("/submit?x=1");
    let run = run_load(&[
        "-n",
        "10",
        "-c",
        "2",
        "-k",
        "-p",
        path.to_str().unwrap(),
        "-T",
        "application/x-www-form-urlencoded",
        "-H",
        "X-Trace: 42",
        "-H",
        "Host: virtual.example",
        "-H",
        "Accept-Encoding: gzip",
        "--json",
        "-",
        &url,
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 10);
    for request in seen.iter() {
        assert_eq!(request.request_line(), "POST /submit?x=1 HTTP/1.1");
        assert_eq!(request.body, body, "{request:?}");
        assert_eq!(request.values("Content-Length"), [body.len().to_string()]);
        assert_eq!(
            request.values("Content-Type"),
            ["application/x-www-form-urlencoded"]
        );
        assert_eq!(request.values("Host"), ["virtual.example"], "ours replaced");
        assert_eq!(request.values("X-Trace"), ["42"]);
        assert_eq!(request.values("Accept-Encoding"), ["gzip"]);
        assert_eq!(request.values("Accept"), ["*/*"]);
    }
    let doc = run.json();
    assert_eq!(doc["requests_completed"], 10);
    assert_eq!(doc["options"]["method"], "POST");
    assert_eq!(doc["options"]["body_bytes"], body.len());
    assert_eq!(
        doc["options"]["content_type"],
        "application/x-www-form-urlencoded"
    );
    assert_eq!(
        doc["options"]["headers"],
        serde_json::json!([
            "X-Trace: 42",
            "Host: virtual.example",
            "Accept-Encoding: gzip"
        ])
    );
    let head_bytes = seen[0].head.len() as u64;
    assert_eq!(
        doc["sent_bytes"],
        10 * (head_bytes + body.len() as u64),
        "every byte of every request, as ab's Total body sent"
    );
}

#[test]
fn put_file_defaults_to_text_plain_and_method_overrides() {
    let (server, seen) = recording_server(|_| Reply::RespondAndClose(ok("ok")));
    let path = body_file("put", b"payload");
    let url = server.url("/thing");
    for (args, method) in [
        (&["-u", path.to_str().unwrap()][..], "PUT"),
        (&["-m", "PATCH", "-p", path.to_str().unwrap()], "PATCH"),
        (&["-m", "DELETE"], "DELETE"),
    ] {
        seen.lock().unwrap().clear();
        let mut argv = vec!["-n", "3", "-q"];
        argv.extend_from_slice(args);
        argv.push(&url);
        let run = run_load(&argv);
        assert_eq!(run.code, Some(0), "{args:?}: {}", run.stderr);
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), 3, "{args:?}");
        let request = &seen[0];
        assert_eq!(request.request_line(), format!("{method} /thing HTTP/1.1"));
        assert_eq!(request.values("Connection"), ["close"]);
        if method == "DELETE" {
            assert!(request.body.is_empty());
            assert!(request.values("Content-Length").is_empty(), "{request:?}");
            assert!(request.values("Content-Type").is_empty(), "{request:?}");
        } else {
            assert_eq!(request.body, b"payload");
            assert_eq!(
                request.values("Content-Type"),
                ["text/plain"],
                "ab's default"
            );
        }
    }
}

#[test]
fn user_agent_accept_and_content_type_replace_ours() {
    let (server, seen) = recording_server(|_| Reply::Respond(ok("ok")));
    let path = body_file("json", b"{}");
    let url = server.url("/");
    let run = run_load(&[
        "-n",
        "1",
        "-q",
        "-p",
        path.to_str().unwrap(),
        "-H",
        "User-Agent: ab-compatible",
        "-H",
        "accept: application/json",
        "-H",
        "Content-Type: application/json",
        &url,
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let request = seen.lock().unwrap()[0].clone();
    assert_eq!(request.values("User-Agent"), ["ab-compatible"]);
    assert_eq!(request.values("Accept"), ["application/json"]);
    assert_eq!(request.values("Content-Type"), ["application/json"]);
}

#[test]
fn head_requests_expect_no_body() {
    // The head announces 13 bytes that a response to HEAD never carries.
    let (server, seen) = recording_server(|_| {
        Reply::Respond(b"HTTP/1.1 200 OK\r\nServer: s\r\nContent-Length: 13\r\n\r\n".to_vec())
    });
    let url = server.url("/");
    let run = run_load(&["-n", "20", "-c", "2", "-k", "-i", "--json", "-", &url]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_eq!(doc["requests_completed"], 20);
    assert_eq!(doc["requests_failed"], 0);
    assert_eq!(doc["keep_alive_requests"], 20);
    assert_eq!(doc["html_transferred_bytes"], 0);
    assert_eq!(doc["options"]["method"], "HEAD");
    assert!(run.wall < std::time::Duration::from_secs(5));
    assert_eq!(seen.lock().unwrap()[0].request_line(), "HEAD / HTTP/1.1");
}

#[test]
fn variable_length_is_not_a_failure_and_r_is_accepted() {
    let server = TestServer::start(|request| {
        Reply::Respond(ok(if request.number % 2 == 0 { "a" } else { "bb" }))
    });
    let url = server.url("/");
    let run = run_load(&["-n", "40", "-k", "-l", "-r", &url]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stdout.contains("Document Length:        Variable\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("Failed requests:        0\n"),
        "{}",
        run.stdout
    );
    let run = run_load(&["-n", "40", "-k", "-l", "--json", "-", &url]);
    let doc = run.json();
    assert_eq!(doc["failures"]["length"], 0);
    assert_eq!(doc["options"]["variable_length"], true);
}

#[test]
fn verbose_shows_the_request_and_first_response_once() {
    let server =
        TestServer::start(|_| Reply::Respond(response("200 OK", "X-First: yes\r\n", "hello")));
    let url = server.url("/v");
    let run = run_load(&["-n", "50", "-c", "3", "-k", "-q", "-v", "2", &url]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.stderr
            .matches("INFO: GET header == \n---\nGET /v HTTP/1.1\n")
            .count(),
        1,
        "{}",
        run.stderr
    );
    assert_eq!(
        run.stderr
            .matches("LOG: header received:\nHTTP/1.1 200 OK\n")
            .count(),
        1,
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("X-First: yes\n"), "{}", run.stderr);
    assert!(
        !run.stderr.contains("hello"),
        "the head only: {}",
        run.stderr
    );
    let quiet = run_load(&["-n", "5", "-q", &url]);
    assert_eq!(
        quiet.stderr, "",
        "no progress line when stderr is not a terminal"
    );
}

#[test]
fn bad_request_flags_exit_2() {
    let path = body_file("conflict", b"x");
    let file = path.to_str().unwrap();
    for args in [
        &["-H", "no colon here", "http://127.0.0.1/"][..],
        &["-H", "Bad Name: x", "http://127.0.0.1/"],
        &["-H", "Content-Length: 3", "http://127.0.0.1/"],
        &["-m", "GE T", "http://127.0.0.1/"],
        &["-p", "/nonexistent/body", "http://127.0.0.1/"],
        &["-p", file, "-u", file, "http://127.0.0.1/"],
        &["-i", "-p", file, "http://127.0.0.1/"],
    ] {
        let run = run_load(args);
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty());
    }
    let run = run_load(&["-p", "/nonexistent/body", "http://127.0.0.1/"]);
    assert!(
        run.stderr.contains("cannot read /nonexistent/body"),
        "{}",
        run.stderr
    );
    let run = run_load(&["-H", "Content-Length: 3", "http://127.0.0.1/"]);
    assert!(
        run.stderr.contains("computed from the body"),
        "{}",
        run.stderr
    );
}
