//! The OpenAPI document (written by hand beside the handlers, `src/openapi.rs`) against the
//! live answers of the router, in-process: every response it documents with a JSON schema is
//! elicited (a good request, a bad one, a server without databases, a busy server) and its
//! body validated against that schema; a property the answer has and the schema does not
//! list fails too, so the document cannot fall behind the handlers unnoticed.
//!
//! The validator knows the keywords the document uses (`type`, `const`, `enum`, `required`,
//! `properties`, `items`, `$ref`, `minimum`, `maximum`, and the annotations) and fails on any
//! other, so that no part of a schema is silently left unchecked.

use std::sync::Arc;

use axum::{
    body::{to_bytes, Body},
    http::{Request, StatusCode},
    Router,
};
use ply_othello::{
    explore::GamesIndex,
    transcript,
    wthor::{Database, Date, Header, WthorGame},
    BoardSize, Position,
};
use ply_server::{explore::Databases, router, Config};
use serde_json::Value;
use tower::ServiceExt;

/// Which server answers a case.
#[derive(Clone, Copy, Debug)]
enum Server {
    /// `Config::default()`: no game databases.
    Plain,
    /// With a small WTHOR database for the explorer.
    Games,
    /// With games, one search at a time and no queue, and a long search running: every
    /// other search is refused at once.
    Busy,
}

/// A position out of the opening book: a search of it takes its whole budget.
const OUT_OF_BOOK: &str =
    "size=8&position=...........................OOO.....XXX..........................&turn=X";

/// The router of `server`; for [`Server::Busy`], once its one search is running.
async fn app(server: Server) -> Router {
    match server {
        Server::Plain => router(Config::default()),
        Server::Games => with_games(Config::default()),
        Server::Busy => {
            let app = with_games(Config {
                max_searches: 1,
                max_queue: 0,
                ..Config::default()
            });
            let uri = format!("/api/othello/analyze?{OUT_OF_BOOK}&budget_ms=10000");
            let slow = app.clone();
            tokio::spawn(async move {
                let request = Request::get(uri).body(Body::empty()).unwrap();
                let _ = slow.oneshot(request).await;
            });
            // Until the health report shows it running (a bounded wait, not a timing).
            for _ in 0..500 {
                let (_, _, health) = call_on(app.clone(), "/api/health").await;
                let health: Value = serde_json::from_str(&health).unwrap();
                if health["searches"]["running"] == 1 {
                    return app;
                }
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            }
            panic!("the long search never started");
        }
    }
}

/// A router with `config` and a small WTHOR database for the explorer.
fn with_games(config: Config) -> Router {
    {
        {
            let game = |moves: &str, black_discs: u8| WthorGame {
                tournament: 0,
                black: 0,
                white: 1,
                black_discs,
                theoretical: black_discs,
                game: transcript::parse(moves, Position::start(BoardSize::Eight)).unwrap(),
            };
            let database = Database {
                header: Header::games(
                    2025,
                    Date {
                        year: 2025,
                        month: 11,
                        day: 26,
                    },
                    22,
                ),
                games: vec![game("f5d6c3d3c4f4", 40), game("f5f6", 20), game("d3c3", 33)],
            };
            let bytes = database.to_bytes().unwrap();
            let index = GamesIndex::build(&[&bytes[..]]).unwrap();
            router(Config {
                games: Some(Arc::new(Databases {
                    index,
                    files: vec!["test.wtb".into()],
                    games: vec![database],
                    players: Some(vec!["Ann".into(), "Ben".into()]),
                })),
                ..config
            })
        }
    }
}

