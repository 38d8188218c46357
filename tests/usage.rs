//! How the command line is read where it could be misread: options written before the command,
//! inputs given twice, and files checked before the work that would write them.

mod common;

use common::*;

#[test]
fn target_options_before_the_command_are_taken_as_after_it() {
    let o = mcplens(&["--timeout", "20", "--protocol", "2025-06-18", "info", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json_out(&o)["protocolVersion"], "2025-06-18");
    let o = mcplens(&["--theme", "light", "info"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--theme is an option of the TUI"), "{}", stderr(&o));
    // The TUI's own form keeps its options: the TUI is what starts (and wants a terminal).
    let o = mcplens(&["--timeout", "20", "--", "true"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("the TUI needs a terminal"), "{}", stderr(&o));
}
