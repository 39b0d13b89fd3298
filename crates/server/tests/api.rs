//! The JSON API, called in-process: every endpoint, good answers checked against the
//! libraries, and bad input answered with 400 and a message naming what is wrong.

use std::time::Duration;

use axum::{
    body::{to_bytes, Body},
    http::{Request, StatusCode},
    Router,
};
use ply_core::SplitMix64;
use ply_othello::{BoardSize, Position};
use ply_server::{router, Config};
use serde_json::Value;
use tower::ServiceExt;

mod common;

use common::{app, bad, get, stream};

#[tokio::test]
async fn health_says_ok() {
    let (status, json) = get(app(), "/api/health").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(json["status"], "ok");
    // The gate's limits, so that a client can see how long a queued search may wait.
    let searches = &json["searches"];
    assert_eq!(searches["running"], 0, "{json}");
    assert_eq!(searches["waiting"], 0, "{json}");
    assert_eq!(searches["max_wait_ms"], 5000, "{json}");
    assert_eq!(searches["retry_after_s"], 1, "{json}");
    assert!(
        searches["max_running"].as_u64().is_some_and(|n| n >= 1),
        "{json}"
    );
}

#[tokio::test]
async fn othello_4x4_start_is_solved_exactly() {
    let (status, json) = get(app(), "/api/othello/analyze?size=4&budget_ms=5000").await;
    assert_eq!(status, StatusCode::OK, "{json}");
    assert_eq!(json["status"], "play");
    assert_eq!(
        (&json["proven"], &json["all_exact"]),
        (&true.into(), &true.into())
    );
    // 4x4 is a white win by 8 discs: -10 for black with the empties to the winner.
    assert_eq!(json["score"], -10);
    let moves = json["moves"].as_array().unwrap();
    let mut names: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    names.sort_unstable();
    assert_eq!(names, ["a2", "b1", "c4", "d3"]);
    assert!(moves
        .iter()
        .all(|m| m["exact"] == true && m["score"] == -10));
    assert_eq!(json["line"].as_array().unwrap()[0], json["best"]);
    assert_eq!(json["discs"], serde_json::json!({"X": 2, "O": 2}));
}

#[tokio::test]
async fn othello_6x6_start_is_answered_exactly_from_the_book() {
    let (status, json) = get(app(), "/api/othello/analyze?size=6").await;
    assert_eq!(status, StatusCode::OK, "{json}");
    // 6x6 is a white win 16-20: -4 for black, every first move the same up to symmetry.
    assert_eq!(json["score"], -4);
    assert_eq!(
        (&json["proven"], &json["all_exact"]),
        (&true.into(), &true.into())
    );
    assert_eq!(json["engine"], "book");
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    assert!(moves.iter().all(|m| m["exact"] == true && m["score"] == -4));
    // At once from the book, not after the default budget a search would spend.
    let elapsed = json["elapsed_ms"].as_u64().unwrap();
    assert!(
        elapsed < ply_server::othello::DEFAULT_BUDGET_MS,
        "{elapsed} ms"
    );
    // The line follows the book for both sides, from the best move on.
    let line = json["line"].as_array().unwrap();
    assert_eq!(line[0], json["best"]);
    assert!(line.len() >= 8, "{json}");
}

/// An 8x8 position out of the opening book (after f5 f4), as the API takes it: the engine
/// searches it for as long as it is given.
macro_rules! out_of_book {
    () => {
        "size=8&position=...........................OOO.....XXX..........................&turn=X"
    };
}

