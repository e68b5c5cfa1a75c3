//! Text a parser must refuse, the same on every run: for the parse tests and the parse bench.

/// `len` bytes of deterministic printable garbage: letters, digits, punctuation and spaces
/// (xorshift; no dependency needed).
pub fn garbage(len: usize) -> String {
    const ALPHABET: &[u8] =
        b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ,.:;<>()[]{}_-+*/";
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            char::from(ALPHABET[(state % ALPHABET.len() as u64) as usize])
        })
        .collect()
}
