//! Any layout as text: the long form `ChunkedMemoryLayout<4, 0,0, 1,0, ...>` (HTP's spelling,
//! with the rank or an axis word such as `NHWC` first), the short form `4: 0,0 1,0 ...` or
//! `NHWC: 0,0 1,0 ...`, a oneDNN tag, or the name of a catalog layout.

use crate::{Entry, OnednnTag, TextProblem, axis_word_problem, find_catalog_name, onednn_tag};
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

/// A layout read from text: its rank, its axis word and its chunk list (not yet checked against
/// the chunk-list rules; see [`check_chunk_list`](crate::check_chunk_list)).
///
/// ```
/// use layout_notation::{Entry, parse_layout};
/// let long = parse_layout("ChunkedMemoryLayout<2, 0,0, 1,0, 1,8>").unwrap();
/// let short = parse_layout("2: 0,0 1,0 1,8").unwrap();
/// assert_eq!(long, short);
/// assert_eq!(long.entries, [Entry::rest(0), Entry::rest(1), Entry::new(1, 8)]);
/// assert_eq!(parse_layout("aBcd16b").unwrap().rank, 4);
/// let named = parse_layout("NHWC: 0,0 1,0 2,0 3,0").unwrap();
/// assert_eq!((named.rank, named.axes.as_deref()), (4, Some("NHWC")));
/// assert_eq!(parse_layout("htp::R4FlatMemoryLayout").unwrap(), named);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextLayout {
    /// Number of dimensions.
    pub rank: usize,
    /// The axis word of named axes (`NHWC`), `None` for positional ones.
    pub axes: Option<String>,
    /// The chunk list, most major first.
    pub entries: Vec<Entry>,
}

impl From<OnednnTag> for TextLayout {
    fn from(tag: OnednnTag) -> Self {
        Self {
            rank: tag.rank,
            axes: tag.axes,
            entries: tag.entries,
        }
    }
}

/// A token of the long and short forms, with its character position.
#[derive(Clone, Debug, PartialEq)]
enum Token {
    Number(Option<usize>),
    Word(String),
    Punct(char),
    End,
}

fn tokens(text: &str) -> Vec<(usize, Token)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c.is_ascii_digit() {
            let mut value = Some(0usize);
            while i < chars.len() && chars[i].is_ascii_digit() {
                let digit = chars[i].to_digit(10).unwrap_or(0) as usize;
                value = value.and_then(|v| v.checked_mul(10)?.checked_add(digit));
                i += 1;
            }
            out.push((start, Token::Number(value)));
        } else if c.is_alphabetic() || c == '_' {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push((start, Token::Word(chars[start..i].iter().collect())));
        } else {
            out.push((start, Token::Punct(c)));
            i += 1;
        }
    }
    out.push((chars.len(), Token::End));
    out
}

fn describe(token: &Token) -> String {
    match token {
        Token::Number(Some(n)) => format!("`{n}`"),
        Token::Number(None) => "a number too large for usize".into(),
        Token::Word(w) => format!("`{w}`"),
        Token::Punct(c) => format!("`{c}`"),
        Token::End => "the end".into(),
    }
}

/// Walks the tokens, turning each mismatch into a [`TextProblem`].
struct Cursor {
    tokens: Vec<(usize, Token)>,
    next: usize,
}

impl Cursor {
    fn peek(&self) -> &Token {
        &self.tokens[self.next].1
    }

    fn fail<T>(&self, expected: &str) -> Result<T, TextProblem> {
        let (at, token) = &self.tokens[self.next];
        Err(TextProblem {
            at: *at,
            message: format!("expected {expected}, found {}", describe(token)),
        })
    }

    fn number(&mut self, expected: &str) -> Result<usize, TextProblem> {
        match self.peek() {
            Token::Number(Some(n)) => {
                let n = *n;
                self.next += 1;
                Ok(n)
            }
            _ => self.fail(expected),
        }
    }

    fn punct(&mut self, c: char, expected: &str) -> Result<(), TextProblem> {
        if *self.peek() == Token::Punct(c) {
            self.next += 1;
            Ok(())
        } else {
            self.fail(expected)
        }
    }

    fn eat(&mut self, c: char) -> bool {
        let matched = *self.peek() == Token::Punct(c);
        self.next += usize::from(matched);
        matched
    }
}

/// The rank, or an axis word (which gives the rank and the names).
fn rank_or_word(cursor: &mut Cursor) -> Result<(usize, Option<String>), TextProblem> {
    const EXPECTED: &str = "the rank or an axis word such as NHWC";
    match cursor.peek().clone() {
        Token::Word(word) => {
            if let Some(problem) = axis_word_problem(word.as_bytes()) {
                return Err(TextProblem {
                    at: cursor.tokens[cursor.next].0,
                    message: format!("`{word}` is not an axis word: {}", problem.message()),
                });
            }
            cursor.next += 1;
            let named = !crate::is_positional(word.as_bytes());
            Ok((word.len(), named.then_some(word)))
        }
        _ => Ok((cursor.number(EXPECTED)?, None)),
    }
}

/// `ChunkedMemoryLayout<RANK or WORD, d,s, d,s, ...>` (a trailing comma allowed).
fn long_form(cursor: &mut Cursor) -> Result<TextLayout, TextProblem> {
    cursor.next += 1; // the word ChunkedMemoryLayout
    cursor.punct('<', "`<` after ChunkedMemoryLayout")?;
    let (rank, axes) = rank_or_word(cursor)?;
    let mut entries = Vec::new();
    while !cursor.eat('>') {
        cursor.punct(',', "`,` or `>`")?;
        if cursor.eat('>') {
            break;
        }
        let dim = cursor.number("a dimension")?;
        cursor.punct(',', "`,` and the size of the entry")?;
        let size = cursor.number("a size")?;
        entries.push(Entry { dim, size });
    }
    match cursor.peek() {
        Token::End => Ok(TextLayout {
            rank,
            axes,
            entries,
        }),
        _ => cursor.fail("the end after `>`"),
    }
}

