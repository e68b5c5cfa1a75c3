//! `RelayoutPlan`: a plan made once gives what `relayout_into` gives, on every tensor of its
//! mappings, whatever choices it was made with (the cache model's, measured, or any wisdom);
//! tensors of other mappings are refused, naming both.

use half::f16;
use std::sync::Arc;
use tensor_layout::axes::RelayoutFrom;
use tensor_layout::plans::Wisdom;
use tensor_layout::prelude::*;

/// `src` relayouted into a new `B` by `relayout`: the reference every plan must equal.
fn reference<T, A, B>(src: &Tensor<T, A>) -> Tensor<T, B>
where
    T: tensor_layout::tensors::Element + Default + Send + Sync + 'static,
    A: Layout<Index = [usize; 4]>,
    B: Layout<Index = [usize; 4]> + RelayoutFrom<A> + Default,
{
    src.relayout::<B>()
}

/// The wisdom of `plan` with each choice turned to each value it may take: every line a plan
/// could be made with, so that each runs.
fn every_choice<T, A, B>(plan: &RelayoutPlan<T, A, B>) -> Vec<Wisdom>
where
    T: tensor_layout::tensors::Element + Send + Sync + 'static,
    A: Layout<Index = [usize; 4]> + PartialEq,
    B: Layout<Index = [usize; 4]> + RelayoutFrom<A> + PartialEq,
{
    let mut wisdom = Wisdom::new();
    wisdom.remember(plan);
    let text = wisdom.to_string();
    let (header, entry) = text.trim_end().split_once('\n').unwrap();
    let variants: [(&str, &[&str]); 13] = [
        ("lines", &["1", "2", "4"]),
        ("whole", &["0", "1"]),
        ("one-block", &["0", "1"]),
        ("apart", &["0", "512", "max"]),
        ("far", &["near", "1", "512"]),
        ("run", &["512", "8192"]),
        ("below", &["0", "1024", "max"]),
        ("short", &["0", "1"]),
        ("sweep", &["0", "1"]),
        ("realign", &["0", "1"]),
        ("stage", &["0", "1"]),
        ("parallel-from", &["0", "max"]),
        ("stream", &["size", "on", "off"]),
    ];
    let mut out = Vec::new();
    for (name, values) in variants {
        for value in values {
            let line: Vec<String> = entry
                .split(' ')
                .map(|word| match word.split_once('=') {
                    Some((n, _)) if n == name => format!("{name}={value}"),
                    _ => word.to_string(),
                })
                .collect();
            out.push(Wisdom::parse(&format!("{header}\n{}\n", line.join(" "))).unwrap());
        }
    }
    out
}

/// A plan of `A -> B` on `dims`: run on the tensor it was made from and on another of the same
/// mappings, made with the cache model's choices and with every choice of [`every_choice`],
/// it gives the destination `relayout` gives, padding included.
fn check<T, A, B>(dims: [usize; 4], of: fn(usize) -> T)
where
    T: tensor_layout::tensors::Element
        + Default
        + PartialEq
        + std::fmt::Debug
        + Send
        + Sync
        + 'static,
    A: Layout<Index = [usize; 4]> + Default + PartialEq,
    B: Layout<Index = [usize; 4]> + RelayoutFrom<A> + Default + PartialEq,
{
    let mut count = 0;
    let src = Tensor::<T, A>::from_fn(dims, |[n, c, h, w]| {
        count += 1;
        of(count + n + c + h + w)
    });
    let other = Tensor::<T, A>::from_fn(dims, |[n, c, h, w]| of(7 * n + 5 * c + 3 * h + w));
    let dst_dims = reference::<T, A, B>(&src).dims();
    let mut dst = Tensor::<T, B>::zeros(dst_dims);
    let plan = RelayoutPlan::new(&src, &dst).unwrap();
    let mut plans = vec![plan];
    for wisdom in every_choice(&plans[0]) {
        plans.push(RelayoutPlan::with_wisdom(&src, &dst, &wisdom).unwrap());
    }
    for plan in &plans {
        for tensor in [&src, &other] {
            dst.as_raw_mut().fill(of(0xAB));
            plan.run(tensor, &mut dst).unwrap();
            let want = reference::<T, A, B>(tensor);
            assert_eq!(dst.as_raw(), want.as_raw(), "{dims:?}: {}", plan.explain());
        }
    }
}

