//! The walk to a container's close ([`super::Skim::finish_container`]) sixteen bytes at a time:
//! what is inside strings is known from the quotes (an odd count of them before a byte, the
//! count carried from window to window), so a window's brackets outside strings are found at
//! once and only they are looked at one by one. A window that holds a backslash, and the last
//! bytes, are walked a byte at a time.

#[cfg(target_arch = "x86_64")]
use super::super::window::{WINDOW, prefix_xor};

/// Where a walk stands: at byte `i`, `open` containers open (the walked one counts), the
/// deepest seen below it, inside a string or not.
pub(super) struct Walk {
    pub(super) i: usize,
    pub(super) open: usize,
    pub(super) deepest: usize,
    in_string: bool,
}

impl Walk {
    pub(super) fn new(i: usize) -> Walk {
        Walk { i, open: 1, deepest: 0, in_string: false }
    }

    /// Walks `b` until the walked container closes: the close bracket's position, or None at the
    /// text's end.
    pub(super) fn until_close(&mut self, b: &[u8]) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        while let Some(bytes) = b.get(self.i..self.i + WINDOW).and_then(|s| <&[u8; WINDOW]>::try_from(s).ok()) {
            let m = Marks::of(bytes);
            let at = if m.backslashes == 0 { self.window(&m) } else { self.bytes(b, self.i + WINDOW) };
            if at.is_some() {
                return at;
            }
        }
        self.bytes(b, b.len())
    }

    /// A window without backslashes: its brackets outside strings, in turn.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn window(&mut self, m: &Marks) -> Option<usize> {
        let carry = if self.in_string { 0xffff } else { 0 };
        let inside = prefix_xor(m.quotes) ^ carry;
        let mut brackets = (m.opens | m.closes) & !inside;
        while brackets != 0 {
            let k = brackets.trailing_zeros();
            if m.opens >> k & 1 == 1 {
                self.deepest = self.deepest.max(self.open);
                self.open += 1;
            } else {
                self.open -= 1;
                if self.open == 0 {
                    self.i += k as usize;
                    return Some(self.i);
                }
            }
            brackets &= brackets - 1;
        }
        self.in_string = inside >> (WINDOW - 1) & 1 == 1;
        self.i += WINDOW;
        None
    }

    /// Byte by byte up to `end` (an escape may end a byte past it).
    fn bytes(&mut self, b: &[u8], end: usize) -> Option<usize> {
        while self.i < end {
            let Some(&c) = b.get(self.i) else { break };
            if self.in_string {
                match c {
                    b'"' => self.in_string = false,
                    b'\\' => self.i += 1,
                    _ => {}
                }
            } else {
                match c {
                    b'"' => self.in_string = true,
                    b'{' | b'[' => {
                        self.deepest = self.deepest.max(self.open);
                        self.open += 1;
                    }
                    b'}' | b']' => {
                        self.open -= 1;
                        if self.open == 0 {
                            return Some(self.i);
                        }
                    }
                    _ => {}
                }
            }
            self.i += 1;
        }
        None
    }
}

/// From `i` inside a string, sixteen bytes at a time while every escape is a backslash and one
/// byte (`\"`, `\n`; a `\u` escape is a backslash and one byte followed by plain ones) that is
/// not a backslash: `Ok` just past the closing quote, or `Err` with the place (inside the string,
/// not inside an escape) where a walk of fewer bytes at a time goes on: a window with `\\`, or
/// the last bytes.
#[cfg(target_arch = "x86_64")]
pub(super) fn string_end(b: &[u8], mut i: usize) -> Result<usize, usize> {
    while let Some(bytes) = b.get(i..i + WINDOW).and_then(|s| <&[u8; WINDOW]>::try_from(s).ok()) {
        let m = Marks::of(bytes);
        let slashes = m.backslashes;
        if slashes & (slashes << 1) != 0 {
            return Err(i);
        }
        // A backslash in the last byte escapes the next window's first: it is left to that one.
        let width = if slashes >> (WINDOW - 1) & 1 == 1 { WINDOW - 1 } else { WINDOW };
        let within = (1u32 << width) - 1;
        let quotes = m.quotes & !(slashes << 1) & within;
        if quotes != 0 {
            return Ok(i + quotes.trailing_zeros() as usize + 1);
        }
        i += width;
    }
    Err(i)
}

#[cfg(target_arch = "x86_64")]
struct Marks {
    quotes: u32,
    backslashes: u32,
    opens: u32,
    closes: u32,
}

#[cfg(target_arch = "x86_64")]
impl Marks {
    #[inline(always)]
    fn of(bytes: &[u8; WINDOW]) -> Marks {
        let v = super::super::window::Lanes::load(bytes);
        Marks { quotes: v.eq(b'"'), backslashes: v.eq(b'\\'), opens: v.eq_folded(b'{'), closes: v.eq_folded(b'}') }
    }
}