/// `RANK: d,s d,s ...` or `WORD: d,s d,s ...` (pairs separated by spaces or commas).
fn short_form(cursor: &mut Cursor) -> Result<TextLayout, TextProblem> {
    let (rank, axes) = rank_or_word(cursor)?;
    cursor.punct(':', "`:` after the rank or axis word")?;
    let mut entries = Vec::new();
    while *cursor.peek() != Token::End {
        let dim = cursor.number("a dimension")?;
        cursor.punct(',', "`,` and the size of the entry")?;
        let size = cursor.number("a size")?;
        entries.push(Entry { dim, size });
        cursor.eat(',');
    }
    Ok(TextLayout {
        rank,
        axes,
        entries,
    })
}

/// Reads a layout in any of its spellings: the long form, the short form, a oneDNN tag, or the
/// name of a catalog layout with or without its module.
///
/// # Errors
/// The problems found, each with its character position and what was expected there (a oneDNN
/// tag reports all its problems, up to [`MAX_PROBLEMS`](crate::MAX_PROBLEMS); the long and short
/// forms stop at the first).
///
/// ```
/// use layout_notation::parse_layout;
/// let problems = parse_layout("ChunkedMemoryLayout<4, 0,0, 1>").unwrap_err();
/// assert_eq!((problems[0].at, problems[0].message.as_str()), (29, "expected `,` and the size of the entry, found `>`"));
/// let problems = parse_layout("4: 0,0 x").unwrap_err();
/// assert_eq!(problems[0].message, "expected a dimension, found `x`");
/// let problems = parse_layout("htp::R4CrotonLayout").unwrap_err();
/// assert_eq!((problems[0].at, problems[0].message.as_str()), (5, "expected the name of a htp layout \
///     (`layout list` shows them), found `R4CrotonLayout`; did you mean htp::R4CroutonLayout, \
///     htp::R4Crouton2Layout or htp::R4Crouton4Layout?"));
/// ```
pub fn parse_layout(text: &str) -> Result<TextLayout, Vec<TextProblem>> {
    let text = find_catalog_name(text.trim()).map_or(text, |entry| entry.spelling);
    let mut cursor = Cursor {
        tokens: tokens(text),
        next: 0,
    };
    let word_then_colon = matches!(cursor.tokens.get(1), Some((_, Token::Punct(':'))))
        && !matches!(cursor.tokens.get(2), Some((_, Token::Punct(':'))));
    let result = match cursor.peek() {
        Token::Word(w) if w == "ChunkedMemoryLayout" => long_form(&mut cursor),
        Token::Number(_) => short_form(&mut cursor),
        Token::Word(_) if word_then_colon => short_form(&mut cursor),
        Token::Word(_) => return name_or_tag(text),
        _ => cursor.fail(
            "`ChunkedMemoryLayout<...>`, `RANK: dim,size ...`, `NHWC: dim,size ...`, a oneDNN tag or a catalog name",
        ),
    };
    result.map_err(|problem| vec![problem])
}

/// A word that is not a catalog name: a oneDNN tag, or a misspelt name answered with the
/// nearest names.
fn name_or_tag(text: &str) -> Result<TextLayout, Vec<TextProblem>> {
    let word = text.trim();
    let lead = text.chars().count() - text.trim_start().chars().count();
    let suggest = |name: &str| {
        let nearest = crate::nearest_catalog_names(name, 3);
        match nearest.as_slice() {
            [] => String::new(),
            [one] => format!("; did you mean {one}?"),
            [first @ .., last] => format!("; did you mean {} or {last}?", first.join(", ")),
        }
    };
    if let Some((module, name)) = word.split_once("::") {
        if !crate::is_module(module) {
            return Err(vec![TextProblem {
                at: lead,
                message: format!(
                    "expected a module (htp, onednn, megengine or sophgo) before `::`, found `{module}`"
                ),
            }]);
        }
        return Err(vec![TextProblem {
            at: lead + module.chars().count() + 2,
            message: format!(
                "expected the name of a {module} layout (`layout list` shows them), found `{name}`{}",
                suggest(word)
            ),
        }]);
    }
    // A word that looks like a name is no tag (no tag has an underscore or those characters):
    // its tag problems would go unused, so they are not worked out.
    if looks_like_a_name(word) {
        return Err(vec![TextProblem {
            at: lead,
            message: format!(
                "expected a catalog name (such as R4CroutonLayout or megengine::NCHW4) or a oneDNN tag, found `{word}`{}",
                suggest(word)
            ),
        }]);
    }
    onednn_tag(word).map(TextLayout::from).map_err(|problems| {
        problems
            .into_iter()
            .map(|p| TextProblem {
                at: p.at + lead,
                ..p
            })
            .collect()
    })
}

/// Whether a word that is no oneDNN tag was meant as a name: it has an underscore, or two or
/// more characters that no tag uses (a tag with one wrong letter, `nChx8c`, is answered as a
/// tag, naming that letter).
fn looks_like_a_name(word: &str) -> bool {
    let foreign = word
        .chars()
        .filter(
            |c| !matches!(c.to_ascii_lowercase(), '0'..='9' | 'a'..='h' | 'n' | 'o' | 'i' | 'w'),
        )
        .count();
    word.contains('_') || foreign >= 2
}
