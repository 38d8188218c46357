//! The inside of a string literal decoded sixteen bytes at a time, where the processor can move
//! a window's bytes by a table (SSSE3's byte shuffle, found at run time): escaped JSON has an
//! escape every few bytes, nearly all of one letter (`\"`, `\n`), and a window holding only
//! such escapes is decoded at once: its backslashes dropped, its letters turned into what they
//! stand for. Any other window (`\u`, `\\`) is left to the byte-at-a-time decoding.

/// Decodes the windows of `buf` from `i` into `buf` from `w` (`w <= i`: each byte lands where
/// one was read already) while they hold only one-letter escapes other than `\\`; where the
/// reading and the writing stopped (at the window it left, or fewer than sixteen bytes before
/// the end). Returns `(i, w)` unchanged where the processor cannot.
#[cfg(target_arch = "x86_64")]
pub(super) fn decode(buf: &mut [u8], i: usize, w: usize) -> (usize, usize) {
    if w > i || !std::arch::is_x86_feature_detected!("ssse3") || !std::arch::is_x86_feature_detected!("popcnt") {
        return (i, w);
    }
    // SAFETY: the processor has SSSE3 and POPCNT (checked above).
    unsafe { decode_ssse3(buf, i, w) }
}

#[cfg(not(target_arch = "x86_64"))]
pub(super) fn decode(_: &mut [u8], i: usize, w: usize) -> (usize, usize) {
    (i, w)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "ssse3,popcnt")]
fn decode_ssse3(buf: &mut [u8], mut i: usize, mut w: usize) -> (usize, usize) {
    use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_shuffle_epi8, _mm_storel_epi64, _mm_storeu_si128};
    while i + 16 <= buf.len() {
        // SAFETY: sixteen bytes from `i` are inside `buf` (the loop's condition).
        let v = unsafe { _mm_loadu_si128(buf.as_ptr().add(i).cast::<__m128i>()) };
        let slashes = mask_of(v, b'\\');
        if slashes == 0 {
            // SAFETY: `w <= i` (the caller's, and each step below keeps it), so the sixteen
            // bytes from `w` are inside `buf`.
            unsafe { _mm_storeu_si128(buf.as_mut_ptr().add(w).cast::<__m128i>(), v) };
            (i, w) = (i + 16, w + 16);
            continue;
        }
        // `\\` (its second backslash may escape the next byte) is left to the slow decoding.
        if slashes & (slashes << 1) != 0 {
            break;
        }
        // A backslash in the last byte escapes the next window's first: it is read again there.
        let width = if slashes & 0x8000 != 0 { 15 } else { 16 };
        let escaped = (slashes << 1) & ((1 << width) - 1);
        let Some(out) = letters_decoded(v, escaped) else { break };
        // The window's bytes but its backslashes, each half of eight moved together by the
        // table (bytes past the kept ones are written over by the next half and window).
        let (low, high) = (slashes & 0xff, slashes >> 8);
        // SAFETY: `w <= i` and `i + 16 <= buf.len()`: both halves land in `buf[w..w + 16]`.
        unsafe {
            _mm_storel_epi64(buf.as_mut_ptr().add(w).cast::<__m128i>(), _mm_shuffle_epi8(out, table(&LOW, low)));
            w += 8 - low.count_ones() as usize;
            _mm_storel_epi64(buf.as_mut_ptr().add(w).cast::<__m128i>(), _mm_shuffle_epi8(out, table(&HIGH, high)));
            w += 8 - high.count_ones() as usize;
        }
        if width == 15 {
            // The second half may have been written over it: the backslash is read again.
            buf[i + 15] = b'\\';
        }
        i += width;
    }
    (i, w)
}

/// The bits of the bytes of `v` equal to `c`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn mask_of(v: std::arch::x86_64::__m128i, c: u8) -> u32 {
    use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_movemask_epi8, _mm_set1_epi8};
    // SAFETY: SSE2 is the target's baseline.
    unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8))) as u32 }
}

/// The letters: what a one-letter escape other than `\\` stands for (`\"` and `\/` for
/// themselves).
#[cfg(target_arch = "x86_64")]
const LETTERS: [(u8, u8); 7] =
    [(b'"', b'"'), (b'/', b'/'), (b'b', 8), (b'f', 12), (b'n', b'\n'), (b'r', b'\r'), (b't', b'\t')];

