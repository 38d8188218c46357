//! Opening a URL a server gave (URL-mode elicitation) in the user's browser: `$BROWSER` when set
//! (a `%s` in it stands for the URL), else the platform's opener. Only `http` and `https` URLs
//! are opened: a server's `file:` or custom-scheme URL could start anything.

use std::process::{Command, Stdio};

/// Starts the browser on `url` and returns at once; the error says what to do instead.
pub fn open_url(url: &str) -> Result<(), String> {
    let url = check_url(url)?;
    let url = url.as_str();
    let mut cmd = match std::env::var("BROWSER").ok().filter(|b| !b.trim().is_empty()) {
        Some(b) => browser_command(&b, url),
        None => platform_opener(url),
    };
    cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
    match cmd.spawn() {
        Ok(mut child) => {
            // Reap it in the background so no zombie is left; the browser lives on its own.
            std::thread::spawn(move || child.wait());
            Ok(())
        }
        Err(e) => Err(format!("could not start a browser ({e}); set $BROWSER, or open the URL by hand")),
    }
}

/// The URL when it is one mcplens opens (http or https, no control characters).
pub fn check_url(url: &str) -> Result<String, String> {
    let lower = url.to_ascii_lowercase();
    if !(lower.starts_with("https://") || lower.starts_with("http://")) || url.chars().any(char::is_control) {
        return Err("only http and https URLs are opened; copy it by hand if you trust it".into());
    }
    Ok(url.to_string())
}

/// `$BROWSER` is a command, split on whitespace (no shell); `%s` takes the URL, else it is
/// appended.
fn browser_command(browser: &str, url: &str) -> Command {
    let mut parts = browser.split_whitespace();
    let mut cmd = Command::new(parts.next().unwrap_or("xdg-open"));
    let mut placed = false;
    for p in parts {
        if p.contains("%s") {
            cmd.arg(p.replace("%s", url));
            placed = true;
        } else {
            cmd.arg(p);
        }
    }
    if !placed {
        cmd.arg(url);
    }
    cmd
}

fn platform_opener(url: &str) -> Command {
    let mut cmd = if cfg!(target_os = "macos") {
        Command::new("open")
    } else if cfg!(windows) {
        let mut c = Command::new("explorer");
        c.arg(url);
        return c;
    } else {
        Command::new("xdg-open")
    };
    cmd.arg(url);
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_web_urls_are_opened() {
        for bad in ["file:///etc/passwd", "javascript:alert(1)", "ssh://x", "https://x/\u{1b}[2J", ""] {
            assert!(open_url(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn browser_takes_the_url_at_percent_s_or_last() {
        let args = |c: &Command| c.get_args().map(|a| a.to_string_lossy().into_owned()).collect::<Vec<_>>();
        assert_eq!(args(&browser_command("firefox --new-tab", "https://a")), ["--new-tab", "https://a"]);
        assert_eq!(
            args(&browser_command("curl -L %s -o /dev/null", "https://a")),
            ["-L", "https://a", "-o", "/dev/null"]
        );
    }
}
