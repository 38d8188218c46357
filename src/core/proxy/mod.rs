//! The live proxy's shared parts (`mcplens proxy`): the hub that keeps a session's messages for
//! watchers, breakpoints that hold a message until a watcher says what becomes of it, and the
//! control socket watchers attach to.

pub mod breaks;
pub mod control;
pub mod hub;
pub mod settled;

pub use breaks::Verdict;
pub use hub::Hub;
pub use settled::Settled;
