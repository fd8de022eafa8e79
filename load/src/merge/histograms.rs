//! The clients' encoded histograms decoded and added exactly, bucket by bucket, with the
//! hdrhistogram crate; histograms of other settings (bounds, precision) are refused rather
//! than resized.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use hdrhistogram::Histogram;
use hdrhistogram::serialization::Deserializer;
use serde_json::Value;

use super::MergeError;

/// A histogram from its V2 compressed base64 text; the error says what is wrong.
pub fn decode(text: &Value) -> Result<Histogram<u64>, String> {
    let text = text
        .as_str()
        .ok_or_else(|| format!("a histogram is {}, not base64 text", short(text)))?;
    let bytes = STANDARD
        .decode(text)
        .map_err(|error| format!("not a histogram in V2 compressed base64: {error}"))?;
    Deserializer::new()
        .deserialize(&mut bytes.as_slice())
        .map_err(|error| format!("not a histogram in V2 compressed base64: {error:?}"))
}

/// The histograms' counts added; they must share one lowest and highest value and precision.
pub fn add(histograms: &[Histogram<u64>]) -> Result<Histogram<u64>, MergeError> {
    let (first, rest) = histograms
        .split_first()
        .ok_or_else(|| MergeError::mismatch("no histogram to add".to_string()))?;
    let mut sum = first.clone();
    for histogram in rest {
        if settings(histogram) != settings(first) {
            return Err(MergeError::mismatch(format!(
                "histograms of different settings cannot be added: {} and {}",
                describe(first),
                describe(histogram)
            )));
        }
        sum.add(histogram)
            .map_err(|error| MergeError::mismatch(format!("histograms do not add: {error:?}")))?;
    }
    Ok(sum)
}

fn settings(histogram: &Histogram<u64>) -> (u64, u64, u8) {
    (histogram.low(), histogram.high(), histogram.sigfig())
}

fn describe(histogram: &Histogram<u64>) -> String {
    let (low, high, digits) = settings(histogram);
    format!("lowest {low}, highest {high}, {digits} significant digits")
}

/// A value as a message shows it: at most 40 characters.
pub fn short(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(40) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}
