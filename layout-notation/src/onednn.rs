//! oneDNN format tags (`nchw`, `nChw16c`, `OIhw4i16o4i`, `aBcd16b`) as chunk lists.
//!
//! A tag's letters, outer to inner, are the rest entries of their dimensions; an upper-case
//! letter says the dimension is also blocked. A trailing `<k><letter>` is a fixed entry of `k`
//! elements of that (upper-case) dimension. Letters `a`..`h` name dims 0..7 directly. A tag that
//! uses any of `n`, `w`, `o`, `i` uses oneDNN's named dims instead: `n c d h w` for
//! activations, `g o i d h w` for weights, numbered in that order among the letters present
//! (so `nchw` is `abcd` and `hwio` is `cdba`).

use crate::{Entry, MAX_PROBLEMS};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::{Cell, RefCell};

/// A parsed tag: its rank, the names of its axes and its chunk list.
///
/// ```
/// let tag = layout_notation::onednn_tag("OIhw4i16o4i").unwrap();
/// assert_eq!(tag.rank, 4);
/// assert_eq!(tag.axes.as_deref(), Some("OIHW"));
/// assert_eq!(tag.canonical(), "ABcd4b16a4b");
/// assert_eq!(layout_notation::onednn_tag("aBcd16b").unwrap().axes, None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OnednnTag {
    /// Number of dimensions.
    pub rank: usize,
    /// The axis word of a named tag, its letters in logical order upper-cased (`nhwc` and
    /// `nChw16c` are `NCHW`, `hwio` is `OIHW`); `None` for a positional tag (`abcd`, `aBcd16b`).
    pub axes: Option<String>,
    /// The chunk list, most major first.
    pub entries: Vec<Entry>,
}

impl OnednnTag {
    /// The tag in oneDNN's positional letters (`a` for dim 0, upper case when blocked).
    ///
    /// ```
    /// assert_eq!(layout_notation::onednn_tag("nChw16c").unwrap().canonical(), "aBcd16b");
    /// ```
    pub fn canonical(&self) -> String {
        let blocked = |dim: usize| self.entries.iter().any(|e| e.dim == dim && !e.is_rest());
        let letter = |dim: usize| char::from(b'a' + dim as u8);
        let mut out = String::new();
        for entry in &self.entries {
            if entry.is_rest() {
                let l = letter(entry.dim);
                out.push(if blocked(entry.dim) {
                    l.to_ascii_uppercase()
                } else {
                    l
                });
            } else {
                out += &format!("{}{}", entry.size, letter(entry.dim));
            }
        }
        out
    }
}

/// One thing wrong with a layout's text: where it is and what was expected.
///
/// ```
/// let problems = layout_notation::onednn_tag("ncxw").unwrap_err();
/// assert_eq!(problems[0].at, 2);
/// assert_eq!(problems[0].message, "unknown dimension letter 'x': expected one of n, c, d, h, w");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextProblem {
    /// The character position (0-based) the problem concerns.
    pub at: usize,
    /// What is wrong and what was expected.
    pub message: String,
}

/// The dims of the named families, in oneDNN's order.
const ACTIVATIONS: [char; 5] = ['n', 'c', 'd', 'h', 'w'];
const WEIGHTS: [char; 6] = ['g', 'o', 'i', 'd', 'h', 'w'];
/// The letters of each family, as a problem names them.
const ACTIVATION_LETTERS: &str = "one of n, c, d, h, w";
const WEIGHT_LETTERS: &str = "one of g, o, i, d, h, w";

/// One letter of the tag, before dims are numbered.
struct Item {
    at: usize,
    letter: char,
    /// The block size for `<k><letter>`, `None` for an outer letter.
    block: Option<usize>,
    upper: bool,
}

/// The problems found, written as sentences only while they may be among the first
/// [`MAX_PROBLEMS`] by position. The checks run in passes over the tag, each finding its
/// problems from left to right, so a pass's first [`MAX_PROBLEMS`] hold all of its problems that
/// can be among the first overall.
#[derive(Default)]
struct Problems {
    found: RefCell<Vec<TextProblem>>,
    /// Problems found in the current pass.
    in_pass: Cell<usize>,
}

impl Problems {
    /// A problem at character `at`; `message` is written only if the pass has room for it.
    fn report(&self, at: usize, message: impl FnOnce() -> String) {
        if self.in_pass.get() < MAX_PROBLEMS {
            self.in_pass.set(self.in_pass.get() + 1);
            let message = message();
            self.found.borrow_mut().push(TextProblem { at, message });
        }
    }

