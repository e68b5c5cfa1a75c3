//! The `layout` command's reading of its LAYOUT, DIMS, INDEX and AXIS arguments (its own
//! `args.rs`, compiled here as it is in the command), on any text: an answer or a one-line
//! error, never a panic; what reads prints back the same.

#[allow(
    dead_code,
    reason = "only the readers of LAYOUT, DIMS, INDEX and AXIS are checked"
)]
#[path = "../../layout-cli/src/args.rs"]
mod args;

use tensor_layout::axes::AxisWord;

/// The input, split at newlines, is LAYOUT, DIMS, INDEX, a second LAYOUT and an AXIS, as
/// `layout where`, `layout diff` and `layout draw --color-by` take them. Each reader answers or
/// says why not in one line; dims and indices that read print back as the same numbers; an
/// index by name reads the same in any order of its axes; an axis is one of the layout's; two
/// layouts bound together correspond axis for axis, with the same dims on each axis.
///
/// ```
/// tensor_layout_fuzz_checks::cli_args(b"nChw16c\n1x17x3x5\nN=0,C=16,H=2,W=4\nnhwc\nC");
/// ```
pub fn cli_args(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut fields = text.split('\n');
    let mut next = || fields.next().unwrap_or("");
    let (layout, dims, index, other, axis) = (next(), next(), next(), next(), next());

    let numbers = one_line(args::numbers(dims, "dims"));
    if let Some(numbers) = &numbers {
        let again = joined(numbers, "x");
        assert_eq!(
            args::numbers(&again, "dims").as_ref(),
            Ok(numbers),
            "{dims:?}"
        );
    }
    let Some(read) = one_line(args::layout(layout)) else {
        return;
    };
    let word = read.axis_word();
    check_index(index, &word);
    if let Some(d) = one_line(args::axis(axis, &word)) {
        assert!(d < word.rank(), "{axis:?} of {word}: {d}");
    }
    if let Some(m) = one_line(args::bind(layout, dims)) {
        assert_eq!(Some(m.dims()), numbers.as_deref(), "{layout:?} {dims:?}");
        if let Some(index) = one_line(args::index(index, &word))
            && let Ok(offset) = m.try_offset(&index)
        {
            assert!(offset < m.storage_len(), "{layout:?} {dims:?} {index:?}");
        }
    }
    if let Some((a, b, at)) = one_line(args::bind_two(layout, other, dims)) {
        let mut seen = vec![false; at.len()];
        for (d, &p) in at.iter().enumerate() {
            assert!(
                !std::mem::replace(&mut seen[p], true),
                "{at:?}: not a permutation"
            );
            assert_eq!(a.dims()[d], b.dims()[p], "{layout:?} {other:?} {dims:?}");
        }
        assert_eq!(at.len(), a.dims().len());
    }
}

/// An index read against `word`: by name, it names each axis once and reads the same with its
/// axes in reverse order; by position, it prints back as the same numbers.
fn check_index(text: &str, word: &AxisWord) {
    let Some(index) = one_line(args::index(text, word)) else {
        return;
    };
    if text.contains('=') {
        assert_eq!(index.len(), word.rank(), "{text:?} against {word}");
        let letters: Vec<char> = word.as_str().chars().collect();
        let named: Vec<String> = (0..index.len())
            .rev()
            .map(|d| format!("{}={}", letters[d], index[d]))
            .collect();
        let again = named.join(",");
        assert_eq!(args::index(&again, word).as_ref(), Ok(&index), "{text:?}");
    } else {
        assert_eq!(
            args::index(&joined(&index, ","), word).as_ref(),
            Ok(&index),
            "{text:?}"
        );
    }
}

/// The answer of a reader, after checking that an error is one line (the command prints it as
/// one line on stderr).
fn one_line<T>(answer: Result<T, String>) -> Option<T> {
    answer
        .inspect_err(|e| assert!(!e.contains('\n'), "an error of more than one line: {e:?}"))
        .ok()
}

/// Numbers joined by `separator`.
fn joined(numbers: &[usize], separator: &str) -> String {
    numbers
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(separator)
}
