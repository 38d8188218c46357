use super::*;

#[test]
fn every_builtin_sets_every_role() {
    for (name, text) in BUILTIN {
        let file = parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(file.missing().is_empty(), "{name} lacks {:?}", file.missing());
        let mut palette = Palette::reset();
        palette.lay(&file).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(file.name.as_deref(), Some(*name));
    }
}

#[test]
fn bad_themes_fall_back_with_a_message() {
    let dir = std::env::temp_dir().join(format!("mcplens-theme-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    for (body, want) in [
        ("text = ", "line 1:"),
        ("txet = \"red\"", "unknown role `txet`"),
        ("text = \"not-a-color\"", "role \"text\": \"not-a-color\" is not a color"),
        ("text = 5", "line 1: invalid type"),
    ] {
        let p = dir.join("t.toml");
        let _ = std::fs::write(&p, body);
        let (theme, msg) = Theme::load(p.to_str(), false);
        assert_eq!(theme.name, "dark");
        assert_eq!(theme.palette, Theme::default().palette);
        let msg = msg.unwrap_or_default();
        assert!(msg.contains(want), "{body}: {msg}");
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
    assert_eq!((theme.name.as_str(), theme.palette.error), ("mine", Color::Rgb(1, 2, 3)));
    assert_eq!(theme.paint_color(Role::Error), Color::Rgb(1, 2, 3));
    assert_eq!(theme.paint_color(Role::Ok), Theme::default().palette.ok);
    let (mono, _) = Theme::load(Some("light"), true);
    assert_eq!((mono.paint_color(Role::Error), mono.paint_color(Role::Ok)), (Color::Reset, Color::Reset));
    let _ = std::fs::remove_dir_all(&dir);
}
