//! The rules of a valid chunk list (docs/concepts.md, "Chunk lists"), and their sentences.
//!
//! One checker, written as `const fn`s, serves every caller: the macros and the run-time parser
//! collect all the problems ([`check_chunk_list`]), and a typed layout's compile-time check
//! stops at the first ([`assert_chunk_list`]).

use crate::sentence::Sentence;
use crate::{Entry, MAX_PROBLEMS};
use alloc::string::String;
use alloc::vec::Vec;

/// The highest rank a layout may have.
///
/// ```
/// assert_eq!(layout_notation::MAX_RANK, 8);
/// ```
pub const MAX_RANK: usize = 8;

/// The most entries a chunk list may have.
///
/// ```
/// use layout_notation::{Entry, MAX_ENTRIES, check_chunk_list};
/// let mut list = vec![Entry::rest(0)];
/// list.resize(MAX_ENTRIES, Entry::new(0, 1));
/// assert!(check_chunk_list(1, &list).is_empty());
/// ```
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

/// Every problem of `entries` as the chunk list of a layout of rank `rank`, in list order (the
/// first [`MAX_PROBLEMS`]); empty when the list is valid.
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
    let mut checker = Checker::new(rank, entries);
    let mut problems = Vec::new();
    while problems.len() < MAX_PROBLEMS
        && let Some(found) = checker.next_problem()
    {
        problems.push(ListProblem {
            entry: found.entry,
            message: found.rule.sentence().as_str().into(),
        });
    }
    problems
}

/// Panics with the first problem of `entries` as the chunk list of a layout of rank `rank`
/// (the sentence [`check_chunk_list`] gives, and which entry it concerns); returns when the list
/// is valid. Evaluated in a constant, the panic is a compile error quoting the sentence.
///
/// ```
/// use layout_notation::{Entry, assert_chunk_list};
/// const _: () = assert_chunk_list(2, &[Entry::rest(0), Entry::rest(1), Entry::new(1, 8)]);
/// let late_rest = std::panic::catch_unwind(|| {
///     assert_chunk_list(2, &[Entry::rest(0), Entry::new(1, 8), Entry::rest(1)])
/// });
/// let message = *late_rest.unwrap_err().downcast::<String>().unwrap();
/// assert_eq!(
///     message,
///     "the (1, 0) entry comes after the fixed entry (1, 8): all size-0 entries must come first (entry 2)"
/// );
/// ```
pub const fn assert_chunk_list(rank: usize, entries: &[Entry]) {
    if let Some(found) = Checker::new(rank, entries).next_problem() {
        let mut sentence = found.rule.sentence();
        if let Some(entry) = found.entry {
            sentence = sentence.text(" (entry ").number(entry).text(")");
        }
        panic!("{}", sentence.as_str());
    }
}

/// A rule a chunk list breaks, with the numbers its sentence names.
#[derive(Clone, Copy)]
enum Broken {
    RankZero,
    RankAboveMax { rank: usize },
    Empty,
    TooManyEntries { len: usize },
    DimOutOfRange { dim: usize, rank: usize },
    SecondRest { dim: usize },
    RestAfterFixed { dim: usize, fixed: Entry },
    NoRest { dim: usize },
    VolumeOverflow,
}

impl Broken {
    /// What is wrong, in the words users see (macro errors, compile errors, run-time errors).
    const fn sentence(self) -> Sentence {
        let s = Sentence::new();
        match self {
            Broken::RankZero => s
                .text("rank 0 is not supported: a layout has rank 1 to ")
                .number(MAX_RANK),
            Broken::RankAboveMax { rank } => s
                .text("rank ")
                .number(rank)
                .text(" is above the supported maximum of ")
                .number(MAX_RANK),
            Broken::Empty => {
                s.text("the chunk list is empty: every dimension needs a (dim, 0) entry")
            }
            Broken::TooManyEntries { len } => s
                .text("a chunk list has at most ")
                .number(MAX_ENTRIES)
                .text(" entries; this one has ")
                .number(len),
            Broken::DimOutOfRange { dim, rank } => s
                .text("dimension ")
                .number(dim)
                .text(" is out of range for rank ")
                .number(rank),
            Broken::SecondRest { dim } => s
                .text("dimension ")
                .number(dim)
                .text(" has a second (")
                .number(dim)
                .text(", 0) entry; it needs exactly one"),
            Broken::RestAfterFixed { dim, fixed } => s
                .text("the (")
                .number(dim)
                .text(", 0) entry comes after the fixed entry (")
                .number(fixed.dim)
                .text(", ")
                .number(fixed.size)
                .text("): all size-0 entries must come first"),
            Broken::NoRest { dim } => s
                .text("dimension ")
                .number(dim)
                .text(" has no (")
                .number(dim)
                .text(", 0) entry"),
            Broken::VolumeOverflow => s.text("the fixed sizes multiply past usize::MAX"),
        }
    }
}

