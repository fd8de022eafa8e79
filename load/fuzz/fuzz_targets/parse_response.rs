//! Arbitrary bytes, split at arbitrary points, fed to the incremental response parser.
//!
//! Input: `[k][k piece lengths][payload]`, with `k = input[0] % 8`; the payload is fed in
//! pieces of those lengths in turn (0 is an empty feed), then whatever is left. Checks that
//! nothing panics, that no more bytes are consumed or counted as body than were fed, and that
//! the pieces give the same result as the payload fed whole.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[allow(dead_code)]
#[path = "../../src/http/response.rs"]
mod response;

use response::{Head, ParseError, Progress, ResponseParser};

/// How a parse ended: the head and byte counts of a complete response (with the bytes of
/// the input it used), one ended by the server's close, one still partial, or an error.
#[derive(Debug, PartialEq)]
enum Ending {
    Complete {
        head: Head,
        wire: u64,
        body: u64,
        consumed: usize,
    },
    Closed(Result<(Head, u64, u64), ParseError>),
    Error,
}

fn parse(pieces: &[&[u8]]) -> Ending {
    let mut parser = ResponseParser::default();
    parser.reset(true);
    let mut fed = 0usize;
    for piece in pieces {
        match parser.feed(piece) {
            Err(_) => return Ending::Error,
            Ok(Progress::Partial) => fed += piece.len(),
            Ok(Progress::Complete { consumed }) => {
                assert!(consumed <= piece.len(), "consumed more than fed");
                fed += consumed;
                assert_eq!(parser.wire_bytes(), fed as u64, "wire bytes");
                assert!(
                    parser.body_bytes() <= parser.wire_bytes(),
                    "body beyond input"
                );
                return Ending::Complete {
                    head: parser.head().clone(),
                    wire: parser.wire_bytes(),
                    body: parser.body_bytes(),
                    consumed: fed,
                };
            }
        }
        assert_eq!(parser.wire_bytes(), fed as u64, "wire bytes");
        assert!(
            parser.body_bytes() <= parser.wire_bytes(),
            "body beyond input"
        );
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

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let k = usize::from(first % 8).min(rest.len());
    let (lengths, payload) = rest.split_at(k);
    let mut pieces = Vec::new();
    let mut left = payload;
    for &length in lengths {
        let (piece, after) = left.split_at(usize::from(length).min(left.len()));
        pieces.push(piece);
        left = after;
    }
    pieces.push(left);
    let whole = parse(&[payload]);
    let split = parse(&pieces);
    assert_eq!(split, whole, "pieces {pieces:?}");
});
