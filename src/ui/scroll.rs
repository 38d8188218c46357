//! The one cursor-and-window type every list, tree and text pane scrolls with, and the one rule
//! for how far a page moves.

use super::keymap::Command;

/// A cursor over `len` rows and the first row shown (`top`). Drawing never writes it: a pane
/// draws `window(height)`, which keeps the cursor in view even when `height` changed since the
/// last update.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Scroll {
    pub cursor: usize,
    pub top: usize,
    pub len: usize,
    /// The pane's height at the last layout; paging moves by `page(height)`.
    pub height: usize,
}

/// How far PageUp/PageDown move in a pane of `height` rows: a screenful less one row, so the
/// row at the edge stays in sight.
pub fn page(height: usize) -> usize {
    height.saturating_sub(1).max(1)
}

impl Scroll {
    pub fn new(len: usize) -> Scroll {
        Scroll { len, ..Scroll::default() }
    }

    /// A new length (a filter, new rows): the cursor stays on a row.
    pub fn set_len(&mut self, len: usize) {
        self.len = len;
        self.cursor = self.cursor.min(len.saturating_sub(1));
        self.top = self.top.min(self.cursor);
    }

    pub fn set_height(&mut self, height: usize) {
        self.height = height;
        self.follow();
    }

    pub fn select(&mut self, row: usize) {
        self.cursor = row.min(self.len.saturating_sub(1));
        self.follow();
    }

    pub fn up(&mut self, n: usize) {
        self.select(self.cursor.saturating_sub(n));
    }

    pub fn down(&mut self, n: usize) {
        self.select(self.cursor.saturating_add(n));
    }

    pub fn page_up(&mut self) {
        self.up(page(self.height));
    }

    pub fn page_down(&mut self) {
        self.down(page(self.height));
    }

    pub fn first(&mut self) {
        self.select(0);
    }

    pub fn last(&mut self) {
        self.select(self.len.saturating_sub(1));
    }

    /// The moves every list shares (up, down, a page, top, bottom); false for any other command.
    pub fn navigate(&mut self, cmd: Command) -> bool {
        match cmd {
            Command::Up => self.up(1),
            Command::Down => self.down(1),
            Command::PageUp => self.page_up(),
            Command::PageDown => self.page_down(),
            Command::Top => self.first(),
            Command::Bottom => self.last(),
            _ => return false,
        }
        true
    }

    /// Scrolls the window without moving the cursor past it (mouse wheel, text views).
    pub fn scroll_by(&mut self, delta: isize) {
        let max_top = self.len.saturating_sub(self.height.max(1));
        self.top = self.top.saturating_add_signed(delta).min(max_top);
        let h = self.height.max(1);
        self.cursor = self.cursor.clamp(self.top, (self.top + h - 1).min(self.len.saturating_sub(1)));
    }

    fn follow(&mut self) {
        self.top = window_top(self.cursor, self.top, self.height, self.len);
    }

    /// The rows to draw in `height` rows: starts at `top`, moved just enough to show the cursor.
    pub fn window(&self, height: usize) -> std::ops::Range<usize> {
        let top = window_top(self.cursor, self.top, height, self.len);
        top..(top + height).min(self.len)
    }
}

/// The first row shown: the cursor in view, and no blank rows below the last row while rows
/// above are hidden (a pane that grew, or was laid out while hidden, fills up again).
fn window_top(cursor: usize, top: usize, height: usize, len: usize) -> usize {
    let h = height.max(1);
    let top = if cursor < top {
        cursor
    } else if cursor >= top + h {
        cursor + 1 - h
    } else {
        top
    };
    top.min(len.saturating_sub(h))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cursor_stays_in_the_window() {
        let mut s = Scroll::new(100);
        s.set_height(10);
        s.down(15);
        assert_eq!((s.cursor, s.window(10)), (15, 6..16));
        s.page_down();
        assert_eq!(s.cursor, 24);
        s.last();
        assert_eq!(s.window(10), 90..100);
        // A smaller pane than at the last update still shows the cursor.
        assert_eq!(s.window(4), 96..100);
        s.first();
        assert_eq!(s.window(10), 0..10);
        s.set_len(0);
        assert_eq!((s.cursor, s.window(10)), (0, 0..0));
    }

    #[test]
    fn a_pane_that_grows_shows_the_rows_above_instead_of_blanks() {
        // Followed to the end while the pane had no height (hidden): then shown 10 rows high.
        let mut s = Scroll::new(11);
        s.set_height(0);
        s.last();
        assert_eq!(s.window(10), 1..11);
        s.set_height(10);
        assert_eq!((s.top, s.cursor), (1, 10));
    }

    #[test]
    fn wheel_scrolls_and_drags_the_cursor() {
        let mut s = Scroll::new(50);
        s.set_height(10);
        s.scroll_by(5);
        assert_eq!((s.top, s.cursor), (5, 5));
        s.scroll_by(100);
        assert_eq!((s.top, s.cursor), (40, 40));
        s.scroll_by(-100);
        assert_eq!((s.top, s.cursor), (0, 9));
    }
}
