//! A whole relayout: the plan, its listings, and the walk of the destination; and plans made
//! once ([`Planned`]) and run again, such as from each chunk of a chunk table.

use super::streaming::Streaming;
use super::walk::{Nest, RowWalk, SourceOffsets};
use crate::mappings::MAX_RANK;
use crate::relayout::choices::Choices;
use crate::relayout::kernels::{Element, Reach, rows_go_whole};
use crate::relayout::plan::{Kernel, Listings, Pair, Plan, Point};

/// A whole relayout planned once for one pair of mappings, element size and set of choices
/// ([`ready`]): running it again on other slots of the same shapes plans nothing.
#[derive(Clone, Debug)]
pub(crate) struct Planned {
    pub(super) plan: Plan,
    pub(super) listings: Listings,
    reach: Reach,
    streaming: Streaming,
    choices: Choices,
    element_bytes: usize,
}

impl Planned {
    /// The plan of the copy `pair` describes into a destination of `dst_bytes`; `streaming`
    /// overrides the choice of stores past the caches. `None` when it moves nothing.
    pub(crate) fn new(
        pair: &Pair,
        element_bytes: usize,
        dst_bytes: usize,
        streaming: Option<Streaming>,
        choices: Choices,
    ) -> Option<Planned> {
        if pair.dims[..pair.rank].contains(&0) {
            return None;
        }
        let mut plan = Plan::new(pair, element_bytes);
        let (listings, reach, streaming) =
            ready(&mut plan, element_bytes, dst_bytes, streaming, &choices);
        Some(Planned {
            reach,
            plan,
            listings,
            streaming,
            choices,
            element_bytes,
        })
    }

    /// The copy `pair` (bases 0) describes, planned to run from many bases (a chunk table's
    /// chunks and their boxes) on the calling thread, the table's pieces being what threads
    /// share; rows spread in the source ask for it `source_ahead` on. `None` when it moves
    /// nothing or cannot follow by additions.
    pub(crate) fn from_any_base(
        pair: &Pair,
        element_bytes: usize,
        streaming: Streaming,
        source_ahead: usize,
    ) -> Option<Planned> {
        let choices = Choices {
            min_parallel_bytes: usize::MAX,
            ..Choices::of_this_machine()
        };
        let mut planned = Planned::new(pair, element_bytes, 0, Some(streaming), choices)?;
        if planned.plan.kernel == Kernel::Indexed {
            return None;
        }
        // Rows not spread ask for nothing ahead already ([`Plan::listings`]).
        if planned.listings.rows_spread {
            planned.listings.row_source_ahead = source_ahead;
        }
        Some(planned)
    }

    /// This plan as a row walk; `None` unless it copies rows with loops outside the row and no
    /// bounds outside the row block.
    pub(crate) fn row_walk(&self) -> Option<RowWalk<'_>> {
        let plan = &self.plan;
        if plan.kernel != Kernel::Rows || plan.len < 2 {
            return None;
        }
        // Bounds that could differ from block to block: the walk cannot list them once.
        let outer = &plan.levels[..plan.kernel_from];
        let row_bounded = !plan.free[plan.levels[plan.len - 1].dim];
        if outer.iter().any(|level| !plan.free[level.dim]) || (row_bounded && !outer.is_empty()) {
            return None;
        }
        let (parts, origin) = ((plan, &self.listings, self.reach), [0; MAX_RANK + 1]);
        let (streaming, choices, bytes) = (self.streaming, &self.choices, self.element_bytes);
        Some(RowWalk::of(parts, streaming, choices, bytes, &origin))
    }

    /// Runs the plan from `src` into `dst`, `pad` into every padding slot; `offsets` serves
    /// plans that cannot follow the source by additions.
    pub(crate) fn run<E: Element>(
        &self,
        src: &[E],
        dst: &mut [E],
        pad: E,
        offsets: &SourceOffsets<'_>,
    ) {
        let (plan, listings, reach) = (&self.plan, &self.listings, self.reach);
        let (streaming, choices) = (self.streaming, &self.choices);
        walk(
            plan, listings, reach, streaming, choices, src, dst, pad, offsets,
        );
    }

    /// What the plan does: its kernel and the tile it moves, the stores, and the choices.
    pub(crate) fn describe(&self) -> Description {
        let plan = &self.plan;
        let kernel = match plan.kernel {
            _ if plan.len == 0 => KernelKind::Single,
            Kernel::Rows => KernelKind::RowCopies {
                row: plan.levels[plan.len - 1].extent,
            },
            Kernel::Transpose { .. } => KernelKind::Transpose {
                rows: self.listings.rows.len(),
                cols: self.listings.cols.len(),
                tiles: self.listings.tiles.len(),
                whole_rows: rows_go_whole(&self.listings.cols, self.element_bytes, &self.choices),
            },
            Kernel::Strided => KernelKind::Strided,
            Kernel::Indexed => KernelKind::Indexed,
        };
        Description {
            kernel,
            streamed: self.streaming.blocks,
            choices: self.choices,
        }
    }
}

