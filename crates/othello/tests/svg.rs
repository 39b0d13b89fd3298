//! The SVG picture against the positions it draws: well-formed XML, one disc circle of the
//! right colour per disc, the legal moves, the last move and the values where they belong,
//! on random games of every size.

#[path = "support/xml.rs"]
mod xml;

use ply_core::SplitMix64;
use ply_othello::{
    svg::{self, Options, Value},
    text, BoardSize, Color, Move, Position, Square,
};

/// The position after `plies` random moves from the start of `size` (fewer if the game
/// ends), and the last square played.
fn random_game(size: BoardSize, plies: usize, rng: &mut SplitMix64) -> (Position, Option<Square>) {
    let mut pos = Position::start(size);
    let mut last = None;
    for _ in 0..plies {
        if pos.is_game_over() {
            break;
        }
        let moves: Vec<Square> = pos.legal_moves().collect();
        if moves.is_empty() {
            pos = pos.play_move(Move::Pass).expect("a forced pass");
            last = None;
            continue;
        }
        let sq = moves[rng.below(moves.len())];
        pos = pos.play(sq).expect("legal");
        last = Some(sq);
    }
    (pos, last)
}

/// The elements with this class list.
fn with_class<'a>(elements: &'a [xml::Element], class: &str) -> Vec<&'a xml::Element> {
    elements
        .iter()
        .filter(|e| e.attr("class") == Some(class))
        .collect()
}

/// The square under an element's centre (`cx`, `cy`, or a text's `x`, `y`).
fn square_at(e: &xml::Element, n: u8) -> Square {
    let (x, y) = match e.name.as_str() {
        "circle" => (e.attr("cx"), e.attr("cy")),
        _ => (e.attr("x"), e.attr("y")),
    };
    let num = |v: Option<&str>| v.expect("a coordinate").parse::<f64>().expect("a number");
    let (col, row) = ((num(x) - 24.0) / 60.0, (num(y) - 24.0) / 60.0);
    assert!(col >= 0.0 && row >= 0.0 && col < f64::from(n) && row < f64::from(n));
    Square::new(col as u8, row as u8).expect("on the board")
}

#[test]
fn the_xml_check_catches_what_it_claims_to() {
    xml::self_check();
}

#[test]
fn pictures_of_random_games_show_their_discs_moves_and_values() {
    let mut rng = SplitMix64::new(0x5e6_0001);
    for size in [BoardSize::Four, BoardSize::Six, BoardSize::Eight] {
        let n = size.n();
        for game in 0..30 {
            let plies = rng.below(usize::from(n) * usize::from(n));
            let (pos, last) = random_game(size, plies, &mut rng);
            let legal: Vec<Square> = if pos.is_game_over() {
                Vec::new()
            } else {
                pos.legal_moves().collect()
            };
            // Values on every other legal move; plain dots on the rest.
            let values: Vec<Value> = legal
                .iter()
                .step_by(2)
                .enumerate()
                .map(|(i, &square)| Value {
                    square,
                    discs: i as f64 * -2.5,
                    exact: i % 2 == 0,
                })
                .collect();
            let opts = Options {
                last_move: last,
                legal_moves: true,
                values: values.clone(),
            };
            let picture = svg::picture(&pos, &opts);
            let elements = xml::parse(&picture)
                .unwrap_or_else(|e| panic!("{size:?} game {game}: {e}\n{picture}"));
            assert_eq!(elements[0].name, "svg");
            assert_eq!(
                elements[0].attr("xmlns"),
                Some("http://www.w3.org/2000/svg")
            );
            for (class, color) in [("disc black", Color::Black), ("disc white", Color::White)] {
                let discs = with_class(&elements, class);
                assert_eq!(discs.len() as u32, pos.disc_count(color), "{class}");
                for d in discs {
                    assert!(pos.discs(color).contains(square_at(d, n)), "{class}");
                }
            }
            let dots: Vec<Square> = with_class(&elements, "legal")
                .iter()
                .map(|e| square_at(e, n))
                .collect();
            let shown: Vec<Square> = with_class(&elements, "value")
                .iter()
                .map(|e| square_at(e, n))
                .collect();
            assert_eq!(shown, values.iter().map(|v| v.square).collect::<Vec<_>>());
            let mut marked = [dots, shown].concat();
            marked.sort();
            assert_eq!(marked, legal, "every legal move marked once");
            let lasts: Vec<Square> = with_class(&elements, "last")
                .iter()
                .map(|e| square_at(e, n))
                .collect();
            assert_eq!(lasts, last.into_iter().collect::<Vec<_>>());
            let coords: Vec<&str> = with_class(&elements, "coord")
                .iter()
                .map(|e| e.text.as_str())
                .collect();
            assert_eq!(coords.len(), 2 * usize::from(n));
            assert!(coords.contains(&"a") && coords.contains(&n.to_string().as_str()));
            let desc = elements.iter().find(|e| e.name == "desc").expect("a desc");
            assert_eq!(desc.text, text::format_position(&pos));
        }
    }
}

#[test]
fn values_are_written_as_the_page_writes_them_and_the_best_is_framed() {
    let pos = Position::start(BoardSize::Eight);
    let sq = |s: &str| Square::parse(s).unwrap();
    let opts = Options {
        last_move: None,
        legal_moves: false,
        values: vec![
            Value {
                square: sq("d3"),
                discs: 2.0,
                exact: true,
            },
            Value {
                square: sq("c4"),
                discs: -1.54,
                exact: false,
            },
            // Not a legal move: ignored.
            Value {
                square: sq("a1"),
                discs: 9.0,
                exact: true,
            },
        ],
    };
    let picture = svg::picture(&pos, &opts);
    let elements = xml::parse(&picture).expect("well-formed");
    let texts: Vec<&str> = with_class(&elements, "value")
        .iter()
        .map(|e| e.text.as_str())
        .collect();
    assert_eq!(texts, ["+2", "≈−1.5"]);
    let tiles = with_class(&elements, "value-tile");
    assert_eq!(
        tiles[0].attr("stroke"),
        Some("#f0b429"),
        "the best move is framed"
    );
    assert_eq!(
        tiles[1].attr("stroke-dasharray"),
        Some("4 3"),
        "an estimate is dashed"
    );
    assert!(
        with_class(&elements, "legal").is_empty(),
        "no dots unless asked"
    );
    let status = with_class(&elements, "status");
    assert_eq!(status[0].text, "Black 2 – White 2, black to move");
}

#[test]
fn a_finished_game_says_who_won_and_marks_no_move() {
    let pos = text::parse_position("XXXX XXXX XXXX XXX- O").unwrap();
    let picture = svg::picture(
        &pos,
        &Options {
            legal_moves: true,
            ..Options::default()
        },
    );
    let elements = xml::parse(&picture).expect("well-formed");
    assert!(with_class(&elements, "legal").is_empty());
    assert_eq!(
        with_class(&elements, "status")[0].text,
        "Black 15 – White 0, game over: black wins by 16"
    );
}
