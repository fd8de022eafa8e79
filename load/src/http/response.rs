//! An incremental HTTP/1.1 response parser.
//!
//! Bytes are fed as they arrive, split anywhere. Only the current header or chunk-size line
//! is kept between feeds (in a buffer reused across responses); bodies are counted, never
//! copied. Framing follows RFC 9112 section 6.3 for the responses to a GET: 1xx, 204 and 304
//! have no body; `Transfer-Encoding` ending in `chunked` wins over `Content-Length`; any other
//! transfer coding, or no length at all, means the body runs until the server closes.

/// Longest header, chunk-size or trailer line accepted.
const MAX_LINE_BYTES: usize = 64 * 1024;
/// Largest response head (status line and headers) accepted.
const MAX_HEAD_BYTES: u64 = 1024 * 1024;
/// How every status line starts.
const STATUS_PREFIX: &[u8] = b"HTTP/1.";
/// Longest `Server` header value kept for the report.
const MAX_SERVER_CHARS: usize = 256;

/// What the status line and headers said.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Head {
    /// `1` for HTTP/1.1, `0` for HTTP/1.0.
    pub minor_version: u8,
    pub status: u16,
    pub content_length: Option<u64>,
    pub chunked: bool,
    /// `Connection: close` was sent.
    pub connection_close: bool,
    /// `Connection: keep-alive` was sent (what keeps an HTTP/1.0 connection open).
    pub connection_keep_alive: bool,
    /// The `Server` header, when the parser was asked to capture it.
    pub server: Option<String>,
}

impl Head {
    /// Whether the server leaves the connection open after this response.
    pub fn keeps_alive(&self) -> bool {
        if self.connection_close {
            return false;
        }
        self.minor_version >= 1 || self.connection_keep_alive
    }
}

/// Result of feeding bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// All bytes were consumed and the response is not finished.
    Partial,
    /// The response ended after `consumed` bytes of this feed; the rest is not part of it.
    Complete { consumed: usize },
}

/// Why a response was refused as malformed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("invalid status line")]
    StatusLine,
    #[error("invalid header line")]
    HeaderLine,
    #[error("invalid Content-Length")]
    ContentLength,
    #[error("invalid chunk size")]
    ChunkSize,
    #[error("missing CRLF after chunk data")]
    ChunkEnd,
    #[error("line or response head too long")]
    TooLong,
    #[error("unexpected 101 Switching Protocols")]
    Upgrade,
    #[error("connection closed before the response was complete")]
    Incomplete,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    StatusLine,
    Headers,
    Body { remaining: u64 },
    UntilClose,
    ChunkSize,
    ChunkData { remaining: u64 },
    ChunkDataEnd,
    Trailers,
    Done,
}

/// Parses one response at a time; [`ResponseParser::reset`] readies it for the next.
#[derive(Debug)]
pub struct ResponseParser {
    state: State,
    line: Vec<u8>,
    head: Head,
    capture_server: bool,
    /// A transfer coding other than a final `chunked`: the body runs until close.
    other_coding: bool,
    head_bytes: u64,
    wire_bytes: u64,
    body_bytes: u64,
    /// The requests are HEAD: no response has a body, whatever its headers say.
    bodiless: bool,
}

impl Default for ResponseParser {
    fn default() -> Self {
        ResponseParser {
            state: State::StatusLine,
            line: Vec::new(),
            head: Head::default(),
            capture_server: false,
            other_coding: false,
            head_bytes: 0,
            wire_bytes: 0,
            body_bytes: 0,
            bodiless: false,
        }
    }
}

impl ResponseParser {
    /// A parser for the responses to HEAD requests, which have no body (RFC 9110 9.3.2).
    pub fn for_head_requests() -> ResponseParser {
        ResponseParser {
            bodiless: true,
            ..ResponseParser::default()
        }
    }

    /// Starts a new response; `capture_server` keeps its `Server` header (one allocation).
    pub fn reset(&mut self, capture_server: bool) {
        self.state = State::StatusLine;
        self.line.clear();
        self.head = Head::default();
        self.capture_server = capture_server;
        self.other_coding = false;
        self.head_bytes = 0;
        self.wire_bytes = 0;
        self.body_bytes = 0;
    }

