//! The shape every pane and overlay has: it takes the keys and commands it understands (and says
//! whether it used them), draws itself from its own state, and lists its own key hints. The app
//! keeps the panes and one stack of overlays that sees keys first.

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, BorderType, Borders, Clear};

use super::keymap::{self, Command, Scope};
use super::msg::Cmd;
use super::theme::Theme;

/// Whether a component used a key or command; an unused one goes on to the next in line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Used {
    Yes,
    No,
}

impl Used {
    pub fn yes(self) -> bool {
        self == Used::Yes
    }
}

/// What a component asks of the rest of the app. Handling stays free of I/O: these are data,
/// which the app applies after the component returns.
pub enum Effect {
    /// Work for the session worker.
    Cmd(Cmd),
    /// A line in the status bar; `true` for an error.
    Notice(String, bool),
    /// Close the overlay on top of the stack.
    Close,
    /// Put an overlay on top of the stack.
    Push(Box<dyn Component>),
    /// A change of another part of the screen.
    App(Action),
}

/// Changes a component may ask of the app, outside its own state.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Select the tool and open its form, prefilled with these arguments (or the kept form).
    OpenForm { tool: String, arguments: Option<serde_json::Value> },
    /// Run the tool with these arguments as a new call.
    Run { tool: String, arguments: serde_json::Value },
    /// Copy this call as a command, a curl request or its message (`Y`).
    CopyAs { tool: String, arguments: serde_json::Value },
    /// Show the kept result of the call made at this time (history entry's `at`).
    ShowPast { at: u64, tool: String },
    /// Run the form's tool with the arguments it built (validated, confirmed).
    RunForm { tool: String, arguments: serde_json::Value },
    /// Leave the form; its values are kept for when it is opened again.
    LeaveForm,
    /// Connect to the server of this index in the config's list.
    Connect(usize),
    /// Run these saved calls of the collection, one after the other, each checked.
    RunSaved(Vec<crate::collection::SavedCall>),
    /// Quit now (the user confirmed it).
    Quit,
    /// The action, which the user confirmed (a run of a destructive tool).
    Confirmed(Box<Action>),
}

/// Offers a key to a component: raw first (text being typed), then as the command its keymap
/// section (or the global one) binds the key to.
pub fn offer<C: Component + ?Sized>(c: &mut C, key: &KeyEvent, cx: &mut Ctx) -> Used {
    if c.key(key, cx).yes() {
        return Used::Yes;
    }
    match keymap::lookup(key, c.scope()) {
        Some(cmd) => c.command(cmd, cx),
        None => Used::No,
    }
}

/// What a component gets while it handles input: the theme (for rows it builds) and a place
/// for its effects.
pub struct Ctx<'a> {
    pub theme: &'a Theme,
    pub effects: Vec<Effect>,
}

