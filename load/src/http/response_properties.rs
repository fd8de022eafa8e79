//! Property tests of the response parser: any valid response, split anywhere, parses to
//! what it says; any bytes, split anywhere, never panic, never count more than was fed,
//! and give the same result as the bytes fed whole. (`load/fuzz/` runs the second property
//! under libFuzzer for millions of inputs.)

use proptest::collection::vec;
use proptest::prelude::*;

use super::response::{Head, ParseError, Progress, ResponseParser};

/// How a parse ended, for comparing two ways of feeding the same bytes.
#[derive(Debug, PartialEq)]
enum Ending {
    /// Complete after `consumed` bytes.
    Complete {
        head: Head,
        wire: u64,
        body: u64,
        consumed: usize,
    },
    /// All bytes fed and not complete; then the server's close.
    Closed(Result<(Head, u64, u64), ParseError>),
    Error,
}

/// Feeds `pieces` in turn, up to the end of the response, checking the byte counts.
fn parse(pieces: &[&[u8]]) -> Ending {
    let mut parser = ResponseParser::default();
    parser.reset(true);
    let mut fed = 0usize;
    for piece in pieces {
        match parser.feed(piece) {
            Err(_) => return Ending::Error,
            Ok(Progress::Partial) => fed += piece.len(),
            Ok(Progress::Complete { consumed }) => {
                assert!(consumed <= piece.len());
                fed += consumed;
                assert_eq!(parser.wire_bytes(), fed as u64);
                assert!(parser.body_bytes() <= parser.wire_bytes());
                return Ending::Complete {
                    head: parser.head().clone(),
                    wire: parser.wire_bytes(),
                    body: parser.body_bytes(),
                    consumed: fed,
                };
            }
        }
        assert_eq!(parser.wire_bytes(), fed as u64);
        assert!(parser.body_bytes() <= parser.wire_bytes());
    }
    let closed = parser.finish().map(|()| {
        (
            parser.head().clone(),
            parser.wire_bytes(),
            parser.body_bytes(),
        )
    });
    Ending::Closed(closed)
}

/// `bytes` cut at `cuts` (positions taken modulo its length, in any order, repeats allowed:
/// empty pieces are feeds too).
fn split<'a>(bytes: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
    let mut at: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
    at.sort_unstable();
    let mut pieces = Vec::new();
    let mut start = 0;
    for cut in at {
        pieces.push(&bytes[start..cut]);
        start = cut;
    }
    pieces.push(&bytes[start..]);
    pieces
}

#[derive(Debug, Clone)]
enum Framing {
    Length,
    /// The body cut into chunks at these positions, with or without chunk extensions.
    Chunked {
        cuts: Vec<usize>,
        extensions: bool,
    },
    UntilClose,
}

/// A valid response and what parsing it must give.
#[derive(Debug, Clone)]
struct Valid {
    bytes: Vec<u8>,
    head: Head,
    body: u64,
    /// The response ends only at the server's close.
    until_close: bool,
}

fn header_name() -> impl Strategy<Value = String> {
    "[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]{0,15}".prop_filter("not a framing header", |name| {
        ![
            "content-length",
            "transfer-encoding",
            "connection",
            "server",
        ]
        .contains(&name.to_ascii_lowercase().as_str())
    })
}