/// A live request for each documented (path, status): the server and the URI that elicit it.
const CASES: &[(&str, &str, Server, &str)] = &[
    ("/api/health", "200", Server::Plain, "/api/health"),
    (
        "/api/ttt/analyze",
        "200",
        Server::Plain,
        "/api/ttt/analyze?board=X.O.X....",
    ),
    (
        "/api/ttt/analyze",
        "400",
        Server::Plain,
        "/api/ttt/analyze?board=XXXXXXXXX",
    ),
    (
        "/api/othello/analyze",
        "200",
        Server::Plain,
        "/api/othello/analyze?size=4&budget_ms=200",
    ),
    (
        "/api/othello/analyze",
        "400",
        Server::Plain,
        "/api/othello/analyze?size=5",
    ),
    (
        "/api/othello/analyze",
        "503",
        Server::Busy,
        "/api/othello/analyze?size=4&budget_ms=50",
    ),
    (
        "/api/othello/analyze/stream",
        "200",
        Server::Plain,
        "/api/othello/analyze/stream?size=4&budget_ms=200",
    ),
    (
        "/api/othello/analyze/stream",
        "400",
        Server::Plain,
        "/api/othello/analyze/stream?budget_ms=0",
    ),
    (
        "/api/othello/analyze/stream",
        "503",
        Server::Busy,
        "/api/othello/analyze/stream?size=4&budget_ms=50",
    ),
    (
        "/api/othello/position",
        "200",
        Server::Plain,
        "/api/othello/position?text=f5d6c3",
    ),
    (
        "/api/othello/position",
        "400",
        Server::Plain,
        "/api/othello/position?text=f5f5",
    ),
    (
        "/api/othello/image",
        "400",
        Server::Plain,
        "/api/othello/image?text=f5&legal=2",
    ),
    (
        "/api/othello/explore",
        "200",
        Server::Games,
        "/api/othello/explore?budget_ms=50",
    ),
    (
        "/api/othello/explore",
        "400",
        Server::Games,
        "/api/othello/explore?turn=Z",
    ),
    (
        "/api/othello/explore",
        "404",
        Server::Plain,
        "/api/othello/explore",
    ),
    (
        "/api/othello/explore",
        "503",
        Server::Busy,
        "/api/othello/explore?budget_ms=50",
    ),
];

async fn call(server: Server, uri: &str) -> (StatusCode, String, String) {
    call_on(app(server).await, uri).await
}

async fn call_on(app: Router, uri: &str) -> (StatusCode, String, String) {
    let response = app
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let kind = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    let body = to_bytes(response.into_body(), 1 << 24).await.unwrap();
    (status, kind, String::from_utf8(body.to_vec()).unwrap())
}

/// The JSON values of a Server-Sent Events body's `data:` lines.
fn events(body: &str) -> Vec<Value> {
    body.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .map(|data| serde_json::from_str(data.trim()).expect("an event's data is JSON"))
        .collect()
}

/// The errors of `value` against `schema` (in the document `doc`), each naming where.
fn validate(doc: &Value, schema: &Value, value: &Value, at: &str, errors: &mut Vec<String>) {
    let Some(schema) = schema.as_object() else {
        errors.push(format!("{at}: the schema is not an object"));
        return;
    };
    for (key, rule) in schema {
        match key.as_str() {
            "description" | "example" | "default" | "title" => {}
            "$ref" => {
                let name = rule
                    .as_str()
                    .and_then(|r| r.strip_prefix("#/components/schemas/"))
                    .unwrap_or_else(|| panic!("{at}: a $ref outside the components: {rule}"));
                let target = &doc["components"]["schemas"][name];
                assert!(!target.is_null(), "{at}: $ref to a missing schema {name}");
                validate(doc, target, value, &format!("{at} ({name})"), errors);
            }
            "type" => {
                let types: Vec<&str> = match rule {
                    Value::String(t) => vec![t],
                    Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                    other => panic!("{at}: a type of no shape: {other}"),
                };
                let ok = types.iter().any(|t| match *t {
                    "string" => value.is_string(),
                    "integer" => value.is_i64() || value.is_u64(),
                    "number" => value.is_number(),
                    "boolean" => value.is_boolean(),
                    "object" => value.is_object(),
                    "array" => value.is_array(),
                    "null" => value.is_null(),
                    other => panic!("{at}: unknown type {other}"),
                });
                if !ok {
                    errors.push(format!("{at}: {value} is not of type {rule}"));
                }
            }
            "const" => {
                if value != rule {
                    errors.push(format!("{at}: {value} is not {rule}"));
                }
            }
            "enum" => {
                if !rule.as_array().is_some_and(|e| e.contains(value)) {
                    errors.push(format!("{at}: {value} is not one of {rule}"));
                }
            }
            "minimum" | "maximum" => {
                if let (Some(v), Some(bound)) = (value.as_f64(), rule.as_f64()) {
                    if (key == "minimum" && v < bound) || (key == "maximum" && v > bound) {
                        errors.push(format!("{at}: {v} is past the {key} {bound}"));
                    }
                }
            }
            "required" => {
                if let Some(object) = value.as_object() {
                    for name in rule.as_array().into_iter().flatten() {
                        let name = name.as_str().unwrap_or_default();
                        if !object.contains_key(name) {
                            errors.push(format!("{at}: required property `{name}` missing"));
                        }
                    }
                }
            }
            "properties" => {
                let (Some(object), Some(properties)) = (value.as_object(), rule.as_object()) else {
                    continue;
                };
                for (name, v) in object {
                    match properties.get(name) {
                        Some(s) => validate(doc, s, v, &format!("{at}.{name}"), errors),
                        None => errors.push(format!("{at}: property `{name}` not documented")),
                    }
                }
            }
            "items" => {
                for (i, item) in value.as_array().into_iter().flatten().enumerate() {
                    validate(doc, rule, item, &format!("{at}[{i}]"), errors);
                }
            }
            other => panic!("{at}: schema keyword `{other}` not known to this test"),
        }
    }
}

