//! The pictures against the positions they draw, on random games of every size: the SVG
//! well-formed XML with one disc circle of the right colour per disc, the legal moves, the
//! last move and the values where they belong; the PNG a compressed file the `png` crate
//! decodes (every checksum checked) to exactly the pixels drawn, which show the same.

#[path = "support/xml.rs"]
mod xml;

use ply_core::SplitMix64;
use ply_othello::{
    picture::{self, Options, Value},
    text, BoardSize, Color, Move, Position, Square,
};

/// The position after a random number (below the board's squares) of random moves from the
/// start of `size` (fewer if the game ends), the last square played, and the position's
/// legal moves (none once the game is over).
fn random_game(size: BoardSize, rng: &mut SplitMix64) -> (Position, Option<Square>, Vec<Square>) {
    let n = usize::from(size.n());
    let plies = rng.below(n * n);
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
    let legal = if pos.is_game_over() {
        Vec::new()
    } else {
        pos.legal_moves().collect()
    };
    (pos, last, legal)
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
            let (pos, last, legal) = random_game(size, &mut rng);
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
            let picture = picture::svg(&pos, &opts);
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
    let picture = picture::svg(&pos, &opts);
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
    let picture = picture::svg(
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

/// A decoded PNG: width, height and RGB bytes, read by the `png` crate (which checks the
/// chunks' CRC-32 and the zlib stream), 8-bit RGB as the writer writes it.
fn decode_png(file: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut reader = png::Decoder::new(std::io::Cursor::new(file))
        .read_info()
        .expect("a PNG the png crate reads");
    let mut rgb = vec![0; reader.output_buffer_size().expect("a size that fits")];
    let frame = reader.next_frame(&mut rgb).expect("its image data");
    assert_eq!(
        (frame.color_type, frame.bit_depth),
        (png::ColorType::Rgb, png::BitDepth::Eight),
        "8-bit RGB"
    );
    rgb.truncate(frame.buffer_size());
    (frame.width, frame.height, rgb)
}

/// The PNG of a position (the transcript's) with its legal moves and the value of each.
fn png_and_pixels(transcript: &str) -> (Vec<u8>, picture::Pixels) {
    let pos = ply_othello::transcript::parse(transcript, Position::start(BoardSize::Eight))
        .expect("a legal game")
        .position();
    let values = pos
        .legal_moves()
        .into_iter()
        .enumerate()
        .map(|(i, square)| Value {
            square,
            discs: -2.0 * i as f64,
            exact: i % 2 == 0,
        })
        .collect();
    let opts = Options {
        last_move: None,
        legal_moves: true,
        values,
    };
    (picture::png(&pos, &opts), picture::pixels(&pos, &opts))
}

#[test]
fn a_png_decodes_to_exactly_the_pixels_drawn_and_is_compressed() {
    for transcript in ["f5d6c3d3c4", "f5", "f5d6c3d3c4f4f6f3e6e7d7c5b6"] {
        let (file, pixels) = png_and_pixels(transcript);
        let (width, height, rgb) = decode_png(&file);
        assert_eq!(
            (width, height),
            (pixels.width, pixels.height),
            "{transcript}"
        );
        assert_eq!((width, height), (512, 512), "{transcript}");
        assert!(
            rgb == pixels.rgb,
            "{transcript}: the decoded pixels differ from the drawn"
        );
        // Stored uncompressed, the 512x512 board took 787,072 bytes.
        assert!(file.len() < 30_000, "{transcript}: {} bytes", file.len());
    }
}

#[test]
fn png_pictures_show_the_discs_and_marks_where_the_position_has_them() {
    let mut rng = SplitMix64::new(0x9e6_0002);
    for size in [BoardSize::Four, BoardSize::Six, BoardSize::Eight] {
        let n = u32::from(size.n());
        for _ in 0..6 {
            let (pos, last, legal) = random_game(size, &mut rng);
            let values: Vec<Value> = legal
                .iter()
                .take(1)
                .map(|&square| Value {
                    square,
                    discs: -3.0,
                    exact: true,
                })
                .collect();
            let opts = Options {
                last_move: last,
                legal_moves: true,
                values: values.clone(),
            };
            let (width, height, rgb) = decode_png(&picture::png(&pos, &opts));
            assert_eq!((width, height), (24 + 60 * n + 8, 24 + 60 * n + 8));
            let pixel = |x: u32, y: u32| {
                let i = ((y * width + x) * 3) as usize;
                (rgb[i], rgb[i + 1], rgb[i + 2])
            };
            for row in 0..n {
                for col in 0..n {
                    let sq = Square::new(col as u8, row as u8).unwrap();
                    let (x, y) = (24 + col * 60, 24 + row * 60);
                    // Off centre, clear of the last move's dot and the legal-move dot.
                    let (r, g, b) = pixel(x + 30 + 14, y + 30);
                    let felt = (0x2e, 0x7d, 0x57);
                    if pos.discs(Color::Black).contains(sq) {
                        assert!(
                            r < 40 && g < 40 && b < 40,
                            "{sq}: black disc, got {r} {g} {b}"
                        );
                    } else if pos.discs(Color::White).contains(sq) {
                        assert!(
                            r > 220 && g > 220 && b > 200,
                            "{sq}: white disc, got {r} {g} {b}"
                        );
                    } else if values.iter().any(|v| v.square == sq) {
                        assert!(r > 220 && g > 220, "{sq}: a value's tile, got {r} {g} {b}");
                    } else {
                        assert_eq!((r, g, b), felt, "{sq}: felt");
                        let centre = pixel(x + 30, y + 30);
                        if legal.contains(&sq) {
                            assert!(centre.1 < felt.1, "{sq}: a legal move's dot");
                        } else {
                            assert_eq!(centre, felt, "{sq}: nothing at the centre");
                        }
                    }
                    if last == Some(sq) {
                        assert_eq!(pixel(x + 30, y + 30), (0xf0, 0xb4, 0x29), "{sq}: last move");
                    }
                }
            }
        }
    }
}