/// What one engine call runs: a relayout planned for this call, `streaming` overriding the
/// choice of stores past the caches; or a plan made before, for `T`'s size.
#[derive(Clone, Copy)]
pub(crate) enum Job<'a> {
    Fresh {
        pair: &'a Pair,
        streaming: Option<Streaming>,
        choices: &'a Choices,
    },
    Planned(&'a Planned),
    /// The one row block of a plan made before ([`RowWalk::is_one_block`]), from both sides'
    /// first slots.
    Rows(&'a RowWalk<'a>),
}

/// What a [`Planned`] relayout does ([`Planned::describe`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Description {
    pub kernel: KernelKind,
    /// Whether its transposes and paired rows write past the caches.
    pub streamed: bool,
    pub choices: Choices,
}

/// The kernel of a plan, with the size of what one call moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KernelKind {
    /// One element.
    Single,
    /// Slice copies of rows of `row` elements (listed per call).
    RowCopies { row: usize },
    /// Cache-blocked transposes of tiles of `rows` by `cols`, `tiles` tiles per call; with
    /// `whole_rows`, every column block of a destination row in one visit.
    Transpose {
        rows: usize,
        cols: usize,
        tiles: usize,
        whole_rows: bool,
    },
    /// One strided element loop.
    Strided,
    /// Each source offset computed from the layout.
    Indexed,
}

/// The engine: plans the copy `pair` describes for elements `E`, then walks the destination.
/// The plan stays where it is made: moving its few KiB into a [`Planned`] costs a small
/// relayout a noticeable share of its time.
pub(crate) fn run<E: Element>(
    pair: &Pair,
    src: &[E],
    dst: &mut [E],
    pad: E,
    offsets: &SourceOffsets<'_>,
    streaming: Option<Streaming>,
    choices: &Choices,
) {
    if pair.dims[..pair.rank].contains(&0) {
        return;
    }
    let (bytes, dst_bytes) = (size_of::<E>(), size_of_val(dst));
    let mut plan = Plan::new(pair, bytes);
    let (listings, reach, streaming) = ready(&mut plan, bytes, dst_bytes, streaming, choices);
    walk(
        &plan, &listings, reach, streaming, choices, src, dst, pad, offsets,
    );
}

/// Readies `plan` to run into a destination of `dst_bytes`: cut for threads where they share
/// it, its listings and their reach made, the stores past the caches chosen.
fn ready(
    plan: &mut Plan,
    element_bytes: usize,
    dst_bytes: usize,
    streaming: Option<Streaming>,
    choices: &Choices,
) -> (Listings, Reach, Streaming) {
    #[cfg(feature = "parallel")]
    if plan.len > 0 {
        super::parallel::cut_for_threads(plan, dst_bytes, element_bytes, choices);
    }
    let mut listings = plan.listings(element_bytes);
    let reach = Reach::of_listed(&listings.rows, &listings.cols);
    let streaming = streaming.unwrap_or_else(|| Streaming::for_destination(dst_bytes, choices));
    // Rows ask for their source ahead only past the caches: through them, the prefetches cost
    // more than they save.
    if !streaming.blocks {
        listings.row_source_ahead = 0;
    }
    (listings, reach, streaming)
}

/// Walks the destination as `plan` says, from `src` into `dst`.
#[allow(clippy::too_many_arguments)] // the plan's parts, both sides' slots, and the pad
fn walk<E: Element>(
    plan: &Plan,
    listings: &Listings,
    reach: Reach,
    streaming: Streaming,
    choices: &Choices,
    src: &[E],
    dst: &mut [E],
    pad: E,
    offsets: &SourceOffsets<'_>,
) {
    if plan.len == 0 {
        dst[plan.dst_base] = src[offsets(&plan.origin)];
        return;
    }
    let nest = Nest {
        plan,
        reach,
        listings,
        src,
        pad,
        streaming,
        choices,
        src_offset_of: offsets,
    };
    #[cfg(feature = "parallel")]
    if super::parallel::run(&nest, dst) {
        return;
    }
    let mut point: Point = [0; MAX_RANK + 1];
    nest.data(dst, 0, plan.src_base, plan.dst_base, &mut point);
}
