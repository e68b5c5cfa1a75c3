//! `Wisdom::parse` of any text: an error, or wisdom that reads back equal and that, used for a
//! small relayout, plans a relayout giving exactly the reference result.

use crate::case::{CASE_BYTES, Case, Value, mappings, source, stale_destination};
use crate::relayout_plan::{remembered_line, run_and_check};
use tensor_layout::{RelayoutPlan, plans::Wisdom};

/// The first `CASE_BYTES` spell a small relayout (`Case`); the rest is text, read twice:
/// as a whole wisdom text, and as the choices of one entry for that relayout (after its key
/// and element size). Either read is an error or wisdom; wisdom prints and reads back equal,
/// and each of its entries, moved to the relayout's key, plans a relayout that gives every
/// element where both mappings put it.
///
/// ```
/// // nchw into nhwc, u8, dims 1x3x4x5, plain lists; then the choices of one entry.
/// let mut input = vec![0, 3, 0, 2, 1, 3, 4, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
/// input.extend(b"lines=2 whole=1 one-block=0 apart=max far=near below=0 short=1 sweep=0 parallel-from=max stream=on");
/// tensor_layout_fuzz_checks::wisdom_parse(&input);
/// ```
pub fn wisdom_parse(data: &[u8]) {
    let Some(text) = data.get(CASE_BYTES..) else {
        return;
    };
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let whole = Wisdom::parse(text).ok().inspect(reads_back);
    let Some(case) = Case::read(data) else { return };
    dispatch!(case, check(&case, text, whole.as_ref()));
}

/// Panics unless `wisdom` prints as text that reads back as the same wisdom.
fn reads_back(wisdom: &Wisdom) {
    let text = wisdom.to_string();
    let again = Wisdom::parse(&text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    assert_eq!(&again, wisdom, "{text:?}");
}

/// [`wisdom_parse`] at element type `T` and rank `R`: `choices` as one entry's choices for the
/// case's relayout, and each entry of `whole` moved to that relayout.
fn check<T: Value, const R: usize>(case: &Case, choices: &str, whole: Option<&Wisdom>) {
    let Some((ma, mb)) = mappings::<R>(case) else {
        return;
    };
    let src = source::<T, R>(ma, 3);
    let mut dst = stale_destination::<T, R>(mb);
    let model = RelayoutPlan::new(&src, &dst).expect("same names and dims");
    let line = remembered_line(&model);
    let (key, bytes) = line.split_at(line.find(' ').expect("a key, then more"));
    let bytes = bytes
        .trim_start()
        .split(' ')
        .next()
        .expect("an element size");
    let mut texts = vec![format!("tensor-layout wisdom 1\n{key} {bytes} {choices}\n")];
    if let Some(whole) = whole {
        for entry in whole.to_string().lines().skip(1) {
            let (_, choices) = entry.split_at(entry.find(' ').expect("a key, then more"));
            let choices = choices.trim_start().split_once(' ').map_or("", |(_, c)| c);
            texts.push(format!("tensor-layout wisdom 1\n{key} {bytes} {choices}\n"));
        }
    }
    for (i, text) in texts.iter().enumerate() {
        let wisdom = match Wisdom::parse(text) {
            Ok(wisdom) => wisdom,
            // The text as one entry's choices may be no choices; an entry of wisdom that read
            // is, under any key.
            Err(e) => {
                assert_eq!(i, 0, "{text:?}: {e}");
                continue;
            }
        };
        reads_back(&wisdom);
        let plan = RelayoutPlan::with_wisdom(&src, &dst, &wisdom).expect("same names and dims");
        assert!(
            plan.explain().ends_with("(wisdom)") || case.dims.contains(&0),
            "{text:?}: {}",
            plan.explain()
        );
        run_and_check(&plan, &src, &mut dst, case);
    }
}
