//! Renders real mcplens screens against the embedded demo server and writes them as PNG images to
//! `screenshots/`. Rerun with: `cargo run --example screenshots`
//!
//! Frames are drawn by the app's own views on ratatui's TestBackend, then each cell is rasterized
//! with an 8x8 bitmap font (doubled vertically) in the cell's own colors.

use std::path::Path;

use crossterm::event::KeyCode;
use crossterm::event::KeyModifiers;
use font8x8::UnicodeFonts;
use mcplens::mcp::{StdioTarget, Target};
use mcplens::ui::app::App;
use mcplens::ui::headless::{Screen, connected_app, execute};
use mcplens::ui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};

const CW: usize = 8;
const CH: usize = 16;

fn palette(c: Color, default: [u8; 3]) -> [u8; 3] {
    match c {
        Color::Reset => default,
        Color::Rgb(r, g, b) => [r, g, b],
        Color::Black => [0, 0, 0],
        Color::Red => [205, 49, 49],
        Color::Green => [13, 188, 121],
        Color::Yellow => [229, 229, 16],
        Color::Blue => [36, 114, 200],
        Color::Magenta => [188, 63, 188],
        Color::Cyan => [17, 168, 205],
        Color::Gray => [204, 204, 204],
        Color::DarkGray => [118, 118, 118],
        Color::LightRed => [241, 76, 76],
        Color::LightGreen => [35, 209, 139],
        Color::LightYellow => [245, 245, 67],
        Color::LightBlue => [59, 142, 234],
        Color::LightMagenta => [214, 112, 214],
        Color::LightCyan => [41, 184, 219],
        Color::White => [255, 255, 255],
        Color::Indexed(i) => [i, i, i],
    }
}

/// Glyphs the bitmap font lacks, drawn by hand (8 rows of 8 bits, least significant bit left).
fn extra_glyph(c: char) -> Option<[u8; 8]> {
    Some(match c {
        '▾' => [0x00, 0x00, 0x7F, 0x3E, 0x1C, 0x08, 0x00, 0x00],
        '▸' => [0x00, 0x04, 0x0C, 0x1C, 0x0C, 0x04, 0x00, 0x00],
        '●' => [0x00, 0x3C, 0x7E, 0x7E, 0x7E, 0x7E, 0x3C, 0x00],
        '✖' => [0x00, 0x63, 0x36, 0x1C, 0x1C, 0x36, 0x63, 0x00],
        '⚠' => [0x08, 0x1C, 0x14, 0x36, 0x2A, 0x63, 0x7F, 0x00],
        '↻' => [0x00, 0x3C, 0x42, 0x02, 0x47, 0x42, 0x3C, 0x00],
        '→' => [0x00, 0x08, 0x10, 0x3F, 0x10, 0x08, 0x00, 0x00],
        '—' => [0x00, 0x00, 0x00, 0xFF, 0x00, 0x00, 0x00, 0x00],
        '–' => [0x00, 0x00, 0x00, 0x7E, 0x00, 0x00, 0x00, 0x00],
        '█' => [0xFF; 8],
        '░' => [0x55, 0x00, 0xAA, 0x00, 0x55, 0x00, 0xAA, 0x00],
        '✔' => [0x00, 0x40, 0x60, 0x31, 0x1B, 0x0E, 0x04, 0x00],
        '·' => [0x00, 0x00, 0x00, 0x18, 0x18, 0x00, 0x00, 0x00],
        '…' => [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x49, 0x00],
        '▏' => [0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01],
        '↑' => [0x08, 0x1C, 0x2A, 0x08, 0x08, 0x08, 0x08, 0x00],
        '↓' => [0x08, 0x08, 0x08, 0x08, 0x2A, 0x1C, 0x08, 0x00],
        '←' => [0x00, 0x04, 0x02, 0x7F, 0x02, 0x04, 0x00, 0x00],
        _ => return None,
    })
}

