//! The request, serialized once (head and body) and written as-is for every request of the run.

use super::header::Header;
use crate::url::Url;

pub const USER_AGENT: &str = concat!("layerbench-load/", env!("CARGO_PKG_VERSION"));

/// A request body (-p, -u) and its Content-Type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Body {
    pub bytes: Vec<u8>,
    pub content_type: String,
}

/// What the request is made of: the URL, the method, the user's headers and body.
#[derive(Debug, Clone, Copy)]
pub struct RequestSpec<'a> {
    pub url: &'a Url,
    pub method: &'a str,
    pub keep_alive: bool,
    pub headers: &'a [Header],
    pub body: Option<&'a Body>,
}

/// The serialized request: `bytes[..head_bytes]` is the head, the rest the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub bytes: Vec<u8>,
    pub head_bytes: usize,
}

impl Request {
    pub fn body_bytes(&self) -> usize {
        self.bytes.len() - self.head_bytes
    }
}

/// Builds the request as ab does: `Host`, `User-Agent` and `Accept` unless the user gave
/// them (a user `Host` takes the place of ours, first), `Connection: close` without
/// keep-alive (unless the user gave a `Connection`), the body's `Content-Length` and
/// `Content-Type` (the latter unless given with -H), then the user's headers in order.
pub fn build(spec: &RequestSpec) -> Request {
    let given = |name: &str| spec.headers.iter().find(|h| h.is(name));
    let mut head = format!("{} {} HTTP/1.1\r\n", spec.method, spec.url.path);
    let mut line = |name: &str, value: &str| {
        head.push_str(name);
        head.push_str(": ");
        head.push_str(value);
        head.push_str("\r\n");
    };
    match given("Host") {
        Some(host) => line(&host.name, &host.value),
        None => line("Host", &spec.url.host_header),
    }
    if given("User-Agent").is_none() {
        line("User-Agent", USER_AGENT);
    }
    if given("Accept").is_none() {
        line("Accept", "*/*");
    }
    if !spec.keep_alive && given("Connection").is_none() {
        line("Connection", "close");
    }
    if let Some(body) = spec.body {
        line("Content-Length", &body.bytes.len().to_string());
        if given("Content-Type").is_none() {
            line("Content-Type", &body.content_type);
        }
    }
    for header in spec.headers.iter().filter(|h| !h.is("Host")) {
        line(&header.name, &header.value);
    }
    head.push_str("\r\n");
    let mut bytes = head.into_bytes();
    let head_bytes = bytes.len();
    if let Some(body) = spec.body {
        bytes.extend_from_slice(&body.bytes);
    }
    Request { bytes, head_bytes }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec<'a>(url: &'a Url, keep_alive: bool) -> RequestSpec<'a> {
        RequestSpec {
            url,
            method: "GET",
            keep_alive,
            headers: &[],
            body: None,
        }
    }

    fn text(request: &Request) -> String {
        String::from_utf8(request.bytes.clone()).unwrap()
    }

    #[test]
    fn keep_alive_request() {
        let url = Url::parse("http://127.0.0.1:8080/a?b=c").unwrap();
        let request = build(&spec(&url, true));
        assert_eq!(
            text(&request),
            format!(
                "GET /a?b=c HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: layerbench-load/{}\r\nAccept: */*\r\n\r\n",
                env!("CARGO_PKG_VERSION")
            )
        );
        assert_eq!(
            (request.head_bytes, request.body_bytes()),
            (request.bytes.len(), 0)
        );
    }

    #[test]
    fn close_request() {
        let url = Url::parse("http://example/").unwrap();
        let text = text(&build(&spec(&url, false)));
        assert!(text.starts_with("GET / HTTP/1.1\r\nHost: example\r\n"));
        assert!(text.ends_with("Connection: close\r\n\r\n"));
    }

    #[test]
    fn user_headers_and_body() {
        let url = Url::parse("http://h:81/submit").unwrap();
        let headers = [
            Header::parse("X-One: 1").unwrap(),
            Header::parse("host: other.example").unwrap(),
            Header::parse("Accept: text/html").unwrap(),
        ];
        let body = Body {
            bytes: b"a=1&b=2".to_vec(),
            content_type: "application/x-www-form-urlencoded".to_string(),
        };
        let request = build(&RequestSpec {
            url: &url,
            method: "POST",
            keep_alive: false,
            headers: &headers,
            body: Some(&body),
        });
        let expected = format!(
            "POST /submit HTTP/1.1\r\nhost: other.example\r\nUser-Agent: {USER_AGENT}\r\n\
             Connection: close\r\nContent-Length: 7\r\n\
             Content-Type: application/x-www-form-urlencoded\r\nX-One: 1\r\n\
             Accept: text/html\r\n\r\na=1&b=2"
        );
        assert_eq!(text(&request), expected);
        assert_eq!(request.body_bytes(), 7);
        assert!(request.bytes[..request.head_bytes].ends_with(b"\r\n\r\n"));
    }

    #[test]
    fn user_content_type_and_connection_replace_ours() {
        let url = Url::parse("http://h/").unwrap();
        let headers = [
            Header::parse("Content-Type: application/json").unwrap(),
            Header::parse("Connection: keep-alive").unwrap(),
        ];
        let body = Body {
            bytes: b"{}".to_vec(),
            content_type: "text/plain".to_string(),
        };
        let text = text(&build(&RequestSpec {
            url: &url,
            method: "PUT",
            keep_alive: false,
            headers: &headers,
            body: Some(&body),
        }));
        assert!(!text.contains("text/plain"), "{text}");
        assert!(!text.contains("close"), "{text}");
        assert!(text.contains("\r\nContent-Length: 2\r\n"), "{text}");
        assert!(
            text.ends_with("\r\nConnection: keep-alive\r\n\r\n{}"),
            "{text}"
        );
    }
}
