//! Any bytes as a keymap file (see `mcplens::fuzzing::check_keymap`).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| mcplens::fuzzing::check_keymap(data));
