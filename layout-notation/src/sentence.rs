//! A sentence written in a constant: text and decimal numbers in a fixed buffer, so that a
//! `const fn` can word a problem the same way at compile time (a panic message) and at run time
//! (a `String`).

/// Bytes a sentence holds: the longest chunk-list sentence, with three 20-digit numbers and its
/// entry, fits with room to spare.
const CAPACITY: usize = 192;

/// A sentence under construction; what does not fit is cut off (no panic while wording one).
#[derive(Clone, Copy)]
pub(crate) struct Sentence {
    bytes: [u8; CAPACITY],
    len: usize,
}

impl Sentence {
    /// An empty sentence.
    pub(crate) const fn new() -> Self {
        Self {
            bytes: [0; CAPACITY],
            len: 0,
        }
    }

    /// The sentence with `text` appended.
    pub(crate) const fn text(mut self, text: &str) -> Self {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() && self.len < CAPACITY {
            self.bytes[self.len] = bytes[i];
            self.len += 1;
            i += 1;
        }
        self
    }

    /// The sentence with `n` appended in decimal.
    pub(crate) const fn number(self, n: usize) -> Self {
        let mut digits = [0u8; 20];
        let mut start = digits.len();
        let mut rest = n;
        loop {
            start -= 1;
            digits[start] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        match core::str::from_utf8(digits.split_at(start).1) {
            Ok(text) => self.text(text),
            Err(_) => self,
        }
    }

    /// The text so far. A cut can only fall inside a multi-byte character of appended text;
    /// then the text stops before that character.
    pub(crate) const fn as_str(&self) -> &str {
        match core::str::from_utf8(self.bytes.split_at(self.len).0) {
            Ok(text) => text,
            Err(error) => match core::str::from_utf8(self.bytes.split_at(error.valid_up_to()).0) {
                Ok(text) => text,
                Err(_) => "",
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Sentence;

    #[test]
    fn words_text_and_numbers() {
        let s = Sentence::new()
            .text("rank ")
            .number(0)
            .text(" or ")
            .number(usize::MAX);
        assert_eq!(s.as_str(), "rank 0 or 18446744073709551615");
    }

    #[test]
    fn cuts_what_does_not_fit() {
        let long = "x".repeat(300);
        assert_eq!(Sentence::new().text(&long).as_str().len(), super::CAPACITY);
        let cut = Sentence::new().text(&long[..191]).text("é");
        assert_eq!(cut.as_str(), &long[..191]);
    }
}
