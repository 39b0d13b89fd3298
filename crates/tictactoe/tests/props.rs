//! Properties: text round trips, moves stay reachable, no input makes a parser panic.

use ply_tictactoe::{check, parse_board, Board, Cell, Mark, Notation, PlayError, Position, FULL};
use proptest::prelude::*;

fn any_board() -> impl Strategy<Value = Board> {
    (0u16..=FULL, 0u16..=FULL).prop_map(|(x, o)| Board::from_masks(x & !o, o).unwrap())
}

/// A position reached by up to nine random moves from the empty board.
fn any_position() -> impl Strategy<Value = Position> {
    (prop::bool::ANY, prop::collection::vec(0u8..9, 0..9)).prop_map(|(o_first, picks)| {
        let mut pos = Position::start(if o_first { Mark::O } else { Mark::X });
        for pick in picks {
            let moves: Vec<Cell> = pos.moves().collect();
            if moves.is_empty() {
                break;
            }
            pos = pos.play_unchecked(moves[usize::from(pick) % moves.len()]);
        }
        pos
    })
}

proptest! {
    #[test]
    fn parse_format_round_trip(b in any_board()) {
        prop_assert_eq!(b.to_string().parse::<Board>(), Ok(b));
        let digits: String = b.to_string().chars().map(|c| match c {
            'X' => '1', 'O' => '2', '.' => '0', other => other,
        }).collect();
        prop_assert_eq!(parse_board(&digits, Notation::Digits), Ok(b));
    }

    #[test]
    fn every_legal_move_leads_to_a_reachable_position(pos in any_position()) {
        for cell in pos.moves() {
            let next = pos.play(cell).unwrap();
            prop_assert_eq!(check(next.board(), pos.first()), Ok(()));
            prop_assert_eq!(Position::new(next.board(), pos.first()), Ok(next));
        }
        if pos.is_over() {
            prop_assert_eq!(pos.play(Cell::new(0).unwrap()), Err(PlayError::GameOver));
        }
    }

    #[test]
    fn best_move_value_is_the_position_value(pos in any_position()) {
        if let Some(best) = pos.analyze().into_iter().map(|(_, v)| v).max() {
            prop_assert_eq!(best, pos.value());
        }
    }

    #[test]
    fn parsers_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..40)) {
        let text = String::from_utf8_lossy(&bytes);
        for notation in [Notation::Marks, Notation::Digits] {
            if let Ok(b) = parse_board(&text, notation) {
                let _ = check(b, Mark::X);
            }
        }
    }
}
