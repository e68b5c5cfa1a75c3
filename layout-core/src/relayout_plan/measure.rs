//! [`RelayoutPlan::measured`]: the cache model's plan and its alternatives timed on the
//! machine at hand, the fastest kept.

use super::{Origin, RelayoutPlan};
use crate::relayout::{Choices, PlanChoices, Streaming};
use crate::storage::{Storage, StorageMut};
use crate::{
    Layout, LayoutError, axes::RelayoutFrom, layouts::SameRankAs, quantized::ChannelZeros,
    tensors::TensorBase,
};
use alloc::vec::Vec;

extern crate std;
use std::time::{Duration, Instant};

/// Rounds of timing: each round runs every candidate once, in turn, so that a slow moment of
/// the machine hits them alike; a candidate's time is its best round.
const ROUNDS: usize = 5;

/// The run prefetch distances a measured plan tries: the other of the model's two (a near
/// one for an L1d of 32 KiB, a far one for 48 KiB and more).
const RUN_PREFETCH_CANDIDATE: usize = 512;
const RUN_PREFETCH_FAR_CANDIDATE: usize = 8 << 10;

/// How much faster than the cache model's plan an alternative must run, in its best round, to
/// be kept: less is within the noise of a few rounds.
const KEEP_IF_FASTER_BY: f64 = 0.05;

impl<T, L1, L2> RelayoutPlan<T, L1, L2>
where
    T: Copy + Send + Sync + 'static,
    L1: Layout + PartialEq,
    L2: SameRankAs<L1> + RelayoutFrom<L1> + PartialEq,
{
    /// Plans the relayout from `src` into `dst` by timing: the cache model's plan and each
    /// alternative choice (stores past the caches or through them, short rows whole or a
    /// column block at a time, one or two lines per visit, near or far source prefetches of
    /// separate lines and of a source run, tiles of overlapping rows realigned or not, crowded
    /// byte columns staged or not) run on these tensors in turn, a few rounds, and the fastest is
    /// kept where it beats the model's by more than the noise (5%). It takes some dozen relayouts' time; keep the
    /// answer in [`Wisdom`](super::Wisdom) to plan without measuring next time.
    ///
    /// `dst` is written (it holds the relayout of `src` when this returns `Ok`).
    ///
    /// # Errors
    /// As for [`RelayoutPlan::new`] and [`RelayoutPlan::run`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let src = Tensor::<f32, onednn::nchw>::from_fn([1, 32, 8, 8], |[_, c, h, w]| (c * 64 + h * 8 + w) as f32);
    /// let mut dst = Tensor::<f32, onednn::nhwc>::zeros([1, 32, 8, 8]);
    /// let plan = RelayoutPlan::measured(&src, &mut dst).unwrap();
    /// assert_eq!(dst.to_row_major(), src.to_row_major());
    /// assert!(plan.explain().ends_with("(measured)") || plan.explain().ends_with("(cache model)"));
    /// ```
    pub fn measured<S1, S2, I>(
        src: &TensorBase<S1, L1, I>,
        dst: &mut TensorBase<S2, L2, I>,
    ) -> Result<Self, LayoutError>
    where
        S1: Storage<Elem = T>,
        S2: StorageMut<Elem = T>,
        I: ChannelZeros<T>,
    {
        let model = Self::new(src, dst)?;
        let mut candidates: Vec<Self> = alternatives(model.made_with)
            .into_iter()
            .map(|choices| {
                Self::with(src.mapping(), dst.mapping(), |_| {
                    (choices, Origin::Measured)
                })
            })
            .collect::<Result<_, _>>()?;
        // The model's plan first, so that it wins ties.
        let plans: Vec<&Self> = core::iter::once(&model).chain(&candidates).collect();
        let mut best = alloc::vec![Duration::MAX; plans.len()];
        plans[0].run(src, dst)?;
        for _ in 0..ROUNDS {
            for (plan, best) in plans.iter().zip(&mut best) {
                let start = Instant::now();
                plan.run(src, dst)?;
                *best = (*best).min(start.elapsed());
            }
        }
        let (fastest, time) = best
            .iter()
            .enumerate()
            .min_by_key(|&(_, time)| *time)
            .map_or((0, best[0]), |(i, &time)| (i, time));
        let faster = time.as_secs_f64() < best[0].as_secs_f64() * (1.0 - KEEP_IF_FASTER_BY);
        drop(plans);
        let mut kept = if fastest > 0 && faster {
            candidates.swap_remove(fastest - 1)
        } else {
            model
        };
        kept.origin = Origin::Measured;
        Ok(kept)
    }
}

/// The choices a measured plan tries beside the model's: each machine-dependent choice turned
/// the other way, one at a time.
fn alternatives(model: PlanChoices) -> Vec<PlanChoices> {
    let c = model.choices;
    let with = |choices| PlanChoices {
        choices,
        streaming: model.streaming,
    };
    let mut out = Vec::new();
    for on in [true, false] {
        out.push(PlanChoices {
            choices: c,
            streaming: Some(Streaming::forced(on, &c)),
        });
    }
    out.push(with(Choices {
        whole_rows: !c.whole_rows,
        ..c
    }));
    out.push(with(Choices {
        lines_per_visit: if c.lines_per_visit == 1 { 4 } else { 1 },
        ..c
    }));
    out.push(with(Choices {
        streamed_prefetch_bytes: match c.streamed_prefetch_bytes {
            Some(_) => None,
            None => Some(512),
        },
        ..c
    }));
    out.push(with(Choices {
        run_prefetch_bytes: if c.run_prefetch_bytes > RUN_PREFETCH_CANDIDATE {
            RUN_PREFETCH_CANDIDATE
        } else {
            RUN_PREFETCH_FAR_CANDIDATE
        },
        ..c
    }));
    out.push(with(Choices {
        stream_one_block_tiles: !c.stream_one_block_tiles,
        ..c
    }));
    out.push(with(Choices {
        sweep_four_byte: !c.sweep_four_byte,
        ..c
    }));
    out.push(with(Choices {
        realign_overlapped_rows: !c.realign_overlapped_rows,
        ..c
    }));
    out.push(with(Choices {
        stage_crowded_columns: !c.stage_crowded_columns,
        ..c
    }));
    out.push(with(Choices {
        stream_short_rows: !c.stream_short_rows,
        ..c
    }));
    out
}
