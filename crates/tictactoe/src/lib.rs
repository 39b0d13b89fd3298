//! ply-tictactoe (skeleton).