prop_compose! {
    fn valid_response()(
        minor_version in 0u8..=1,
        status in prop_oneof![Just(200u16), Just(204), Just(304), 200u16..600],
        interim in proptest::option::of(prop_oneof![Just(100u16), Just(103)]),
        headers in vec((header_name(), "[ -~]{0,30}"), 0..6),
        server in proptest::option::of("[!-~]([ -~]{0,20}[!-~])?"),
        connection in prop_oneof![Just(""), Just("close"), Just("keep-alive"), Just("Upgrade, Keep-Alive")],
        framing in prop_oneof![
            Just(Framing::Length),
            (vec(any::<usize>(), 0..5), any::<bool>())
                .prop_map(|(cuts, extensions)| Framing::Chunked { cuts, extensions }),
            Just(Framing::UntilClose),
        ],
        body in vec(any::<u8>(), 0..300),
        lf_only in any::<bool>(),
    ) -> Valid {
        let eol = if lf_only { "\n" } else { "\r\n" };
        let no_body = status == 204 || status == 304;
        let mut text = String::new();
        if let Some(interim) = interim {
            text += &format!("HTTP/1.1 {interim} Interim{eol}Link: </a>{eol}{eol}");
        }
        text += &format!("HTTP/1.{minor_version} {status} Some Reason{eol}");
        for (name, value) in &headers {
            text += &format!("{name}:{value}{eol}");
        }
        if let Some(server) = &server {
            text += &format!("Server: {server}{eol}");
        }
        if !connection.is_empty() {
            text += &format!("Connection: {connection}{eol}");
        }
        let mut head = Head {
            minor_version,
            status,
            connection_close: connection == "close",
            connection_keep_alive: connection.to_ascii_lowercase().contains("keep-alive"),
            server: server.clone(),
            ..Head::default()
        };
        let mut until_close = false;
        match &framing {
            Framing::Length => {
                text += &format!("Content-Length: {}{eol}", body.len());
                head.content_length = Some(body.len() as u64);
            }
            Framing::Chunked { .. } => {
                text += &format!("Transfer-Encoding: chunked{eol}");
                head.chunked = true;
            }
            Framing::UntilClose if no_body => {}
            Framing::UntilClose => {
                until_close = true;
                head.connection_close = true;
            }
        }
        text += eol;
        let mut bytes = text.into_bytes();
        let body_len = if no_body { 0 } else { body.len() as u64 };
        if !no_body {
            match &framing {
                Framing::Length | Framing::UntilClose => bytes.extend_from_slice(&body),
                Framing::Chunked { cuts, extensions } => {
                    for chunk in split(&body, cuts).into_iter().filter(|c| !c.is_empty()) {
                        let ext = if *extensions { ";a=b" } else { "" };
                        bytes.extend_from_slice(format!("{:x}{ext}{eol}", chunk.len()).as_bytes());
                        bytes.extend_from_slice(chunk);
                        bytes.extend_from_slice(eol.as_bytes());
                    }
                    bytes.extend_from_slice(format!("0{eol}X-Trailer: t{eol}{eol}").as_bytes());
                }
            }
        }
        Valid { bytes, head, body: body_len, until_close }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn valid_responses_parse_to_what_they_say(
        valid in valid_response(),
        cuts in vec(any::<usize>(), 0..8),
        next in vec(any::<u8>(), 0..20),
    ) {
        let mut bytes = valid.bytes.clone();
        bytes.extend_from_slice(&next);
        let expected = if valid.until_close {
            // What follows is more of the body, up to the close.
            let body = valid.body + next.len() as u64;
            Ending::Closed(Ok((valid.head.clone(), bytes.len() as u64, body)))
        } else {
            // What follows the response (the next one, or garbage) is not consumed.
            Ending::Complete {
                head: valid.head.clone(),
                wire: valid.bytes.len() as u64,
                body: valid.body,
                consumed: valid.bytes.len(),
            }
        };
        prop_assert_eq!(&parse(&[&bytes]), &expected);
        prop_assert_eq!(&parse(&split(&bytes, &cuts)), &expected);
    }

    #[test]
    fn any_bytes_split_anywhere_parse_as_whole(
        bytes in prop_oneof![
            vec(any::<u8>(), 0..400),
            // Mostly valid: a response with a few bytes changed.
            (valid_response(), vec((any::<usize>(), any::<u8>()), 1..4)).prop_map(|(valid, edits)| {
                let mut bytes = valid.bytes;
                for (at, byte) in edits {
                    if !bytes.is_empty() {
                        let at = at % bytes.len();
                        bytes[at] = byte;
                    }
                }
                bytes
            }),
        ],
        cuts in vec(any::<usize>(), 0..8),
    ) {
        let whole = parse(&[&bytes]);
        prop_assert_eq!(parse(&split(&bytes, &cuts)), whole);
    }
}