    /// Whether this response's `Server` header is being captured.
    pub fn capturing_server(&self) -> bool {
        self.capture_server
    }

    /// The captured `Server` header, if any (taken, to be kept once).
    pub fn take_server(&mut self) -> Option<String> {
        self.head.server.take()
    }

    pub fn head(&self) -> &Head {
        &self.head
    }

    /// Bytes of this response consumed so far, framing included.
    pub fn wire_bytes(&self) -> u64 {
        self.wire_bytes
    }

    /// Body (payload) bytes so far; for chunked bodies, without the chunk framing.
    pub fn body_bytes(&self) -> u64 {
        self.body_bytes
    }

    #[cfg(test)]
    fn is_complete(&self) -> bool {
        self.state == State::Done
    }

    /// Whether the server's close is the end of this response's body.
    #[cfg(test)]
    fn is_body_until_close(&self) -> bool {
        self.state == State::UntilClose
    }

    /// Consumes bytes of the response, up to its end.
    pub fn feed(&mut self, data: &[u8]) -> Result<Progress, ParseError> {
        let mut pos = 0;
        while pos < data.len() {
            let rest = &data[pos..];
            let taken = match self.state {
                State::Done => break,
                State::Body { remaining } => {
                    let take = remaining.min(rest.len() as u64);
                    self.body_bytes += take;
                    let remaining = remaining - take;
                    self.state = if remaining == 0 {
                        State::Done
                    } else {
                        State::Body { remaining }
                    };
                    take as usize
                }
                State::UntilClose => {
                    self.body_bytes += rest.len() as u64;
                    rest.len()
                }
                State::ChunkData { remaining } => {
                    let take = remaining.min(rest.len() as u64);
                    self.body_bytes += take;
                    let remaining = remaining - take;
                    self.state = if remaining == 0 {
                        State::ChunkDataEnd
                    } else {
                        State::ChunkData { remaining }
                    };
                    take as usize
                }
                _ => self.take_line(rest)?,
            };
            pos += taken;
            self.wire_bytes += taken as u64;
        }
        if self.state == State::Done {
            Ok(Progress::Complete { consumed: pos })
        } else {
            Ok(Progress::Partial)
        }
    }

    /// The server closed the connection: that ends a body that runs until close, and
    /// anything else is an incomplete response.
    pub fn finish(&mut self) -> Result<(), ParseError> {
        match self.state {
            State::UntilClose | State::Done => {
                self.state = State::Done;
                Ok(())
            }
            _ => Err(ParseError::Incomplete),
        }
    }

    /// Consumes up to and including the next `\n` (or all of `rest` if it has none) and
    /// handles a completed line. Returns the bytes consumed.
    fn take_line(&mut self, rest: &[u8]) -> Result<usize, ParseError> {
        let Some(end) = rest.iter().position(|&b| b == b'\n') else {
            if self.line.len() + rest.len() > MAX_LINE_BYTES {
                return Err(ParseError::TooLong);
            }
            self.line.extend_from_slice(rest);
            self.count_head(rest.len())?;
            // Refuse what cannot become a status line now, not at the server's close.
            if self.state == State::StatusLine {
                let known = self.line.len().min(STATUS_PREFIX.len());
                if self.line[..known] != STATUS_PREFIX[..known] {
                    return Err(ParseError::StatusLine);
                }
            }
            return Ok(rest.len());
        };
        if self.line.len() + end > MAX_LINE_BYTES {
            return Err(ParseError::TooLong);
        }
        self.count_head(end + 1)?;
        let mut stash = std::mem::take(&mut self.line);
        let result = if stash.is_empty() {
            self.on_line(strip_cr(&rest[..end]))
        } else {
            stash.extend_from_slice(&rest[..end]);
            self.on_line(strip_cr(&stash))
        };
        stash.clear();
        self.line = stash;
        result.map(|()| end + 1)
    }

    fn count_head(&mut self, bytes: usize) -> Result<(), ParseError> {
        if matches!(self.state, State::StatusLine | State::Headers) {
            self.head_bytes += bytes as u64;
            if self.head_bytes > MAX_HEAD_BYTES {
                return Err(ParseError::TooLong);
            }
        }
        Ok(())
    }

