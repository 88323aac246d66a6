//! The file format of networks: writing one and reading it back, checked.
//!
//! All numbers little-endian:
//!
//! | bytes | what |
//! |---|---|
//! | 8 | magic `HNEFNNUE` |
//! | 2 | format version, [`VERSION`] |
//! | 1, 1 | board width and height |
//! | 8 | per piece type index: 0 undeclared, else 1 + its owner |
//! | 8 | the layout's fingerprint ([`Layout::fingerprint`]) |
//! | 2, 2 | hidden units (one of [`WIDTHS`]: 128 or 256), outputs (2: one per side to move) |
//! | 2 | hundredths of a piece per unit of output |
//! | 2 | percent of the classic evaluation the output is added to (0: none); not in version 1 |
//! | 2 each | first layer weights, input by input (the hidden units' count each), `i16` |
//! | 2 each | hidden biases, `i16` |
//! | 2 each | output weights, player 0 to move then player 1, `i16` |
//! | 4, 4 | output biases, `i32` |
//! | 8 | checksum: FNV-1a of every byte before it |

use hnefatafl_core::{Player, Rules};

use super::error::{NetworkError, NetworkProblem, describe};
use super::layout::{Layout, fnv1a};
use super::network::{Network, Weights};
use super::shape::{VERSION, WIDTHS};

/// The first bytes of every network file.
const MAGIC: &[u8; 8] = b"HNEFNNUE";

/// Bytes of the header, up to the weights, in version 1; version 2 adds 2.
const HEADER: usize = 8 + 2 + 2 + 8 + 8 + 2 + 2 + 2;

/// Bytes of the checksum at the end.
const CHECKSUM: usize = 8;

/// Outputs: one per side to move.
const OUTPUTS: u16 = 2;

/// Reads little-endian numbers from a byte slice whose length was checked.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0; N];
        out.copy_from_slice(&self.bytes[self.at..self.at + N]);
        self.at += N;
        out
    }

    fn u16(&mut self) -> u16 {
        u16::from_le_bytes(self.take())
    }

    fn i16s(&mut self, count: usize) -> Vec<i16> {
        (0..count)
            .map(|_| i16::from_le_bytes(self.take()))
            .collect()
    }
}

