//! The f64 figures in the JSON: serde's `serialize_with` for them, since JSON has no NaN or
//! infinity (written 0).

use serde::Serializer;

pub fn finite<S: Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64(if value.is_finite() { *value } else { 0.0 })
}