    /// The next pass over the tag begins (its problems start again at the left).
    fn next_pass(&self) {
        self.in_pass.set(0);
    }

    /// Whether any problem has been found.
    fn any(&self) -> bool {
        !self.found.borrow().is_empty()
    }

    /// The first [`MAX_PROBLEMS`] problems by position (at one position, in the order found).
    fn first_by_position(self) -> Vec<TextProblem> {
        let mut found = self.found.into_inner();
        found.sort_by_key(|p| p.at);
        found.truncate(MAX_PROBLEMS);
        found
    }
}

/// A run of digits: a block size being read.
#[derive(Clone, Copy)]
struct Digits {
    /// The character position of its first digit.
    start: usize,
    /// The byte position of its first digit.
    byte: usize,
    /// The size so far, `None` past `usize::MAX`.
    value: Option<usize>,
}

/// The number of a lower-case ASCII letter (`a` is 0), the index of [`letters_with_blocks`].
fn letter_number(letter: char) -> usize {
    usize::from(letter as u8 - b'a')
}

/// Which letters have a `<k><letter>` block, by [`letter_number`]: one pass over the items, so a
/// long tag costs time in proportion to its length.
fn letters_with_blocks(items: &[Item]) -> [bool; 26] {
    let mut blocked = [false; 26];
    for item in items.iter().filter(|item| item.block.is_some()) {
        blocked[letter_number(item.letter)] = true;
    }
    blocked
}

