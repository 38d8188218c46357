//! The terminal UI: the messages (`msg`), a model (`app`) with one key router (`route`), views
//! (`view`), a keymap, themes, and a worker (`worker`, commands through `dispatch`) that owns the
//! MCP session so the UI never waits on I/O; `run` is the main loop.

pub mod app;
pub mod app_marks;
pub mod baseline;
mod calls;
pub mod changes;
pub mod component;
pub mod components;
pub mod copy_as;
mod diagnose;
mod dispatch;
mod docked;
pub mod fit;
pub mod form;
mod form_picker;
pub mod fuzzy;
pub mod headless;
mod input;
mod items;
pub mod jsonview;
pub mod keymap;
pub mod layout;
pub mod line_input;
pub mod lint_marks;
pub mod mask;
pub mod msg;
pub mod ops;
pub mod outline;
mod panes;
mod pick;
mod requests;
pub mod result;
mod route;
mod run;
pub mod saved;
pub mod schema_view;
pub mod scroll;
mod servers;
mod started;
mod terminal;
pub mod textarea;
pub mod theme;
mod tree_place;
pub mod view;
mod watch_breaks;
#[cfg(unix)]
pub mod watch_mode;
mod worker;

pub use calls::{run_all_pages, run_call};
pub use run::run;
pub(crate) use terminal::{restore_terminal, start_terminal};
