//! Real output validates against the committed schema, `schema/load-result.schema.json`
//! (the validator: `common/schema.rs`), and the schema is strict.

mod common;

use common::schema::{SCHEMA, assert_valid, validate};
use common::tls_server::{Ending, TlsServer};
use common::{Reply, TestServer, ok, run_load};
use serde_json::Value;

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
        &serde_json::json!({"version": 4, "extra": true}),
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
    assert!(errors.iter().any(|e| e.contains("4 != 3")), "{errors:?}");
    let mut errors = Vec::new();
    let protocol = &schema["properties"]["options"]["properties"]["tls_protocol"];
    validate(protocol, &Value::from("SSL3"), "", &mut errors);
    assert!(
        errors.iter().any(|e| e.contains("is not one of")),
        "{errors:?}"
    );
}
