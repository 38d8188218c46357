//! Any bytes as a config file (see `mcplens::fuzzing::check_config`).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| mcplens::fuzzing::check_config(data));