#[test]
fn plans_give_what_relayout_into_gives_whatever_their_choices() {
    check::<f32, onednn::nchw, onednn::nhwc>([2, 19, 5, 7], |i| i as f32);
    check::<f32, onednn::nhwc, onednn::nchw>([1, 40, 6, 9], |i| i as f32);
    check::<f32, onednn::nchw, onednn::nChw16c>([2, 20, 3, 5], |i| i as f32);
    check::<f32, onednn::nChw16c, onednn::nchw>([1, 33, 4, 4], |i| i as f32);
    check::<f32, onednn::oihw, onednn::OIhw16i16o>([17, 20, 3, 3], |i| i as f32);
    check::<u8, onednn::nchw, onednn::nhwc>([1, 67, 8, 9], |i| i as u8);
    check::<u8, onednn::nhwc, onednn::nchw>([2, 3, 5, 37], |i| i as u8);
    check::<u8, htp::R4FlatMemoryLayout, htp::R4CroutonLayout>([1, 3, 5, 30], |i| i as u8);
    check::<u8, htp::R4CroutonLayout, htp::R4FlatMemoryLayout>([1, 9, 17, 40], |i| i as u8);
    check::<u8, htp::R4CroutonLayout, onednn::nChw32c>([1, 9, 8, 33], |i| i as u8);
    check::<f16, onednn::nchw, onednn::nChw16c>([1, 17, 4, 5], |i| f16::from_f32(i as f32));
    check::<u16, onednn::nchw, onednn::nhwc>([1, 32, 4, 8], |i| i as u16);
    // Evenly spaced whole blocks: 4-byte ones swept or in bands; bytes whose channel planes
    // lie 4 KiB apart (crowding one L1 set), staged or not.
    check::<f32, onednn::nchw, onednn::nhwc>([1, 48, 16, 16], |i| i as f32);
    check::<u8, onednn::nchw, onednn::nhwc>([1, 128, 64, 64], |i| i as u8);
    // One element; a tensor with no element.
    check::<f32, onednn::nchw, onednn::nhwc>([1, 1, 1, 1], |i| i as f32);
    check::<f32, onednn::nchw, onednn::nhwc>([1, 0, 3, 3], |i| i as f32);
}

#[test]
fn tensors_of_other_mappings_are_refused_naming_both() {
    let src = Tensor::<f32, onednn::nchw>::zeros([1, 16, 4, 4]);
    let mut dst = Tensor::<f32, onednn::nhwc>::zeros([1, 16, 4, 4]);
    let plan = RelayoutPlan::new(&src, &dst).unwrap();
    let wide = Tensor::<f32, onednn::nchw>::zeros([1, 16, 4, 5]);
    let err = plan.run(&wide, &mut dst).unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, LayoutError::Mismatch { .. }), "{err:?}");
    assert!(
        text.contains("[1, 16, 4, 4]") && text.contains("[1, 16, 4, 5]"),
        "{text}"
    );
    let mut wide_dst = Tensor::<f32, onednn::nhwc>::zeros([1, 16, 4, 5]);
    let err = plan.run(&src, &mut wide_dst).unwrap_err();
    assert!(matches!(err, LayoutError::Mismatch { .. }), "{err:?}");
    assert!(
        wide_dst.as_raw().iter().all(|&v| v == 0.0),
        "left untouched"
    );
    // A plan between tensors whose dims do not agree by axis name is not made.
    let err = RelayoutPlan::new(&src, &wide_dst).unwrap_err();
    assert!(matches!(err, LayoutError::ShapeMismatch { .. }), "{err:?}");
}

#[test]
fn measured_plans_keep_their_choices_in_wisdom() {
    let dims = [1, 64, 16, 16];
    let src =
        Tensor::<f32, onednn::nchw>::from_fn(dims, |[_, c, h, w]| (c * 256 + h * 16 + w) as f32);
    let mut dst = Tensor::<f32, onednn::nhwc>::zeros(dims);
    let plan = RelayoutPlan::measured(&src, &mut dst).unwrap();
    assert_eq!(dst.to_row_major(), src.to_row_major());
    assert!(plan.explain().ends_with("(measured)"), "{}", plan.explain());
    let mut wisdom = Wisdom::new();
    wisdom.remember(&plan);
    let again = Wisdom::parse(&wisdom.to_string()).unwrap();
    assert_eq!(again, wisdom);
    let planned = RelayoutPlan::with_wisdom(&src, &dst, &again).unwrap();
    let (measured, from_wisdom) = (plan.explain(), planned.explain());
    assert_eq!(
        measured.trim_end_matches("(measured)"),
        from_wisdom.trim_end_matches("(wisdom)")
    );
    // Wisdom for another relayout leaves the model's choices.
    let other = Tensor::<f32, onednn::nchw>::zeros([1, 64, 16, 8]);
    let other_dst = Tensor::<f32, onednn::nhwc>::zeros([1, 64, 16, 8]);
    let plan = RelayoutPlan::with_wisdom(&other, &other_dst, &again).unwrap();
    assert!(plan.explain().ends_with("(cache model)"));
}

#[test]
fn one_plan_runs_on_many_threads_at_once() {
    static_assertions::assert_impl_all!(
        RelayoutPlan<f32, onednn::nchw, onednn::nhwc>: Send, Sync
    );
    static_assertions::assert_impl_all!(Wisdom: Send, Sync);
    let dims = [2, 24, 9, 11];
    let src = Arc::new(Tensor::<f32, onednn::nchw>::from_fn(
        dims,
        |[n, c, h, w]| (n * 10_000 + c * 100 + h * 11 + w) as f32,
    ));
    let plan =
        Arc::new(RelayoutPlan::new(&*src, &Tensor::<f32, onednn::nhwc>::zeros(dims)).unwrap());
    let want = reference::<f32, onednn::nchw, onednn::nhwc>(&src);
    std::thread::scope(|scope| {
        for _ in 0..4 {
            let (src, plan, want) = (Arc::clone(&src), Arc::clone(&plan), &want);
            scope.spawn(move || {
                let mut dst = Tensor::<f32, onednn::nhwc>::zeros(dims);
                for _ in 0..50 {
                    plan.run(&src, &mut dst).unwrap();
                    assert_eq!(dst.as_raw(), want.as_raw());
                }
            });
        }
    });
}
