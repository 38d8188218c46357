//! Any bytes as a theme file (see `mcplens::fuzzing::check_theme`).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| mcplens::fuzzing::check_theme(data));
