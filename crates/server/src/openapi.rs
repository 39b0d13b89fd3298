//! The OpenAPI 3.1 description of the API, served at `/api/openapi.json`. Written by hand next
//! to the handlers; `tests/openapi.rs` validates every response it documents against the
//! router's live answers (and fails on an undocumented property).

use ply_othello::analyze::{MAX_DEPTH, MAX_THREADS};
use serde_json::{json, Value};

use crate::{
    explore::MAX_GAMES_PAGE,
    othello::{DEFAULT_BUDGET_MS, MAX_BUDGET_MS},
};

fn error_response(what: &str) -> Value {
    json!({
        "description": what,
        "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } }
    })
}

/// The 503 of a busy server: the error, and when to try again.
fn busy_response(what: &str) -> Value {
    json!({
        "description": format!("{what}. A refusal because the server is busy (the message starts `the server is busy`) carries Retry-After and retry_after_s: try again after that many seconds. A search past the queue is refused at once; a queued search waits at most searches.max_wait_ms (see /api/health)."),
        "headers": { "Retry-After": {
            "description": "seconds to wait before trying again (on a busy refusal)",
            "schema": { "type": "integer", "minimum": 1 }
        } },
        "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } }
    })
}

/// The parameters of both analysis endpoints.
fn analyze_parameters() -> Value {
    json!([
        { "name": "size", "in": "query", "required": false, "schema": { "enum": [4, 6, 8], "default": 8 } },
        { "name": "position", "in": "query", "required": false,
          "description": "size*size cells row by row: X (black) or O (white) discs, . for empty (also * B / W and - _); / and spaces ignored. Default: the start position",
          "schema": { "type": "string" } },
        { "name": "turn", "in": "query", "required": false,
          "description": "side to move, X (black) or O (white); default X",
          "schema": { "enum": ["X", "O"] } },
        { "name": "budget_ms", "in": "query", "required": false,
          "schema": { "type": "integer", "minimum": 1, "maximum": MAX_BUDGET_MS, "default": DEFAULT_BUDGET_MS } },
        { "name": "depth", "in": "query", "required": false,
          "description": "the midgame engine's depth instead of a budget (not with budget_ms)",
          "schema": { "type": "integer", "minimum": 1, "maximum": MAX_DEPTH } },
        { "name": "threads", "in": "query", "required": false,
          "schema": { "type": "integer", "minimum": 1, "maximum": MAX_THREADS, "default": 1 } }
    ])
}