    fn on_line(&mut self, line: &[u8]) -> Result<(), ParseError> {
        match self.state {
            State::StatusLine => {
                let (minor_version, status) = parse_status_line(line)?;
                self.head.minor_version = minor_version;
                self.head.status = status;
                self.state = State::Headers;
            }
            State::Headers if line.is_empty() => self.state = self.end_of_head()?,
            State::Headers => self.on_header(line)?,
            State::ChunkSize => {
                self.state = match parse_chunk_size(line)? {
                    0 => State::Trailers,
                    size => State::ChunkData { remaining: size },
                }
            }
            State::ChunkDataEnd if line.is_empty() => self.state = State::ChunkSize,
            State::ChunkDataEnd => return Err(ParseError::ChunkEnd),
            State::Trailers if line.is_empty() => self.state = State::Done,
            State::Trailers => {
                split_header(line)?;
            }
            State::Body { .. } | State::UntilClose | State::ChunkData { .. } | State::Done => {
                unreachable!("body states do not read lines")
            }
        }
        Ok(())
    }

    fn on_header(&mut self, line: &[u8]) -> Result<(), ParseError> {
        let (name, value) = split_header(line)?;
        if name.eq_ignore_ascii_case(b"content-length") {
            let length = parse_content_length(value)?;
            if self.head.content_length.is_some_and(|seen| seen != length) {
                return Err(ParseError::ContentLength);
            }
            self.head.content_length = Some(length);
        } else if name.eq_ignore_ascii_case(b"transfer-encoding") {
            // Only the final coding decides the framing; anything but chunked runs to close.
            let last = value.rsplit(|&b| b == b',').next().unwrap_or_default();
            self.head.chunked = trim(last).eq_ignore_ascii_case(b"chunked");
            self.other_coding = !self.head.chunked;
        } else if name.eq_ignore_ascii_case(b"connection") {
            for token in value.split(|&b| b == b',').map(trim) {
                if token.eq_ignore_ascii_case(b"close") {
                    self.head.connection_close = true;
                } else if token.eq_ignore_ascii_case(b"keep-alive") {
                    self.head.connection_keep_alive = true;
                }
            }
        } else if name.eq_ignore_ascii_case(b"server")
            && self.capture_server
            && self.head.server.is_none()
        {
            let text = String::from_utf8_lossy(value);
            self.head.server = Some(text.chars().take(MAX_SERVER_CHARS).collect());
        }
        Ok(())
    }

    /// The blank line after the headers: decides how the body is framed.
    fn end_of_head(&mut self) -> Result<State, ParseError> {
        let status = self.head.status;
        if status == 101 {
            return Err(ParseError::Upgrade);
        }
        if (100..200).contains(&status) {
            // An interim response (100 Continue, 103 Early Hints): the real one follows.
            let server = self.head.server.take();
            self.head = Head {
                server,
                ..Head::default()
            };
            self.other_coding = false;
            self.head_bytes = 0;
            return Ok(State::StatusLine);
        }
        if status == 204 || status == 304 || self.bodiless {
            return Ok(State::Done);
        }
        if self.head.chunked {
            return Ok(State::ChunkSize);
        }
        if self.other_coding {
            self.head.connection_close = true;
            return Ok(State::UntilClose);
        }
        match self.head.content_length {
            Some(0) => Ok(State::Done),
            Some(length) => Ok(State::Body { remaining: length }),
            None => {
                self.head.connection_close = true;
                Ok(State::UntilClose)
            }
        }
    }
}

fn strip_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

fn trim(bytes: &[u8]) -> &[u8] {
    let is_space = |b: &u8| *b == b' ' || *b == b'\t';
    let start = bytes
        .iter()
        .position(|b| !is_space(b))
        .unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|b| !is_space(b))
        .map_or(start, |i| i + 1);
    &bytes[start..end]
}

