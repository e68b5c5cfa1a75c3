//! The rules of an axis word: the names of a layout's logical axes, one letter each, in logical
//! order (`NHWC`, `OIHW`), or the positional letters `a`, `b`, ... of a layout that states no
//! meaning.
//!
//! The rules are `const fn`s, so the same check serves the macros, the run-time parser and the
//! compile-time check of a hand-written `Named<...>` type.

use crate::MAX_RANK;

/// What is wrong with an axis word.
///
/// ```
/// use layout_notation::{AxisWordProblem, axis_word_problem};
/// assert_eq!(axis_word_problem(b"NHWN"), Some(AxisWordProblem::Repeated(b'N')));
/// assert_eq!(AxisWordProblem::Repeated(b'N').message(), "an axis name appears twice");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AxisWordProblem {
    /// No letters.
    Empty,
    /// More letters than [`MAX_RANK`].
    TooLong,
    /// A character that is not an ASCII letter.
    NotALetter(u8),
    /// Upper- and lower-case letters mixed.
    MixedCase,
    /// Lower-case letters that are not `a`, `b`, `c`, ... in order.
    PositionalOutOfOrder,
    /// A letter used twice.
    Repeated(u8),
}

impl AxisWordProblem {
    /// The problem as a sentence fragment.
    ///
    /// ```
    /// use layout_notation::AxisWordProblem;
    /// assert_eq!(AxisWordProblem::MixedCase.message(),
    ///            "axis names are upper-case letters (N, C, H, W, ...) or the positional a, b, c, ...");
    /// ```
    pub const fn message(&self) -> &'static str {
        match self {
            Self::Empty => "an axis word has at least one letter",
            Self::TooLong => "a layout has at most 8 axes",
            Self::NotALetter(_) => "axis names are letters",
            Self::MixedCase => {
                "axis names are upper-case letters (N, C, H, W, ...) or the positional a, b, c, ..."
            }
            Self::PositionalOutOfOrder => {
                "lower-case letters are positional axes and come in order: a, b, c, ..."
            }
            Self::Repeated(_) => "an axis name appears twice",
        }
    }
}

/// The first problem of `word` as an axis word, `None` when it is one: 1 to [`MAX_RANK`] ASCII
/// letters, either all upper case and distinct (named axes: `N` batch, `C` channels, `D` depth,
/// `H` height, `W` width, `O` output and `I` input channels, `G` groups, or any other upper-case
/// letter) or exactly `a`, `b`, `c`, ... (positional axes).
///
/// ```
/// use layout_notation::axis_word_problem;
/// assert_eq!(axis_word_problem(b"NHWC"), None);
/// assert_eq!(axis_word_problem(b"abcd"), None);
/// assert!(axis_word_problem(b"acbd").is_some());
/// assert!(axis_word_problem(b"NhWC").is_some());
/// ```
pub const fn axis_word_problem(word: &[u8]) -> Option<AxisWordProblem> {
    if word.is_empty() {
        return Some(AxisWordProblem::Empty);
    }
    if word.len() > MAX_RANK {
        return Some(AxisWordProblem::TooLong);
    }
    let mut i = 0;
    while i < word.len() {
        if !word[i].is_ascii_alphabetic() {
            return Some(AxisWordProblem::NotALetter(word[i]));
        }
        i += 1;
    }
    let lower = word[0].is_ascii_lowercase();
    let mut i = 0;
    while i < word.len() {
        if word[i].is_ascii_lowercase() != lower {
            return Some(AxisWordProblem::MixedCase);
        }
        if lower && word[i] != b'a' + i as u8 {
            return Some(AxisWordProblem::PositionalOutOfOrder);
        }
        let mut j = 0;
        while j < i {
            if word[j] == word[i] {
                return Some(AxisWordProblem::Repeated(word[i]));
            }
            j += 1;
        }
        i += 1;
    }
    None
}

/// Whether `word` (a valid axis word) is the positional one, `a`, `b`, ...
///
/// ```
/// assert!(layout_notation::is_positional(b"abc"));
/// assert!(!layout_notation::is_positional(b"NCHW"));
/// ```
pub const fn is_positional(word: &[u8]) -> bool {
    !word.is_empty() && word[0].is_ascii_lowercase()
}

/// The positional axis word of `rank` axes: `abcd` for rank 4.
///
/// ```
/// assert_eq!(layout_notation::positional_word(3), "abc");
/// ```
pub fn positional_word(rank: usize) -> &'static str {
    &"abcdefgh"[..rank.min(MAX_RANK)]
}
