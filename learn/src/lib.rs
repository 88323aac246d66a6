//! hnefatafl-learn: how aim's networks are learned. Self-play games of the engine
//! ([`selfplay`]) and recorded games of people ([`import`]), the data they make, the
//! shards it is stored in ([`shard`]), the symmetries of a board that multiply it
//! ([`symmetry`]), the trainer ([`trainer`]) and the whole run of the `train` program
//! ([`training`], taking its [`options`]: play, train, write the network, and test it
//! against what played its games, [`baseline`], with the match runner of
//! `hnefatafl-matches`, called as a library).

pub mod baseline;
mod cursor;
pub mod dataset;
pub mod import;
pub mod options;
pub mod selfplay;
pub mod shard;
pub mod symmetry;
pub mod trainer;
pub mod training;
