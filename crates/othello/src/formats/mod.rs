//! Reading and writing: positions in the usual spellings and a terminal picture ([`text`]),
//! move transcripts ([`transcript`]), OBF lines and files ([`obf`]), GGF game records
//! ([`ggf`]), WTHOR game databases and their names files ([`wthor`]), the one reader of
//! every spelling a user may paste ([`input`]), pictures of a position as SVG and PNG
//! ([`picture`]), what a front end says of a position and a perft count ([`summary`]), the CRC-32 of the training games ([`crc32`]), and what the
//! binary data files (weights, books) share (`binfile`).
//!
//! The formats build on the rules and know nothing of the engine; every reader returns a
//! [`crate::ParseError`] that names what is wrong and where.

pub(crate) mod binfile;
pub mod crc32;
pub mod ggf;
pub mod input;
pub mod obf;
pub mod picture;
pub mod summary;
pub mod text;
pub mod transcript;
pub mod wthor;
