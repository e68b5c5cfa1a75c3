//! oneDNN format tags (`nchw`, `nChw16c`, `OIhw4i16o4i`, `aBcd16b`) as chunk lists.
//!
//! A tag's letters, outer to inner, are the rest entries of their dimensions; an upper-case
//! letter says the dimension is also blocked. A trailing `<k><letter>` is a fixed entry of `k`
//! elements of that (upper-case) dimension. Letters `a`..`h` name dims 0..7 directly. A tag that
//! uses any of `n`, `w`, `o`, `i` uses oneDNN's named dims instead: `n c d h w` for
//! activations, `g o i d h w` for weights, numbered in that order among the letters present
//! (so `nchw` is `abcd` and `hwio` is `cdba`).

use crate::Entry;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::RefCell;

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

/// One letter of the tag, before dims are numbered.
struct Item {
    at: usize,
    letter: char,
    /// The block size for `<k><letter>`, `None` for an outer letter.
    block: Option<usize>,
    upper: bool,
}

/// Parses a oneDNN format tag into its chunk list, or lists every problem in it.
///
/// # Errors
/// One [`TextProblem`] per problem: an unknown letter or character, a blocked (upper-case)
/// dimension with no block, a block on a dimension that is not upper-case or not in the tag, a
/// repeated letter, a letter after the blocks, a size that is zero or missing its letter.
///
/// ```
/// use layout_notation::{Entry, onednn_tag};
/// assert_eq!(onednn_tag("hwio").unwrap().entries, [2, 3, 1, 0].map(Entry::rest));
/// let problems = onednn_tag("nChw16h").unwrap_err();
/// let messages: Vec<_> = problems.iter().map(|p| p.message.as_str()).collect();
/// assert_eq!(messages, [
///     "dimension C is upper-case (blocked) but has no block such as 16c",
///     "block 16h is on dimension h, which is not upper-case: write H to block it",
/// ]);
/// ```
pub fn onednn_tag(tag: &str) -> Result<OnednnTag, Vec<TextProblem>> {
    let problems = RefCell::new(Vec::new());
    let problem =
        |at: usize, message: String| problems.borrow_mut().push(TextProblem { at, message });
    if tag.is_empty() {
        problem(0, "the tag is empty: expected letters such as nchw".into());
    }
    // `n w o i` are not positional letters; `g`, `c`, `d`, `h` are both, and positional unless
    // one of those four says the tag is named.
    let named = tag.chars().any(|c| "nwoiNWOI".contains(c));
    let family: &[char] = if tag.chars().any(|c| "oiOI".contains(c)) {
        &WEIGHTS
    } else {
        &ACTIVATIONS
    };
    let expected = if named {
        let letters: Vec<String> = family.iter().map(|c| String::from(*c)).collect();
        format!("one of {}", letters.join(", "))
    } else {
        "a letter a to h, or a block size".into()
    };

    // Split into outer letters and `<k><letter>` blocks.
    let mut items = Vec::new();
    let mut number: Option<(usize, Option<usize>)> = None; // (start, value; None on overflow)
    for (at, c) in tag.chars().enumerate() {
        if let Some(digit) = c.to_digit(10) {
            let (start, value) = number.unwrap_or((at, Some(0)));
            number = Some((
                start,
                value.and_then(|v| v.checked_mul(10)?.checked_add(digit as usize)),
            ));
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
            problem(at, format!("unknown {what} '{c}': expected {expected}"));
            number = None;
            continue;
        }
        let block = match number.take() {
            None => None,
            Some((start, None)) => {
                let digits: String = tag.chars().skip(start).take(at - start).collect();
                problem(
                    start,
                    format!(
                        "expected a block size of at most {}, found {digits}",
                        usize::MAX
                    ),
                );
                continue;
            }
            Some((start, Some(0))) => {
                problem(start, "expected a positive block size, found 0".into());
                continue;
            }
            Some((_, Some(size))) => Some(size),
        };
        items.push(Item {
            at,
            letter: c.to_ascii_lowercase(),
            block,
            upper: c.is_ascii_uppercase(),
        });
    }
    if let Some((start, _)) = number {
        problem(
            start,
            "expected the letter of the dimension a block size blocks after it, found the end"
                .into(),
        );
    }

    // A block lost to a problem above also leaves its dimension without one: say so only when
    // nothing above explains it.
    let blocks_lost = !problems.borrow().is_empty();

    // Outer letters: each once, all before the blocks; they fix the rank and the numbering.
    let mut outer: Vec<&Item> = Vec::new();
    let mut first_block: Option<&Item> = None;
    for item in &items {
        match item.block {
            Some(_) => {
                first_block.get_or_insert(item);
                if item.upper {
                    problem(
                        item.at,
                        format!("block letters are lower-case: write {}", item.letter),
                    );
                }
            }
            None => {
                if let Some(block) = first_block {
                    problem(
                        item.at,
                        format!(
                            "dimension letter '{}' comes after the block at {}: letters first, then blocks",
                            item.letter, block.at
                        ),
                    );
                }
                if outer.iter().any(|o| o.letter == item.letter) {
                    problem(
                        item.at,
                        format!("dimension letter '{}' appears twice", item.letter),
                    );
                    continue;
                }
                outer.push(item);
            }
        }
    }
    let dim_of = |letter: char| -> Option<usize> {
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
    let rank = outer.len();
    if !named {
        for dim in 0..rank {
            let letter = char::from(b'a' + dim as u8);
            if !outer.iter().any(|o| o.letter == letter) && !outer.is_empty() {
                problem(
                    0,
                    format!(
                        "the tag has {rank} dimensions but no letter '{letter}' for dimension {dim}"
                    ),
                );
            }
        }
    }

    // Blocks: only on upper-case dims of the tag; every upper-case dim needs one.
    let mut entries = Vec::new();
    for item in &items {
        let Some(dim) = dim_of(item.letter) else {
            problem(
                item.at,
                format!(
                    "block {}{} is on dimension {}, which the tag does not name",
                    item.block.unwrap_or(0),
                    item.letter,
                    item.letter
                ),
            );
            continue;
        };
        if let Some(size) = item.block {
            let declared_upper = outer.iter().any(|o| o.letter == item.letter && o.upper);
            if !declared_upper {
                problem(
                    item.at,
                    format!(
                        "block {size}{0} is on dimension {0}, which is not upper-case: write {1} to block it",
                        item.letter,
                        item.letter.to_ascii_uppercase()
                    ),
                );
            }
        } else if item.upper
            && !blocks_lost
            && !items
                .iter()
                .any(|b| b.block.is_some() && b.letter == item.letter)
        {
            problem(
                item.at,
                format!(
                    "dimension {} is upper-case (blocked) but has no block such as 16{}",
                    item.letter.to_ascii_uppercase(),
                    item.letter
                ),
            );
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
    let mut problems = problems.into_inner();
    if problems.is_empty() {
        Ok(OnednnTag {
            rank,
            axes,
            entries,
        })
    } else {
        problems.sort_by_key(|p| p.at);
        Err(problems)
    }
}
