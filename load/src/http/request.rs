//! The request, serialized once and written as-is for every request of the run.

use crate::url::Url;

pub const USER_AGENT: &str = concat!("layerbench-load/", env!("CARGO_PKG_VERSION"));

/// `GET` for `url`; without keep-alive it asks the server to close, as ab does.
pub fn build_get(url: &Url, keep_alive: bool) -> Vec<u8> {
    let mut request = format!(
        "GET {} HTTP/1.1\r\nHost: {}\r\nUser-Agent: {USER_AGENT}\r\nAccept: */*\r\n",
        url.path, url.host_header
    );
    if !keep_alive {
        request.push_str("Connection: close\r\n");
    }
    request.push_str("\r\n");
    request.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keep_alive_request() {
        let url = Url::parse("http://127.0.0.1:8080/a?b=c").unwrap();
        let text = String::from_utf8(build_get(&url, true)).unwrap();
        assert_eq!(
            text,
            format!(
                "GET /a?b=c HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: layerbench-load/{}\r\nAccept: */*\r\n\r\n",
                env!("CARGO_PKG_VERSION")
            )
        );
    }

    #[test]
    fn close_request() {
        let url = Url::parse("http://example/").unwrap();
        let text = String::from_utf8(build_get(&url, false)).unwrap();
        assert!(text.starts_with("GET / HTTP/1.1\r\nHost: example\r\n"));
        assert!(text.ends_with("Connection: close\r\n\r\n"));
    }
}
