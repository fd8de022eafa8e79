//! A JSON object whose keys keep the order they were put in (serde_json's own map sorts
//! them): counts by key in the order the keys first appear.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

#[derive(Debug, Default)]
pub struct Ordered(Vec<(String, Value)>);

impl Ordered {
    pub fn push(&mut self, key: String, value: Value) {
        self.0.push((key, value));
    }
}

impl Serialize for Ordered {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}
