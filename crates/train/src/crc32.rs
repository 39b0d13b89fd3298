//! CRC-32, the checksum of the game files: the one in `ply-othello`, which its PNG pictures
//! use too.

pub use ply_othello::crc32::crc32;
