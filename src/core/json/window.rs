//! Sixteen bytes of JSON text looked at at once (SSE2, part of every x86-64 processor): a mask
//! of the bytes of each kind a reader stops at, bit `k` for byte `k`. Elsewhere every window
//! says it is not plain, and readers take the text a byte at a time.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::{
    __m128i, _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
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
                    b"\"\\{}[],: \t\n\x7fa0\x80\xff"[(rng >> 8) as usize % 16]
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
            let quotes = mask(&|b| b == b'"');
            let odd = (0..WINDOW).filter(|&k| (quotes & ((2u32 << k) - 1)).count_ones() % 2 == 1).map(|k| 1u32 << k);
            assert_eq!(prefix_xor(quotes), odd.sum::<u32>());
        }
    }
}
