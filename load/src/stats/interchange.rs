//! A latency histogram in HdrHistogram's interchange encoding: the V2 compressed form
//! (cookie `0x1c849314`, the V2 payload deflated with zlib), in standard base64. It is the
//! form HdrHistogram's Java, C and Rust libraries exchange (`HistogramLogWriter`'s
//! histogram field), so that histograms of several runs can be added exactly:
//! `layerbench-load merge` (`src/merge/`) decodes and adds them.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use hdrhistogram::Histogram;
use hdrhistogram::serialization::{Serializer, V2DeflateSerializer};

/// `histogram` in the V2 compressed encoding, base64.
pub fn encode(histogram: &Histogram<u64>) -> String {
    let mut bytes = Vec::new();
    V2DeflateSerializer::new()
        .serialize(histogram, &mut bytes)
        .expect("a histogram serializes into memory");
    STANDARD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::nearest_rank::{rank, values_at};
    use crate::stats::recorder::{HIGHEST_US, LOWEST_US, SIGNIFICANT_DIGITS};
    use hdrhistogram::serialization::Deserializer;

    fn histogram() -> Histogram<u64> {
        Histogram::new_with_bounds(LOWEST_US, HIGHEST_US, SIGNIFICANT_DIGITS).unwrap()
    }

    fn decode(text: &str) -> Histogram<u64> {
        let bytes = STANDARD.decode(text).unwrap();
        Deserializer::new()
            .deserialize(&mut bytes.as_slice())
            .unwrap()
    }

    #[test]
    fn decodes_to_the_same_histogram() {
        let mut h = histogram();
        for v in [1, 2, 2, 999, 2048, 2049, 123_456, 3_600_000_000] {
            h.record(v).unwrap();
        }
        h.record_n(40_000, 1_000_000).unwrap();
        let text = encode(&h);
        assert!(
            STANDARD
                .decode(&text)
                .unwrap()
                .starts_with(&[0x1c, 0x84, 0x93, 0x14])
        );
        let back = decode(&text);
        assert_eq!(back, h);
        assert_eq!(back.len(), 1_000_008);
    }

    #[test]
    fn an_empty_histogram_encodes() {
        assert_eq!(decode(&encode(&histogram())).len(), 0);
    }

    /// Two halves of a set of values, each encoded, decoded and added: every percentile is
    /// that of the union, the nearest rank's bucket at the histogram's precision (20,000
    /// values: 20,000 × 0.999 is whole).
    #[test]
    fn halves_added_are_the_union() {
        // A fixed pseudo-random spread over 1 µs .. ~10 s (xorshift).
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut values: Vec<u64> = (0..20_000)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                1 + (state % 1000) * (state >> 40) % 10_000_000
            })
            .collect();
        let (first, second) = values.split_at(7_000);
        let mut halves = [histogram(), histogram()];
        for (h, part) in halves.iter_mut().zip([first, second]) {
            for &v in part {
                h.record(v).unwrap();
            }
        }
        let mut merged = decode(&encode(&halves[0]));
        merged.add(decode(&encode(&halves[1]))).unwrap();
        values.sort_unstable();
        let per_mille = [500, 990, 999];
        for (p, value) in per_mille.into_iter().zip(values_at(&merged, per_mille)) {
            let union = values[rank(p, values.len() as u64) as usize - 1];
            assert_eq!(value, merged.highest_equivalent(union), "{p} per mille");
        }
    }
}
