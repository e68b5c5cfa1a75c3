//! Plans by the shape of the box they move, for chunks and bands alike: boxes of one shape run
//! one plan, each from its own bases.

use crate::relayout::plan::Pair;
use alloc::vec::Vec;

/// Plans of type `P` by a shape of type `K`, at most `most` of them kept.
pub(super) struct PlansByShape<K, P> {
    /// Each kept shape and its plan, in order of first use.
    kept: Vec<(K, P)>,
    /// Most shapes kept: past them, each new shape is planned on its own.
    most: usize,
    /// The plan of the latest shape past `most`.
    unkept: Option<P>,
}

impl<K: PartialEq, P> PlansByShape<K, P> {
    /// No plans yet, at most `most` to keep.
    pub(super) fn new(most: usize) -> Self {
        PlansByShape {
            kept: Vec::new(),
            most,
            unkept: None,
        }
    }

    /// The plan of `shape`, and its index among the kept ones (`None` past `most`): made by
    /// `plan(&shape)` unless the shape is kept already. `None` when `plan` fails.
    pub(super) fn of(
        &mut self,
        shape: K,
        plan: impl FnOnce(&K) -> Option<P>,
    ) -> Option<(Option<usize>, &P)> {
        let at = match self.kept.iter().position(|(known, _)| *known == shape) {
            Some(at) => at,
            None if self.kept.len() < self.most => {
                let plan = plan(&shape)?;
                self.kept.push((shape, plan));
                self.kept.len() - 1
            }
            None => return Some((None, self.unkept.insert(plan(&shape)?))),
        };
        Some((Some(at), &self.kept[at].1))
    }

    /// The kept plans, in order of their indices.
    pub(super) fn into_kept(self) -> impl Iterator<Item = P> {
        self.kept.into_iter().map(|(_, plan)| plan)
    }
}

impl<P> PlansByShape<Pair, P> {
    /// The plan of the shape of the cut relayout `cut` (`cut` with bases 0), made by
    /// `plan(shape)` unless the shape is kept already.
    pub(super) fn of_cut(&mut self, cut: &Pair, plan: impl FnOnce(&Pair) -> P) -> &P {
        let mut shape = *cut;
        (shape.src.base, shape.dst.base) = (0, 0);
        match self.of(shape, |shape| Some(plan(shape))) {
            Some((_, plan)) => plan,
            None => unreachable!("the plan of a cut is always made"),
        }
    }
}