fn glyph(c: char) -> Option<[u8; 8]> {
    font8x8::BASIC_FONTS
        .get(c)
        .or_else(|| font8x8::BOX_FONTS.get(c))
        .or_else(|| font8x8::BLOCK_FONTS.get(c))
        .or_else(|| font8x8::LATIN_FONTS.get(c))
        .or_else(|| font8x8::MISC_FONTS.get(c))
        .or_else(|| extra_glyph(c))
        .or_else(|| {
            // Heavy box drawing: use the light glyph of the same shape.
            let light = match c {
                '━' => '─',
                '┃' => '│',
                '┏' => '┌',
                '┓' => '┐',
                '┗' => '└',
                '┛' => '┘',
                '╭' => '┌',
                '╮' => '┐',
                '╰' => '└',
                '╯' => '┘',
                _ => return None,
            };
            font8x8::BOX_FONTS.get(light)
        })
}

fn write_png(buf: &Buffer, theme: &Theme, path: &Path) -> std::io::Result<()> {
    let (w, h) = (buf.area.width as usize, buf.area.height as usize);
    let (iw, ih) = (w * CW, h * CH);
    let dark = theme.name != "light";
    let (dfg, dbg) = if dark { ([208, 208, 208], [28, 28, 28]) } else { ([28, 28, 28], [250, 250, 250]) };
    let mut px = vec![0u8; iw * ih * 3];
    for y in 0..h {
        for x in 0..w {
            let cell = &buf[(x as u16, y as u16)];
            let mut fg = palette(cell.fg, dfg);
            let mut bg = palette(cell.bg, dbg);
            if cell.modifier.contains(Modifier::REVERSED) {
                std::mem::swap(&mut fg, &mut bg);
            }
            let bold = cell.modifier.contains(Modifier::BOLD);
            let ch = cell.symbol().chars().next().unwrap_or(' ');
            let bits =
                glyph(ch).unwrap_or(if ch == ' ' { [0; 8] } else { [0x00, 0x7E, 0x42, 0x42, 0x42, 0x42, 0x7E, 0x00] });
            for gy in 0..CH {
                let row = bits[gy / 2];
                for gx in 0..CW {
                    let on = row >> gx & 1 == 1 || (bold && gx > 0 && row >> (gx - 1) & 1 == 1);
                    let color = if on { fg } else { bg };
                    let i = ((y * CH + gy) * iw + x * CW + gx) * 3;
                    px[i..i + 3].copy_from_slice(&color);
                }
            }
        }
    }
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let mut enc = png::Encoder::new(file, iw as u32, ih as u32);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header().map_err(std::io::Error::other)?;
    writer.write_image_data(&px).map_err(std::io::Error::other)?;
    Ok(())
}

type Scene = (&'static str, &'static str, fn(&mut Screen, &mut App));

