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
    static_release();
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

/// A release `mcplens` on Linux with glibc is linked statically, its C library and unwinder in
/// the executable, when their static archives are installed (glibc's `libc.a`, gcc's
/// `libgcc_eh.a`): no loader maps and binds three shared libraries at every start, and the
/// shared unwinder's constructor (its processor feature probe, slow under a hypervisor) is not
/// run: a small listing's wall time is a tenth less. Rust's standard library asks for the shared
/// libraries by name (`-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc`), and the flag that would
/// make rustc ask for the static ones (`+crt-static`) cannot be set for one crate from here
/// (set for all, proc-macros stop building): the executable is linked with `-static` and a
/// directory searched first whose archives answer to those names. A dependency that links a
/// shared library of its own would need its archive there too (the link would otherwise make
/// an executable that cannot start). `MCPLENS_DYNAMIC=1` (or `MCPLENS_PIE=1`) builds a
/// dynamically linked one; so does a build for another target or with a linker of the user's.
fn static_release() {
    let var = |k: &str| std::env::var(k).unwrap_or_default();
    println!("cargo:rerun-if-env-changed=MCPLENS_DYNAMIC");
    let linux_gnu = var("CARGO_CFG_TARGET_OS") == "linux" && var("CARGO_CFG_TARGET_ENV") == "gnu";
    let native = var("TARGET") == var("HOST") && std::env::var_os("RUSTC_LINKER").is_none();
    let dynamic = ["MCPLENS_DYNAMIC", "MCPLENS_PIE"].iter().any(|k| std::env::var_os(k).is_some());
    if !(linux_gnu && native && var("PROFILE") == "release") || dynamic {
        return;
    }
    if let Some(dir) = static_archives(&var("OUT_DIR")) {
        println!("cargo:rustc-link-arg-bins=-L{dir}");
        println!("cargo:rustc-link-arg-bins=-static");
    }
}

/// A directory of links named as the libraries the standard library asks for, each to its
/// static archive (the unwinder `gcc_s` to `libgcc_eh.a`), or None when one is not installed
/// or a program does not link statically with them.
#[cfg(unix)]
fn static_archives(out_dir: &str) -> Option<String> {
    let out = std::path::Path::new(out_dir);
    let dir = out.join("static-libs");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).ok()?;
    let libs = [
        ("gcc_s", "gcc_eh"),
        ("util", "util"),
        ("rt", "rt"),
        ("pthread", "pthread"),
        ("m", "m"),
        ("dl", "dl"),
        ("c", "c"),
    ];
    for (name, archive) in libs {
        let path = installed(&format!("lib{archive}.a"))?;
        std::os::unix::fs::symlink(path, dir.join(format!("lib{name}.a"))).ok()?;
    }
    // A program linked the same way first: archives found may still not link with this compiler
    // (its start files for static programs missing, another version's archives).
    links_statically(out, &dir).then(|| dir.display().to_string())
}

/// Whether a C program using the C library and the unwinder links with `-static` against `dir`.
#[cfg(unix)]
fn links_statically(out: &std::path::Path, dir: &std::path::Path) -> bool {
    let source = out.join("static-probe.c");
    std::fs::write(&source, "int main(void) { return 0; }\n").is_ok()
        && Command::new("cc")
            .args(["-static", "-no-pie"])
            .arg(&source)
            .arg("-o")
            .arg(out.join("static-probe"))
            .arg(format!("-L{}", dir.display()))
            .args(["-lgcc_s", "-lc"])
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
}

#[cfg(not(unix))]
fn static_archives(_: &str) -> Option<String> {
    None
}

/// Where the C compiler that links finds `file`, if it does.
#[cfg(unix)]
fn installed(file: &str) -> Option<std::path::PathBuf> {
    let out = Command::new("cc").arg(format!("-print-file-name={file}")).output().ok()?;
    let path = std::path::PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    (out.status.success() && path.is_absolute() && path.exists()).then_some(path)
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
