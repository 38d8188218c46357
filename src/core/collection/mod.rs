//! Saved calls with expectations (`mcplens test`, the TUI's collection pane): a TOML file of
//! named tool calls, each with what its answer should be.
//!
//! - [`model`]: the types a collection is read into.
//! - [`load`]: reading a file (capped, unknown keys refused, errors with line numbers).
//! - [`expect`]: what a call's answer was ([`Observed`]) and where it misses its expectations.
//! - [`run`]: one saved call carried out through the call service.
//! - [`save`]: writing a call or new expectations back, keeping the rest of the file.
//! - [`replace`]: replacing the file whole (a symlink followed, its permissions kept).

pub mod expect;
pub mod load;
pub mod lookup;
pub mod model;
mod replace;
pub mod run;
pub mod save;
mod toml_json;

pub use expect::{Failure, Observed, PagesRead, check_holds, evaluate, expect_now, observed_expect, paths_holding};
pub use load::{MAX_COLLECTION, load, parse};
pub use model::{At, Check, Collection, Expect, JsonType, Pattern, SavedCall, Source};
pub use run::{RunOptions, run};
pub use save::{save, update_all, update_expectations, upsert};

#[cfg(test)]
mod tests;