/// Parses a oneDNN format tag into its chunk list, or lists every problem in it.
///
/// # Errors
/// One [`TextProblem`] per problem, the first [`MAX_PROBLEMS`] by position: an unknown letter or character, a blocked (upper-case)
/// dimension with no block, a block on a dimension that is not upper-case or not in the tag, a
/// repeated letter, a letter after the blocks, a size that is zero or missing its letter.
///
/// ```
/// use layout_notation::{Entry, onednn_tag};
/// assert_eq!(onednn_tag("hwio").unwrap().entries, [2, 3, 1, 0].map(Entry::rest));
/// let problems = onednn_tag("oihx").unwrap_err();
/// assert_eq!(problems[0].message, "unknown dimension letter 'x': expected one of g, o, i, d, h, w");
/// let problems = onednn_tag("nChw16h").unwrap_err();
/// let messages: Vec<_> = problems.iter().map(|p| p.message.as_str()).collect();
/// assert_eq!(messages, [
///     "dimension C is upper-case (blocked) but has no block such as 16c",
///     "block 16h is on dimension h, which is not upper-case: write H to block it",
/// ]);
/// ```
pub fn onednn_tag(tag: &str) -> Result<OnednnTag, Vec<TextProblem>> {
    let problems = Problems::default();
    if tag.is_empty() {
        problems.report(0, || {
            "the tag is empty: expected letters such as nchw".into()
        });
    }
    // `n w o i` are not positional letters; `g`, `c`, `d`, `h` are both, and positional unless
    // one of those four says the tag is named.
    let named = tag
        .bytes()
        .any(|b| matches!(b.to_ascii_lowercase(), b'n' | b'w' | b'o' | b'i'));
    let weights = tag
        .bytes()
        .any(|b| matches!(b.to_ascii_lowercase(), b'o' | b'i'));
    let family: &[char] = if weights { &WEIGHTS } else { &ACTIVATIONS };
    let expected = match (named, weights) {
        (false, _) => "a letter a to h, or a block size",
        (true, true) => WEIGHT_LETTERS,
        (true, false) => ACTIVATION_LETTERS,
    };

    // Split into outer letters and `<k><letter>` blocks.
    let mut items = Vec::new();
    let mut number: Option<Digits> = None;
    for (at, (byte, c)) in tag.char_indices().enumerate() {
        if let Some(digit) = c.to_digit(10) {
            let digits = number.unwrap_or(Digits {
                start: at,
                byte,
                value: Some(0),
            });
            number = Some(Digits {
                value: digits
                    .value
                    .and_then(|v| v.checked_mul(10)?.checked_add(digit as usize)),
                ..digits
            });
            continue;
        }
        let known = if named {
            family.contains(&c.to_ascii_lowercase())
        } else {
            ('a'..='h').contains(&c.to_ascii_lowercase())
        };
        if !c.is_ascii_alphabetic() || !known {
            let what = if c.is_ascii_alphabetic() {
                "dimension letter"
            } else {
                "character"
            };
            problems.report(at, || format!("unknown {what} '{c}': expected {expected}"));
            number = None;
            continue;
        }
        let block = match number.take() {
            None => None,
            Some(Digits {
                start,
                byte: from,
                value: None,
            }) => {
                problems.report(start, || {
                    format!(
                        "expected a block size of at most {}, found {}",
                        usize::MAX,
                        &tag[from..byte]
                    )
                });
                continue;
            }
            Some(Digits {
                start,
                value: Some(0),
                ..
            }) => {
                problems.report(start, || "expected a positive block size, found 0".into());
                continue;
            }
            Some(Digits {
                value: Some(size), ..
            }) => Some(size),
        };
        items.push(Item {
            at,
            letter: c.to_ascii_lowercase(),
            block,
            upper: c.is_ascii_uppercase(),
        });
    }
    if let Some(Digits { start, .. }) = number {
        problems.report(start, || {
            "expected the letter of the dimension a block size blocks after it, found the end"
                .into()
        });
    }

    // A block lost to a problem above also leaves its dimension without one: say so only when
    // nothing above explains it.
    let blocks_lost = problems.any();

    // Outer letters: each once, all before the blocks; they fix the rank and the numbering.
    problems.next_pass();
    let mut outer: Vec<&Item> = Vec::new();
    let mut first_block: Option<&Item> = None;
    for item in &items {
        match item.block {
            Some(_) => {
                first_block.get_or_insert(item);
                if item.upper {
                    problems.report(item.at, || {
                        format!("block letters are lower-case: write {}", item.letter)
                    });
                }
            }
            None => {
                if let Some(block) = first_block {
                    problems.report(
                        item.at,
                        || format!(
                            "dimension letter '{}' comes after the block at {}: letters first, then blocks",
                            item.letter, block.at
                        ),
                    );
                }
                if outer.iter().any(|o| o.letter == item.letter) {
                    problems.report(item.at, || {
                        format!("dimension letter '{}' appears twice", item.letter)
                    });
                    continue;
                }
                outer.push(item);
            }
        }
    }
    let number_dim = |letter: char| -> Option<usize> {
        if named {
            let mut present = family
                .iter()
                .filter(|f| outer.iter().any(|o| o.letter == **f));
            present.position(|f| *f == letter)
        } else {
            outer
                .iter()
                .any(|o| o.letter == letter)
                .then(|| (letter as u8 - b'a') as usize)
        }
    };
    // Each letter's dimension, worked out once: a long tag looks it up for every item.
    let dims: [Option<usize>; 26] =
        core::array::from_fn(|n| number_dim(char::from(b'a' + n as u8)));
    let dim_of = |letter: char| dims[letter_number(letter)];
    let rank = outer.len();
    problems.next_pass();
    if !named {
        for dim in 0..rank {
            let letter = char::from(b'a' + dim as u8);
            if !outer.iter().any(|o| o.letter == letter) && !outer.is_empty() {
                problems.report(0, || {
                    format!(
                        "the tag has {rank} dimensions but no letter '{letter}' for dimension {dim}"
                    )
                });
            }
        }
    }

    // Blocks: only on upper-case dims of the tag; every upper-case dim needs one.
    problems.next_pass();
    let blocked = letters_with_blocks(&items);
    let mut entries = Vec::new();
    for item in &items {
        let Some(dim) = dim_of(item.letter) else {
            problems.report(item.at, || {
                format!(
                    "block {}{} is on dimension {}, which the tag does not name",
                    item.block.unwrap_or(0),
                    item.letter,
                    item.letter
                )
            });
            continue;
        };
        if let Some(size) = item.block {
            let declared_upper = outer.iter().any(|o| o.letter == item.letter && o.upper);
            if !declared_upper {
                problems.report(
                    item.at,
                    || format!(
                        "block {size}{0} is on dimension {0}, which is not upper-case: write {1} to block it",
                        item.letter,
                        item.letter.to_ascii_uppercase()
                    ),
                );
            }
        } else if item.upper && !blocks_lost && !blocked[letter_number(item.letter)] {
            problems.report(item.at, || {
                format!(
                    "dimension {} is upper-case (blocked) but has no block such as 16{}",
                    item.letter.to_ascii_uppercase(),
                    item.letter
                )
            });
        }
        entries.push(Entry {
            dim,
            size: item.block.unwrap_or(0),
        });
    }
    let axes = named.then(|| {
        family
            .iter()
            .filter(|f| outer.iter().any(|o| o.letter == **f))
            .map(|f| f.to_ascii_uppercase())
            .collect()
    });
    let problems = problems.first_by_position();
    if problems.is_empty() {
        Ok(OnednnTag {
            rank,
            axes,
            entries,
        })
    } else {
        Err(problems)
    }
}