/// `HTTP/1.x SSS[ reason]` → (x, SSS).
fn parse_status_line(line: &[u8]) -> Result<(u8, u16), ParseError> {
    let rest = line
        .strip_prefix(STATUS_PREFIX)
        .ok_or(ParseError::StatusLine)?;
    let [minor, b' ', d1, d2, d3, tail @ ..] = rest else {
        return Err(ParseError::StatusLine);
    };
    if !matches!(minor, b'0' | b'1') || !matches!(tail, [] | [b' ', ..]) {
        return Err(ParseError::StatusLine);
    }
    let mut status = 0u16;
    for digit in [d1, d2, d3] {
        if !digit.is_ascii_digit() {
            return Err(ParseError::StatusLine);
        }
        status = status * 10 + u16::from(digit - b'0');
    }
    if status < 100 {
        return Err(ParseError::StatusLine);
    }
    Ok((minor - b'0', status))
}

fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// `name: value` → (name, trimmed value). No obsolete line folding, no space before the colon.
fn split_header(line: &[u8]) -> Result<(&[u8], &[u8]), ParseError> {
    let colon = line
        .iter()
        .position(|&b| b == b':')
        .ok_or(ParseError::HeaderLine)?;
    let name = &line[..colon];
    if name.is_empty() || !name.iter().all(|&b| is_token_byte(b)) {
        return Err(ParseError::HeaderLine);
    }
    Ok((name, trim(&line[colon + 1..])))
}

/// One length, or a list of identical ones (`5, 5`).
fn parse_content_length(value: &[u8]) -> Result<u64, ParseError> {
    let mut length = None;
    for part in value.split(|&b| b == b',').map(trim) {
        if part.is_empty() || !part.iter().all(u8::is_ascii_digit) {
            return Err(ParseError::ContentLength);
        }
        let mut parsed = 0u64;
        for digit in part {
            parsed = parsed
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(digit - b'0')))
                .ok_or(ParseError::ContentLength)?;
        }
        if length.is_some_and(|seen| seen != parsed) {
            return Err(ParseError::ContentLength);
        }
        length = Some(parsed);
    }
    length.ok_or(ParseError::ContentLength)
}