/// The document.
pub fn document() -> Value {
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "ply",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Solve and play tic-tac-toe and Othello perfectly. Every bad parameter is answered with 400 and {\"error\": \"...\"} saying what is wrong. A busy server answers 503 with Retry-After. A connection past the server's cap is answered 503 with Retry-After and closed; a connection that has not sent a request's line and headers within the header-read timeout (10 s by default), or that stays idle that long between requests, is closed."
        },
        "paths": {
            "/api/health": {
                "get": {
                    "summary": "Liveness check, with the limits and load of the analyses",
                    "responses": {
                        "200": {
                            "description": "The server is up",
                            "content": { "application/json": { "schema": {
                                "type": "object", "required": ["status", "searches"],
                                "properties": {
                                    "status": { "const": "ok" },
                                    "searches": { "type": "object", "properties": {
                                        "running": { "type": "integer", "description": "analyses running now" },
                                        "max_running": { "type": "integer", "description": "analyses that may run at once" },
                                        "waiting": { "type": "integer", "description": "analyses waiting for a turn now" },
                                        "max_waiting": { "type": "integer", "description": "analyses that may wait; one more is refused at once with 503" },
                                        "max_wait_ms": { "type": "integer", "description": "the longest an analysis waits for a turn before it is refused with 503" },
                                        "retry_after_s": { "type": "integer", "description": "what a busy refusal's Retry-After says" }
                                    } }
                                }
                            } } }
                        }
                    }
                }
            },
            "/api/ttt/analyze": {
                "get": {
                    "summary": "Solve a tic-tac-toe position and every move from it (GAMESMAN's shape)",
                    "parameters": [
                        { "name": "board", "in": "query", "required": true,
                          "description": "9 cells row by row: X or x, O or o, and . - _ or 0 for empty; / or spaces between rows are ignored",
                          "schema": { "type": "string" }, "example": "X.O.X...." },
                        { "name": "first", "in": "query", "required": false,
                          "description": "who moved first (default x)",
                          "schema": { "enum": ["x", "o", "X", "O"] } }
                    ],
                    "responses": {
                        "200": { "description": "The position's value and every legal move's",
                                 "content": { "application/json": { "schema": { "$ref": "#/components/schemas/TttAnalysis" } } } },
                        "400": error_response("A bad parameter or an unreachable board")
                    }
                }
            },
            "/api/othello/analyze": {
                "get": {
                    "summary": "Score every legal move of an Othello position: exact when the search reaches the end within the budget, estimated otherwise",
                    "parameters": analyze_parameters(),
                    "responses": {
                        "200": { "description": "Every legal move with its score",
                                 "content": { "application/json": { "schema": { "$ref": "#/components/schemas/OthelloAnalysis" } } } },
                        "400": error_response("A bad parameter or an impossible position"),
                        "503": busy_response("Too many analyses at once, or the request took too long")
                    }
                }
            },
            "/api/othello/analyze/stream": {
                "get": {
                    "summary": "The same analysis as /api/othello/analyze, streamed as Server-Sent Events: a `progress` event after every midgame iteration and every move the exact solver finishes (the best estimate first), then one `done` event; each event's data is a whole OthelloAnalysis",
                    "parameters": analyze_parameters(),
                    "responses": {
                        "200": { "description": "text/event-stream of `progress` events and a final `done` event",
                                 "content": { "text/event-stream": { "schema": { "$ref": "#/components/schemas/OthelloAnalysis" } } } },
                        "400": error_response("A bad parameter or an impossible position (before any event)"),
                        "503": busy_response("Too many analyses at once")
                    }
                }
            },
            "/api/othello/position": {
                "get": {
                    "summary": "Read a pasted Othello position, OBF line or transcript with the command line's reader; the game it describes",
                    "parameters": [
                        { "name": "text", "in": "query", "required": true,
                          "description": "a position (cells then the side to move: X/O/-, */O/., B/W/. or x/o/.; or the words black/white), an OBF line, a transcript such as f5d6c3 (passes may be written pass or pa), or a GGF game (;GM[Othello]…;)",
                          "schema": { "type": "string" }, "example": "f5d6c3" },
                        { "name": "size", "in": "query", "required": false,
                          "description": "board a transcript is played on when it is legal there, else the size it is written for (a position or a GGF game brings its own size)",
                          "schema": { "enum": [4, 6, 8], "default": 8 } }
                    ],
                    "responses": {
                        "200": { "description": "The game: its moves and every position",
                                 "content": { "application/json": { "schema": { "$ref": "#/components/schemas/OthelloGame" } } } },
                        "400": error_response("Text that is neither a position nor a legal transcript, saying what is wrong")
                    }
                }
            },
            "/api/othello/image": {
                "get": {
                    "summary": "A picture of an Othello position as SVG, drawn as the page draws its board: coordinates, discs, the last move, the legal moves, and the values given",
                    "parameters": [
                        { "name": "text", "in": "query", "required": true,
                          "description": "the position, read as /api/othello/position reads it (a position, an OBF line, a transcript or a GGF game)",
                          "schema": { "type": "string" }, "example": "f5d6c3" },
                        { "name": "size", "in": "query", "required": false,
                          "description": "as for /api/othello/position",
                          "schema": { "enum": [4, 6, 8], "default": 8 } },
                        { "name": "last", "in": "query", "required": false,
                          "description": "the square of the last move, marked with a dot (by default the transcript's last move; empty or none for no mark)",
                          "schema": { "type": "string" }, "example": "c3" },
                        { "name": "values", "in": "query", "required": false,
                          "description": "values to write on legal moves, in discs for the mover: square:value, comma-separated, ~ before an estimate",
                          "schema": { "type": "string" }, "example": "d3:+2,c4:~-1.5" },
                        { "name": "legal", "in": "query", "required": false,
                          "description": "mark the legal moves without a value with a dot",
                          "schema": { "enum": [0, 1], "default": 1 } }
                    ],
                    "responses": {
                        "200": { "description": "The picture", "content": { "image/svg+xml": { "schema": { "type": "string" } } } },
                        "400": error_response("A bad parameter, saying which and what is wrong")
                    }
                }
            },
            "/api/othello/explore": {
                "get": {
                    "summary": "The opening explorer: every legal move of an 8x8 position with how often the games of the server's WTHOR databases (ply serve --games) played it from this position or an image of it, Black's score rate and mean disc result, and, with budget_ms, the engine's value of it for Black (the opening book, or a search of that budget)",
                    "parameters": [
                        { "name": "position", "in": "query", "required": false,
                          "description": "64 cells row by row, as for /api/othello/analyze. Default: the start position",
                          "schema": { "type": "string" } },
                        { "name": "turn", "in": "query", "required": false,
                          "description": "side to move, X (black) or O (white); default X",
                          "schema": { "enum": ["X", "O"] } },
                        { "name": "budget_ms", "in": "query", "required": false,
                          "description": "the engine's budget; without it, the counts alone (no search)",
                          "schema": { "type": "integer", "minimum": 1, "maximum": MAX_BUDGET_MS } },
                        { "name": "games_limit", "in": "query", "required": false,
                          "description": "list this many of the games that reached the position (field reached); without it, no list",
                          "schema": { "type": "integer", "minimum": 1, "maximum": MAX_GAMES_PAGE } },
                        { "name": "games_offset", "in": "query", "required": false,
                          "description": "games of the list to skip (with games_limit); default 0",
                          "schema": { "type": "integer", "minimum": 0 } }
                    ],
                    "responses": {
                        "200": { "description": "Every legal move, most played first",
                                 "content": { "application/json": { "schema": { "$ref": "#/components/schemas/OthelloExploration" } } } },
                        "400": error_response("A bad parameter or an impossible position"),
                        "404": error_response("The server was started without game databases"),
                        "503": busy_response("Too many analyses at once (with budget_ms)")
                    }
                }
            },
            "/api/openapi.json": {
                "get": { "summary": "This document", "responses": { "200": { "description": "OpenAPI 3.1" } } }
            }
        },
        "components": { "schemas": {
            "OthelloExploration": { "type": "object", "properties": {
                "position": { "type": "string", "description": "64 cells (X, O, -) and the side to move" },
                "turn": { "enum": ["X", "O"] },
                "indexed_games": { "type": "integer", "description": "games in the databases" },
                "opening": { "type": ["string", "null"], "description": "the standard name of the opening the position is on (Tiger, Rose, ...), up to the board's symmetries; null off the named lines" },
                "games": { "type": "integer", "description": "games that went through the position (or an image of it) and played on" },
                "ended": { "type": "integer", "description": "games that ended in the position (or an image of it)" },
                "ended_black_mean_discs": { "type": ["number", "null"], "description": "black's mean result over the games that ended here; null when none did" },
                "reached": { "type": "object", "description": "with games_limit: a page of the games that reached the position (went through it or ended in it)", "properties": {
                    "total": { "type": "integer" },
                    "offset": { "type": "integer" },
                    "games": { "type": "array", "items": { "type": "object", "properties": {
                        "database": { "type": "integer", "description": "from 1, in the order the server was given them" },
                        "game": { "type": "integer", "description": "its number in that database, from 1" },
                        "year": { "type": "integer" },
                        "black": { "type": "string", "description": "from ply serve --players, or 'player N'" },
                        "white": { "type": "string" },
                        "black_discs": { "type": "integer" },
                        "black_score": { "type": "integer", "description": "black's discs minus white's, empties to the winner" },
                        "moves": { "type": "string", "description": "the whole game as a transcript" }
                    } } }
                } },
                "moves": { "type": "array", "items": { "type": "object", "properties": {
                    "move": { "type": "string", "example": "f5", "description": "a square, or pass" },
                    "games": { "type": "integer" },
                    "black_score_rate": { "type": ["number", "null"], "description": "a win 1, a draw 1/2; null when no game played the move" },
                    "black_mean_discs": { "type": ["number", "null"], "description": "black's discs minus white's, empties to the winner, averaged" },
                    "engine": { "type": ["object", "null"], "properties": {
                        "black_discs": { "type": "number" },
                        "kind": { "enum": ["exact", "book", "estimate"] },
                        "depth": { "type": "integer" }
                    } }
                } } }
            } },
            "Error": { "type": "object", "required": ["error"], "properties": {
                "error": { "type": "string" },
                "retry_after_s": { "type": "integer", "description": "on a busy refusal (503): seconds to wait before trying again, as Retry-After says" }
            } },
            "Value": { "enum": ["win", "lose", "tie"],
                       "description": "GAMESMAN value: for positionValue, of the side to move; for a move, of the side playing it" },
            "TttAnalysis": {
                "type": "object",
                "required": ["position", "positionValue", "remoteness", "moves"],
                "properties": {
                    "position": { "type": "object", "properties": {
                        "board": { "type": "string", "description": "9 cells, X O and ." },
                        "first": { "enum": ["X", "O"] },
                        "toMove": { "enum": ["X", "O"] },
                        "status": { "enum": ["playing", "X wins", "O wins", "draw"] }
                    } },
                    "positionValue": { "$ref": "#/components/schemas/Value" },
                    "remoteness": { "type": "integer", "description": "moves to the end under perfect play" },
                    "moves": { "type": "array", "items": { "type": "object", "properties": {
                        "move": { "type": "integer", "minimum": 0, "maximum": 8, "description": "cell index, row by row" },
                        "board": { "type": "string", "description": "the board after the move" },
                        "value": { "$ref": "#/components/schemas/Value" },
                        "remoteness": { "type": "integer", "description": "moves to the end after this move" }
                    } } }
                }
            },
            "OthelloGame": {
                "type": "object",
                "required": ["size", "moves", "positions", "transcript", "obf"],
                "properties": {
                    "size": { "enum": [4, 6, 8] },
                    "moves": { "type": "array", "items": { "type": "string" }, "description": "squares, pass for a pass; empty for a position" },
                    "positions": { "type": "array", "description": "the first position and the one after every move", "items": { "type": "object", "properties": {
                        "position": { "type": "string", "description": "size*size cells, X O and - (empty), as in OBF" },
                        "turn": { "enum": ["X", "O"] },
                        "status": { "enum": ["play", "pass", "over"] }
                    } } },
                    "transcript": { "type": "string", "example": "f5d6c3" },
                    "obf": { "type": "string", "description": "the last position as the board part of an OBF line" }
                }
            },
            "OthelloAnalysis": {
                "type": "object",
                "properties": {
                    "size": { "enum": [4, 6, 8] },
                    "position": { "type": "string", "description": "size*size cells, X O and - (empty), as in OBF" },
                    "turn": { "enum": ["X", "O"] },
                    "status": { "enum": ["play", "pass", "over"] },
                    "empties": { "type": "integer" },
                    "discs": { "type": "object", "properties": { "X": { "type": "integer" }, "O": { "type": "integer" } } },
                    "score": { "type": "number", "description": "final disc difference for the side to move, empties to the winner; whole when proven, to a tenth when estimated" },
                    "proven": { "type": "boolean", "description": "the score is the position's exact value (some moves may still be estimates)" },
                    "all_exact": { "type": "boolean", "description": "every move's score is exact" },
                    "confidence": { "type": ["integer", "null"], "description": "when the best move and the score come from a selective pass of the exact solver (it could not finish in time): its confidence in percent, as Edax prints +6 @ 73%" },
                    "best": { "type": ["string", "null"] },
                    "line": { "type": "array", "items": { "type": "string" }, "description": "expected line; pass for a pass" },
                    "moves": { "type": "array", "items": { "type": "object", "properties": {
                        "move": { "type": "string", "example": "d3" },
                        "score": { "type": "number", "description": "whole when exact, to a tenth when estimated" },
                        "exact": { "type": "boolean" },
                        "depth": { "type": "integer", "description": "plies searched for an estimate; the empty squares when exact; for a book move, the depth its score rests on" },
                        "book": { "type": "boolean", "description": "the score comes from the opening book (6x6: exact; 8x8: deep searches negamaxed through the book)" }
                    } } },
                    "depth": { "type": "integer", "description": "plies the best move's estimate was searched to; the empty squares once exact" },
                    "nodes": { "type": "integer" },
                    "elapsed_ms": { "type": "integer" },
                    "opening": { "type": ["string", "null"], "description": "the standard name of the opening the position is on (Tiger, Rose, ...), up to the board's symmetries; null off the named lines" },
                    "engine": { "enum": ["solver", "midgame", "mixed", "book", "selective"], "description": "solver: the exact endgame solver; midgame: iterative deepening over the learnt evaluation (exact when it reached the end); mixed: some moves exact (solved or from the book) or from the book, the others estimated; book: every score from the opening book (exact on 6x6, searched on 8x8); selective: the best move and the score from a selective pass of the exact solver (its confidence in `confidence`), the other moves estimated" }
                }
            }
        } }
    })
}
