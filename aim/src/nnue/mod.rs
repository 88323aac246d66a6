//! A learned evaluation: an efficiently updatable neural network (NNUE) for any rule file.
//!
//! The network reads the board as sparse inputs, one per piece type and square (the rule
//! file declares the piece types; each belongs to one player), and has one hidden layer of
//! [`HIDDEN`] or 256 units (one or two [`BLOCK`]s, [`WIDTHS`]) with a clipped ReLU, then one output per side to move (the side to move
//! picks which output weights read the hidden layer: an output bucket, cheaper than a side
//! input that would change every hidden unit). Its first layer's sums are the
//! [`Accumulator`], kept up to date move by move: a move changes two inputs and one per
//! captured piece, so each costs a few additions of a row of 128 or 256 `i16`s.
//!
//! Everything at search time is integer arithmetic on fixed-size arrays (an `i16`
//! accumulator and weights, `i32` sums), written as plain loops over fixed-size arrays,
//! with no bounds check inside, that the compiler can vectorise; nothing allocates per
//! node.
//!
//! A network is tied to the piece layout of its rule file ([`Layout`]): the board's size
//! and the declared piece types with their owners. [`Network::from_bytes`] reads one from
//! its file format and [`Network::check_rules`] refuses a network made for another layout.
//! aim reads no files: its callers do.
//!
//! ```
//! use aim::nnue::{Layout, Network};
//! use hnefatafl_core::Rules;
//! let rules = Rules::parse(include_bytes!("../../../data/rules/brandubh"))?;
//! let network = Network::zero(Layout::of(&rules));
//! let mut position = rules.start_position();
//! let mut accumulator = network.refresh(&position);
//! let mv = position.moves().next().expect("a move");
//! let undo = position.play(mv);
//! network.play(&mut accumulator, &position, &undo);
//! assert_eq!(accumulator, network.refresh(&position));
//! assert_eq!(network.evaluate(&accumulator, position.side_to_move()), 0);
//! # Ok::<(), hnefatafl_core::RulesError>(())
//! ```

mod error;
mod format;
mod incremental;
mod layout;
mod network;
mod shape;

pub use error::{NetworkError, NetworkProblem};
pub(crate) use incremental::NetworkEvaluator;
pub use layout::{Layout, fnv1a};
pub(crate) use network::by_width;
pub use network::{Accumulator, Network, Weights};
pub use shape::{
    ACTIVATION_SCALE, BLOCK, HIDDEN, MAX_BLOCKS, OUTPUT_SCALE, PIECE_SCALE, VERSION, WIDTHS,
};
