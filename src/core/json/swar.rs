//! Eight bytes at a time: tests on a word of text read little-endian (its first byte lowest)
//! that mark bytes by setting their high bit, so that a scan passes plain bytes a word at once.

pub(crate) const ONES: u64 = 0x0101_0101_0101_0101;
pub(crate) const HIGH: u64 = 0x80 * ONES;

/// Each byte of `w` equal to the ASCII byte `k`, as its high bit, every mark exact: the bytes
/// are compared with their high bit cleared, so that no sum carries into the next byte.
#[inline(always)]
pub(crate) fn equal(w: u64, k: u8) -> u64 {
    let low = w & !HIGH;
    !((low ^ (u64::from(k) * ONES)) + 0x7f * ONES) & !w & HIGH
}

/// Each byte of `w` at least the ASCII byte `k` with its high bit cleared, as its high bit (a
/// byte of 0x80 and above is marked by what its low bits are: mask with `!w` to leave them out).
#[inline(always)]
pub(crate) fn low_at_least(w: u64, k: u8) -> u64 {
    (w & !HIGH) + u64::from(0x80 - k) * ONES
}

/// The bytes of `w` equal to `k`, as high bits, of which only the lowest is sure: the zero-byte
/// test, whose borrow may mark bytes past a true one. For scans that read only the first mark.
#[inline(always)]
pub(crate) fn first_equal(w: u64, k: u8) -> u64 {
    let v = w ^ (u64::from(k) * ONES);
    v.wrapping_sub(ONES) & !v & HIGH
}

/// The bytes of `w` below the ASCII byte `k`, as high bits; only the lowest is sure.
#[inline(always)]
pub(crate) fn first_below(w: u64, k: u8) -> u64 {
    w.wrapping_sub(u64::from(k) * ONES) & !w & HIGH
}

/// How many bytes come before the first byte `marks` marks; 8 when none.
#[inline(always)]
pub(crate) fn first_at(marks: u64) -> usize {
    (marks.trailing_zeros() / 8) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte value in every place of a word, against a byte-at-a-time reference.
    #[test]
    fn marks_match_a_byte_at_a_time_reference() {
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        for round in 0..20_000u32 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            // Half the words from a few bytes around the ones looked for, where borrows happen.
            let w = if round % 2 == 0 { rng } else { rng & 0x7f7f_7f7f_7f7f_7f7f | 0x2020_2020_2020_2020 };
            let bytes = w.to_le_bytes();
            for k in [b'"', b'\\', b'-', b'u', b' '] {
                let want: u64 = (0..8).filter(|&i| bytes[i] == k).map(|i| 0x80u64 << (8 * i)).sum();
                assert_eq!(equal(w, k), want, "{w:#x} {k}");
                let first = bytes.iter().position(|&b| b == k).unwrap_or(8);
                assert_eq!(first_at(first_equal(w, k)), first, "{w:#x} {k}");
            }
            let below = bytes.iter().position(|&b| b < 0x20).unwrap_or(8);
            assert_eq!(first_at(first_below(w, 0x20)), below, "{w:#x}");
            let at_least: u64 = (0..8).filter(|&i| bytes[i] & 0x7f >= b'0').map(|i| 0x80u64 << (8 * i)).sum();
            assert_eq!(low_at_least(w, b'0') & HIGH, at_least, "{w:#x}");
        }
    }
}
