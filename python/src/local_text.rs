//! Sophgo local-memory layouts spelled as text: the form `Layout` prints,
//! `sophgo::EuAligned<BM1684X, 4N> at address 2048, 1-byte elements` (free strides add
//! `(strides [N, C, H, W])`, a matrix `(width W)`), of which everything after the layout's
//! name may be left out and given as keyword arguments instead.

use tensor_layout::sophgo::{ChipName, DynLocalLayout, LocalKind, StorageModeName};

/// The parts of a local layout a text names; `None` for each part it leaves out.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct LocalText {
    /// The local layout's name (`EuAligned`).
    pub kind: Option<LocalKind>,
    /// The chip in `<...>`.
    pub chip: Option<ChipName>,
    /// The storage mode after the chip.
    pub mode: Option<StorageModeName>,
    /// `(strides [N, C, H, W])`.
    pub strides: Option<[usize; 4]>,
    /// `(width W)`.
    pub width: Option<usize>,
    /// `at address A`.
    pub address: Option<usize>,
    /// `B-byte elements`.
    pub element_bytes: Option<usize>,
}

/// Reads `text` as a local layout: `Ok(None)` when its name is no local layout's (the text
/// is then a chunked layout's), an error naming the position of the first thing it cannot read.
pub fn parse_local(text: &str) -> Result<Option<LocalText>, String> {
    let trimmed = text.trim();
    let name_end = trimmed
        .find(|c: char| c == '<' || c == '(' || c.is_whitespace())
        .unwrap_or(trimmed.len());
    let Ok(kind) = LocalKind::parse(&trimmed[..name_end]) else {
        return Ok(None);
    };
    let mut reader = Reader {
        text: trimmed,
        at: name_end,
    };
    let mut parts = LocalText {
        kind: Some(kind),
        ..LocalText::default()
    };
    if reader.eat("<") {
        let inside = reader.until('>')?;
        let mut words = inside.split(',').map(str::trim);
        let chip = words.next().unwrap_or_default();
        parts.chip = Some(ChipName::parse(chip).map_err(|e| e.to_string())?);
        if let Some(mode) = words.next() {
            parts.mode = Some(StorageModeName::parse(mode).map_err(|e| e.to_string())?);
        }
        if let Some(extra) = words.next() {
            return Err(reader.problem(&format!(
                "expected `>` after the storage mode, found {extra:?}"
            )));
        }
    }
    while reader.eat("(") {
        let inside = reader.until(')')?;
        if let Some(list) = inside.strip_prefix("strides") {
            parts.strides = Some(strides(list).map_err(|e| reader.problem(&e))?);
        } else if let Some(width) = inside.strip_prefix("width") {
            parts.width = Some(number(width).map_err(|e| reader.problem(&e))?);
        } else {
            return Err(reader.problem(&format!(
                "expected `(strides [N, C, H, W])` or `(width W)`, found ({inside})"
            )));
        }
    }
    if reader.eat("at address") {
        let end = reader.rest().find(',').unwrap_or(reader.rest().len());
        let address = reader.rest()[..end].to_string();
        parts.address = Some(number(&address).map_err(|e| reader.problem(&e))?);
        reader.at += end;
        reader.eat(",");
    }
    if let Some(bytes) = reader.rest().trim().strip_suffix("-byte elements") {
        parts.element_bytes = Some(number(bytes).map_err(|e| reader.problem(&e))?);
        reader.at = reader.text.len();
    }
    if !reader.rest().trim().is_empty() {
        return Err(reader.problem(&format!(
            "expected `at address A, B-byte elements` or the end, found {:?}",
            reader.rest().trim()
        )));
    }
    Ok(Some(parts))
}

/// How `parse_local`'s text is read: a position in it.
struct Reader<'a> {
    text: &'a str,
    at: usize,
}

impl Reader<'_> {
    fn rest(&self) -> &str {
        &self.text[self.at..]
    }

    /// Skips blanks, then `word` if it comes next.
    fn eat(&mut self, word: &str) -> bool {
        let blanks = self.rest().len() - self.rest().trim_start().len();
        if self.rest().trim_start().starts_with(word) {
            self.at += blanks + word.len();
            true
        } else {
            false
        }
    }

    /// The text up to `close`, which is then skipped.
    fn until(&mut self, close: char) -> Result<String, String> {
        match self.rest().find(close) {
            Some(end) => {
                let inside = self.rest()[..end].trim().to_string();
                self.at += end + 1;
                Ok(inside)
            }
            None => Err(self.problem(&format!("expected `{close}`, found the end"))),
        }
    }

    /// What could not be read, at the first character after the blanks here.
    fn problem(&self, what: &str) -> String {
        let blanks = self.rest().len() - self.rest().trim_start().len();
        format!(
            "cannot read Sophgo local layout {:?}: at character {}, {what}",
            self.text,
            self.at + blanks
        )
    }
}

/// A whole number, decimal or `0x` hexadecimal.
fn number(text: &str) -> Result<usize, String> {
    let text = text.trim();
    let parsed = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => usize::from_str_radix(hex, 16),
        None => text.parse(),
    };
    parsed.map_err(|_| format!("expected a whole number, found {text:?}"))
}

/// `[N, C, H, W]` strides.
fn strides(text: &str) -> Result<[usize; 4], String> {
    let list = text.trim().trim_start_matches('[').trim_end_matches(']');
    let numbers = list.split(',').map(number).collect::<Result<Vec<_>, _>>()?;
    numbers.try_into().map_err(|found: Vec<usize>| {
        format!("expected 4 strides N, C, H, W, found {}", found.len())
    })
}

/// The form `parse_local` reads back, with the module: `sophgo::EuAligned<BM1684X> at ...`.
pub fn local_text(layout: &DynLocalLayout) -> String {
    format!("sophgo::{layout}")
}