/// A broken rule and the entry it concerns (`None`: the list or the rank as a whole).
#[derive(Clone, Copy)]
struct Found {
    entry: Option<usize>,
    rule: Broken,
}

/// The checks each entry gets, in this order: the entry count, the dimension's range, a second
/// rest entry, a rest entry after a fixed one.
const ENTRY_CHECKS: usize = 4;

/// Walks the checks in a fixed order: the rank, an empty list, each entry's checks, each
/// dimension's rest entry, the volume of the fixed sizes.
struct Checker<'a> {
    rank: usize,
    entries: &'a [Entry],
    /// The number of the next check to run.
    step: usize,
    /// Which dimensions (below the rank and [`MAX_RANK`]) have had their rest entry.
    seen_rest: [bool; MAX_RANK],
    /// The first fixed entry seen.
    first_fixed: Option<Entry>,
}

impl<'a> Checker<'a> {
    const fn new(rank: usize, entries: &'a [Entry]) -> Self {
        Self {
            rank,
            entries,
            step: 0,
            seen_rest: [false; MAX_RANK],
            first_fixed: None,
        }
    }

    /// The dimensions whose rest entries are tracked.
    const fn dims(&self) -> usize {
        if self.rank < MAX_RANK {
            self.rank
        } else {
            MAX_RANK
        }
    }

    /// The next problem, `None` once every check has run.
    const fn next_problem(&mut self) -> Option<Found> {
        let rest_checks = 2 + ENTRY_CHECKS * self.entries.len();
        let volume_check = rest_checks + self.dims();
        while self.step <= volume_check {
            let step = self.step;
            self.step += 1;
            let found = if step == 0 {
                self.rank_check()
            } else if step == 1 {
                whole_if(self.entries.is_empty(), Broken::Empty)
            } else if step < rest_checks {
                let (entry, check) = ((step - 2) / ENTRY_CHECKS, (step - 2) % ENTRY_CHECKS);
                self.entry_check(entry, check)
            } else if step < volume_check {
                let dim = step - rest_checks;
                let missing = !self.seen_rest[dim] && !self.entries.is_empty();
                whole_if(missing, Broken::NoRest { dim })
            } else {
                whole_if(fixed_volume(self.entries).is_none(), Broken::VolumeOverflow)
            };
            if found.is_some() {
                return found;
            }
        }
        None
    }

    const fn rank_check(&self) -> Option<Found> {
        let rank = self.rank;
        let rule = if rank == 0 {
            Broken::RankZero
        } else {
            Broken::RankAboveMax { rank }
        };
        whole_if(rank == 0 || rank > MAX_RANK, rule)
    }

    /// Check number `check` (of [`ENTRY_CHECKS`]) of entry `i`.
    const fn entry_check(&mut self, i: usize, check: usize) -> Option<Found> {
        let entry = self.entries[i];
        let (dim, rank) = (entry.dim, self.rank);
        let rule = match check {
            0 if i == MAX_ENTRIES => Broken::TooManyEntries {
                len: self.entries.len(),
            },
            1 if dim >= rank => Broken::DimOutOfRange { dim, rank },
            2 if entry.is_rest() && dim < self.dims() => {
                let second = self.seen_rest[dim];
                self.seen_rest[dim] = true;
                if !second {
                    return None;
                }
                Broken::SecondRest { dim }
            }
            3 => match self.first_fixed {
                Some(fixed) if entry.is_rest() => Broken::RestAfterFixed { dim, fixed },
                None if !entry.is_rest() => {
                    self.first_fixed = Some(entry);
                    return None;
                }
                _ => return None,
            },
            _ => return None,
        };
        Some(Found {
            entry: Some(i),
            rule,
        })
    }
}

/// A problem of the whole list when `broken`.
const fn whole_if(broken: bool, rule: Broken) -> Option<Found> {
    if broken {
        Some(Found { entry: None, rule })
    } else {
        None
    }
}

/// The product of the fixed sizes, `None` past `usize::MAX`.
const fn fixed_volume(entries: &[Entry]) -> Option<usize> {
    let mut volume: usize = 1;
    let mut i = 0;
    while i < entries.len() {
        if !entries[i].is_rest() {
            volume = match volume.checked_mul(entries[i].size) {
                Some(product) => product,
                None => return None,
            };
        }
        i += 1;
    }
    Some(volume)
}
