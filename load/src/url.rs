//! `http[s]://HOST[:PORT][/PATH][?QUERY]`: the URLs a run can request.

use std::fmt;

/// Plain HTTP or HTTP over TLS.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    Http,
    Https,
}

impl Scheme {
    pub fn default_port(self) -> u16 {
        match self {
            Scheme::Http => 80,
            Scheme::Https => 443,
        }
    }
}

/// A parsed `http://` or `https://` URL: where to connect and what to ask for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Url {
    /// The URL as the user wrote it.
    pub text: String,
    pub scheme: Scheme,
    /// Host name or address, without IPv6 brackets.
    pub host: String,
    pub port: u16,
    /// Path and query, always starting with `/`.
    pub path: String,
    /// The `Host` header's value: the host as written, with `:port` when it is not the
    /// scheme's default.
    pub host_header: String,
}

/// Why a URL was refused; the message says what to write instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UrlError {
    #[error("expected a URL of the form http://HOST[:PORT]/PATH or https://...")]
    NoScheme,
    #[error("unsupported scheme {0:?}; use an http:// or https:// URL")]
    Scheme(String),
    #[error("the URL has no host; write it as http://HOST[:PORT]/PATH")]
    NoHost,
    #[error("user information (user@host) is not supported")]
    UserInfo,
    #[error("invalid port {0:?}; it must be a number from 1 to 65535")]
    Port(String),
    #[error("invalid host {0:?}")]
    Host(String),
    #[error("invalid path {0:?}: spaces and control characters must be percent-encoded")]
    Path(String),
}

impl Url {
    pub fn parse(text: &str) -> Result<Url, UrlError> {
        let (scheme, rest) = text.split_once("://").ok_or(UrlError::NoScheme)?;
        let scheme = match scheme.to_ascii_lowercase().as_str() {
            "http" => Scheme::Http,
            "https" => Scheme::Https,
            _ => return Err(UrlError::Scheme(scheme.to_string())),
        };
        let rest = rest.split('#').next().unwrap_or_default();
        let split = rest.find(['/', '?']).unwrap_or(rest.len());
        let (authority, path) = rest.split_at(split);
        if authority.contains('@') {
            return Err(UrlError::UserInfo);
        }
        let path = match path {
            "" => "/".to_string(),
            p if p.starts_with('?') => format!("/{p}"),
            p => p.to_string(),
        };
        if path.bytes().any(|b| b.is_ascii_control() || b == b' ') {
            return Err(UrlError::Path(path));
        }
        let (host, port_text) = split_authority(authority)?;
        if host.is_empty() {
            return Err(UrlError::NoHost);
        }
        if !host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._:".contains(&b))
        {
            return Err(UrlError::Host(host.to_string()));
        }
        let port = match port_text {
            None => scheme.default_port(),
            Some(p) => match p.parse::<u16>() {
                Ok(port) if port > 0 && p.bytes().all(|b| b.is_ascii_digit()) => port,
                _ => return Err(UrlError::Port(p.to_string())),
            },
        };
        let host_in_header = if host.contains(':') {
            format!("[{host}]")
        } else {
            host.to_string()
        };
        let host_header = if port == scheme.default_port() {
            host_in_header
        } else {
            format!("{host_in_header}:{port}")
        };
        Ok(Url {
            text: text.to_string(),
            scheme,
            host: host.to_string(),
            port,
            path,
            host_header,
        })
    }
}

/// Splits `host[:port]` or `[v6]:port` into host and optional port text.
fn split_authority(authority: &str) -> Result<(&str, Option<&str>), UrlError> {
    if let Some(bracketed) = authority.strip_prefix('[') {
        let (host, after) = bracketed
            .split_once(']')
            .ok_or_else(|| UrlError::Host(authority.to_string()))?;
        return match after {
            "" => Ok((host, None)),
            _ => match after.strip_prefix(':') {
                Some(port) => Ok((host, Some(port))),
                None => Err(UrlError::Host(authority.to_string())),
            },
        };
    }
    match authority.split_once(':') {
        Some((host, port)) => Ok((host, Some(port))),
        None => Ok((authority, None)),
    }
}

impl fmt::Display for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_host_and_path() {
        let url = Url::parse("http://127.0.0.1:8080/hello.txt?x=1").unwrap();
        assert_eq!(url.host, "127.0.0.1");
        assert_eq!(url.port, 8080);
        assert_eq!(url.path, "/hello.txt?x=1");
        assert_eq!(url.host_header, "127.0.0.1:8080");
    }

    #[test]
    fn defaults() {
        let url = Url::parse("http://localhost").unwrap();
        assert_eq!(
            (url.scheme, url.port, url.path.as_str()),
            (Scheme::Http, 80, "/")
        );
        assert_eq!(url.host_header, "localhost");
        assert_eq!(Url::parse("http://h?q").unwrap().path, "/?q");
        assert_eq!(Url::parse("HTTP://h/a#frag").unwrap().path, "/a");
    }

    #[test]
    fn ipv6() {
        let url = Url::parse("http://[::1]:9000/").unwrap();
        assert_eq!((url.host.as_str(), url.port), ("::1", 9000));
        assert_eq!(url.host_header, "[::1]:9000");
    }

    #[test]
    fn https() {
        let url = Url::parse("https://example.org/a").unwrap();
        assert_eq!((url.scheme, url.port), (Scheme::Https, 443));
        assert_eq!(url.host_header, "example.org");
        let url = Url::parse("HTTPS://127.0.0.1:8443").unwrap();
        assert_eq!(url.host_header, "127.0.0.1:8443");
        assert_eq!(Url::parse("http://h:443/").unwrap().host_header, "h:443");
        assert_eq!(Url::parse("https://h:80/").unwrap().host_header, "h:80");
    }

    #[test]
    fn refusals() {
        assert_eq!(Url::parse("localhost:80/"), Err(UrlError::NoScheme));
        assert!(matches!(Url::parse("ftp://x/"), Err(UrlError::Scheme(_))));
        assert_eq!(Url::parse("http:///x"), Err(UrlError::NoHost));
        assert_eq!(Url::parse("http://u@x/"), Err(UrlError::UserInfo));
        assert!(matches!(Url::parse("http://x:0/"), Err(UrlError::Port(_))));
        assert!(matches!(
            Url::parse("http://x:99999/"),
            Err(UrlError::Port(_))
        ));
        assert!(matches!(
            Url::parse("http://x:+80/"),
            Err(UrlError::Port(_))
        ));
        assert!(matches!(Url::parse("http://a b/"), Err(UrlError::Host(_))));
        assert!(matches!(Url::parse("http://x/a b"), Err(UrlError::Path(_))));
    }
}
