//! ply-core (skeleton).
