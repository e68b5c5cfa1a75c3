//! `RelayoutPlan` on random relayouts: planned by the cache model, with random choices through
//! wisdom, and measured (on small tensors), each run on two sources into a stale destination
//! and checked element by element.

use crate::case::{
    CASE_BYTES, Case, STALE, Value, assert_relayout, mappings, source, stale_destination,
};
use tensor_layout::{RelayoutPlan, Tensor, dynamic::DynChunked, plans::Wisdom};

/// Bytes after the case: the choices' 10 bytes, then whether to measure.
const CHOICE_BYTES: usize = 10;

/// Most slots of a tensor a measured plan is made on (measuring runs a relayout dozens of
/// times).
const MOST_MEASURED_SLOTS: usize = 1 << 10;

/// The choices of a wisdom entry (`lines=.. whole=.. ...`), each value picked by one byte
/// among the values a plan may take, the extremes included.
pub fn choices_text(bytes: &[u8; CHOICE_BYTES]) -> String {
    let pick = |i: usize, values: &[&str]| values[usize::from(bytes[i]) % values.len()].to_string();
    let lines = (usize::from(bytes[0]) % 64 + 1).to_string();
    format!(
        "lines={lines} whole={} one-block={} apart={} far={} below={} short={} sweep={} parallel-from={} stream={}",
        pick(1, &["0", "1"]),
        pick(2, &["0", "1"]),
        pick(3, &["0", "1", "64", "512", "4096", "max"]),
        pick(4, &["near", "1", "7", "64", "512", "1048576"]),
        pick(5, &["0", "1", "1024", "65536", "max"]),
        pick(6, &["0", "1"]),
        pick(7, &["0", "1"]),
        pick(8, &["0", "1", "4096", "max"]),
        pick(9, &["size", "on", "off"]),
    )
}

/// The first `CASE_BYTES` spell a relayout (`Case`), the next 10 the choices of a plan made
/// through wisdom, the next byte whether a measured plan is made too (on small tensors). Every
/// plan, run on two sources into a destination whose slots all hold a stale value, gives each
/// element where both mappings put it and the pad value in every padding slot.
///
/// ```
/// // Rank 4 (NCHW into NHWC), f32, dims 2x19x5x7, plain lists, then choices, then measure.
/// let mut input = vec![2, 3, 0, 2, 2, 19, 5, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
/// input.extend([1, 0, 1, 2, 3, 4, 0, 1, 2, 1, 1]);
/// tensor_layout_fuzz_checks::relayout_plan(&input);
/// ```
pub fn relayout_plan(data: &[u8]) {
    let Some(case) = Case::read(data) else { return };
    let rest = &data[CASE_BYTES..];
    let Some(choices) = rest.get(..CHOICE_BYTES) else {
        return;
    };
    let choices: &[u8; CHOICE_BYTES] = choices.try_into().expect("10 bytes");
    let measure = rest.get(CHOICE_BYTES).is_some_and(|b| b % 2 == 1);
    dispatch!(case, check(&case, choices, measure));
}

/// [`relayout_plan`] at element type `T` and rank `R`.
pub(crate) fn check<T: Value, const R: usize>(
    case: &Case,
    choices: &[u8; CHOICE_BYTES],
    measure: bool,
) {
    let Some((ma, mb)) = mappings::<R>(case) else {
        return;
    };
    let sources = [source::<T, R>(ma, 1), source::<T, R>(ma, 2)];
    let mut dst = stale_destination::<T, R>(mb);
    let model = RelayoutPlan::new(&sources[0], &dst).expect("same names and dims");
    let wisdom = wisdom_with(&model, &choices_text(choices));
    let mut plans = vec![
        RelayoutPlan::with_wisdom(&sources[0], &dst, &wisdom).expect("same names and dims"),
        model,
    ];
    if measure && ma.storage_len().max(mb.storage_len()) <= MOST_MEASURED_SLOTS {
        let measured = RelayoutPlan::measured(&sources[0], &mut dst).expect("same names and dims");
        assert_relayout(&sources[0], &dst, &case.to, &|| {
            format!("{case:?}: measuring")
        });
        plans.push(measured);
    }
    for plan in &plans {
        for src in &sources {
            run_and_check(plan, src, &mut dst, case);
        }
    }
}

/// Runs `plan` from `src` into `dst` (every slot made stale first) and checks the result.
pub(crate) fn run_and_check<T: Value, const R: usize>(
    plan: &RelayoutPlan<T, DynChunked<R>, DynChunked<R>>,
    src: &Tensor<T, DynChunked<R>>,
    dst: &mut Tensor<T, DynChunked<R>>,
    case: &Case,
) {
    dst.as_raw_mut().fill(T::of(STALE));
    plan.run(src, dst).expect("the plan's mappings");
    assert_relayout(src, dst, &case.to, &|| {
        format!("{case:?}: {}", plan.explain())
    });
}

/// Wisdom holding `choices` for the relayout of `plan`: the entry `remember` writes, with its
/// choices replaced.
pub(crate) fn wisdom_with<T: Value, const R: usize>(
    plan: &RelayoutPlan<T, DynChunked<R>, DynChunked<R>>,
    choices: &str,
) -> Wisdom {
    let text = remembered_line(plan);
    let mut words = text.split(' ');
    let (key, bytes) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    let text = format!("tensor-layout wisdom 1\n{key} {bytes} {choices}\n");
    let wisdom = Wisdom::parse(&text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    assert_eq!(wisdom.len(), 1);
    wisdom
}

/// The entry line `Wisdom::remember` writes for `plan`.
pub(crate) fn remembered_line<T: Value, const R: usize>(
    plan: &RelayoutPlan<T, DynChunked<R>, DynChunked<R>>,
) -> String {
    let mut wisdom = Wisdom::new();
    wisdom.remember(plan);
    let text = wisdom.to_string();
    text.lines().nth(1).expect("one entry").to_string()
}
