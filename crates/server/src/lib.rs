//! ply-server (skeleton).