#[tokio::test]
async fn every_documented_response_matches_the_live_answer() {
    let (_, _, body) = call(Server::Plain, "/api/openapi.json").await;
    let doc: Value = serde_json::from_str(&body).unwrap();
    let mut documented = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            assert_eq!(method, "get", "{path}: only GET is served");
            for (status, response) in operation["responses"].as_object().unwrap() {
                let Some(content) = response["content"].as_object() else {
                    continue;
                };
                for (kind, media) in content {
                    // Only JSON bodies have a schema to check (an SVG picture is a string).
                    if kind == "application/json" || kind == "text/event-stream" {
                        documented.push((
                            path.clone(),
                            status.clone(),
                            kind.clone(),
                            media["schema"].clone(),
                        ));
                    }
                }
            }
        }
    }
    let mut errors = Vec::new();
    for (path, status, _, schema) in &documented {
        let Some(&(_, _, server, uri)) = CASES.iter().find(|c| c.0 == path && c.1 == status) else {
            errors.push(format!(
                "{path} {status}: no live request elicits it in CASES"
            ));
            continue;
        };
        let (got, content_type, body) = call(server, uri).await;
        if got.as_str() != status {
            errors.push(format!(
                "{uri}: answered {got}, the case is for {status}: {body}"
            ));
            continue;
        }
        let bodies = if content_type.starts_with("text/event-stream") {
            let e = events(&body);
            assert!(!e.is_empty(), "{uri}: no events");
            e
        } else {
            assert!(
                content_type.starts_with("application/json"),
                "{uri}: {content_type}"
            );
            vec![serde_json::from_str(&body).unwrap()]
        };
        for (i, value) in bodies.iter().enumerate() {
            validate(
                &doc,
                schema,
                value,
                &format!("{uri} {status} #{i}"),
                &mut errors,
            );
        }
    }
    for (path, status, server, uri) in CASES {
        assert!(
            documented.iter().any(|d| d.0 == *path && d.1 == *status),
            "{path} {status} ({server:?} {uri}) is not documented"
        );
    }
    assert!(
        errors.is_empty(),
        "{} problems:\n{}",
        errors.len(),
        errors.join("\n")
    );
}

#[test]
fn the_validator_catches_what_it_claims_to() {
    let doc = serde_json::json!({ "components": { "schemas": { "P": {
        "type": "object", "required": ["a"],
        "properties": { "a": { "type": "integer", "minimum": 0 }, "b": { "enum": ["x"] } }
    } } } });
    let schema =
        serde_json::json!({ "type": "array", "items": { "$ref": "#/components/schemas/P" } });
    let check = |v: Value| {
        let mut errors = Vec::new();
        validate(&doc, &schema, &v, "v", &mut errors);
        errors.len()
    };
    assert_eq!(check(serde_json::json!([{ "a": 1, "b": "x" }])), 0);
    assert_eq!(check(serde_json::json!({ "a": 1 })), 1, "not an array");
    assert_eq!(check(serde_json::json!([{ "b": "x" }])), 1, "a missing");
    assert_eq!(
        check(serde_json::json!([{ "a": -1 }])),
        1,
        "under the minimum"
    );
    assert_eq!(
        check(serde_json::json!([{ "a": 1.5 }])),
        1,
        "not an integer"
    );
    assert_eq!(
        check(serde_json::json!([{ "a": 1, "b": "y" }])),
        1,
        "not in the enum"
    );
    assert_eq!(
        check(serde_json::json!([{ "a": 1, "c": 0 }])),
        1,
        "undocumented"
    );
}
