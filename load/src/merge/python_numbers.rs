//! JSON numbers added and compared as the lab's Python merge did (`sum`, `max`, truthiness),
//! so that a merged document has the same figures of the same types: integers stay
//! integers, a sum turns to a float at its first float term, a `max` keeps the first of
//! equal values as written.

use serde_json::Value;

use super::MergeError;

/// A JSON number as Python's `json` reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Number {
    Int(i64),
    Float(f64),
}

impl Number {
    pub fn of(value: &Value, what: &str) -> Result<Number, MergeError> {
        if let Some(int) = value.as_i64() {
            return Ok(Number::Int(int));
        }
        match value.as_f64() {
            Some(float) if value.is_f64() => Ok(Number::Float(float)),
            _ => Err(MergeError::mismatch(format!(
                "{what} is {value}, not a number"
            ))),
        }
    }

    pub fn as_f64(self) -> f64 {
        match self {
            Number::Int(int) => int as f64,
            Number::Float(float) => float,
        }
    }

    /// Python's `int(x)`: a float truncated toward zero.
    pub fn truncated(self) -> i64 {
        match self {
            Number::Int(int) => int,
            Number::Float(float) => float.trunc() as i64,
        }
    }

    fn plus(self, other: Number) -> Result<Number, MergeError> {
        Ok(match (self, other) {
            (Number::Int(a), Number::Int(b)) => Number::Int(
                a.checked_add(b)
                    .ok_or_else(|| MergeError::mismatch(format!("{a} + {b} overflows")))?,
            ),
            (a, b) => Number::Float(a.as_f64() + b.as_f64()),
        })
    }

    pub fn to_value(self) -> Value {
        match self {
            Number::Int(int) => Value::from(int),
            Number::Float(float) => Value::from(float),
        }
    }
}

/// Python's `sum(values)`: from the integer 0, left to right.
pub fn sum<'a>(
    values: impl IntoIterator<Item = &'a Value>,
    what: &str,
) -> Result<Value, MergeError> {
    let mut total = Number::Int(0);
    for value in values {
        total = total.plus(Number::of(value, what)?)?;
    }
    Ok(total.to_value())
}

/// Python's `sum(int(v) for v in values)`.
pub fn sum_ints<'a>(
    values: impl IntoIterator<Item = &'a Value>,
    what: &str,
) -> Result<i64, MergeError> {
    let mut total: i64 = 0;
    for value in values {
        let int = Number::of(value, what)?.truncated();
        total = total
            .checked_add(int)
            .ok_or_else(|| MergeError::mismatch(format!("{what} overflows")))?;
    }
    Ok(total)
}

/// Python's `max(values)`: the first of the greatest, as written.
pub fn max<'a>(
    values: impl IntoIterator<Item = &'a Value>,
    what: &str,
) -> Result<Value, MergeError> {
    let mut best: Option<(&Value, f64)> = None;
    for value in values {
        let number = Number::of(value, what)?.as_f64();
        if best.is_none_or(|(_, top)| number > top) {
            best = Some((value, number));
        }
    }
    best.map(|(value, _)| value.clone())
        .ok_or_else(|| MergeError::mismatch(format!("no {what}")))
}

/// Python's truth of a JSON value: null, false, 0, "", [] and {} are false.
pub fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64() != Some(0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn integers_stay_integers_until_a_float() {
        assert_eq!(sum(&[json!(1), json!(2)], "x").unwrap(), json!(3));
        assert_eq!(sum(&[json!(1), json!(2.5)], "x").unwrap(), json!(3.5));
        assert_eq!(sum(&[json!(2.0), json!(1)], "x").unwrap(), json!(3.0));
        assert_eq!(sum(&[], "x").unwrap(), json!(0));
        assert_eq!(sum_ints(&[json!(2.9), json!(1)], "x").unwrap(), 3);
        assert!(sum(&[json!("1")], "x").is_err());
    }

    #[test]
    fn max_keeps_the_first_of_equals() {
        assert_eq!(
            max(&[json!(2), json!(2.0), json!(1)], "x").unwrap(),
            json!(2)
        );
        assert_eq!(max(&[json!(1.5), json!(2)], "x").unwrap(), json!(2));
    }

    #[test]
    fn truth_is_pythons() {
        assert!(!truthy(&json!(null)) && !truthy(&json!("")) && !truthy(&json!(0)));
        assert!(truthy(&json!("TLSv1.3")) && truthy(&json!(1)));
    }
}