impl<'a> Ctx<'a> {
    pub fn new(theme: &'a Theme) -> Ctx<'a> {
        Ctx { theme, effects: vec![] }
    }

    pub fn cmd(&mut self, c: Cmd) {
        self.effects.push(Effect::Cmd(c));
    }

    pub fn notice(&mut self, text: impl Into<String>, error: bool) {
        self.effects.push(Effect::Notice(text.into(), error));
    }

    pub fn action(&mut self, a: Action) {
        self.effects.push(Effect::App(a));
    }
}

/// What a docked pane may want to know of the session (told by the App as it happens).
pub enum Observed<'a> {
    /// Connected (again): the server's initialize result.
    Server(&'a crate::mcp::ServerInfo),
    /// The server withdrew its request of this id (or the session ended).
    AskWithdrawn(&'a str),
    /// The roots offered to the server (`--root`, the config's `roots`).
    Roots(&'a [crate::mcp::asks::Root]),
    /// Resources, templates or prompts listed (again), or why they could not be.
    Listed { kind: crate::mcp::ItemKind, list: &'a Result<crate::mcp::Listing, String> },
    /// The server confirmed a subscription (`on`) or its end.
    Subscribed { uri: &'a str, on: bool },
    /// `notifications/resources/updated` for this URI.
    Updated(&'a str),
    /// A re-read of a resource whose view is open.
    Reread(&'a super::ops::ReadDone),
    /// The collection file read (again), or why it could not be.
    Collection { file: &'a str, loaded: &'a Result<crate::collection::Collection, String> },
    /// A saved call started or ended its run.
    SavedRun(&'a super::saved::RunMsg),
    /// The tools compared with the saved snapshot.
    Compared(&'a super::baseline::Compared),
    /// Suggestions for a field of a form (`seq` says which asked).
    Completed(&'a super::ops::CompletionDone),
}

pub trait Component {
    /// The keymap section whose bindings this component answers.
    fn scope(&self) -> Scope;

    /// Keys before the keymap sees them: text entry (a filter, a field, a search) takes its
    /// printable keys here. Most components take none.
    fn key(&mut self, _key: &KeyEvent, _cx: &mut Ctx) -> Used {
        Used::No
    }

    /// Whether the component holds a text cursor (a filter, a search, a field being typed): then
    /// every printable key is its, and the router never lets one reach a command.
    fn typing(&self) -> bool {
        false
    }

    /// A command of the keymap (this component's section first, then the global one).
    fn command(&mut self, cmd: Command, cx: &mut Ctx) -> Used;

    /// Draws from the component's own state; never writes it. `focused`: it takes the keys (the
    /// focused pane, the top overlay), which its frame ([`frame`], [`overlay_block`]) shows.
    fn draw(&self, f: &mut Frame, area: Rect, theme: &Theme, focused: bool);

    /// Whether the component has work under way that Ctrl-K stops (the collection's run).
    fn busy(&self) -> bool {
        false
    }

    /// `(keys, word)` for the footer while this component is the top overlay.
    fn hints(&self) -> Vec<(String, String)> {
        keymap::overlay_footer(self.scope())
    }

    /// The area the component will be drawn in: where page sizes come from. Called by the
    /// layout after each update, never by the draw.
    fn set_area(&mut self, _area: Rect) {}

    /// How many overlays of its own section wait under it: server requests, answered in the
    /// order they came. Called by the layout after each update.
    fn set_waiting(&mut self, _waiting: usize) {}

    /// A docked pane's frame title.
    fn title(&self) -> String {
        format!(" {} ", self.scope().title())
    }

    /// A docked pane (or an overlay) hears of the session here, and may answer with effects.
    fn observe(&mut self, _event: &Observed, _cx: &mut Ctx) {}

    /// An overlay that this event makes moot (a request the server withdrew) is closed.
    fn closes_on(&self, _event: &Observed) -> bool {
        false
    }

    /// How big an overlay wants to be inside `area` (panes fill what the layout gives them).
    fn overlay_size(&self, area: Rect) -> (u16, u16) {
        (area.width.saturating_sub(4).min(100), area.height.saturating_sub(2))
    }
}

/// Overlays, newest on top. The top one sees every key first; keys it does not use go to the
/// global bindings only (an overlay is modal), never to the panes underneath.
#[derive(Default)]
pub struct Stack {
    layers: Vec<Box<dyn Component>>,
}

impl Stack {
    pub fn push(&mut self, c: Box<dyn Component>) {
        self.layers.push(c);
    }

    /// Under the layers of its own section already open, so that they keep the keys and come
    /// off in the order they came (server requests); on top when there are none.
    pub fn queue(&mut self, c: Box<dyn Component>) {
        let scope = c.scope();
        match self.layers.iter().position(|l| l.scope() == scope) {
            Some(at) => self.layers.insert(at, c),
            None => self.layers.push(c),
        }
    }

    pub fn pop(&mut self) -> Option<Box<dyn Component>> {
        self.layers.pop()
    }

    pub fn top(&self) -> Option<&dyn Component> {
        self.layers.last().map(|b| b.as_ref())
    }

    pub fn top_mut(&mut self) -> Option<&mut Box<dyn Component>> {
        self.layers.last_mut()
    }

    pub fn is_empty(&self) -> bool {
        self.layers.is_empty()
    }

    pub fn len(&self) -> usize {
        self.layers.len()
    }

    /// Offers a key to the top overlay: raw first, then as its section's command.
    pub fn key(&mut self, key: &KeyEvent, cx: &mut Ctx) -> Used {
        match self.layers.last_mut() {
            Some(top) => offer(top.as_mut(), key, cx),
            None => Used::No,
        }
    }

    /// Tells each layer where it will be drawn (`place` gives the area for a layer).
    pub fn set_areas(&mut self, place: impl Fn(&dyn Component) -> Rect) {
        for layer in &mut self.layers {
            let area = place(layer.as_ref());
            layer.set_area(area);
        }
    }

    /// Tells each layer how many layers of its own section wait under it.
    pub fn count_waiting(&mut self) {
        for i in 0..self.layers.len() {
            let scope = self.layers[i].scope();
            let waiting = self.layers[..i].iter().filter(|l| l.scope() == scope).count();
            self.layers[i].set_waiting(waiting);
        }
    }

    /// Tells every layer what happened.
    pub fn observe(&mut self, event: &Observed, cx: &mut Ctx) {
        for layer in &mut self.layers {
            layer.observe(event, cx);
        }
    }

    /// Closes every layer the event makes moot.
    pub fn close_on(&mut self, event: &Observed) {
        self.layers.retain(|l| !l.closes_on(event));
    }

    /// Every layer, bottom first.
    pub fn layers(&self) -> impl Iterator<Item = &dyn Component> {
        self.layers.iter().map(|b| b.as_ref())
    }

    /// Draws every layer over what `area` shows, bottom first, each where its size puts it. Only
    /// the top one is drawn focused, and only when `keys` (nothing lies over the stack): the
    /// layers beneath take no keys, so they look like the panes that take none.
    pub fn draw(&self, f: &mut Frame, area: Rect, theme: &Theme, keys: bool) {
        let top = self.layers.len().saturating_sub(1);
        for (i, layer) in self.layers.iter().enumerate() {
            let (w, h) = layer.overlay_size(area);
            let r = centered(area, w, h);
            f.render_widget(Clear, r);
            layer.draw(f, r, theme, keys && i == top);
        }
    }
}

/// A `w`×`h` rectangle centered in `area`.
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let (w, h) = (w.min(area.width), h.min(area.height));
    Rect { x: area.x + (area.width - w) / 2, y: area.y + (area.height - h) / 2, width: w, height: h }
}

/// The frame of a pane or an overlay: thick and in the focus colors on the one that takes the
/// keys, rounded and plain on every other, so that one frame on screen says where keys go.
pub fn frame<'a>(t: &Theme, title: impl Into<Line<'a>>, focused: bool) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .border_type(if focused { BorderType::Thick } else { BorderType::Rounded })
        .border_style(t.border(focused))
        .title(title.into().style(t.title(focused)))
}

/// The frame of an overlay (help, history, picker): a [`frame`] that paints its own background.
pub fn overlay_block<'a>(t: &Theme, title: impl Into<Line<'a>>, focused: bool) -> Block<'a> {
    frame(t, title, focused).style(t.base())
}
