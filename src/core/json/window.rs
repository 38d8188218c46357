//! Sixteen bytes of JSON text looked at at once (SSE2, part of every x86-64 processor): a mask
//! of the bytes of each kind a reader stops at, bit `k` for byte `k`. Elsewhere every window
//! says it is not plain, and readers take the text a byte (or a word of eight) at a time.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::{
    __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_cmpgt_epi8, _mm_cmplt_epi8, _mm_loadu_si128, _mm_min_epu8,
    _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
};

pub const WINDOW: usize = 16;

pub struct Window {
    /// Quotes.
    pub quotes: u32,
    /// Brackets, braces, commas, colons and spaces: the structure, outside strings.
    pub structure: u32,
    /// Backslashes, controls (tab and newline too), DEL and every byte past ASCII.
    pub unplain: u32,
}

impl Window {
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub fn of(bytes: &[u8; WINDOW]) -> Window {
        // SAFETY: SSE2 is part of every x86-64 processor (the target's baseline), and the
        // load reads the sixteen bytes of the array it is given.
        unsafe {
            let v = _mm_loadu_si128(bytes.as_ptr().cast::<__m128i>());
            let lower = _mm_or_si128(v, _mm_set1_epi8(0x20));
            let eq = |v: __m128i, c: u8| _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8))) as u32;
            // A signed compare: below 0x20, and from 0x80 on (negative).
            let low_or_high = _mm_movemask_epi8(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20))) as u32;
            Window {
                quotes: eq(v, b'"'),
                // `{` and `[`, `}` and `]` differ only in the bit 0x20.
                structure: eq(lower, b'{') | eq(lower, b'}') | eq(v, b',') | eq(v, b':') | eq(v, b' '),
                unplain: eq(v, b'\\') | eq(v, 0x7f) | low_or_high,
            }
        }
    }

    /// Elsewhere every window is left to the byte-at-a-time reading.
    #[cfg(not(target_arch = "x86_64"))]
    #[inline(always)]
    pub fn of(_: &[u8; WINDOW]) -> Window {
        Window { quotes: 0, structure: 0, unplain: u32::MAX }
    }
}

/// The bytes of sixteen where a number that reading would approximate may be, for the scan of
/// `json::exact` (its `suspect_marks`, sixteen bytes at once): a `.`, `e` or `E` after a digit, a
/// `0` after a `-`, every byte of a half of eight digits (a run of sixteen holds one whatever its
/// place), and a backslash before `u` (in the last byte, whatever follows). `before` is the byte
/// before the window.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub fn number_marks(bytes: &[u8; WINDOW], before: u8) -> u32 {
    // SAFETY: as in `Window::of`: SSE2 is the target's baseline, the load reads the array.
    unsafe {
        let v = _mm_loadu_si128(bytes.as_ptr().cast::<__m128i>());
        let eq = |v: __m128i, c: u8| _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8))) as u32;
        // Signed compares: the bytes from 0x80 on are negative, below `0`.
        let digits = _mm_and_si128(
            _mm_cmpgt_epi8(v, _mm_set1_epi8((b'0' - 1) as i8)),
            _mm_cmplt_epi8(v, _mm_set1_epi8((b'9' + 1) as i8)),
        );
        let digit = _mm_movemask_epi8(digits) as u32;
        let backslash = eq(v, b'\\') & ((eq(v, b'u') >> 1) | 0x8000);
        // A literal's `.` or `e` is followed by a digit: a window without one holds none.
        if digit == 0 && backslash == 0 {
            return 0;
        }
        let after_digit = (digit << 1) | u32::from(before.is_ascii_digit());
        let after_minus = (eq(v, b'-') << 1) | u32::from(before == b'-');
        let point_or_e = eq(v, b'.') | eq(_mm_or_si128(v, _mm_set1_epi8(0x20)), b'e');
        let halves = [0xff, 0xff00].into_iter().filter(|&h| digit & h == h).fold(0, |m, h| m | h);
        ((point_or_e & after_digit) | (eq(v, b'0') & after_minus) | halves | backslash) & 0xffff
    }
}

/// The bytes of `a` that differ from `b`'s, or are backslashes: where a reading of two texts in
/// step stops.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub fn unalike(a: &[u8; WINDOW], b: &[u8; WINDOW]) -> u32 {
    let a = Lanes::load(a);
    (!a.same(Lanes::load(b)) | a.eq(b'\\')) & 0xffff
}

/// Sixteen bytes in one SSE2 register, compared a kind at a time: each mask has bit `k` for byte
/// `k`. The readers that need only these compares take them here, with the one `unsafe` load.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub struct Lanes(__m128i);