/// `HEX[ ; extensions]` → size.
fn parse_chunk_size(line: &[u8]) -> Result<u64, ParseError> {
    let end = line
        .iter()
        .position(|&b| b == b';' || b == b' ' || b == b'\t')
        .unwrap_or(line.len());
    let (digits, after) = line.split_at(end);
    let after = trim(after);
    if digits.is_empty() || !(after.is_empty() || after.starts_with(b";")) {
        return Err(ParseError::ChunkSize);
    }
    let mut size = 0u64;
    for &b in digits {
        let digit = (b as char).to_digit(16).ok_or(ParseError::ChunkSize)?;
        size = size
            .checked_mul(16)
            .and_then(|v| v.checked_add(u64::from(digit)))
            .ok_or(ParseError::ChunkSize)?;
    }
    Ok(size)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a complete parse found.
    #[derive(Debug, PartialEq)]
    struct Parsed {
        head: Head,
        wire: u64,
        body: u64,
        consumed: usize,
    }

    fn parse_in(pieces: &[&[u8]]) -> Result<Option<Parsed>, ParseError> {
        let mut parser = ResponseParser::default();
        parser.reset(true);
        let mut consumed = 0;
        for (index, piece) in pieces.iter().enumerate() {
            match parser.feed(piece)? {
                Progress::Partial => consumed += piece.len(),
                Progress::Complete { consumed: used } => {
                    assert!(index == pieces.len() - 1 || pieces[index + 1..].is_empty());
                    return Ok(Some(Parsed {
                        head: parser.head().clone(),
                        wire: parser.wire_bytes(),
                        body: parser.body_bytes(),
                        consumed: consumed + used,
                    }));
                }
            }
        }
        Ok(None)
    }

    fn parse(bytes: &[u8]) -> Result<Option<Parsed>, ParseError> {
        parse_in(&[bytes])
    }

    /// Every split into two pieces, and byte by byte, gives the same result as one piece.
    fn assert_split_invariant(bytes: &[u8]) {
        let whole = parse(bytes);
        for split in 0..=bytes.len() {
            let (a, b) = bytes.split_at(split);
            let result = if split == bytes.len() {
                parse_in(&[a])
            } else {
                // Stop feeding once complete: the last piece may carry trailing bytes.
                let mut parser = ResponseParser::default();
                parser.reset(true);
                let first = parser.feed(a);
                match first {
                    Err(e) => Err(e),
                    Ok(Progress::Complete { consumed }) => Ok(Some(Parsed {
                        head: parser.head().clone(),
                        wire: parser.wire_bytes(),
                        body: parser.body_bytes(),
                        consumed,
                    })),
                    Ok(Progress::Partial) => parser.feed(b).map(|p| match p {
                        Progress::Partial => None,
                        Progress::Complete { consumed } => Some(Parsed {
                            head: parser.head().clone(),
                            wire: parser.wire_bytes(),
                            body: parser.body_bytes(),
                            consumed: a.len() + consumed,
                        }),
                    }),
                }
            };
            assert_eq!(
                result,
                whole,
                "split at {split} of {:?}",
                String::from_utf8_lossy(bytes)
            );
        }
        let mut parser = ResponseParser::default();
        parser.reset(true);
        let mut bytewise = Ok(None);
        for (i, byte) in bytes.iter().enumerate() {
            match parser.feed(std::slice::from_ref(byte)) {
                Err(e) => {
                    bytewise = Err(e);
                    break;
                }
                Ok(Progress::Partial) => {}
                Ok(Progress::Complete { consumed }) => {
                    assert_eq!(consumed, 1);
                    bytewise = Ok(Some(Parsed {
                        head: parser.head().clone(),
                        wire: parser.wire_bytes(),
                        body: parser.body_bytes(),
                        consumed: i + 1,
                    }));
                    break;
                }
            }
        }
        assert_eq!(bytewise, whole, "byte by byte");
    }

    const SIMPLE: &[u8] =
        b"HTTP/1.1 200 OK\r\nServer: nginx/1.22\r\nContent-Length: 13\r\n\r\nHello, world!";

    #[test]
    fn content_length_response() {
        let parsed = parse(SIMPLE).unwrap().unwrap();
        assert_eq!(parsed.head.status, 200);
        assert_eq!(parsed.head.server.as_deref(), Some("nginx/1.22"));
        assert_eq!(parsed.head.content_length, Some(13));
        assert!(parsed.head.keeps_alive());
        assert_eq!((parsed.body, parsed.wire), (13, SIMPLE.len() as u64));
        assert_eq!(parsed.consumed, SIMPLE.len());
        assert_split_invariant(SIMPLE);
    }

    #[test]
    fn stops_at_the_end_of_the_response() {
        let mut bytes = SIMPLE.to_vec();
        bytes.extend_from_slice(b"HTTP/1.1 200 OK\r\n");
        let parsed = parse(&bytes).unwrap().unwrap();
        assert_eq!(parsed.consumed, SIMPLE.len());
    }

    #[test]
    fn server_header_only_when_asked() {
        let mut parser = ResponseParser::default();
        parser.reset(false);
        parser.feed(SIMPLE).unwrap();
        assert_eq!(parser.head().server, None);
    }

    #[test]
    fn chunked_with_extensions_and_trailers() {
        let bytes = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, Chunked\r\nContent-Length: 99\r\n\r\n\
            5;name=value\r\nHello\r\n7 ; ext\r\n, world\r\n1\r\n!\r\n0;last\r\nX-Trailer: yes\r\nChecksum: 1\r\n\r\n";
        let parsed = parse(bytes).unwrap().unwrap();
        assert!(parsed.head.chunked);
        assert_eq!(parsed.body, 13);
        assert_eq!(parsed.wire, bytes.len() as u64);
        assert!(parsed.head.keeps_alive());
        assert_split_invariant(bytes);
    }

    #[test]
    fn chunked_hex_sizes_and_bare_lf() {
        let mut bytes = b"HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n1A\n".to_vec();
        bytes.extend_from_slice(&[b'x'; 26]);
        bytes.extend_from_slice(b"\nff\r\n");
        bytes.extend_from_slice(&[b'y'; 255]);
        bytes.extend_from_slice(b"\r\n0\r\n\r\n");
        let parsed = parse(&bytes).unwrap().unwrap();
        assert_eq!(parsed.body, 26 + 255);
        assert_split_invariant(&bytes);
    }

    #[test]
    fn http10_closes_by_default() {
        let bytes = b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok";
        let parsed = parse(bytes).unwrap().unwrap();
        assert!(!parsed.head.keeps_alive());
        let bytes = b"HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 2\r\n\r\nok";
        assert!(parse(bytes).unwrap().unwrap().head.keeps_alive());
    }

    #[test]
    fn connection_close_tokens() {
        let bytes = b"HTTP/1.1 200 OK\r\nConnection: upgrade, CLOSE\r\nContent-Length: 0\r\n\r\n";
        let parsed = parse(bytes).unwrap().unwrap();
        assert!(!parsed.head.keeps_alive());
        assert_eq!(parsed.body, 0);
        assert_split_invariant(bytes);
    }

    #[test]
    fn body_until_close() {
        let bytes = b"HTTP/1.1 200 OK\r\nServer: x\r\n\r\nsome body";
        let mut parser = ResponseParser::default();
        parser.reset(true);
        assert_eq!(parser.feed(bytes), Ok(Progress::Partial));
        assert!(parser.is_body_until_close());
        assert_eq!(parser.finish(), Ok(()));
        assert!(parser.is_complete());
        assert_eq!(parser.body_bytes(), 9);
        assert!(!parser.head().keeps_alive());
    }

    #[test]
    fn close_before_the_end_is_incomplete() {
        let mut parser = ResponseParser::default();
        parser.reset(false);
        assert_eq!(
            parser.feed(&SIMPLE[..SIMPLE.len() - 1]),
            Ok(Progress::Partial)
        );
        assert_eq!(parser.finish(), Err(ParseError::Incomplete));
        parser.reset(false);
        assert_eq!(parser.finish(), Err(ParseError::Incomplete));
    }

    #[test]
    fn no_body_statuses() {
        for status in ["204 No Content", "304 Not Modified"] {
            let text = format!("HTTP/1.1 {status}\r\nContent-Length: 10\r\n\r\n");
            let parsed = parse(text.as_bytes()).unwrap().unwrap();
            assert_eq!(parsed.body, 0);
            assert_split_invariant(text.as_bytes());
        }
    }

    #[test]
    fn interim_responses_are_skipped() {
        let bytes = b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n\
            HTTP/1.1 404 Not Found\r\nContent-Length: 3\r\n\r\nnop";
        let parsed = parse(bytes).unwrap().unwrap();
        assert_eq!(parsed.head.status, 404);
        assert_eq!(parsed.body, 3);
        assert_eq!(parsed.wire, bytes.len() as u64);
        assert_split_invariant(bytes);
    }

    #[test]
    fn status_without_reason_and_repeated_length() {
        let bytes = b"HTTP/1.1 500\r\ncontent-length: 2, 2\r\nContent-Length: 2\r\n\r\nno";
        let parsed = parse(bytes).unwrap().unwrap();
        assert_eq!((parsed.head.status, parsed.body), (500, 2));
    }

    #[test]
    fn reset_reuses_the_parser() {
        let mut parser = ResponseParser::default();
        for _ in 0..3 {
            parser.reset(false);
            assert_eq!(
                parser.feed(SIMPLE),
                Ok(Progress::Complete {
                    consumed: SIMPLE.len()
                })
            );
            assert_eq!(parser.body_bytes(), 13);
        }
    }

    #[test]
    fn malformed_inputs() {
        let cases: &[(&[u8], ParseError)] = &[
            (b"garbage\r\n", ParseError::StatusLine),
            (b"HTTP/2 200 OK\r\n", ParseError::StatusLine),
            (b"HTTP/1.1 20 OK\r\n", ParseError::StatusLine),
            (b"HTTP/1.1 2000 OK\r\n", ParseError::StatusLine),
            (b"HTTP/1.1 abc OK\r\n", ParseError::StatusLine),
            (b"HTTP/1.1 099 Low\r\n", ParseError::StatusLine),
            (b"HTTP/1.2 200 OK\r\n", ParseError::StatusLine),
            (b"\r\n", ParseError::StatusLine),
            (
                b"HTTP/1.1 200 OK\r\nNo colon here\r\n",
                ParseError::HeaderLine,
            ),
            (
                b"HTTP/1.1 200 OK\r\nBad Name: x\r\n",
                ParseError::HeaderLine,
            ),
            (b"HTTP/1.1 200 OK\r\n: empty\r\n", ParseError::HeaderLine),
            (
                b"HTTP/1.1 200 OK\r\nA: b\r\n folded\r\n",
                ParseError::HeaderLine,
            ),
            (
                b"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n",
                ParseError::ContentLength,
            ),
            (
                b"HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n",
                ParseError::ContentLength,
            ),
            (
                b"HTTP/1.1 200 OK\r\nContent-Length:\r\n",
                ParseError::ContentLength,
            ),
            (
                b"HTTP/1.1 200 OK\r\nContent-Length: 1, 2\r\n",
                ParseError::ContentLength,
            ),
            (
                b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n",
                ParseError::ContentLength,
            ),
            (
                b"HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n",
                ParseError::ContentLength,
            ),
            (b"HTTP/1.1 101 Switching\r\n\r\n", ParseError::Upgrade),
            (
                b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
                ParseError::ChunkSize,
            ),
            (
                b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\r\n",
                ParseError::ChunkSize,
            ),
            (
                b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1 x\r\n",
                ParseError::ChunkSize,
            ),
            (
                b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n11111111111111111\r\n",
                ParseError::ChunkSize,
            ),
            (
                b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n",
                ParseError::ChunkEnd,
            ),
            (
                b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nbad trailer\r\n",
                ParseError::HeaderLine,
            ),
        ];
        for (bytes, expected) in cases {
            assert_eq!(
                parse(bytes).err(),
                Some(*expected),
                "{:?}",
                String::from_utf8_lossy(bytes)
            );
            assert_split_invariant(bytes);
        }
    }

    #[test]
    fn garbage_is_refused_before_any_newline() {
        let mut parser = ResponseParser::default();
        parser.reset(false);
        assert_eq!(parser.feed(b"HTT"), Ok(Progress::Partial));
        assert_eq!(parser.feed(b"X"), Err(ParseError::StatusLine));
        parser.reset(false);
        assert_eq!(parser.feed(&[0xff; 10]), Err(ParseError::StatusLine));
    }

    #[test]
    fn endless_lines_are_refused() {
        let mut parser = ResponseParser::default();
        parser.reset(false);
        assert_eq!(
            parser.feed(b"HTTP/1.1 200 OK\r\nX: "),
            Ok(Progress::Partial)
        );
        let filler = vec![b'a'; 4096];
        let mut result = Ok(Progress::Partial);
        for _ in 0..20 {
            result = parser.feed(&filler);
            if result.is_err() {
                break;
            }
        }
        assert_eq!(result, Err(ParseError::TooLong));
        parser.reset(false);
        parser.feed(b"HTTP/1.1 200 OK\r\n").unwrap();
        let header = b"X-Filler: 0123456789012345678901234567890123456789\r\n";
        let mut result = Ok(Progress::Partial);
        for _ in 0..30_000 {
            result = parser.feed(header);
            if result.is_err() {
                break;
            }
        }
        assert_eq!(result, Err(ParseError::TooLong));
    }

    #[test]
    fn unknown_transfer_coding_reads_until_close() {
        let bytes =
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nContent-Length: 3\r\n\r\nabcdef";
        let mut parser = ResponseParser::default();
        parser.reset(false);
        assert_eq!(parser.feed(bytes), Ok(Progress::Partial));
        assert!(parser.is_body_until_close());
        parser.finish().unwrap();
        assert_eq!(parser.body_bytes(), 6);
    }

    #[test]
    fn responses_to_head_have_no_body() {
        let mut parser = ResponseParser::for_head_requests();
        let response = b"HTTP/1.1 200 OK\r\nContent-Length: 1234\r\n\r\n";
        for _ in 0..2 {
            parser.reset(false);
            let progress = parser.feed(response).unwrap();
            assert_eq!(
                progress,
                Progress::Complete {
                    consumed: response.len()
                }
            );
            assert_eq!(parser.body_bytes(), 0);
            assert!(parser.head().keeps_alive());
        }
    }
}