/// `v` with the escaped letters at `escaped` (the bytes after its backslashes) turned into the
/// bytes they stand for; None when one of them is no letter (`u`, a broken escape).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn letters_decoded(v: std::arch::x86_64::__m128i, escaped: u32) -> Option<std::arch::x86_64::__m128i> {
    use std::arch::x86_64::{
        _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi8, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8, _mm_slli_si128,
    };
    // Most often every escape is `\"`, which stands for itself.
    if escaped & !mask_of(v, b'"') == 0 {
        return Some(v);
    }
    let mut out = v;
    let mut letters = 0;
    // SAFETY: SSE2 is the target's baseline.
    unsafe {
        // The byte after each backslash (one in the last byte escapes none of this window's).
        let lanes = _mm_slli_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8)), 1);
        for (letter, byte) in LETTERS {
            let here = _mm_and_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(letter as i8)), lanes);
            letters |= _mm_movemask_epi8(here) as u32;
            out = _mm_or_si128(_mm_andnot_si128(here, out), _mm_and_si128(here, _mm_set1_epi8(byte as i8)));
        }
    }
    (letters & escaped == escaped).then_some(out)
}

/// The shuffle of a half of eight bytes that keeps those whose bit is clear in `removed`, in
/// order, at its start.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn table(t: &[u64; 256], removed: u32) -> std::arch::x86_64::__m128i {
    // SAFETY: SSE2 is the target's baseline.
    unsafe { std::arch::x86_64::_mm_set_epi64x(0, t[(removed & 0xff) as usize] as i64) }
}

/// Shuffles for the first half of a window (bytes 0-7) and its second (8-15).
#[cfg(target_arch = "x86_64")]
static LOW: [u64; 256] = shuffles(0);
#[cfg(target_arch = "x86_64")]
static HIGH: [u64; 256] = shuffles(8);

/// For each set of removed bytes of a half (bit `k`: byte `offset + k`), the indices of those
/// kept, in order, the rest 0x80 (a zero byte).
#[cfg(target_arch = "x86_64")]
const fn shuffles(offset: u8) -> [u64; 256] {
    let mut t = [0u64; 256];
    let mut removed = 0;
    while removed < 256 {
        let (mut k, mut n, mut order) = (0, 0, u64::MAX / 255 * 0x80);
        while k < 8 {
            if removed >> k & 1 == 0 {
                order = order & !(0xff << (8 * n)) | ((offset + k) as u64) << (8 * n);
                n += 1;
            }
            k += 1;
        }
        t[removed] = order;
        removed += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Literals of random escapes and plain runs decode as serde_json decodes them, wherever
    /// the escapes fall in the windows, written over their own bytes or into a copy.
    #[test]
    fn windows_decode_as_serde_json_does() {
        let pieces: [(&str, &str); 16] = [
            ("\\\"", "\""),
            ("\\n", "\n"),
            ("\\t", "\t"),
            ("\\/", "/"),
            ("\\b", "\u{8}"),
            ("\\f", "\u{c}"),
            ("\\r", "\r"),
            ("\\\\", "\\"),
            ("\\u00e9", "é"),
            ("\\ud83d\\ude00", "😀"),
            ("é", "é"),
            ("a", "a"),
            ("record ", "record "),
            ("0123456789abcdef", "0123456789abcdef"),
            ("x", "x"),
            (": ", ": "),
        ];
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng % n) as usize
        };
        for round in 0..3000 {
            let (mut lit, mut want) = (String::from("\""), String::new());
            // Some texts of few kinds of escape (the fast windows), some of all.
            let kinds = if round % 3 == 0 { pieces.len() } else { 4 + next(4) };
            for _ in 0..next(120) {
                let (escaped, plain) = if next(2) == 0 { pieces[next(kinds as u64)] } else { pieces[10 + next(6)] };
                lit.push_str(escaped);
                want.push_str(plain);
            }
            lit.push('"');
            assert_eq!(super::super::unescape(&lit).as_deref(), Some(want.as_str()), "{lit}");
            assert_eq!(serde_json::from_str::<String>(&lit).ok().as_deref(), Some(want.as_str()), "{lit}");
            // Over its own bytes, the writing behind the reading by up to 40 bytes at first.
            let ahead = next(41);
            let mut buf = format!("{}{}", "_".repeat(ahead), &lit[1..lit.len() - 1]).into_bytes();
            let end = super::super::in_place::unescape_within(&mut buf, ahead, 0);
            assert_eq!(end.and_then(|n| buf.get(..n)), Some(want.as_bytes()), "{lit} {ahead}");
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_shuffles_keep_the_bytes_not_removed_in_order() {
        assert_eq!(LOW[0], 0x0706_0504_0302_0100);
        assert_eq!(HIGH[0b1000_0001], 0x8080_0e0d_0c0b_0a09);
        assert_eq!(LOW[0xff], u64::MAX / 255 * 0x80);
    }
}
