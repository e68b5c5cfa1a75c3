//! The memory order of a mapping written out in the notation of Qualcomm's HTP documentation.

use crate::{Layout, Mapping, mappings::Coords};
use core::fmt::{self, Write};

/// A printable listing of a mapping's storage in memory order, in the notation of the HTP
/// documentation: one line per contiguous run of logical elements, `(n,h,w,c) ... (n,h,w,c)`,
/// followed by the padding slots that come after it, marked `pad` and given by their
/// coordinates in the padded dims.
///
/// Made by [`Mapping::memory_order`]; [`MemoryOrder::max_lines`] cuts long listings.
///
/// ```
/// use tensor_layout::prelude::*;
/// let m = Mapping::<htp::R4CroutonLayout>::new([1, 2, 1, 30]).unwrap();
/// assert_eq!(
///     m.memory_order().to_string(),
///     "(0,0,0,0) ... (0,0,0,29)  pad (0,0,0,30) ... (0,0,7,31) [226 slots]\n\
///      (0,1,0,0) ... (0,1,0,29)  pad (0,1,0,30) ... (0,7,7,31) [1762 slots]\n"
/// );
/// ```
#[derive(Clone, Copy, Debug)]
pub struct MemoryOrder<'a, L: Layout> {
    mapping: &'a Mapping<L>,
    max_lines: usize,
    fold: bool,
}

impl<L: Layout> Mapping<L> {
    /// The memory order of this mapping in the HTP documentation's notation (see [`MemoryOrder`]).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<htp::R4FlatMemoryLayout>::new([1, 1, 2, 3]).unwrap();
    /// assert_eq!(m.memory_order().to_string(), "(0,0,0,0) ... (0,0,0,2)\n(0,0,1,0) ... (0,0,1,2)\n");
    /// ```
    pub fn memory_order(&self) -> MemoryOrder<'_, L> {
        MemoryOrder {
            mapping: self,
            max_lines: usize::MAX,
            fold: false,
        }
    }
}

impl<L: Layout> MemoryOrder<'_, L> {
    /// Folds runs that follow each other in memory with no padding between them (inside one
    /// chunk) into one line, and marks the end of every chunk with `> end of chunk`, the way
    /// the HTP documentation lists its 2x9x20x50 crouton example.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<htp::R4CroutonLayout>::new([1, 8, 8, 40]).unwrap();
    /// let listing = m.memory_order().folded().to_string();
    /// let lines: Vec<&str> = listing.lines().collect();
    /// assert_eq!(lines[0], "(0,0,0,0) ... (0,7,7,31)  > end of chunk");
    /// assert_eq!(lines[1], "(0,0,0,32) ... (0,0,0,39)  pad (0,0,0,40) ... (0,0,0,63) [24 slots]");
    /// ```
    pub fn folded(self) -> Self {
        Self { fold: true, ..self }
    }

    /// Prints at most `lines` lines, then one line saying how many were left out.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<htp::R4FlatMemoryLayout>::new([1, 3, 1, 4]).unwrap();
    /// assert_eq!(
    ///     m.memory_order().max_lines(1).to_string(),
    ///     "(0,0,0,0) ... (0,0,0,3)\n... 2 more lines\n"
    /// );
    /// ```
    pub fn max_lines(self, lines: usize) -> Self {
        Self {
            max_lines: lines,
            ..self
        }
    }
}

/// Writes an index as the HTP documentation does: `(0,1,2,3)`.
struct Listed<I>(I);

impl<I: Coords> fmt::Display for Listed<I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('(')?;
        for (k, x) in self.0.as_ref().iter().enumerate() {
            if k > 0 {
                f.write_char(',')?;
            }
            write!(f, "{x}")?;
        }
        f.write_char(')')
    }
}

/// Writes `first`, `first, last` or `first ... last` for a span of `count` items.
fn span<I: Coords>(f: &mut fmt::Formatter<'_>, first: I, last: I, count: usize) -> fmt::Result {
    match count {
        1 => write!(f, "{}", Listed(first)),
        2 => write!(f, "{}, {}", Listed(first), Listed(last)),
        _ => write!(f, "{} ... {}", Listed(first), Listed(last)),
    }
}

impl<L: Layout> fmt::Display for MemoryOrder<'_, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.mapping;
        let chunk = m.chunk_volume().max(1);
        let mut lines = 0usize;
        // One line: logical elements `first..=last` in slots `start..data_end`, then the
        // padding up to `padding_end`.
        let mut line =
            |f: &mut fmt::Formatter<'_>, segment: &Segment<L::Index>, padding_end: usize| {
                lines += 1;
                if lines > self.max_lines {
                    return Ok(());
                }
                span(f, segment.first, segment.last, segment.count)?;
                if padding_end > segment.end {
                    let padded = |offset| m.padded_index_of(offset).expect("offset inside storage");
                    let count = padding_end - segment.end;
                    f.write_str("  pad ")?;
                    span(f, padded(segment.end), padded(padding_end - 1), count)?;
                    if count > 2 {
                        write!(f, " [{count} slots]")?;
                    }
                }
                if self.fold && chunk > 1 && padding_end.is_multiple_of(chunk) {
                    f.write_str("  > end of chunk")?;
                }
                f.write_char('\n')
            };
        let mut pending: Option<Segment<L::Index>> = None;
        let mut result = Ok(());
        m.for_each_run(|run| {
            let mut last = run.index;
            last[run.dim] += (run.len - 1) * run.step;
            let end = run.offset + (run.len - 1) * run.stride + 1;
            if let Some(segment) = pending.as_mut() {
                let joins = self.fold
                    && run.stride == 1
                    && run.offset == segment.end
                    && !run.offset.is_multiple_of(chunk);
                if joins {
                    segment.last = last;
                    segment.count += run.len;
                    segment.end = end;
                    return;
                }
                let done = *segment;
                result = result.and_then(|()| line(f, &done, run.offset));
            }
            pending = Some(Segment {
                first: run.index,
                last,
                count: run.len,
                end,
            });
        });
        if let Some(segment) = pending {
            result = result.and_then(|()| line(f, &segment, m.storage_len()));
        }
        result?;
        if lines > self.max_lines {
            writeln!(f, "... {} more lines", lines - self.max_lines)?;
        }
        Ok(())
    }
}

/// Logical elements consecutive in memory: the first and last index, how many, where they end.
#[derive(Clone, Copy)]
struct Segment<I> {
    first: I,
    last: I,
    count: usize,
    end: usize,
}
