//! Each thread's last plan, kept so that the same relayout called again plans nothing: a small
//! relayout's plan takes longer than moving its bytes. Only with `std` (thread-local storage).

use super::copy::Planned;
use super::streaming::Streaming;
use crate::relayout::choices::Choices;
use crate::relayout::plan::Pair;
use core::cell::RefCell;

extern crate std;

/// Everything a plan depends on: equal keys, equal plans.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key {
    pair: Pair,
    element_bytes: usize,
    dst_bytes: usize,
    streaming: Option<Streaming>,
    choices: Choices,
}

std::thread_local! {
    static LAST: RefCell<Option<(Key, Planned)>> = const { RefCell::new(None) };
}

/// Runs `body` with the plan of this relayout ([`Planned::new`]): this thread's last plan where
/// it is that relayout's, else a new one, kept. `None`, `body` not run, where the relayout moves
/// nothing or the thread's plan is in use (rayon's work stealing can start a relayout on a
/// thread while another waits) or gone: the caller then plans for this call alone.
pub(crate) fn with_last_plan<R>(
    pair: &Pair,
    element_bytes: usize,
    dst_bytes: usize,
    streaming: Option<Streaming>,
    choices: &Choices,
    body: impl FnOnce(&Planned) -> R,
) -> Option<R> {
    LAST.try_with(|last| {
        let mut last = last.try_borrow_mut().ok()?;
        let kept = last.as_ref().is_some_and(|(key, _)| {
            key.element_bytes == element_bytes
                && key.dst_bytes == dst_bytes
                && key.streaming == streaming
                && key.pair == *pair
                && key.choices == *choices
        });
        if !kept {
            let planned = Planned::new(pair, element_bytes, dst_bytes, streaming, *choices)?;
            let key = Key {
                pair: *pair,
                element_bytes,
                dst_bytes,
                streaming,
                choices: *choices,
            };
            *last = Some((key, planned));
        }
        last.as_ref().map(|(_, planned)| body(planned))
    })
    .ok()
    .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relayout::plan::{SAME_ORDER, pair_of};
    use crate::relayout::test_layouts::{Nchw, Nhwc};

    /// `body` on the kept plan of nchw -> nhwc on `dims`, 4-byte elements into `dst_bytes`.
    fn with_plan<R>(
        dims: [usize; 4],
        dst_bytes: usize,
        streaming: Option<Streaming>,
        body: impl FnOnce(&Planned) -> R,
    ) -> Option<R> {
        let pair = pair_of::<Nchw, Nhwc>(dims, &SAME_ORDER);
        with_last_plan(&pair, 4, dst_bytes, streaming, &Choices::DEFAULT, body)
    }

    /// The same relayout again takes the kept plan (the same object); another shape, or the
    /// same one inside a running relayout's plan, does not.
    #[test]
    fn the_same_relayout_reuses_the_last_plan() {
        let at = |dims| with_plan(dims, 4096, None, |p| core::ptr::from_ref(p).addr());
        let first = at([1, 16, 8, 8]).unwrap();
        assert_eq!(at([1, 16, 8, 8]), Some(first));
        // Inside the kept plan's use, a relayout on this thread plans for itself.
        let inner = with_plan([1, 16, 8, 8], 4096, Some(Streaming::ALL), |_| {
            with_plan([1, 16, 8, 8], 4096, None, |_| ())
        });
        assert_eq!(inner, Some(None));
        assert_eq!(with_plan([1, 0, 8, 8], 0, None, |_| ()), None);
        assert!(at([2, 16, 8, 8]).is_some());
    }
}