impl Network {
    /// Reads a network from the bytes of its file, `name` naming the file in errors.
    ///
    /// # Errors
    ///
    /// Not a network file, another format version or layer sizes, a file cut short or
    /// with bytes after its end, a checksum that does not match.
    ///
    /// ```
    /// use aim::nnue::{Layout, Network, NetworkProblem};
    /// use hnefatafl_core::Rules;
    /// let rules = Rules::parse(include_bytes!("../../../data/rules/brandubh"))?;
    /// let bytes = Network::zero(Layout::of(&rules)).to_bytes();
    /// assert!(Network::from_bytes("brandubh.nnue", &bytes).is_ok());
    /// let error = Network::from_bytes("brandubh.nnue", &bytes[..100]).unwrap_err();
    /// assert!(matches!(error.problem, NetworkProblem::Length { .. }));
    /// assert!(error.to_string().starts_with("network brandubh.nnue: "));
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn from_bytes(name: &str, bytes: &[u8]) -> Result<Network, NetworkError> {
        let error = |problem| NetworkError::new(name, problem);
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(error(NetworkProblem::NotANetwork));
        }
        if bytes.len() < HEADER + 2 {
            return Err(error(NetworkProblem::Length {
                expected: HEADER + 2 + CHECKSUM,
                found: bytes.len(),
            }));
        }
        let mut reader = Reader { bytes, at: 8 };
        let version = reader.u16();
        if !(1..=VERSION).contains(&version) {
            return Err(error(NetworkProblem::Version { found: version }));
        }
        let header = if version == 1 { HEADER } else { HEADER + 2 };
        let [width, height] = reader.take();
        let owner_bytes: [u8; 8] = reader.take();
        let fingerprint = u64::from_le_bytes(reader.take());
        let hidden = reader.u16();
        let outputs = reader.u16();
        let piece_scale = reader.u16();
        let classic_share = if version == 1 { 0 } else { reader.u16() };
        if !WIDTHS.contains(&usize::from(hidden)) || outputs != OUTPUTS {
            return Err(error(NetworkProblem::Shape { hidden, outputs }));
        }
        let owners = owner_bytes.map(|byte| byte.checked_sub(1).map(usize::from));
        if owners.iter().flatten().any(|&owner| owner > 1) {
            return Err(error(NetworkProblem::Fingerprint));
        }
        let layout = Layout::new(
            width,
            height,
            owners.map(|o| o.and_then(Player::from_index)),
        );
        let (inputs, hidden) = (layout.inputs(), usize::from(hidden));
        let expected = header + 2 * (inputs * hidden + 3 * hidden) + 8 + CHECKSUM;
        if bytes.len() != expected {
            return Err(error(NetworkProblem::Length {
                expected,
                found: bytes.len(),
            }));
        }
        let (body, sum) = bytes.split_at(expected - CHECKSUM);
        if fnv1a(body).to_le_bytes() != sum {
            return Err(error(NetworkProblem::Checksum));
        }
        if layout.fingerprint() != fingerprint {
            return Err(error(NetworkProblem::Fingerprint));
        }
        let input = reader.i16s(inputs * hidden);
        let hidden_bias = reader.i16s(hidden);
        let output = reader.i16s(2 * hidden);
        let output_bias = [
            i32::from_le_bytes(reader.take()),
            i32::from_le_bytes(reader.take()),
        ];
        let weights = Weights {
            piece_scale,
            classic_share,
            input,
            hidden_bias,
            output,
            output_bias,
        };
        Network::new(name, layout, &weights)
    }

    /// The checksum its file ends with (FNV-1a over the file's bytes before it): names a
    /// network by its weights, as the self-play settings of a network's games do.
    pub fn checksum(&self) -> u64 {
        let bytes = self.to_bytes();
        let mut sum = [0; CHECKSUM];
        sum.copy_from_slice(&bytes[bytes.len() - CHECKSUM..]);
        u64::from_le_bytes(sum)
    }

    /// The bytes of the network's file ([`Network::from_bytes`] reads them back).
    pub fn to_bytes(&self) -> Vec<u8> {
        let layout = self.layout();
        let weights = self.weights();
        let mut bytes = Vec::with_capacity(HEADER + 2 + 2 * weights.input.len() + 1024);
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend_from_slice(&[layout.width(), layout.height()]);
        bytes.extend(
            layout
                .owners()
                .map(|owner| owner.map_or(0, |p| 1 + p.index() as u8)),
        );
        bytes.extend_from_slice(&layout.fingerprint().to_le_bytes());
        bytes.extend_from_slice(&(self.hidden() as u16).to_le_bytes());
        bytes.extend_from_slice(&OUTPUTS.to_le_bytes());
        bytes.extend_from_slice(&weights.piece_scale.to_le_bytes());
        bytes.extend_from_slice(&weights.classic_share.to_le_bytes());
        let lists = [&weights.input, &weights.hidden_bias, &weights.output];
        for value in lists.into_iter().flatten() {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
        for bias in weights.output_bias {
            bytes.extend_from_slice(&bias.to_le_bytes());
        }
        let sum = fnv1a(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        bytes
    }

    /// Whether the network fits a rule file: its layout is the rule file's.
    ///
    /// # Errors
    ///
    /// [`NetworkProblem::Mismatch`], in words, naming the network `name` and the rules.
    pub fn check_rules(&self, name: &str, rules: &Rules) -> Result<(), NetworkError> {
        let theirs = Layout::of(rules);
        if theirs == *self.layout() {
            return Ok(());
        }
        Err(NetworkError::new(
            name,
            NetworkProblem::Mismatch {
                network: describe(self.layout()),
                rules: rules.id().to_string(),
                found: describe(&theirs),
            },
        ))
    }

    /// Reads a network for a rule file: [`Network::from_bytes`], then
    /// [`Network::check_rules`].
    ///
    /// # Errors
    ///
    /// Those of both.
    pub fn for_rules(name: &str, bytes: &[u8], rules: &Rules) -> Result<Network, NetworkError> {
        let network = Network::from_bytes(name, bytes)?;
        network.check_rules(name, rules)?;
        Ok(network)
    }
}
