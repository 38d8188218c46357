//! JSON text as tokens: one iterative tokenizer with byte spans ([`tokenizer`]) that the depth
//! check, the descriptor scan and the other readers of server JSON build on. Nothing here
//! recurses per nesting level: the nesting of server JSON is attacker-controlled.

pub mod build;
pub mod depth;
pub mod exact;
#[doc(hidden)]
pub mod fuzzing;
pub mod lenient;
pub mod same;
pub mod skim;
pub(crate) mod swar;
pub mod tokenizer;
pub mod twin;
pub mod valid;
pub(crate) mod window;

pub use crate::skeleton::unescape;
pub use skim::Skim;
pub use tokenizer::{Error, Kind, Token, Tokenizer, check};
