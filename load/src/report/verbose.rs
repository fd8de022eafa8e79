//! `-v 2`: the request once, and the first response's head once, on stderr, in ab's words
//! (`INFO: GET header ==`, `LOG: header received:`). Never per request.

use std::io::{self, Write};

use crate::http::request::Request;

/// Most bytes shown of a response that failed (it may not be HTTP at all).
const MAX_SHOWN_BYTES: usize = 1024;

/// CRLF as LF, so that logs and terminals show plain lines.
fn printable(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).replace("\r\n", "\n")
}

pub fn request_text(method: &str, request: &Request) -> String {
    let mut text = format!(
        "INFO: {method} header == \n---\n{}---\n",
        printable(&request.bytes[..request.head_bytes])
    );
    if request.body_bytes() > 0 {
        text.push_str(&format!("(then {} bytes of body)\n", request.body_bytes()));
    }
    text
}

/// The head of a response (up to its blank line), or, after a failure, what came before it.
pub fn response_text(bytes: &[u8], failure: Option<&str>) -> String {
    match failure {
        None => {
            let end = bytes
                .windows(4)
                .position(|w| w == b"\r\n\r\n")
                .map_or(bytes.len(), |i| i + 4);
            format!("LOG: header received:\n{}\n", printable(&bytes[..end]))
        }
        Some(failure) => {
            let shown = &bytes[..bytes.len().min(MAX_SHOWN_BYTES)];
            format!(
                "LOG: {failure}; {} bytes received before it:\n{}\n",
                bytes.len(),
                printable(shown)
            )
        }
    }
}

pub fn show_request(method: &str, request: &Request) {
    let _ = io::stderr().write_all(request_text(method, request).as_bytes());
}

pub fn show_response(bytes: &[u8], failure: Option<&str>) {
    let _ = io::stderr().write_all(response_text(bytes, failure).as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_with_body() {
        let request = Request {
            bytes: b"POST / HTTP/1.1\r\nHost: h\r\n\r\nabc".to_vec(),
            head_bytes: 28,
        };
        assert_eq!(
            request_text("POST", &request),
            "INFO: POST header == \n---\nPOST / HTTP/1.1\nHost: h\n\n---\n(then 3 bytes of body)\n"
        );
    }

    #[test]
    fn response_head_only() {
        let text = response_text(b"HTTP/1.1 200 OK\r\nServer: s\r\n\r\nbody", None);
        assert_eq!(
            text,
            "LOG: header received:\nHTTP/1.1 200 OK\nServer: s\n\n\n"
        );
        let text = response_text(b"garbage", Some("exceptions: bad"));
        assert_eq!(
            text,
            "LOG: exceptions: bad; 7 bytes received before it:\ngarbage\n"
        );
    }
}
