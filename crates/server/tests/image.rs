//! `GET /api/othello/image`, called in-process: an SVG picture of the position asked for,
//! well-formed, with the position's discs, its legal moves, the last move and the values
//! given; a bad parameter is a 400 that names it.

#[path = "../../othello/tests/support/xml.rs"]
mod xml;

use axum::{
    body::{to_bytes, Body},
    http::{header, Request, StatusCode},
};
use ply_othello::{transcript, BoardSize, Color, Position};
use ply_server::{router, Config};
use tower::ServiceExt;

/// The status, the content type and the body of a GET.
async fn get(uri: &str) -> (StatusCode, String, String) {
    let response = router(Config::default())
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let kind = response
        .headers()
        .get(header::CONTENT_TYPE)
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    let bytes = to_bytes(response.into_body(), 1 << 20).await.unwrap();
    (status, kind, String::from_utf8(bytes.to_vec()).unwrap())
}

fn with_class<'a>(elements: &'a [xml::Element], class: &str) -> Vec<&'a xml::Element> {
    elements
        .iter()
        .filter(|e| e.attr("class") == Some(class))
        .collect()
}

#[tokio::test]
async fn the_picture_shows_the_position_its_moves_and_the_values_given() {
    let (status, kind, body) = get("/api/othello/image?text=f5d6c3&values=d3:-2,f4:~%2B1.5").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(kind, "image/svg+xml; charset=utf-8");
    let elements = xml::parse(&body).unwrap_or_else(|e| panic!("{e}\n{body}"));
    assert_eq!(elements[0].name, "svg");
    let pos = transcript::parse("f5d6c3", Position::start(BoardSize::Eight))
        .unwrap()
        .position();
    assert_eq!(
        with_class(&elements, "disc black").len() as u32,
        pos.disc_count(Color::Black)
    );
    assert_eq!(
        with_class(&elements, "disc white").len() as u32,
        pos.disc_count(Color::White)
    );
    let values: Vec<&str> = with_class(&elements, "value")
        .iter()
        .map(|e| e.text.as_str())
        .collect();
    assert_eq!(values, ["−2", "≈+1.5"]);
    // d3 f3 f4 g5 are legal: two carry values, the other two a dot.
    assert_eq!(with_class(&elements, "legal").len(), 2);
    assert_eq!(with_class(&elements, "last").len(), 1);
    // A set-up position names its last move; `legal=0` leaves the dots out.
    let (status, _, body) =
        get("/api/othello/image?text=----XXXX-OO-XOXO%20O&size=4&last=b3&legal=0").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let elements = xml::parse(&body).unwrap();
    assert_eq!(with_class(&elements, "disc black").len(), 6);
    assert_eq!(with_class(&elements, "disc white").len(), 4);
    assert_eq!(with_class(&elements, "last").len(), 1);
    assert!(with_class(&elements, "legal").is_empty());
}

#[tokio::test]
async fn bad_parameters_are_400s_that_name_them() {
    for (uri, needle) in [
        ("/api/othello/image", "`text` is missing"),
        ("/api/othello/image?text=f5z9", "`text`"),
        (
            "/api/othello/image?text=f5&size=7",
            "`size`: `7` is not a board size: use 4, 6 or 8",
        ),
        (
            "/api/othello/image?text=f5&last=a1",
            "`last`: a1 holds no disc",
        ),
        ("/api/othello/image?text=f5&last=k9", "`last`"),
        (
            "/api/othello/image?text=f5&values=a1:3",
            "a1 is not a legal move",
        ),
        (
            "/api/othello/image?text=f5&values=d6",
            "`d6` is not `square:value`",
        ),
        (
            "/api/othello/image?text=f5&values=d6:lots",
            "`lots` is not a number of discs",
        ),
        ("/api/othello/image?text=f5&values=d6:99", "from -64 to 64"),
        (
            "/api/othello/image?text=f5&values=d6:1,d6:2",
            "d6 is given twice",
        ),
        (
            "/api/othello/image?text=f5&legal=maybe",
            "`legal` must be 0 or 1",
        ),
        (
            "/api/othello/image?text=f5&colour=red",
            "unknown parameter `colour`",
        ),
    ] {
        let (status, kind, body) = get(uri).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}: {body}");
        assert!(kind.starts_with("application/json"), "{uri}: {kind}");
        assert!(body.contains(needle), "{uri}: `{body}` lacks `{needle}`");
    }
}
