//! The contract, `schema/load-result.schema.json`, as the tests read it: a validator that
//! knows only the keywords that schema uses (type, const, properties, required,
//! additionalProperties, items, minItems, minimum, exclusiveMinimum, enum, and `$ref` to the
//! root, `#`: a merged document's clients) and fails on any other, so the schema cannot grow a keyword the tests silently ignore. The Python tests
//! validate the same documents with a full draft 2020-12 validator.

use std::sync::OnceLock;

use serde_json::Value;

pub const SCHEMA: &str = include_str!("../../schema/load-result.schema.json");
const ANNOTATIONS: &[&str] = &["$schema", "title", "description", "contentEncoding"];

fn type_matches(name: &str, value: &Value) -> bool {
    match name {
        "object" => value.is_object(),
        "integer" => value.is_u64() || value.is_i64(),
        "number" => value.is_number(),
        "string" => value.is_string(),
        "boolean" => value.is_boolean(),
        "array" => value.is_array(),
        "null" => value.is_null(),
        other => panic!("unknown type {other}"),
    }
}

pub fn validate(schema: &Value, value: &Value, path: &str, errors: &mut Vec<String>) {
    let schema = schema.as_object().expect("a schema is an object");
    for (keyword, argument) in schema {
        match keyword.as_str() {
            k if ANNOTATIONS.contains(&k) => {}
            "type" => {
                let names: Vec<&str> = match argument {
                    Value::String(name) => vec![name.as_str()],
                    Value::Array(names) => names.iter().map(|n| n.as_str().unwrap()).collect(),
                    other => panic!("bad type {other}"),
                };
                if !names.iter().any(|name| type_matches(name, value)) {
                    errors.push(format!("{path}: {value} is not of type {names:?}"));
                }
            }
            "const" if value != argument => errors.push(format!("{path}: {value} != {argument}")),
            "const" => {}
            "minimum" => {
                if let Some(number) = value.as_f64()
                    && number < argument.as_f64().unwrap()
                {
                    errors.push(format!("{path}: {value} < {argument}"));
                }
            }
            "exclusiveMinimum" => {
                if let Some(number) = value.as_f64()
                    && number <= argument.as_f64().unwrap()
                {
                    errors.push(format!("{path}: {value} <= {argument}"));
                }
            }
            "required" => {
                if let Some(object) = value.as_object() {
                    for name in argument.as_array().unwrap() {
                        if !object.contains_key(name.as_str().unwrap()) {
                            errors.push(format!("{path}: missing {name}"));
                        }
                    }
                }
            }
            "properties" => {
                if let Some(object) = value.as_object() {
                    for (name, subschema) in argument.as_object().unwrap() {
                        if let Some(item) = object.get(name) {
                            validate(subschema, item, &format!("{path}/{name}"), errors);
                        }
                    }
                }
            }
            "minItems" => {
                if let Some(array) = value.as_array()
                    && (array.len() as u64) < argument.as_u64().unwrap()
                {
                    errors.push(format!("{path}: fewer than {argument} items"));
                }
            }
            "items" => {
                for (index, item) in value.as_array().into_iter().flatten().enumerate() {
                    validate(argument, item, &format!("{path}/{index}"), errors);
                }
            }
            "$ref" => {
                assert_eq!(argument, "#", "only the root is referred to");
                validate(self::schema(), value, path, errors);
            }
            "enum" => {
                let allowed = argument.as_array().expect("enum is an array");
                if !allowed.contains(value) {
                    errors.push(format!("{path}: {value} is not one of {argument}"));
                }
            }
            "additionalProperties" => {
                let Some(object) = value.as_object() else {
                    continue;
                };
                let declared = schema.get("properties").and_then(Value::as_object);
                for (name, item) in object {
                    if declared.is_some_and(|d| d.contains_key(name)) {
                        continue;
                    }
                    match argument {
                        Value::Bool(false) => errors.push(format!("{path}: unexpected {name}")),
                        Value::Bool(true) => {}
                        subschema => validate(subschema, item, &format!("{path}/{name}"), errors),
                    }
                }
            }
            other => panic!("the schema uses {other}, which this test does not check"),
        }
    }
}

/// The schema, parsed once.
pub fn schema() -> &'static Value {
    static SCHEMA_VALUE: OnceLock<Value> = OnceLock::new();
    SCHEMA_VALUE.get_or_init(|| serde_json::from_str(SCHEMA).expect("the schema is JSON"))
}

/// The document has the schema's keys, and no other, each of the schema's type and range.
pub fn assert_valid(document: &Value) {
    let mut errors = Vec::new();
    validate(schema(), document, "", &mut errors);
    assert!(errors.is_empty(), "{errors:#?}\n{document:#}");
}
