//! Real output validates against the committed schema, `schema/load-result.schema.json`.
//!
//! The validator below knows only the keywords that schema uses (type, const, properties,
//! required, additionalProperties, items, minimum, exclusiveMinimum, enum) and fails on any other,
//! so the
//! schema cannot grow a keyword this test silently ignores. The Python tests validate the
//! same documents with a full draft 2020-12 validator.

mod common;

use common::tls_server::{Ending, TlsServer};
use common::{Reply, TestServer, ok, run_load};
use serde_json::Value;

const SCHEMA: &str = include_str!("../schema/load-result.schema.json");
const ANNOTATIONS: &[&str] = &["$schema", "title", "description"];

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

fn validate(schema: &Value, value: &Value, path: &str, errors: &mut Vec<String>) {
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

fn assert_valid(document: &Value) {
    let schema: Value = serde_json::from_str(SCHEMA).expect("the schema is JSON");
    let mut errors = Vec::new();
    validate(&schema, document, "", &mut errors);
    assert!(errors.is_empty(), "{errors:#?}\n{document:#}");
}

/// Every object in the schema lists all its properties as required, and refuses others,
/// except the two maps.
fn check_strictness(schema: &Value, path: &str) {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        if schema.get("type") == Some(&Value::from("object")) {
            assert!(
                path.ends_with("status_counts") || path.ends_with("errors_by_kind"),
                "{path}: an object without properties"
            );
        }
        return;
    };
    assert_eq!(schema["additionalProperties"], Value::Bool(false), "{path}");
    let mut required: Vec<&str> = schema["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let mut declared: Vec<&str> = properties.keys().map(String::as_str).collect();
    required.sort_unstable();
    declared.sort_unstable();
    assert_eq!(required, declared, "{path}: every field is required");
    for (name, subschema) in properties {
        check_strictness(subschema, &format!("{path}/{name}"));
    }
}

#[test]
fn schema_is_strict() {
    let schema: Value = serde_json::from_str(SCHEMA).unwrap();
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    check_strictness(&schema, "");
}

#[test]
fn real_output_is_valid() {
    let server = TestServer::start(|request| match request.number % 4 {
        3 => Reply::Respond(common::response("404 Not Found", "", "no")),
        _ => Reply::Respond(ok("Hello, world!")),
    });
    let url = server.url("/");
    for args in [
        &["-n", "200", "-c", "4", "-k"][..],
        &["-t", "0.2", "--warmup", "0.1", "-c", "2", "--threads", "2"],
    ] {
        let mut argv = args.to_vec();
        argv.extend(["--json", "-", &url]);
        let run = run_load(&argv);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        assert_valid(&run.json());
    }
    let body = common::TempFile::new("schema-body", "json");
    std::fs::write(&body, "{\"a\": 1}").unwrap();
    let run = run_load(&[
        "-n",
        "20",
        "-c",
        "2",
        "-l",
        "-H",
        "X-Test: 1",
        "-p",
        body.to_str().unwrap(),
        "-T",
        "application/json",
        "--json",
        "-",
        &url,
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_valid(&doc);
    assert_eq!(doc["options"]["headers"], serde_json::json!(["X-Test: 1"]));
    assert_eq!(doc["options"]["method"], "POST");
    let list = common::TempFile::new("schema-urls", "urls");
    std::fs::write(&list, format!("3 {url}\n1 {}\n", server.url("/other"))).unwrap();
    let run = run_load(&["--urls", list.to_str().unwrap(), "-n", "40", "--json", "-"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_valid(&doc);
    assert_eq!(doc["by_url"][0]["requests_completed"], 30);
    let run = run_load(&["-n", "3", "--json", "-", "http://127.0.0.1:1/"]);
    assert_eq!(run.code, Some(1));
    assert_valid(&run.json());
    let tls = TlsServer::start(Ending::Polite);
    let url = tls.url();
    for trust in [["--cacert", tls.ca()], ["-f", "TLS1.2"]] {
        let run = run_load(&[&["-n", "4", "--json", "-"][..], &trust, &[&url]].concat());
        assert_valid(&run.json());
    }
}

#[test]
fn the_validator_catches_mistakes() {
    let schema: Value = serde_json::from_str(SCHEMA).unwrap();
    let mut errors = Vec::new();
    validate(
        &schema,
        &serde_json::json!({"version": 2, "extra": true}),
        "",
        &mut errors,
    );
    assert!(
        errors.iter().any(|e| e.contains("unexpected extra")),
        "{errors:?}"
    );
    assert!(
        errors.iter().any(|e| e.contains("missing \"latency_us\"")),
        "{errors:?}"
    );
    assert!(errors.iter().any(|e| e.contains("2 != 1")), "{errors:?}");
    let mut errors = Vec::new();
    let protocol = &schema["properties"]["options"]["properties"]["tls_protocol"];
    validate(protocol, &Value::from("SSL3"), "", &mut errors);
    assert!(
        errors.iter().any(|e| e.contains("is not one of")),
        "{errors:?}"
    );
}
