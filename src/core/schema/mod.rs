//! JSON Schema as the server sent it: `$ref` resolution, the display tree, argument typing and
//! validation. The raw schema is what is shown and sent; nothing is converted and re-serialized.

pub mod args;
pub mod diff;
pub mod form;
pub mod quick;
pub mod resolve;
pub mod text;
pub mod tree;
pub mod validate;
