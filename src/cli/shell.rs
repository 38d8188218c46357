//! What a shell and `man` need, generated from the same definition that parses the command line:
//! completion scripts and man pages.

use std::path::Path;

use clap::CommandFactory;
use clap_complete::Shell;

use super::args::Cli;
use super::output::out;
use crate::error::{LensError, Result};

/// Prints the completion script for `shell` (bash, zsh, fish, powershell, elvish).
pub fn completions(shell: Shell) -> Result<i32> {
    let mut cmd = Cli::command();
    let mut bytes = Vec::new();
    clap_complete::generate(shell, &mut cmd, "mcplens", &mut bytes);
    out(&String::from_utf8_lossy(&bytes))?;
    Ok(0)
}

/// Prints the man page, or writes one page per command (mcplens.1, mcplens-tools.1, ...) into
/// `dir`.
pub fn man(dir: Option<&Path>) -> Result<i32> {
    let cmd = Cli::command();
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir)
            .and_then(|()| clap_mangen::generate_to(cmd, dir))
            .map_err(|e| LensError::output(format!("cannot write the man pages into {}: {e}", dir.display())))?;
        return Ok(0);
    }
    let mut bytes = Vec::new();
    clap_mangen::Man::new(cmd)
        .render(&mut bytes)
        .map_err(|e| LensError::output(format!("cannot render the man page: {e}")))?;
    out(&String::from_utf8_lossy(&bytes))?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shell_gets_a_script_naming_the_subcommands() {
        for shell in [Shell::Bash, Shell::Zsh, Shell::Fish, Shell::PowerShell] {
            let mut bytes = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "mcplens", &mut bytes);
            let text = String::from_utf8(bytes).unwrap();
            assert!(text.contains("snapshot") && text.contains("timeout"), "{shell}: {text:.200}");
        }
    }

    #[test]
    fn the_man_page_names_the_commands_and_exit_codes() {
        let mut bytes = Vec::new();
        clap_mangen::Man::new(Cli::command()).render(&mut bytes).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        assert!(text.starts_with(".ie") || text.contains(".TH mcplens"), "{text:.200}");
        assert!(text.contains("snapshot") && text.contains("Exit codes"));
    }
}
