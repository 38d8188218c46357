//! Any bytes to the JSON tokenizer and each reader built on it (see `mcplens_core::json::fuzzing`).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| mcplens_core::json::fuzzing::check(data));
