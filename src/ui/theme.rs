//! Themes: flat role names in TOML, built-ins compiled in, a user's file laid over the default.
//! A bad theme never stops mcplens: the error is shown and the default is used.

use std::collections::HashMap;
use std::str::FromStr;

use ratatui::style::{Color, Modifier, Style};

pub const BUILTIN: &[(&str, &str)] = &[
    ("dark", include_str!("../../themes/dark.toml")),
    ("light", include_str!("../../themes/light.toml")),
    ("high-contrast", include_str!("../../themes/high-contrast.toml")),
];

/// Every role a theme may set.
pub const ROLES: &[&str] = &[
    "text",
    "dim",
    "background",
    "border",
    "border_focus",
    "title",
    "title_focus",
    "selection_fg",
    "selection_bg",
    "key",
    "type",
    "required",
    "reference",
    "fact",
    "error",
    "warning",
    "ok",
    "json_key",
    "json_string",
    "json_number",
    "json_bool",
    "json_null",
    "match",
    "status_bg",
];

#[derive(Debug, Clone)]
pub struct Theme {
    pub name: String,
    colors: HashMap<String, Color>,
    /// NO_COLOR: every color is the terminal's own; emphasis comes from modifiers only.
    pub monochrome: bool,
}

fn parse_color(s: &str) -> Result<Color, String> {
    let s = s.trim();
    if s.eq_ignore_ascii_case("reset") || s.eq_ignore_ascii_case("default") {
        return Ok(Color::Reset);
    }
    Color::from_str(s)
        .map_err(|_| format!("{s:?} is not a color (use \"#rrggbb\", a name like \"lightblue\", or \"reset\")"))
}

fn parse(text: &str) -> Result<(Option<String>, HashMap<String, Color>), String> {
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        let line = e.span().map_or(1, |r| text[..r.start.min(text.len())].matches('\n').count() + 1);
        format!("line {line}: {}", e.message())
    })?;
    let mut colors = HashMap::new();
    let mut name = None;
    for (k, v) in table {
        if k == "name" {
            name = v.as_str().map(str::to_string);
            continue;
        }
        if !ROLES.contains(&k.as_str()) {
            return Err(format!("unknown role {k:?}; the roles are: {}", ROLES.join(", ")));
        }
        let s = v.as_str().ok_or_else(|| format!("role {k:?} must be a string"))?;
        let color = parse_color(s).map_err(|e| format!("role {k:?}: {e}"))?;
        colors.insert(k, color);
    }
    Ok((name, colors))
}

impl Default for Theme {
    fn default() -> Self {
        let (_, colors) = parse(BUILTIN[0].1).unwrap_or_default();
        Theme { name: "dark".into(), colors, monochrome: false }
    }
}

impl Theme {
    /// `name_or_path` is a built-in name or a TOML file. On error: the default theme and the
    /// message to show.
    pub fn load(name_or_path: Option<&str>, no_color: bool) -> (Theme, Option<String>) {
        let mut theme = Theme { monochrome: no_color, ..Theme::default() };
        let Some(want) = name_or_path else { return (theme, None) };
        let text = match BUILTIN.iter().find(|(n, _)| *n == want) {
            Some((_, t)) => t.to_string(),
            None => match std::fs::read_to_string(want) {
                Ok(t) => t,
                Err(e) => {
                    let names: Vec<&str> = BUILTIN.iter().map(|(n, _)| *n).collect();
                    let msg = format!(
                        "theme {want:?}: not a built-in ({}) and not a readable file ({e}); using the default",
                        names.join(", ")
                    );
                    return (theme, Some(msg));
                }
            },
        };
        match parse(&text) {
            Ok((name, colors)) => {
                theme.colors.extend(colors);
                theme.name = name.unwrap_or_else(|| want.to_string());
                (theme, None)
            }
            Err(e) => (theme, Some(format!("theme {want:?}: {e}; using the default"))),
        }
    }

    pub fn color(&self, role: &str) -> Color {
        if self.monochrome {
            return Color::Reset;
        }
        self.colors.get(role).copied().unwrap_or(Color::Reset)
    }

    pub fn fg(&self, role: &str) -> Style {
        Style::new().fg(self.color(role))
    }

    pub fn base(&self) -> Style {
        Style::new().fg(self.color("text")).bg(self.color("background"))
    }

    pub fn border(&self, focused: bool) -> Style {
        let s = self.fg(if focused { "border_focus" } else { "border" });
        if self.monochrome && focused { s.add_modifier(Modifier::BOLD) } else { s }
    }

    pub fn title(&self, focused: bool) -> Style {
        self.fg(if focused { "title_focus" } else { "title" }).add_modifier(Modifier::BOLD)
    }

    pub fn selection(&self) -> Style {
        if self.monochrome {
            Style::new().add_modifier(Modifier::REVERSED)
        } else {
            Style::new().fg(self.color("selection_fg")).bg(self.color("selection_bg"))
        }
    }

    pub fn status(&self) -> Style {
        Style::new().fg(self.color("text")).bg(self.color("status_bg"))
    }

    pub fn key(&self) -> Style {
        self.fg("key").add_modifier(Modifier::BOLD)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_sets_every_role() {
        for (name, text) in BUILTIN {
            let (_, colors) = parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            for role in ROLES {
                assert!(colors.contains_key(*role), "{name} lacks {role}");
            }
        }
    }

    #[test]
    fn bad_themes_fall_back_with_a_message() {
        let dir = std::env::temp_dir().join(format!("mcplens-theme-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        for (body, want) in [
            ("text = ", "line 1:"),
            ("txet = \"red\"", "unknown role"),
            ("text = \"not-a-color\"", "is not a color"),
            ("text = 5", "must be a string"),
        ] {
            let p = dir.join("t.toml");
            let _ = std::fs::write(&p, body);
            let (theme, msg) = Theme::load(p.to_str(), false);
            assert_eq!(theme.name, "dark");
            let msg = msg.unwrap_or_default();
            assert!(msg.to_lowercase().contains(want), "{body}: {msg}");
        }
        let (_, msg) = Theme::load(Some("/no/such/theme.toml"), false);
        assert!(msg.is_some_and(|m| m.contains("dark, light, high-contrast")));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_partial_user_theme_overlays_the_default() {
        let dir = std::env::temp_dir().join(format!("mcplens-theme2-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let p = dir.join("mine.toml");
        let _ = std::fs::write(&p, "name = \"mine\"\nerror = \"#010203\"\n");
        let (theme, msg) = Theme::load(p.to_str(), false);
        assert!(msg.is_none());
        assert_eq!((theme.name.as_str(), theme.color("error")), ("mine", Color::Rgb(1, 2, 3)));
        assert_eq!(theme.color("ok"), Theme::default().color("ok"));
        let (mono, _) = Theme::load(Some("light"), true);
        assert_eq!(mono.color("error"), Color::Reset);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
