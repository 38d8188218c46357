//! The panes and overlays, one file each (see `component.rs` for the shape they share).

pub mod result;
pub mod value;
