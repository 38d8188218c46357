//! The panes and overlays, one file each (see `component.rs` for the shape they share).

pub mod ask;
pub mod ask_form;
pub mod ask_pick;
mod ask_request;
pub mod collection;
pub mod confirm;
pub mod copy_as;
pub mod fill;
pub mod form;
pub mod help;
pub mod history;
pub mod info;
pub mod level;
pub mod listed;
pub mod log;
mod log_brief;
pub mod log_entry;
pub mod picker;
pub mod prompt_view;
pub mod prompts;
mod raw_rows;
pub mod read;
pub mod resources;
pub mod result;
pub mod save_call;
pub mod schema;
pub mod skills;
pub mod tasks;
pub mod tools;
pub mod uri_cut;
pub mod value;

use crate::ui::component::Component;

/// The docked panes. Each shows in the schema's place when its section's `show` key is pressed
/// (from any pane that does not take that key itself: the form types letters), and hides on the same key or Esc. A new docked pane is its file, its keymap
/// section with a `show` binding, and a line here: the App, the layout and the help know it
/// through this list.
pub fn docked() -> Vec<Box<dyn Component>> {
    vec![
        Box::new(info::InfoPane::default()),
        Box::new(resources::ResourcesPane::default()),
        Box::new(prompts::PromptsPane::default()),
        Box::new(collection::CollectionPane::default()),
    ]
}
