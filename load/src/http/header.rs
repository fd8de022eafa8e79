//! A request header given on the command line (`-H "Name: value"`), checked once.

use std::fmt;

/// `Name: value`, the name a token and the value without CR, LF or NUL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    pub name: String,
    /// Without the whitespace around it.
    pub value: String,
}

/// Why a header was refused; the message says what to write instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HeaderError {
    #[error("expected a header as \"Name: value\"")]
    NoColon,
    #[error("invalid header name {0:?}: letters, digits and !#$%&'*+-.^_`|~ only")]
    Name(String),
    #[error("a header value cannot contain CR, LF or NUL")]
    Value,
    #[error("{0} is computed from the body of -p/-u and cannot be set with -H; remove that -H")]
    Framing(String),
}

/// RFC 9110 `tchar`.
pub fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

impl Header {
    pub fn parse(text: &str) -> Result<Header, HeaderError> {
        let (name, value) = text.split_once(':').ok_or(HeaderError::NoColon)?;
        if name.is_empty() || !name.bytes().all(is_token_byte) {
            return Err(HeaderError::Name(name.to_string()));
        }
        Header::check_value(value)?;
        // The body's framing is ours: a second length would make the request ambiguous.
        for framing in ["Content-Length", "Transfer-Encoding"] {
            if name.eq_ignore_ascii_case(framing) {
                return Err(HeaderError::Framing(framing.to_string()));
            }
        }
        Ok(Header {
            name: name.to_string(),
            value: value.trim().to_string(),
        })
    }

    pub fn check_value(value: &str) -> Result<(), HeaderError> {
        if value.bytes().any(|b| matches!(b, b'\r' | b'\n' | 0)) {
            return Err(HeaderError::Value);
        }
        Ok(())
    }

    /// Whether this header has the name `name` (case-insensitive).
    pub fn is(&self, name: &str) -> bool {
        self.name.eq_ignore_ascii_case(name)
    }
}

impl fmt::Display for Header {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, self.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_as_ab_does() {
        let header = Header::parse("X-Test:  a b ").unwrap();
        assert_eq!(
            (header.name.as_str(), header.value.as_str()),
            ("X-Test", "a b")
        );
        assert_eq!(header.to_string(), "X-Test: a b");
        assert!(header.is("x-test"));
        assert_eq!(Header::parse("Empty:").unwrap().value, "");
    }

    #[test]
    fn refusals() {
        assert_eq!(Header::parse("no colon"), Err(HeaderError::NoColon));
        assert!(matches!(Header::parse(": v"), Err(HeaderError::Name(_))));
        assert!(matches!(Header::parse("A B: v"), Err(HeaderError::Name(_))));
        assert_eq!(Header::parse("A: x\r\nB: y"), Err(HeaderError::Value));
        assert!(matches!(
            Header::parse("content-length: 5"),
            Err(HeaderError::Framing(_))
        ));
        assert!(matches!(
            Header::parse("Transfer-Encoding: chunked"),
            Err(HeaderError::Framing(_))
        ));
    }
}
