//! The panes and overlays, one file each (see `component.rs` for the shape they share).

pub mod form;
pub mod help;
pub mod history;
pub mod log;
pub mod log_entry;
pub mod picker;
pub mod result;
pub mod schema;
pub mod tools;
pub mod value;
