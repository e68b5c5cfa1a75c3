//! "Did you mean" advice: the catalog's names nearest to a word that is not one.
//!
//! The search is bounded whatever the word: a word too long to be a misspelt name gets no
//! advice; names are tried in the order of their length's difference from the word's, and the
//! search ends where that difference alone puts them further than the names already kept; each
//! distance is one pass over the name with the word held in one machine word of bits
//! (Myers' bit-parallel edit distance), so advice costs the same for any text.

use crate::catalog::{CATALOG, is_module};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// Characters in the catalog's longest name.
const LONGEST_NAME: usize = longest_name();

/// The longest word answered with names: a word more than twice as long as every catalog name
/// needs more edits than it has characters in common with any of them, so no name would help.
const MAX_ADVISED_CHARS: usize = 2 * LONGEST_NAME;

/// One bit per character of the word.
type Bits = u64;

const _: () = assert!(MAX_ADVISED_CHARS <= Bits::BITS as usize);

/// The length of the longest name, and a check that every name is ASCII (the distance compares
/// a name byte by byte).
const fn longest_name() -> usize {
    let mut longest = 0;
    let mut k = 0;
    while k < CATALOG.len() {
        let name = CATALOG[k].name.as_bytes();
        assert!(name.is_ascii(), "catalog names are ASCII");
        if name.len() > longest {
            longest = name.len();
        }
        k += 1;
    }
    longest
}

/// The catalog's names nearest to `name` (by edit distance, ignoring case, with or without the
/// module), nearest first and, at equal distance, in the catalog's order: at most `count`, each
/// as `module::Name`. For "did you mean" advice after a name that is not in the catalog. A name
/// more than twice as long as the catalog's longest (42 characters) gets none: no name is near.
///
/// ```
/// use layout_notation::nearest_catalog_names;
/// assert_eq!(nearest_catalog_names("R4CrotonLayout", 2), ["htp::R4CroutonLayout", "htp::R4Crouton2Layout"]);
/// assert_eq!(nearest_catalog_names("megengine::NCHW33", 1), ["megengine::NCHW32"]);
/// assert!(nearest_catalog_names(&"R4CroutonLayout".repeat(3), 3).is_empty());
/// ```
pub fn nearest_catalog_names(name: &str, count: usize) -> Vec<String> {
    let (module, bare) = match name.split_once("::") {
        Some((module, bare)) => (Some(module), bare),
        None => (None, name),
    };
    let Some(word) = Word::new(bare) else {
        return Vec::new();
    };
    let module = module.filter(|m| is_module(m));
    let mut nearest = Nearest::new(count);
    for k in by_length_from(word.len) {
        let entry = &CATALOG[k];
        // The length difference is a lower bound of the distance, and grows from here on.
        let at_least = word.len.abs_diff(entry.name.len());
        if nearest.is_full_below(at_least) {
            break;
        }
        if module.is_none_or(|m| m == entry.module) && nearest.keeps(at_least, k) {
            nearest.offer(word.distance(entry.name), k);
        }
    }
    nearest
        .kept
        .into_iter()
        .map(|(_, k)| format!("{}::{}", CATALOG[k].module, CATALOG[k].name))
        .collect()
}

/// The catalog's indices, their names shortest first.
const BY_LENGTH: [usize; CATALOG.len()] = by_length();

/// [`BY_LENGTH`], sorted at compile time (insertion sort: a few dozen names).
const fn by_length() -> [usize; CATALOG.len()] {
    let mut order = [0; CATALOG.len()];
    let mut k = 0;
    while k < order.len() {
        let mut at = k;
        while at > 0 && CATALOG[order[at - 1]].name.len() > CATALOG[k].name.len() {
            order[at] = order[at - 1];
            at -= 1;
        }
        order[at] = k;
        k += 1;
    }
    order
}

