//! The TUI's skills overlay (`I`) against tests/servers/skills_server.py: the skills listed by
//! path with their files and description and nothing read; Enter loads one, verified, or says
//! why it was refused.

mod common;

use std::sync::Arc;

use crossterm::event::KeyCode;
use mcplens::mcp::{Session, StdioTarget, Target};
use mcplens::ui::app::App;
use mcplens::ui::headless::{Screen, connected_app, execute};
use mcplens::ui::theme::Theme;

async fn app(log: &std::path::Path) -> (App, Arc<Session>) {
    let target = Target::Stdio(StdioTarget {
        command: common::python().to_string_lossy().into_owned(),
        args: vec![common::script("skills_server.py")],
        env: vec![("SKILLS_SERVER_LOG".into(), log.to_string_lossy().into_owned())],
        cwd: None,
    });
    let (app, session) =
        connected_app(&target, Theme::default(), "skills_server.py").await.unwrap_or_else(|e| panic!("{e}"));
    (app, Arc::new(session))
}

async fn press(screen: &mut Screen, app: &mut App, session: &Arc<Session>, key: KeyCode) {
    let cmds = screen.press(app, key);
    execute(app, session, cmds).await;
}

fn reads(log: &std::path::Path) -> usize {
    std::fs::read_to_string(log).unwrap_or_default().lines().filter(|l| l.starts_with("resources/read")).count()
}

#[tokio::test]
async fn i_lists_the_skills_and_enter_loads_one_verified_or_refused() {
    let log = std::env::temp_dir().join(format!("mcplens-tui-skills-{}.log", std::process::id()));
    let _ = std::fs::remove_file(&log);
    let (mut app, session) = app(&log).await;
    let mut screen = Screen::new(120, 30);
    press(&mut screen, &mut app, &session, KeyCode::Char('I')).await;
    let text = screen.text(&mut app);
    for want in ["Skills: 5", "acme/billing/refunds", "acme/support/refunds", "3 files", "dynamic"] {
        assert!(text.contains(want), "{want:?} missing:\n{text}");
    }
    assert_eq!(reads(&log), 0, "the listing read a file");

    press(&mut screen, &mut app, &session, KeyCode::Enter).await;
    let text = screen.text(&mut app);
    assert!(text.contains("verified: size, sha256, frontmatter"), "{text}");
    assert!(text.contains("Branch from main"), "{text}");
    assert_eq!(reads(&log), 1);

    press(&mut screen, &mut app, &session, KeyCode::Esc).await;
    press(&mut screen, &mut app, &session, KeyCode::Char('G')).await;
    press(&mut screen, &mut app, &session, KeyCode::Enter).await;
    let text = screen.text(&mut app);
    assert!(text.contains("not loaded: digest mismatch"), "{text}");
    assert!(!text.contains("The new body"), "refused content was shown:\n{text}");
    let _ = std::fs::remove_file(&log);
}
