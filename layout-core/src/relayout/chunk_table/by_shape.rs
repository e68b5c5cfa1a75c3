//! Plans by the shape of the box they move, for chunks and bands alike: boxes whose cut
//! relayouts agree but for their bases run one plan, each from its own bases.

use crate::relayout::plan::Pair;
use alloc::vec::Vec;

/// Plans of type `P` by shape, at most `most` of them kept.
pub(super) struct PlansByShape<P> {
    /// Each kept shape (a cut relayout, bases 0) and its plan, in order of first use.
    kept: Vec<(Pair, P)>,
    /// Most shapes kept: past them, each new shape is planned on its own.
    most: usize,
    /// The plan of the latest shape past `most`.
    unkept: Option<P>,
}

impl<P> PlansByShape<P> {
    /// No plans yet, at most `most` to keep.
    pub(super) fn new(most: usize) -> Self {
        PlansByShape {
            kept: Vec::new(),
            most,
            unkept: None,
        }
    }

    /// The plan of the shape of the cut relayout `cut`, and its index among the kept ones
    /// (`None` past `most`): made by `plan(shape)`, `shape` being `cut` with bases 0, unless
    /// the shape is kept already.
    pub(super) fn of(&mut self, cut: &Pair, plan: impl FnOnce(&Pair) -> P) -> (Option<usize>, &P) {
        let mut shape = *cut;
        (shape.src.base, shape.dst.base) = (0, 0);
        let at = match self.kept.iter().position(|(known, _)| *known == shape) {
            Some(at) => at,
            None if self.kept.len() < self.most => {
                self.kept.push((shape, plan(&shape)));
                self.kept.len() - 1
            }
            None => return (None, self.unkept.insert(plan(&shape))),
        };
        (Some(at), &self.kept[at].1)
    }

    /// The kept plans, in order of their indices.
    pub(super) fn into_kept(self) -> impl Iterator<Item = P> {
        self.kept.into_iter().map(|(_, plan)| plan)
    }
}