/// The catalog's indices in the order of their names' length difference from `len`, nearest
/// first: outwards from `len` in [`BY_LENGTH`], so that the first names tried bound the rest.
fn by_length_from(len: usize) -> impl Iterator<Item = usize> {
    let length = |i: usize| CATALOG[BY_LENGTH[i]].name.len();
    let split = BY_LENGTH.partition_point(|&k| CATALOG[k].name.len() < len);
    let (mut shorter, mut longer) = (split, split);
    core::iter::from_fn(move || {
        let take_shorter = match (shorter > 0, longer < BY_LENGTH.len()) {
            (true, true) => len - length(shorter - 1) <= length(longer) - len,
            (below, _) => below,
        };
        if take_shorter {
            shorter -= 1;
            Some(BY_LENGTH[shorter])
        } else if longer < BY_LENGTH.len() {
            longer += 1;
            Some(BY_LENGTH[longer - 1])
        } else {
            None
        }
    })
}

/// The best `count` names so far, as (distance, catalog index), nearest first.
struct Nearest {
    count: usize,
    kept: Vec<(usize, usize)>,
}

impl Nearest {
    fn new(count: usize) -> Self {
        Self {
            count,
            kept: Vec::with_capacity(count.min(CATALOG.len())),
        }
    }

    /// Whether catalog entry `k` at `distance` would be kept: there is room, or it is nearer
    /// than the furthest kept (at equal distance, earlier in the catalog).
    fn keeps(&self, distance: usize, k: usize) -> bool {
        if self.kept.len() < self.count {
            return true;
        }
        self.kept.last().is_some_and(|&far| (distance, k) < far)
    }

    /// Whether every place is taken by a name nearer than `distance`: no name at `distance` or
    /// further can be kept.
    fn is_full_below(&self, distance: usize) -> bool {
        self.kept.len() == self.count && self.kept.last().is_none_or(|&(far, _)| far < distance)
    }

    /// Keeps catalog entry `k` at `distance` if it is among the nearest `count` so far.
    fn offer(&mut self, distance: usize, k: usize) {
        if !self.keeps(distance, k) {
            return;
        }
        if self.kept.len() == self.count {
            self.kept.pop();
        }
        let at = self.kept.partition_point(|&kept| kept < (distance, k));
        self.kept.insert(at, (distance, k));
    }
}

/// The word the names are compared with, lower-cased, as bit masks: bit `i` of `positions[b]`
/// is set when character `i` of the word is the ASCII byte `b`.
struct Word {
    len: usize,
    positions: [Bits; 128],
}

impl Word {
    /// The word's masks, `None` when it is too long for advice.
    fn new(word: &str) -> Option<Self> {
        let mut positions = [0; 128];
        let mut len = 0;
        for c in word.chars() {
            if len == MAX_ADVISED_CHARS {
                return None;
            }
            // A character outside ASCII matches no catalog name's.
            if c.is_ascii() {
                positions[usize::from(c.to_ascii_lowercase() as u8)] |= 1 << len;
            }
            len += 1;
        }
        Some(Self { len, positions })
    }