#[cfg(target_arch = "x86_64")]
impl Lanes {
    #[inline(always)]
    pub fn load(bytes: &[u8; WINDOW]) -> Lanes {
        // SAFETY: SSE2 is part of every x86-64 processor (the target's baseline), and the load
        // reads the sixteen bytes of the array it is given.
        Lanes(unsafe { _mm_loadu_si128(bytes.as_ptr().cast::<__m128i>()) })
    }

    /// The bytes of `b` from `i`, if sixteen are left.
    #[inline(always)]
    pub fn at(b: &[u8], i: usize) -> Option<Lanes> {
        Some(Lanes::load(b.get(i..i + WINDOW)?.try_into().ok()?))
    }

    /// The bytes equal to `c`.
    #[inline(always)]
    pub fn eq(self, c: u8) -> u32 {
        // SAFETY: SSE2 is part of every x86-64 processor (the target's baseline).
        unsafe { mask(_mm_cmpeq_epi8(self.0, _mm_set1_epi8(c as i8))) }
    }

    /// The bytes equal to `c` once the bit 0x20 is set in both (`{` and `[` as one).
    #[inline(always)]
    pub fn eq_folded(self, c: u8) -> u32 {
        // SAFETY: SSE2 is part of every x86-64 processor (the target's baseline).
        unsafe { mask(_mm_cmpeq_epi8(_mm_or_si128(self.0, _mm_set1_epi8(0x20)), _mm_set1_epi8((c | 0x20) as i8))) }
    }

    /// The control characters (below 0x20).
    #[inline(always)]
    pub fn controls(self) -> u32 {
        // Unsigned `v <= 0x1f`: the smaller of the two is `v` itself.
        // SAFETY: SSE2 is part of every x86-64 processor (the target's baseline).
        unsafe { mask(_mm_cmpeq_epi8(_mm_min_epu8(self.0, _mm_set1_epi8(0x1f)), self.0)) }
    }

    /// The bytes equal to `other`'s in the same place.
    #[inline(always)]
    pub fn same(self, other: Lanes) -> u32 {
        // SAFETY: SSE2 is part of every x86-64 processor (the target's baseline).
        unsafe { mask(_mm_cmpeq_epi8(self.0, other.0)) }
    }
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn mask(v: __m128i) -> u32 {
    // SAFETY: as above.
    unsafe { _mm_movemask_epi8(v) as u32 }
}

/// Bit `k` set when an odd number of `bits` `0..=k` are: with quotes, the bytes from an
/// opening quote up to (not with) its closing one.
#[inline(always)]
pub fn prefix_xor(bits: u32) -> u32 {
    let mut x = bits;
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x & 0xffff
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each mask says of each byte what a byte-at-a-time reading says of it.
    #[test]
    fn masks_match_a_byte_at_a_time_reading() {
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            let mut bytes = [0u8; WINDOW];
            for b in &mut bytes {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                *b = if rng.is_multiple_of(3) {
                    b"\"\\{}[],: \t\n\x7fa0\x80\xff0123456789.eE-u\\"[(rng >> 8) as usize % 31]
                } else {
                    (rng >> 16) as u8
                };
            }
            let mask = |f: &dyn Fn(u8) -> bool| (0..WINDOW).filter(|&k| f(bytes[k])).map(|k| 1u32 << k).sum::<u32>();
            let w = Window::of(&bytes);
            if cfg!(target_arch = "x86_64") {
                assert_eq!(w.quotes, mask(&|b| b == b'"'), "{bytes:?}");
                assert_eq!(w.structure, mask(&|b| b"{}[],: ".contains(&b)), "{bytes:?}");
                assert_eq!(w.unplain, mask(&|b| b == b'\\' || !(0x20..0x7f).contains(&b)), "{bytes:?}");
            } else {
                assert_ne!(w.unplain, 0);
            }
            if cfg!(target_arch = "x86_64") {
                let before = bytes[3];
                let at = |k: usize| if k == 0 { before } else { bytes[k - 1] };
                let digits = |h: usize| (h..h + 8).all(|k| bytes[k].is_ascii_digit());
                let want = mask(&|_| false)
                    | (0..WINDOW)
                        .filter(|&k| {
                            let b = bytes[k];
                            (matches!(b, b'.' | b'e' | b'E') && at(k).is_ascii_digit())
                                || (b == b'0' && at(k) == b'-')
                                || (b == b'\\' && (k == WINDOW - 1 || bytes[k + 1] == b'u'))
                                || digits(k / 8 * 8)
                        })
                        .map(|k| 1u32 << k)
                        .sum::<u32>();
                #[cfg(target_arch = "x86_64")]
                assert_eq!(number_marks(&bytes, before), want, "{bytes:?}");
            }
            let quotes = mask(&|b| b == b'"');
            let odd = (0..WINDOW).filter(|&k| (quotes & ((2u32 << k) - 1)).count_ones() % 2 == 1).map(|k| 1u32 << k);
            assert_eq!(prefix_xor(quotes), odd.sum::<u32>());
        }
    }
}
