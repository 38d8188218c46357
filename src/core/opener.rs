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

/// Where a URL really leads, said before it is opened: the host as the browser will read it
/// (IDNs in their ASCII form, so look-alike letters show), and a warning when the URL carries
/// user info, since `https://good.com@evil.com` opens evil.com: what stands before `@` only
/// looks like a host.
pub fn destination(url: &str) -> String {
    let Ok(u) = url::Url::parse(url.trim()) else { return "not a URL that can be read".into() };
    let host = match u.host_str() {
        Some(h) => match u.port() {
            Some(p) => format!("{h}:{p}"),
            None => h.to_string(),
        },
        None => return format!("a {}: URL with no host", u.scheme()),
    };
    let host = crate::sanitize::line(&host).into_owned();
    if u.username().is_empty() && u.password().is_none() {
        return format!("opens host {host}");
    }
    let user = percent_decoded(u.username());
    let info = if u.password().is_some() { format!("{user}:…") } else { user };
    format!(
        "opens host {host}; WARNING: {:?} before the @ is user info, not the host",
        crate::sanitize::line(&crate::sanitize::truncate(&info, 80))
    )
}

fn percent_decoded(s: &str) -> String {
    url::form_urlencoded::parse(format!("x={s}").as_bytes()).next().map(|(_, v)| v.into_owned()).unwrap_or_default()
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
    fn the_real_host_is_said_and_user_info_flagged() {
        assert_eq!(destination("https://good.com/login"), "opens host good.com");
        let d = destination("https://good.com@evil.com/x");
        assert!(d.starts_with("opens host evil.com;") && d.contains("\"good.com\" before the @"), "{d}");
        let d = destination("https://good.com:443%2F@evil.com:8443/");
        assert!(d.starts_with("opens host evil.com:8443;") && d.contains("good.com"), "{d}");
        let d = destination("https://user:secret@evil.com/");
        assert!(d.contains("evil.com") && !d.contains("secret"), "{d}");
        assert_eq!(destination("https://bücher.example/"), "opens host xn--bcher-kva.example");
        assert!(destination("not a url").starts_with("not a URL"));
    }

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
