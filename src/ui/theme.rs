//! Themes: a typed palette (one field per role) read from flat TOML, built-ins compiled in, a
//! user's file laid over the default. A misspelt role is a compile error in code (`Role`,
//! `Palette`) and a named error in a file; a bad theme never stops mcplens: the error is shown
//! and the default is used.

use std::str::FromStr;

use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;

pub const BUILTIN: &[(&str, &str)] = &[
    ("dark", include_str!("../../themes/dark.toml")),
    ("light", include_str!("../../themes/light.toml")),
    ("high-contrast", include_str!("../../themes/high-contrast.toml")),
];

macro_rules! roles {
    ($($role:ident $field:ident = $name:literal),* $(,)?) => {
        /// A color role, for code that names one: `theme.paint(Role::Error)`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Role { $($role),* }

        /// Every role's color.
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub struct Palette { $(pub $field: Color),* }

        /// A theme file as written: every role optional, an unknown key an error.
        #[derive(Deserialize, Default)]
        #[serde(deny_unknown_fields)]
        struct ThemeFile {
            name: Option<String>,
            $(#[serde(rename = $name)] $field: Option<String>,)*
        }

        /// Every role a theme may set, as files name them.
        pub const ROLES: &[&str] = &[$($name),*];

        impl Palette {
            /// Every role the terminal's own color.
            fn reset() -> Palette {
                Palette { $($field: Color::Reset),* }
            }

            pub fn get(&self, role: Role) -> Color {
                match role { $(Role::$role => self.$field),* }
            }

            /// Sets the roles `file` sets; an unreadable color names its role.
            fn lay(&mut self, file: &ThemeFile) -> Result<(), String> {
                $(if let Some(c) = &file.$field {
                    self.$field = parse_color(c).map_err(|e| format!("role {:?}: {e}", $name))?;
                })*
                Ok(())
            }
        }

        impl ThemeFile {
            #[cfg(test)]
            /// The roles this file leaves unset (a built-in theme must set them all).
            fn missing(&self) -> Vec<&'static str> {
                let mut out = vec![];
                $(if self.$field.is_none() { out.push($name); })*
                out
            }
        }
    };
}

roles! {
    Text text = "text",
    Dim dim = "dim",
    Background background = "background",
    Border border = "border",
    BorderFocus border_focus = "border_focus",
    Title title = "title",
    TitleFocus title_focus = "title_focus",
    SelectionFg selection_fg = "selection_fg",
    SelectionBg selection_bg = "selection_bg",
    Key key = "key",
    Type type_ = "type",
    Required required = "required",
    Reference reference = "reference",
    Fact fact = "fact",
    Error error = "error",
    Warning warning = "warning",
    Ok ok = "ok",
    JsonKey json_key = "json_key",
    JsonString json_string = "json_string",
    JsonNumber json_number = "json_number",
    JsonBool json_bool = "json_bool",
    JsonNull json_null = "json_null",
    Match match_ = "match",
    StatusBg status_bg = "status_bg",
    Breaking breaking = "breaking",
    Compatible compatible = "compatible",
    Added added = "added",
}

#[derive(Debug, Clone)]
pub struct Theme {
    pub name: String,
    pub palette: Palette,
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

fn parse(text: &str) -> Result<ThemeFile, String> {
    toml::from_str(text).map_err(|e: toml::de::Error| {
        let line = e.span().map_or(1, |r| text[..r.start.min(text.len())].matches('\n').count() + 1);
        let msg = e.message().trim().replace("unknown field", "unknown role");
        format!("line {line}: {msg}")
    })
}

impl Default for Theme {
    fn default() -> Self {
        let mut palette = Palette::reset();
        // The built-ins are checked by tests; a broken one would leave the terminal's colors.
        if let Ok(file) = parse(BUILTIN[0].1) {
            let _ = palette.lay(&file);
        }
        Theme { name: "dark".into(), palette, monochrome: false }
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
            None => match crate::capped_file::read_text(std::path::Path::new(want), crate::capped_file::MAX_THEME) {
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
        let mut palette = theme.palette;
        match parse(&text).and_then(|file| palette.lay(&file).map(|()| file.name)) {
            Ok(name) => {
                theme.palette = palette;
                theme.name = name.unwrap_or_else(|| want.to_string());
                (theme, None)
            }
            Err(e) => (theme, Some(format!("theme {want:?}: {e}; using the default"))),
        }
    }

    /// A theme from TOML text over the default (what [`Self::load`] does with a file's text).
    pub fn from_text(text: &str) -> Result<Theme, String> {
        let mut theme = Theme::default();
        let name = parse(text).and_then(|file| theme.palette.lay(&file).map(|()| file.name))?;
        if let Some(n) = name {
            theme.name = n;
        }
        Ok(theme)
    }

    /// A role's color; the terminal's own under NO_COLOR.
    pub fn paint_color(&self, role: Role) -> Color {
        if self.monochrome { Color::Reset } else { self.palette.get(role) }
    }

    /// A role as a foreground style.
    pub fn paint(&self, role: Role) -> Style {
        Style::new().fg(self.paint_color(role))
    }

    pub fn base(&self) -> Style {
        Style::new().fg(self.paint_color(Role::Text)).bg(self.paint_color(Role::Background))
    }

    pub fn border(&self, focused: bool) -> Style {
        let s = self.paint(if focused { Role::BorderFocus } else { Role::Border });
        if self.monochrome && focused { s.add_modifier(Modifier::BOLD) } else { s }
    }

    pub fn title(&self, focused: bool) -> Style {
        self.paint(if focused { Role::TitleFocus } else { Role::Title }).add_modifier(Modifier::BOLD)
    }

    pub fn selection(&self) -> Style {
        if self.monochrome {
            Style::new().add_modifier(Modifier::REVERSED)
        } else {
            Style::new().fg(self.paint_color(Role::SelectionFg)).bg(self.paint_color(Role::SelectionBg))
        }
    }

    pub fn status(&self) -> Style {
        Style::new().fg(self.paint_color(Role::Text)).bg(self.paint_color(Role::StatusBg))
    }

    pub fn key(&self) -> Style {
        self.paint(Role::Key).add_modifier(Modifier::BOLD)
    }
}

#[cfg(test)]
mod tests;