#[tokio::test]
async fn othello_8x8_out_of_the_book_gives_estimates_within_the_budget() {
    let started = std::time::Instant::now();
    let (status, json) = get(
        app(),
        concat!("/api/othello/analyze?", out_of_book!(), "&budget_ms=200"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{json}");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(
        (&json["proven"], &json["all_exact"]),
        (&false.into(), &false.into())
    );
    let moves = json["moves"].as_array().unwrap();
    assert!(moves.len() >= 3, "{json}");
    assert!(moves
        .iter()
        .all(|m| m["exact"] == false && m["book"] == false));
    assert!(json["depth"].as_u64().unwrap() >= 1);
    assert_eq!(json["engine"], "midgame");
}

#[tokio::test]
async fn othello_8x8_start_comes_from_the_opening_book_at_once() {
    let (status, json) = get(app(), "/api/othello/analyze?size=8&budget_ms=200").await;
    assert_eq!(status, StatusCode::OK, "{json}");
    assert_eq!(json["engine"], "book", "{json}");
    assert_eq!(json["proven"], false);
    assert_eq!(json["nodes"], 0);
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    assert!(moves
        .iter()
        .all(|m| m["book"] == true && m["exact"] == false));
}

#[tokio::test]
async fn othello_cells_may_use_any_common_symbol_set() {
    for cells in [
        ".....OX..XO.....",
        "-----OX--XO-----",
        ".....W*..*W.....",
        ".....WB..BW.....",
    ] {
        let uri = format!("/api/othello/analyze?size=4&position={cells}&turn=O&budget_ms=100");
        let (status, json) = get(app(), &uri).await;
        assert_eq!(status, StatusCode::OK, "{cells}: {json}");
        assert_eq!(json["position"], "-----OX--XO-----");
        assert_eq!(json["turn"], "O");
    }
}

#[tokio::test]
async fn othello_endgames_go_to_the_exact_solver() {
    // A 6x6 position with 12 empty squares: the solver's scores equal the midgame engine's
    // own exact search to the end, move by move.
    let mut pos = Position::start(BoardSize::Six);
    while pos.empties().count() > 12 {
        pos = if pos.can_move() {
            pos.play_unchecked(pos.legal_moves().next().unwrap())
        } else {
            pos.passed()
        };
    }
    let (status, json) = get(app(), &othello_uri(&pos)).await;
    assert_eq!(status, StatusCode::OK, "{json}");
    assert_eq!(json["engine"], "solver");
    assert_eq!(
        (&json["proven"], &json["all_exact"]),
        (&true.into(), &true.into())
    );
    let want = ply_othello::midgame::analyze(&pos, &ply_othello::midgame::Limits::default());
    assert!(want.all_exact);
    assert_eq!(json["score"], want.score.whole().0);
    for m in json["moves"].as_array().unwrap() {
        let sq = ply_othello::Square::parse(m["move"].as_str().unwrap()).unwrap();
        let w = want.moves.iter().find(|w| w.square == sq).unwrap();
        assert_eq!(m["score"], w.score.whole().0, "{sq}");
        assert_eq!(m["exact"], true);
    }
    assert_eq!(json["moves"].as_array().unwrap().len(), want.moves.len());
    // The line is a whole game of perfect play: replayed, it ends with the promised score.
    let mut cur = pos;
    for step in json["line"].as_array().unwrap() {
        cur = match step.as_str().unwrap() {
            "pass" => cur.pass().unwrap(),
            sq => cur.play(ply_othello::Square::parse(sq).unwrap()).unwrap(),
        };
    }
    assert!(cur.is_game_over());
    let sign = if cur.turn() == pos.turn() { 1 } else { -1 };
    assert_eq!(json["score"], sign * cur.final_score());
}

#[tokio::test]
async fn othello_positions_are_read_with_the_side_to_move() {
    // After f5 on 8x8, white to move: three replies... d6, f6 and f4.
    let pos = Position::start(BoardSize::Eight)
        .play(ply_othello::Square::parse("f5").unwrap())
        .unwrap();
    let cells = ply_othello::text::cells(&pos);
    let uri = format!("/api/othello/analyze?position={cells}&turn=O&budget_ms=100");
    let (status, json) = get(app(), &uri).await;
    assert_eq!(status, StatusCode::OK, "{json}");
    assert_eq!(json["turn"], "O");
    let mut names: Vec<&str> = json["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["d6", "f4", "f6"]);
}

/// The first position of a deterministic 4x4 playout (by move order) that satisfies `want`.
fn find_position(want: impl Fn(&Position) -> bool) -> Position {
    let mut rng = SplitMix64::new(0x2545_f491_4f6c_dd1d);
    for _ in 0..10_000 {
        let mut pos = Position::start(BoardSize::Four);
        loop {
            if want(&pos) {
                return pos;
            }
            if pos.is_game_over() {
                break;
            }
            if !pos.can_move() {
                pos = pos.passed();
                continue;
            }
            let moves: Vec<_> = pos.legal_moves().collect();
            pos = pos.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
    panic!("no such position found");
}

fn othello_uri(pos: &Position) -> String {
    format!(
        "/api/othello/analyze?size={}&position={}&turn={}&budget_ms=2000",
        pos.size().n(),
        ply_othello::text::cells(pos),
        pos.turn().symbol()
    )
}

#[tokio::test]
async fn othello_a_forced_pass_is_reported() {
    let pos = find_position(|p| !p.can_move() && !p.is_game_over());
    let (status, json) = get(app(), &othello_uri(&pos)).await;
    assert_eq!(status, StatusCode::OK, "{json}");
    assert_eq!(json["status"], "pass");
    assert_eq!(json["best"], Value::Null);
    assert!(json["moves"].as_array().unwrap().is_empty());
    assert_eq!(json["line"][0], "pass");
    assert_eq!(
        (&json["proven"], &json["all_exact"]),
        (&true.into(), &true.into())
    );
}

#[tokio::test]
async fn othello_a_finished_game_is_scored() {
    // Over with empty squares left: they go to the winner.
    let pos = find_position(|p| p.is_game_over() && p.empties().count() > 0);
    let (status, json) = get(app(), &othello_uri(&pos)).await;
    assert_eq!(status, StatusCode::OK, "{json}");
    assert_eq!(json["status"], "over");
    assert_eq!(json["score"], pos.final_score());
    assert_eq!(json["best"], Value::Null);
    assert!(json["moves"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn othello_bad_input_is_a_400_that_names_it() {
    // The analysis's fields, refused by the library's one check with the words the command
    // line and Python use (crates/cli/tests/othello.rs, crates/python/tests).
    for (query, message) in [
        ("threads=0", "threads 0: expected 1 to 256"),
        ("threads=300", "threads 300: expected 1 to 256"),
        ("depth=0", "depth 0: expected 1 to 64"),
        (
            "budget_ms=100&depth=5",
            "time and depth: give one or the other, not both",
        ),
    ] {
        bad(&format!("/api/othello/analyze?{query}"), message).await;
        bad(&format!("/api/othello/analyze/stream?{query}"), message).await;
    }
    bad(
        "/api/othello/analyze?size=5",
        "`size`: `5` is not a board size: use 4, 6 or 8",
    )
    .await;
    bad("/api/othello/analyze?size=abc", "`size`").await;
    bad("/api/othello/analyze?size=4&position=XO", "found 2 cells").await;
    bad(
        "/api/othello/analyze?size=4&position=.....OX..XZ.....&turn=X",
        "character 11 (`Z`)",
    )
    .await;
    bad(
        "/api/othello/analyze?size=6&position=.....OX..XO.....&turn=X",
        "is a 4x4 board but `size` is 6",
    )
    .await;
    bad(
        "/api/othello/analyze?size=4&position=................&turn=X",
        "impossible position: centre square b2 is empty",
    )
    .await;
    bad(
        "/api/othello/analyze?size=4&position=.....OX..XO.....&turn=Q",
        "`turn`: `Q` is not a side: use X (black) or O (white)",
    )
    .await;
    bad("/api/othello/analyze?turn=O", "without a `position`").await;
    bad(
        "/api/othello/analyze?budget_ms=10001",
        "`budget_ms` must be from 1 to 10000",
    )
    .await;
    bad(
        "/api/othello/analyze?budget_ms=99999999999999999999999",
        "`budget_ms` must be a whole number",
    )
    .await;
    bad("/api/othello/analyze?budget_ms=-5", "`budget_ms`").await;
    bad(
        "/api/othello/analyze?budget_ms=0",
        "`budget_ms` must be from 1",
    )
    .await;
    bad("/api/othello/analyze?sise=4", "unknown parameter `sise`").await;
    bad("/api/othello/analyze?size=4&size=6", "given twice").await;
    bad("/api/othello/analyze?position=%FF%FE", "").await;
}

#[tokio::test]
async fn openapi_lists_every_route_and_each_answers() {
    let (status, doc) = get(app(), "/api/openapi.json").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(doc["openapi"], "3.1.0");
    let paths = doc["paths"].as_object().unwrap();
    for route in [
        "/api/health",
        "/api/ttt/analyze",
        "/api/othello/analyze",
        "/api/othello/analyze/stream",
        "/api/othello/position",
        "/api/othello/image",
        "/api/othello/explore",
        "/api/openapi.json",
    ] {
        assert!(paths.contains_key(route), "{route} missing");
    }
    for route in paths.keys() {
        let uri = match route.as_str() {
            "/api/ttt/analyze" => "/api/ttt/analyze?board=.........".to_owned(),
            "/api/othello/analyze" => "/api/othello/analyze?size=4&budget_ms=50".to_owned(),
            "/api/othello/analyze/stream" => {
                let events = stream(app(), "/api/othello/analyze/stream?size=4&budget_ms=50").await;
                assert_eq!(events.last().unwrap().0, "done");
                continue;
            }
            "/api/othello/position" => "/api/othello/position?text=f5".to_owned(),
            "/api/othello/image" => {
                // A picture, not JSON (tests/image.rs checks it).
                let response = app()
                    .oneshot(
                        Request::get("/api/othello/image?text=f5")
                            .body(Body::empty())
                            .unwrap(),
                    )
                    .await
                    .unwrap();
                assert_eq!(response.status(), StatusCode::OK);
                continue;
            }
            "/api/othello/explore" => {
                // Without databases it says so (tests/explore.rs serves some).
                let (status, json) = get(app(), route).await;
                assert_eq!(status, StatusCode::NOT_FOUND, "{json}");
                continue;
            }
            other => other.to_owned(),
        };
        let (status, json) = get(app(), &uri).await;
        assert_eq!(status, StatusCode::OK, "{uri}: {json}");
    }
}

#[tokio::test]
async fn unknown_paths_and_methods_answer_json() {
    let (status, json) = get(app(), "/api/nothing").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(json["error"].is_string());
    let response = app()
        .oneshot(Request::post("/api/health").body(Body::from("x")).unwrap())
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn oversized_bodies_are_refused() {
    let response = app()
        .oneshot(
            Request::get("/api/health")
                .header("content-length", "1000000")
                .body(Body::from(vec![b'x'; 1_000_000]))
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
}

#[tokio::test]
async fn the_page_and_its_files_are_served() {
    for (path, kind) in [
        ("/", "text/html"),
        ("/main.js", "text/javascript"),
        ("/rules.js", "text/javascript"),
        ("/picture.js", "text/javascript"),
        ("/style.css", "text/css"),
    ] {
        let response = app()
            .oneshot(Request::get(path).body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let ct = response.headers()["content-type"]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(ct.starts_with(kind), "{path}: {ct}");
        let bytes = to_bytes(response.into_body(), 1 << 20).await.unwrap();
        assert!(!bytes.is_empty());
    }
}

/// A GET's status, `Retry-After` header and JSON body.
async fn get_with_retry_after(app: Router, uri: &str) -> (StatusCode, Option<String>, Value) {
    let response = app
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let retry = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_owned());
    let bytes = to_bytes(response.into_body(), 1 << 20).await.unwrap();
    (status, retry, serde_json::from_slice(&bytes).unwrap())
}

#[tokio::test]
async fn searches_beyond_the_queue_get_a_503_at_once_with_retry_after() {
    // One search at a time and no queue: a second search while the first runs is refused
    // at once, told when to come back.
    let app = router(Config {
        max_searches: 1,
        max_queue: 0,
        retry_after: Duration::from_secs(2),
        ..Config::default()
    });
    let slow = tokio::spawn(get(
        app.clone(),
        concat!("/api/othello/analyze?", out_of_book!(), "&budget_ms=1500"),
    ));
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (_, health) = get(app.clone(), "/api/health").await;
    assert_eq!(health["searches"]["running"], 1, "{health}");
    let asked = std::time::Instant::now();
    let (status, retry, json) = get_with_retry_after(
        app.clone(),
        concat!("/api/othello/analyze?", out_of_book!(), "&budget_ms=10"),
    )
    .await;
    assert!(asked.elapsed() < Duration::from_millis(500), "not at once");
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{json}");
    assert_eq!(retry.as_deref(), Some("2"));
    assert_eq!(json["retry_after_s"], 2, "{json}");
    assert!(json["error"].as_str().unwrap().contains("busy"), "{json}");
    // The stream is refused alike, before any event.
    let (status, retry, _) = get_with_retry_after(
        app.clone(),
        concat!("/api/othello/analyze/stream?", out_of_book!()),
    )
    .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(retry.as_deref(), Some("2"));
    // Cheap requests still go through meanwhile.
    let (status, _) = get(app.clone(), "/api/health").await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = slow.await.unwrap();
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn a_queued_search_waits_no_longer_than_the_bound() {
    // One search at a time, one place in the queue, a short bound on the wait: the queued
    // search is refused when the bound runs out, with Retry-After, not when the first ends.
    let app = router(Config {
        max_searches: 1,
        max_queue: 1,
        max_queue_wait: Duration::from_millis(300),
        ..Config::default()
    });
    let slow = tokio::spawn(get(
        app.clone(),
        concat!("/api/othello/analyze?", out_of_book!(), "&budget_ms=2500"),
    ));
    tokio::time::sleep(Duration::from_millis(300)).await;
    let asked = std::time::Instant::now();
    let (status, retry, json) = get_with_retry_after(
        app.clone(),
        concat!("/api/othello/analyze?", out_of_book!(), "&budget_ms=10"),
    )
    .await;
    let waited = asked.elapsed();
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{json}");
    assert_eq!(retry.as_deref(), Some("1"));
    assert!(json["error"].as_str().unwrap().contains("300 ms"), "{json}");
    assert!(
        waited >= Duration::from_millis(250) && waited < Duration::from_millis(1500),
        "{waited:?}"
    );
    let (status, _) = slow.await.unwrap();
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn slow_requests_are_cut_off_by_the_request_timeout() {
    let app = router(Config {
        request_timeout: Duration::from_millis(200),
        ..Config::default()
    });
    let started = std::time::Instant::now();
    let (status, json) = get(
        app,
        concat!("/api/othello/analyze?", out_of_book!(), "&budget_ms=5000"),
    )
    .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{json}");
    assert!(json["error"].as_str().unwrap().contains("too long"));
    assert!(started.elapsed() < Duration::from_secs(3));
}

#[tokio::test]
async fn othello_stream_sends_snapshots_then_the_final_answer() {
    let events = stream(app(), "/api/othello/analyze/stream?size=4&budget_ms=5000").await;
    let (last, done) = events.last().expect("at least one event");
    assert_eq!(last, "done");
    assert!(events[..events.len() - 1]
        .iter()
        .all(|(e, _)| e == "progress"));
    assert!(events.len() >= 2, "progress before the answer: {events:?}");
    // The final answer is the one /api/othello/analyze gives: 4x4 is exact, -10 for black.
    assert_eq!(
        (&done["proven"], &done["all_exact"]),
        (&true.into(), &true.into())
    );
    assert_eq!(done["score"], -10);
    let (_, plain) = get(app(), "/api/othello/analyze?size=4&budget_ms=5000").await;
    assert_eq!(done["moves"], plain["moves"]);
    // Bad parameters are a 400 with a JSON body, before any event.
    let (status, json) = get(app(), "/api/othello/analyze/stream?size=5").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(json["error"].as_str().unwrap().contains("`size`"), "{json}");
}

#[tokio::test]
async fn othello_position_reads_what_the_cli_reads() {
    // A transcript: every position of the game.
    let (status, json) = get(app(), "/api/othello/position?text=f5d6c3").await;
    assert_eq!(status, StatusCode::OK, "{json}");
    assert_eq!(json["moves"], serde_json::json!(["f5", "d6", "c3"]));
    assert_eq!(json["positions"].as_array().unwrap().len(), 4);
    assert_eq!(json["transcript"], "f5d6c3");
    // A position with white to move keeps white to move, in any symbol set.
    for text in [
        "-----OX--XO----- O",
        "-----OB--BO----- W",
        ".....WB..BW..... white",
    ] {
        let uri = format!("/api/othello/position?text={}", text.replace(' ', "%20"));
        let (status, json) = get(app(), &uri).await;
        assert_eq!(status, StatusCode::OK, "{text}: {json}");
        assert_eq!(json["positions"][0]["turn"], "O", "{text}");
        assert_eq!(json["size"], 4, "{text}");
        assert_eq!(json["obf"], "-----OX--XO----- O", "{text}");
    }
    // A written pass where it is forced, on a 4x4 board (size=4).
    let (status, json) = get(
        app(),
        "/api/othello/position?size=4&text=d3%20d2%20d1%20b4%20a2%20b1%20a4%20d4%20c4%20pass%20a1",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{json}");
    assert_eq!(json["size"], 4);
    assert_eq!(json["moves"][9], "pass");
    assert_eq!(json["positions"].as_array().unwrap().len(), 12);
    assert_eq!(json["positions"][9]["status"], "pass");
    bad(
        "/api/othello/position?text=-----OX--XO-----",
        "side to move is missing",
    )
    .await;
    bad("/api/othello/position?text=f5%20pass%20d6", "cannot pass").await;
    bad("/api/othello/position?text=f5f5", "move 2").await;
    bad(
        "/api/othello/position?text=----------------%20X",
        "centre square",
    )
    .await;
    bad("/api/othello/position", "`text` is missing").await;
    bad("/api/othello/position?text=%20", "`text` is empty").await;
    bad("/api/othello/position?text=f5&size=5", "`size`").await;
    bad(
        "/api/othello/position?text=f5&turn=X",
        "unknown parameter `turn`",
    )
    .await;
}

#[tokio::test]
async fn an_abandoned_stream_frees_its_search() {
    use futures_util::StreamExt;
    // One search at a time and no queue: while the stream runs, another search is refused;
    // once its client goes away, the search stops and the next one is served.
    let app = router(Config {
        max_searches: 1,
        max_queue: 0,
        ..Config::default()
    });
    let response = app
        .clone()
        .oneshot(
            Request::get(concat!(
                "/api/othello/analyze/stream?",
                out_of_book!(),
                "&budget_ms=10000"
            ))
            .body(Body::empty())
            .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let mut body = response.into_body().into_data_stream();
    let first = body.next().await.expect("an event").unwrap();
    assert!(String::from_utf8_lossy(&first).contains("event: progress"));
    let (status, _) = get(app.clone(), "/api/othello/analyze?size=4&budget_ms=10").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    drop(body);
    let started = std::time::Instant::now();
    loop {
        let (status, json) = get(app.clone(), "/api/othello/analyze?size=4&budget_ms=10").await;
        if status == StatusCode::OK {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "the abandoned search still holds its place: {json}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_chosen_book_answers_in_place_of_the_shipped_one() {
    // `ply serve --book FILE`: a book that says f5 is worth +7 at the start.
    let start = Position::start(BoardSize::Eight);
    let f5 = ply_othello::book::ScoredMove {
        square: ply_othello::Square::parse("f5").unwrap(),
        score: ply_othello::analyze::WholeDiscs(7),
        depth: 9,
    };
    let book =
        ply_othello::book::Book::from_partial(BoardSize::Eight, [(start, vec![f5])]).unwrap();
    let app = router(Config {
        book: Some(std::sync::Arc::new(book)),
        ..Config::default()
    });
    let (status, json) = get(app, "/api/othello/analyze?size=8&budget_ms=200").await;
    assert_eq!(status, StatusCode::OK, "{json}");
    let f5 = json["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == "f5")
        .unwrap();
    assert_eq!(
        (f5["score"].as_f64(), f5["book"].as_bool()),
        (Some(7.0), Some(true)),
        "{json}"
    );
    assert_eq!(json["best"], "f5");
}