/// Scenes that run a tool first: name, theme, tool, arguments, keys pressed after the result.
type CallScene = (&'static str, &'static str, &'static str, &'static str, &'static [KeyCode]);

const CALL_SCENES: &[CallScene] = &[
    ("form-person-finder", "dark", "fg_findPersons", "", &[]),
    ("result-envelope-table", "dark", "discord_list_channels", r#"{"limit": 25}"#, &[]),
    ("result-paged-list", "dark", "discord_list_channels", r#"{"limit": 25}"#, &[KeyCode::Char(']')]),
    ("result-split", "dark", "shop_search_products", "{}", &[KeyCode::Char('2')]),
    ("result-content", "dark", "get_resources", "{}", &[KeyCode::Char('3')]),
    ("result-raw", "light", "get_weather", r#"{"city": "Osaka"}"#, &[KeyCode::Char('4')]),
    ("result-envelope-table-light", "light", "discord_list_channels", r#"{"limit": 25}"#, &[]),
    ("result-split-light", "light", "shop_search_products", "{}", &[KeyCode::Char('2')]),
    ("log-after-a-call", "dark", "get_weather", r#"{"city": "Osaka"}"#, &[KeyCode::Char('L')]),
    ("history-light", "light", "get_weather", r#"{"city": "Osaka"}"#, &[KeyCode::Char('H')]),
    ("server-info", "dark", "get_weather", r#"{"city": "Osaka"}"#, &[KeyCode::Char('i')]),
    ("resources", "dark", "get_weather", r#"{"city": "Osaka"}"#, &[KeyCode::Char('r')]),
    ("prompts-light", "light", "get_weather", r#"{"city": "Osaka"}"#, &[KeyCode::Char('p')]),
    ("collection", "dark", "get_weather", r#"{"city": "Osaka"}"#, &[KeyCode::Char('K')]),
    ("tasks-light", "light", "get_weather", r#"{"city": "Osaka"}"#, &[KeyCode::Char('T')]),
];

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("screenshots");
    std::fs::create_dir_all(&out)?;
    let status = std::process::Command::new("cargo").args(["build", "--quiet", "--bin", "mcplens"]).status()?;
    if !status.success() {
        return Err(std::io::Error::other("cargo build failed"));
    }
    let bin = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/debug/mcplens");
    let target = Target::Stdio(StdioTarget {
        command: bin.to_string_lossy().into_owned(),
        args: vec!["demo-server".into()],
        env: vec![],
        cwd: None,
    });
    let scenes: &[Scene] = &[
        ("tools-and-schema", "dark", |_, _| {}),
        ("person-finder-tree", "dark", |s, a| {
            s.press(a, KeyCode::Char('/'));
            s.type_text(a, "findpers");
            s.press(a, KeyCode::Enter);
            s.press(a, KeyCode::Enter);
            s.press(a, KeyCode::Char('j'));
            s.press(a, KeyCode::Char('j'));
        }),
        ("help", "dark", |s, a| {
            s.press(a, KeyCode::Char('?'));
        }),
        ("help-light", "light", |s, a| {
            s.press(a, KeyCode::Char('?'));
        }),
        ("tools-and-schema-light", "light", |_, _| {}),
        ("raw-schema-light", "light", |s, a| {
            s.press(a, KeyCode::Char('G'));
            s.press(a, KeyCode::Tab);
            s.press(a, KeyCode::Char('r'));
        }),
        ("log-high-contrast", "high-contrast", |s, a| {
            s.press(a, KeyCode::Char('L'));
        }),
    ];
    for (name, theme_name, drive) in scenes {
        let (theme, _) = Theme::load(Some(theme_name), false);
        let (mut app, session) = connected_app(&target, theme.clone(), "embedded demo server")
            .await
            .map_err(|e| std::io::Error::other(e.message))?;
        let mut screen = Screen::new(120, 40);
        drive(&mut screen, &mut app);
        let buf = screen.render(&mut app).clone();
        let path = out.join(format!("{name}.png"));
        write_png(&buf, &theme, &path)?;
        println!("wrote {}", path.display());
        session.close().await;
    }
    for (name, theme_name, tool, args, keys) in CALL_SCENES {
        let (theme, _) = Theme::load(Some(theme_name), false);
        let (mut app, session) = connected_app(&target, theme.clone(), "embedded demo server")
            .await
            .map_err(|e| std::io::Error::other(e.message))?;
        let session = std::sync::Arc::new(session);
        let mut screen = Screen::new(120, 40);
        screen.press(&mut app, KeyCode::Char('/'));
        screen.type_text(&mut app, tool);
        screen.press(&mut app, KeyCode::Enter);
        screen.press(&mut app, KeyCode::Enter);
        if args.is_empty() {
            // The form itself: fill a few fields by keys.
            for _ in 0..2 {
                screen.press(&mut app, KeyCode::Down);
            }
            screen.type_text(&mut app, "0b6e2f0c-8f4e-4c1a-9d7b-2a3e4f5a6b7c");
            for _ in 0..5 {
                screen.press(&mut app, KeyCode::Down);
            }
            screen.press(&mut app, KeyCode::Char(' '));
            screen.press(&mut app, KeyCode::Down);
            screen.press(&mut app, KeyCode::Down);
        } else {
            screen.press_with(&mut app, KeyCode::Char('t'), KeyModifiers::CONTROL);
            screen.type_json(&mut app, args);
            let cmds = screen.press_with(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
            execute(&mut app, &session, cmds).await;
            for k in *keys {
                let cmds = screen.press(&mut app, *k);
                execute(&mut app, &session, cmds).await;
            }
        }
        let buf = screen.render(&mut app).clone();
        let path = out.join(format!("{name}.png"));
        write_png(&buf, &theme, &path)?;
        println!("wrote {}", path.display());
        session.close().await;
    }
    Ok(())
}
