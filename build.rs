//! Puts the commit mcplens was built from into `--version` (`MCPLENS_COMMIT`). A build outside a
//! git checkout (a source tarball) says so instead.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

fn main() {
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "not built from git".into());
    println!("cargo:rustc-env=MCPLENS_COMMIT={commit}");
    // Rebuilt when HEAD moves: HEAD itself, and the branch it points at (loose or packed).
    let mut watched: Vec<String> =
        ["HEAD", "packed-refs"].iter().filter_map(|p| git(&["rev-parse", "--git-path", p])).collect();
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watched.extend(git(&["rev-parse", "--git-path", &branch]));
    }
    // Only files that exist: cargo takes a missing one as changed, and reran this script (and
    // so rebuilt the whole package) on every build where refs are not packed. A ref packed
    // later removes its loose file, which reruns this script once, and it then watches
    // packed-refs.
    for path in watched.iter().filter(|p| std::path::Path::new(p).exists()) {
        println!("cargo:rerun-if-changed={path}");
    }
    println!("cargo:rerun-if-changed=build.rs");
    fixed_address_release();
    link_order_release();
}

/// A release `mcplens` on Linux with glibc is linked at a fixed address (not position
/// independent): the loader then has no relocations to apply at start-up (43,000 of them, which
/// wrote a private copy of 0.7 MB of tables and read 1 MB more, on every start, however small the
/// command), and the code reaches its data without going through the GOT. The price is that the
/// executable's own code is not placed at a random address (its libraries, heap and stack still
/// are). Debug builds (the test suite) are left as they are.
fn fixed_address_release() {
    let var = |k: &str| std::env::var(k).unwrap_or_default();
    let linux_gnu = var("CARGO_CFG_TARGET_OS") == "linux" && var("CARGO_CFG_TARGET_ENV") == "gnu";
    if linux_gnu && var("PROFILE") == "release" && std::env::var_os("MCPLENS_PIE").is_none() {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
    println!("cargo:rerun-if-env-changed=MCPLENS_PIE");
}

/// A release `mcplens` has the functions a headless command runs placed together at the start
/// of its code (src/link-order.txt, written by scripts/link-order): the kernel maps code a block
/// at a time around each place first run: spread over the whole binary, those functions make a
/// `call --json` of 100k records map 12 MB of code (not 4 MB) and peak at 27.5 MB (not 19 MB).
/// Only with the linker Rust uses by default on x86_64 Linux (rust-lld), which takes the list;
/// a linker of the user's choice, or MCPLENS_LINK_ORDER=off, leaves the order as it was.
fn link_order_release() {
    let var = |k: &str| std::env::var(k).unwrap_or_default();
    let list = "src/link-order.txt";
    println!("cargo:rerun-if-changed={list}");
    println!("cargo:rerun-if-env-changed=MCPLENS_LINK_ORDER");
    let default_linker = var("CARGO_CFG_TARGET_ARCH") == "x86_64"
        && var("CARGO_CFG_TARGET_OS") == "linux"
        && var("CARGO_CFG_TARGET_ENV") == "gnu"
        && std::env::var_os("RUSTC_LINKER").is_none()
        && !["linker", "fuse-ld", "link-self-contained", "link-arg"]
            .iter()
            .any(|flag| var("CARGO_ENCODED_RUSTFLAGS").contains(flag));
    let wanted = var("PROFILE") == "release" && var("MCPLENS_LINK_ORDER") != "off";
    if default_linker && wanted && std::path::Path::new(list).exists() {
        let dir = var("CARGO_MANIFEST_DIR");
        println!("cargo:rustc-link-arg-bins=-Wl,--symbol-ordering-file={dir}/{list}");
        // Functions renamed since the list was written are left in place, without a warning each.
        println!("cargo:rustc-link-arg-bins=-Wl,--no-warn-symbol-ordering");
    }
}