    /// The Levenshtein distance from the word to `name` (ASCII), letters compared without case,
    /// so `nchw4` is nearest to `NCHW4`: one column of the distance table per character of
    /// `name`, the column held as bit vectors of its +1/-1 steps (Myers, 1999; Hyyrö's
    /// formulation for the distance between whole strings).
    fn distance(&self, name: &str) -> usize {
        if self.len == 0 {
            return name.len();
        }
        let last: Bits = 1 << (self.len - 1);
        let (mut plus, mut minus): (Bits, Bits) = (!0, 0);
        let mut score = self.len;
        for b in name.bytes() {
            let equal = self.positions[usize::from(b.to_ascii_lowercase() & 0x7f)];
            let vertical = equal | minus;
            let horizontal = (((equal & plus).wrapping_add(plus)) ^ plus) | equal;
            let h_plus = minus | !(horizontal | plus);
            let h_minus = plus & horizontal;
            if h_plus & last != 0 {
                score += 1;
            } else if h_minus & last != 0 {
                score -= 1;
            }
            let h_plus = (h_plus << 1) | 1;
            let h_minus = h_minus << 1;
            plus = h_minus | !(vertical | h_plus);
            minus = h_plus & vertical;
        }
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    /// The textbook table, for comparison.
    fn levenshtein(a: &str, b: &str) -> usize {
        let a: Vec<char> = a.chars().map(|c| c.to_ascii_lowercase()).collect();
        let b: Vec<char> = b.chars().map(|c| c.to_ascii_lowercase()).collect();
        let mut previous: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.iter().enumerate() {
            let mut current = vec![i + 1];
            for (j, cb) in b.iter().enumerate() {
                let substitute = previous[j] + usize::from(ca != cb);
                current.push(substitute.min(previous[j + 1] + 1).min(current[j] + 1));
            }
            previous = current;
        }
        previous[b.len()]
    }

    /// Every name in the catalog sorted by the textbook distance, the first `count`.
    fn nearest_by_sorting(name: &str, count: usize) -> Vec<String> {
        let (module, bare) = match name.split_once("::") {
            Some((module, bare)) => (Some(module), bare),
            None => (None, name),
        };
        let mut scored: Vec<(usize, usize)> = CATALOG
            .iter()
            .enumerate()
            .filter(|(_, e)| module.is_none_or(|m| !is_module(m) || m == e.module))
            .map(|(k, e)| (levenshtein(bare, e.name), k))
            .collect();
        scored.sort();
        scored
            .into_iter()
            .take(count)
            .map(|(_, k)| format!("{}::{}", CATALOG[k].module, CATALOG[k].name))
            .collect()
    }

    /// Words of every length up to the longest advised, from a small alphabet (so that they
    /// share letters with the names), some outside ASCII.
    fn words(count: usize) -> Vec<String> {
        const LETTERS: [char; 12] = ['R', 'c', 'h', 'N', 'w', '4', 'o', 'L', 'é', 'a', 'y', '_'];
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as usize
        };
        (0..count)
            .map(|_| {
                let len = next() % (MAX_ADVISED_CHARS + 1);
                (0..len).map(|_| LETTERS[next() % LETTERS.len()]).collect()
            })
            .collect()
    }

    #[test]
    fn the_bit_parallel_distance_is_the_textbook_one() {
        let names = CATALOG.iter().map(|e| e.name);
        for name in names.chain(["", "a", "nchw"]) {
            for word in words(1000)
                .iter()
                .map(String::as_str)
                .chain(["", "n", "NCHW"])
            {
                let expected = levenshtein(word, name);
                let found = Word::new(word).unwrap().distance(name);
                assert_eq!(found, expected, "{word:?} to {name:?}");
            }
        }
    }

    #[test]
    fn the_bounded_search_finds_what_sorting_every_name_finds() {
        let typos = CATALOG.iter().flat_map(|e| {
            let n = e.name;
            [
                format!("{}x{}", &n[..n.len() / 2], &n[n.len() / 2..]),
                String::from(&n[1..]),
                format!("{}::{}", e.module, &n[..n.len() - 1]),
                format!("tflite::{n}"),
            ]
        });
        for word in typos.chain(words(300)) {
            for count in [0, 1, 3, 60] {
                assert_eq!(
                    nearest_catalog_names(&word, count),
                    nearest_by_sorting(&word, count),
                    "{word:?}, {count}"
                );
            }
        }
    }

    #[test]
    fn words_too_long_for_a_name_get_no_advice() {
        let longest = "a".repeat(MAX_ADVISED_CHARS);
        assert_eq!(nearest_catalog_names(&longest, 3).len(), 3);
        assert!(nearest_catalog_names(&format!("{longest}a"), 3).is_empty());
        assert!(nearest_catalog_names(&format!("htp::{longest}a"), 3).is_empty());
    }
}
