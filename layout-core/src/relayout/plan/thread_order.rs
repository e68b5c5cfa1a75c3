//! The loop order a relayout shared among threads needs: an outermost loop whose digits own
//! disjoint, contiguous blocks of the destination, one per piece of the `parallel` split, which
//! row copies in source order can lack (croutons into nChw32c).

use super::loops::{Kernel, Level, Plan};
use super::pair::loops_reach;

/// One past the largest destination offset the digits of `levels` add up to: a loop owns
/// disjoint contiguous destination blocks when its step is at least this of the loops inside.
pub(crate) fn destination_reach(levels: &[Level]) -> usize {
    loops_reach(levels.iter().map(|l| (l.extent, l.dst)))
}

impl Plan {
    /// Moves the loop that owns contiguous blocks of the destination to the front of a row
    /// copy whose outermost loop does not, so the copy can be shared among threads; the other
    /// loops keep their order. Only where every loop is bound-free, so that only the order of
    /// the visits changes. Returns whether it moved one.
    pub(crate) fn destination_blocks_outermost(&mut self, element_bytes: usize) -> bool {
        let levels = self.levels();
        let free = levels.iter().all(|l| self.free[l.dim]);
        if self.kernel != Kernel::Rows || !free || levels.len() < 3 {
            return false;
        }
        let inner = levels.len() - 1;
        if levels[0].dst >= destination_reach(&levels[1..]) {
            return false;
        }
        let Some(owner) = (1..inner).max_by_key(|&k| levels[k].dst) else {
            return false;
        };
        let reach_of_others =
            destination_reach(&levels[..owner]) + destination_reach(&levels[owner + 1..]) - 1;
        if levels[owner].extent < 2 || levels[owner].dst < reach_of_others {
            return false;
        }
        self.levels[..=owner].rotate_right(1);
        self.kernel_from = self.kernel_start(element_bytes);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relayout::plan::{Renumbering, pair_of};
    use crate::relayout::test_layouts::{Crouton, NChw16c, NChw32c, Nhwc};

    /// NHWC into NCHW: dimension `d` of the source is dimension `TO_NCHW[d]` of the destination.
    const TO_NCHW: Renumbering = [0, 2, 3, 1, 4, 5, 6, 7];

    /// Croutons into nChw32c: the channel blocks' loop, which owns each block of 32 channels,
    /// comes to the front, and the row block is listed as long as before.
    #[test]
    fn crouton_to_blocked_channels_puts_channel_blocks_outermost() {
        let mut plan = Plan::new(&pair_of::<Crouton, NChw32c>([1, 64, 64, 256], &TO_NCHW), 1);
        assert_eq!(plan.kernel, Kernel::Rows);
        let levels = plan.levels().to_vec();
        assert!(levels[0].dst < destination_reach(&levels[1..]));
        let listed = plan.listings(1).rows.len();
        assert!(plan.destination_blocks_outermost(1));
        let moved = plan.levels();
        assert_eq!(moved[0].dst, 64 * 64 * 32, "one block of 32 channels");
        assert_eq!(moved[0].dst, destination_reach(&moved[1..]));
        assert_eq!(moved.len(), levels.len());
        for level in &levels {
            assert!(moved.contains(level), "the same loops, reordered");
        }
        assert_eq!(plan.listings(1).rows.len(), listed);
        assert!(!plan.destination_blocks_outermost(1), "in place already");
    }

    /// Plans whose outermost loop owns its blocks already, and transposes, stay as they are.
    #[test]
    fn plans_split_already_stay() {
        let mut rows = Plan::new(&pair_of::<Nhwc, NChw16c>([8, 56, 56, 256], &TO_NCHW), 4);
        let before = rows.levels().to_vec();
        assert!(!rows.destination_blocks_outermost(4));
        assert_eq!(rows.levels(), &before[..]);
        let mut transpose = Plan::new(&pair_of::<Nhwc, NChw32c>([1, 64, 64, 256], &TO_NCHW), 1);
        assert!(matches!(transpose.kernel, Kernel::Transpose { .. }));
        assert!(!transpose.destination_blocks_outermost(1));
    }
}
