//! The rules of a valid chunk list (docs/concepts.md, "Chunk lists"), checked all at once.

use crate::Entry;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// The highest rank a layout may have.
pub const MAX_RANK: usize = 8;

/// The most entries a chunk list may have.
pub const MAX_ENTRIES: usize = 24;

/// One thing wrong with a chunk list.
///
/// ```
/// use layout_notation::{Entry, check_chunk_list};
/// let problems = check_chunk_list(2, &[Entry::rest(0), Entry::rest(2)]);
/// assert_eq!(problems[0].entry, Some(1));
/// assert_eq!(problems[0].message, "dimension 2 is out of range for rank 2");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListProblem {
    /// The entry it concerns, `None` for the list (or the rank) as a whole.
    pub entry: Option<usize>,
    /// What is wrong, as a sentence fragment.
    pub message: String,
}

impl ListProblem {
    fn at(entry: usize, message: String) -> Self {
        Self {
            entry: Some(entry),
            message,
        }
    }

    fn whole(message: String) -> Self {
        Self {
            entry: None,
            message,
        }
    }
}

/// Every problem of `entries` as the chunk list of a layout of rank `rank`, in list order;
/// empty when the list is valid.
///
/// ```
/// use layout_notation::{Entry, check_chunk_list};
/// let crouton = [0, 1, 2, 3].map(Entry::rest);
/// assert!(check_chunk_list(4, &crouton).is_empty());
/// let problems = check_chunk_list(2, &[Entry::new(0, 4), Entry::rest(0), Entry::rest(0)]);
/// let messages: Vec<_> = problems.iter().map(|p| p.message.as_str()).collect();
/// assert_eq!(messages, [
///     "the (0, 0) entry comes after the fixed entry (0, 4): all size-0 entries must come first",
///     "dimension 0 has a second (0, 0) entry; it needs exactly one",
///     "the (0, 0) entry comes after the fixed entry (0, 4): all size-0 entries must come first",
///     "dimension 1 has no (1, 0) entry",
/// ]);
/// ```
pub fn check_chunk_list(rank: usize, entries: &[Entry]) -> Vec<ListProblem> {
    let mut problems = Vec::new();
    if rank == 0 {
        problems.push(ListProblem::whole(format!(
            "rank 0 is not supported: a layout has rank 1 to {MAX_RANK}"
        )));
    } else if rank > MAX_RANK {
        problems.push(ListProblem::whole(format!(
            "rank {rank} is above the supported maximum of {MAX_RANK}"
        )));
    }
    if entries.is_empty() {
        problems.push(ListProblem::whole(
            "the chunk list is empty: every dimension needs a (dim, 0) entry".into(),
        ));
    }
    let mut first_fixed: Option<&Entry> = None;
    let mut seen_rest = [false; MAX_RANK];
    for (i, entry) in entries.iter().enumerate() {
        if i == MAX_ENTRIES {
            problems.push(ListProblem::at(
                i,
                format!(
                    "a chunk list has at most {MAX_ENTRIES} entries; this one has {}",
                    entries.len()
                ),
            ));
        }
        if entry.dim >= rank {
            problems.push(ListProblem::at(
                i,
                format!("dimension {} is out of range for rank {rank}", entry.dim),
            ));
        }
        if !entry.is_rest() {
            first_fixed.get_or_insert(entry);
            continue;
        }
        if entry.dim < rank.min(MAX_RANK) {
            if seen_rest[entry.dim] {
                problems.push(ListProblem::at(
                    i,
                    format!(
                        "dimension {0} has a second ({0}, 0) entry; it needs exactly one",
                        entry.dim
                    ),
                ));
            }
            seen_rest[entry.dim] = true;
        }
        if let Some(fixed) = first_fixed {
            problems.push(ListProblem::at(
                i,
                format!(
                    "the ({}, 0) entry comes after the fixed entry ({}, {}): all size-0 entries \
                     must come first",
                    entry.dim, fixed.dim, fixed.size
                ),
            ));
        }
    }
    for (dim, seen) in seen_rest.iter().enumerate().take(rank.min(MAX_RANK)) {
        if !seen && !entries.is_empty() {
            problems.push(ListProblem::whole(format!(
                "dimension {dim} has no ({dim}, 0) entry"
            )));
        }
    }
    let volume = entries
        .iter()
        .filter(|e| !e.is_rest())
        .try_fold(1usize, |v, e| v.checked_mul(e.size));
    if volume.is_none() {
        problems.push(ListProblem::whole(
            "the fixed sizes multiply past usize::MAX".into(),
        ));
    }
    problems
}
