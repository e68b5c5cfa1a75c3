//! [`RelayoutPlan`]: a relayout planned once and run on any tensors of the same mappings, with
//! its choices taken from the cache model, measured on the machine at hand
//! (`RelayoutPlan::measured`, with the `std` feature), or read back from [`Wisdom`].

#[cfg(test)]
mod described_machines;
#[cfg(feature = "std")]
mod measure;
mod wisdom;

pub use wisdom::Wisdom;

use crate::axis_names::positions;
use crate::relayout::{
    CacheGeometry, Choices, Description, Job, KernelKind, Pair, PlanChoices, Planned, Renumbering,
    run_planned,
};
use crate::storage::{Storage, StorageMut};
use crate::{
    Layout, LayoutError, Mapping, axes::RelayoutFrom, axes::check_convertible, layouts::SameRankAs,
    mappings::Coords, quantized::ChannelZeros, quantized::Interface, tensors::TensorBase,
};
use alloc::format;
use alloc::string::String;
use core::fmt;
use core::marker::PhantomData;

/// A relayout from tensors of one mapping into tensors of another, planned once: the walk,
/// the kernel, the tile sizes and the stores are chosen when the plan is made, and
/// [`RelayoutPlan::run`] only moves data. [`TensorBase::relayout_into`] plans on every call;
/// a plan pays where the same relayout runs many times (a service, a pipeline stage), most
/// on small tensors, whose planning costs more than their bytes take to move.
///
/// Elements move by axis name, as [`TensorBase::relayout`] moves them. Plans are `Send` and
/// `Sync`: one plan (behind an `Arc`, or borrowed by scoped threads) may run on many threads at
/// once, each with its own tensors; running reads the plan and changes nothing in it. The only
/// state shared between plans is this machine's cache geometry and CPU features, read once into
/// atomics, so plans made on many threads at once agree.
///
/// ```
/// use tensor_layout::prelude::*;
/// let src = Tensor::<u8, htp::R4FlatMemoryLayout>::from_fn([1, 8, 8, 32], |[_, h, w, c]| (h * 8 + w + c) as u8);
/// let mut dst = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 8, 8, 32]);
/// let plan = RelayoutPlan::new(&src, &dst).unwrap();
/// plan.run(&src, &mut dst).unwrap();
/// assert_eq!(dst.to_row_major(), src.to_row_major());
/// // Another tensor of the same dims runs on the same plan; other dims do not.
/// let other = Tensor::<u8, htp::R4FlatMemoryLayout>::zeros([1, 8, 8, 31]);
/// assert!(plan.run(&other, &mut dst).is_err());
/// ```
pub struct RelayoutPlan<T, L1: Layout, L2: Layout> {
    src: Mapping<L1>,
    dst: Mapping<L2>,
    to: Renumbering,
    pair: Pair,
    /// `None` for tensors with no element.
    planned: Option<Planned>,
    made_with: PlanChoices,
    origin: Origin,
    element: PhantomData<fn() -> T>,
}

/// Where a plan's choices came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    /// The cache model, from this machine's geometry.
    Model,
    /// Timed on this machine (`RelayoutPlan::measured`, with `std`).
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    Measured,
    /// Read from [`Wisdom`].
    Wisdom,
}

impl<T, L1, L2> RelayoutPlan<T, L1, L2>
where
    T: Copy + Send + Sync + 'static,
    L1: Layout + PartialEq,
    L2: SameRankAs<L1> + RelayoutFrom<L1> + PartialEq,
{
    /// Plans the relayout from tensors shaped as `src` into tensors shaped as `dst` (their
    /// mappings: layout and dims; their data is not read), with the choices the cache model
    /// derives from this machine's caches.
    ///
    /// Layouts whose axes are not the same names do not compile, as for
    /// [`TensorBase::relayout`]; layouts whose names are known only at run time
    /// ([`DynChunked`](crate::dynamic::DynChunked)) are checked here.
    ///
    /// # Errors
    /// [`LayoutError::AxisNames`] when run-time axes are not the same names;
    /// [`LayoutError::ShapeMismatch`] when `dst`'s dims are not `src`'s in `dst`'s axis
    /// order.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let src = Tensor::<f32, onednn::nchw>::zeros([1, 16, 4, 4]);
    /// let dst = Tensor::<f32, onednn::nhwc>::zeros([1, 16, 4, 4]);
    /// let plan = RelayoutPlan::new(&src, &dst).unwrap();
    /// assert!(plan.explain().starts_with("transpose"));
    /// ```
    pub fn new<S1, S2, I>(
        src: &TensorBase<S1, L1, I>,
        dst: &TensorBase<S2, L2, I>,
    ) -> Result<Self, LayoutError>
    where
        S1: Storage<Elem = T>,
        S2: Storage<Elem = T>,
        I: Interface,
    {
        Self::with(src.mapping(), dst.mapping(), |_| {
            (PlanChoices::model(), Origin::Model)
        })
    }

    /// As [`RelayoutPlan::new`], with the choices `wisdom` remembers for this relayout on this
    /// kind of machine where it has them ([`Wisdom::remember`]), else the cache model's.
    ///
    /// # Errors
    /// As for [`RelayoutPlan::new`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::plans::Wisdom;
    /// let src = Tensor::<f32, onednn::nchw>::zeros([1, 16, 4, 4]);
    /// let dst = Tensor::<f32, onednn::nhwc>::zeros([1, 16, 4, 4]);
    /// let plan = RelayoutPlan::with_wisdom(&src, &dst, &Wisdom::new()).unwrap();
    /// assert!(plan.explain().ends_with("(cache model)"));
    /// ```
    pub fn with_wisdom<S1, S2, I>(
        src: &TensorBase<S1, L1, I>,
        dst: &TensorBase<S2, L2, I>,
        wisdom: &Wisdom,
    ) -> Result<Self, LayoutError>
    where
        S1: Storage<Elem = T>,
        S2: Storage<Elem = T>,
        I: Interface,
    {
        Self::with(src.mapping(), dst.mapping(), |pair| {
            match wisdom.choices_for(pair, size_of::<T>()) {
                Some(choices) => (choices, Origin::Wisdom),
                None => (PlanChoices::model(), Origin::Model),
            }
        })
    }

    /// The plan of `src` into `dst` under the choices `choose` picks for the relayout (planned
    /// once, after the choosing).
    fn with(
        src: &Mapping<L1>,
        dst: &Mapping<L2>,
        choose: impl FnOnce(&Pair) -> (PlanChoices, Origin),
    ) -> Result<Self, LayoutError> {
        let () = const { check_convertible::<L1::Names, L2::Names>(<L1::Index as Coords>::RANK) };
        let to = checked_renumbering(src, dst)?;
        let pair = Pair::of(src, dst, &to);
        let (choices, origin) = choose(&pair);
        let bytes = size_of::<T>();
        let dst_bytes = dst.storage_len().saturating_mul(bytes);
        let planned = Planned::new(&pair, bytes, dst_bytes, choices.streaming, choices.choices);
        Ok(RelayoutPlan {
            src: *src,
            dst: *dst,
            to,
            pair,
            planned,
            made_with: choices,
            origin,
            element: PhantomData,
        })
    }

    /// Moves every logical element of `src` into `dst` as planned, and `dst`'s pad value into
    /// every padding slot of `dst`.
    ///
    /// # Errors
    /// [`LayoutError::Mismatch`] when `src` or `dst` has another mapping than the plan was
    /// made for (naming both); [`LayoutError::InterfaceMismatch`] when their interfaces
    /// differ. `dst` is then left untouched.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let src = Tensor::<f32, onednn::nchw>::from_fn([2, 16, 3, 5], |[n, c, h, w]| (n * 1000 + c * 100 + h * 10 + w) as f32);
    /// let mut dst = Tensor::<f32, onednn::nChw16c>::zeros([2, 16, 3, 5]);
    /// let plan = RelayoutPlan::new(&src, &dst).unwrap();
    /// plan.run(&src, &mut dst).unwrap();
    /// assert_eq!(dst[[1, 15, 2, 4]], 2524.0);
    /// ```
    pub fn run<S1, S2, I>(
        &self,
        src: &TensorBase<S1, L1, I>,
        dst: &mut TensorBase<S2, L2, I>,
    ) -> Result<(), LayoutError>
    where
        S1: Storage<Elem = T>,
        S2: StorageMut<Elem = T>,
        I: ChannelZeros<T>,
    {
        if src.mapping() != &self.src {
            return Err(LayoutError::Mismatch {
                expected: described(&self.src),
                found: described(src.mapping()),
            });
        }
        if dst.mapping() != &self.dst {
            return Err(LayoutError::Mismatch {
                expected: described(&self.dst),
                found: described(dst.mapping()),
            });
        }
        if src.interface() != dst.interface() {
            return Err(LayoutError::InterfaceMismatch {
                source: format!("{:?}", src.interface()),
                destination: format!("{:?}", dst.interface()),
            });
        }
        if let Some(planned) = &self.planned {
            let (mapping, pad) = (*dst.mapping(), dst.pad_value());
            let to = &self.to;
            run_planned(
                Job::Planned(planned),
                &self.src,
                src.as_raw(),
                &mapping,
                dst.as_raw_mut(),
                pad,
                to,
            );
        }
        dst.write_channel_padding();
        Ok(())
    }

    /// What the plan does, in one line: its kernel and the size of what one kernel call
    /// moves, whether the destination is written past the caches, the visit order, the
    /// caches it was chosen for, and where its choices came from (the cache model, a
    /// measurement, or wisdom).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let src = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 8, 8, 32]);
    /// let dst = Tensor::<u8, htp::R4FlatMemoryLayout>::zeros([1, 8, 8, 32]);
    /// let plan = RelayoutPlan::new(&src, &dst).unwrap();
    /// assert!(plan.explain().starts_with("row copies"));
    /// ```
    pub fn explain(&self) -> String {
        let Some(planned) = &self.planned else {
            return String::from("nothing to move (a dimension of extent 0)");
        };
        let Description {
            kernel,
            streamed,
            choices,
        } = planned.describe();
        let what = match kernel {
            KernelKind::Single => String::from("one element"),
            KernelKind::RowCopies { row } => format!("row copies of {row} elements"),
            KernelKind::Transpose {
                rows,
                cols,
                tiles,
                whole_rows,
            } => format!(
                "transpose of {rows} x {cols} tiles{}, {}",
                if tiles > 1 {
                    format!(" ({tiles} per call)")
                } else {
                    String::new()
                },
                if whole_rows {
                    String::from("each destination row whole in one visit")
                } else {
                    format!("{} line(s) of each row per visit", choices.lines_per_visit)
                }
            ),
            KernelKind::Strided => String::from("strided element loop"),
            KernelKind::Indexed => String::from("element loop, each source offset computed"),
        };
        let stores = if streamed {
            "destination streamed past the caches"
        } else {
            "through the caches"
        };
        let origin = match self.origin {
            Origin::Model => "cache model",
            Origin::Measured => "measured",
            Origin::Wisdom => "wisdom",
        };
        format!(
            "{what}; {stores}; {}; for {} ({origin})",
            choices_text(&choices),
            geometry_text(&choices.geometry)
        )
    }
}

impl Wisdom {
    /// Remembers the choices `plan` was made with, for its relayout (replacing any it had).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::plans::Wisdom;
    /// let src = Tensor::<u8, onednn::nchw>::zeros([1, 3, 4, 4]);
    /// let dst = Tensor::<u8, onednn::nhwc>::zeros([1, 3, 4, 4]);
    /// let mut wisdom = Wisdom::new();
    /// wisdom.remember(&RelayoutPlan::new(&src, &dst).unwrap());
    /// assert_eq!(wisdom.len(), 1);
    /// ```
    pub fn remember<T, L1, L2>(&mut self, plan: &RelayoutPlan<T, L1, L2>)
    where
        T: Copy + Send + Sync + 'static,
        L1: Layout + PartialEq,
        L2: SameRankAs<L1> + RelayoutFrom<L1> + PartialEq,
    {
        self.insert(&plan.pair, size_of::<T>(), plan.made_with);
    }
}

impl<T, L1: Layout, L2: Layout> fmt::Debug for RelayoutPlan<T, L1, L2> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RelayoutPlan")
            .field("src", &described(&self.src))
            .field("dst", &described(&self.dst))
            .field("origin", &self.origin)
            .field("plan", &self.planned.as_ref().map(Planned::describe))
            .finish()
    }
}

/// Where each axis of `src` lands in `dst`, once the names and the dims agree.
fn checked_renumbering<L1: Layout, L2: SameRankAs<L1>>(
    src: &Mapping<L1>,
    dst: &Mapping<L2>,
) -> Result<Renumbering, LayoutError> {
    let to = positions(&src.layout().axis_word(), &dst.layout().axis_word())?;
    let (dims, dst_dims) = (src.dims(), dst.dims());
    let rank = <L1::Index as Coords>::RANK;
    if (0..rank).any(|d| dims[d] != dst_dims[to[d]]) {
        let mut expected = alloc::vec![0; rank];
        for d in 0..rank {
            expected[to[d]] = dims[d];
        }
        return Err(LayoutError::ShapeMismatch {
            source: expected,
            destination: alloc::vec::Vec::from(dst_dims.as_ref()),
        });
    }
    Ok(to)
}

/// A mapping in words: its layout and dims.
fn described<L: Layout>(mapping: &Mapping<L>) -> String {
    format!("{} of dims {:?}", mapping.layout(), mapping.dims().as_ref())
}

/// The prefetch choice of a plan, in words.
fn choices_text(choices: &Choices) -> String {
    match choices.streamed_prefetch_bytes {
        Some(far) => format!("streamed source prefetched up to {far} bytes ahead"),
        None => String::from("streamed source prefetched near"),
    }
}

/// Cache sizes in words: `L1d 32 KiB 8-way, L2 1 MiB, last level 32 MiB`.
fn geometry_text(g: &CacheGeometry) -> String {
    let size = |bytes: usize| {
        if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
            format!("{} MiB", bytes >> 20)
        } else {
            format!("{} KiB", bytes >> 10)
        }
    };
    format!(
        "L1d {} {}-way, L2 {}{}",
        size(g.l1d.bytes),
        g.l1d.ways,
        size(g.l2_bytes),
        g.last_level
            .map(|bytes| format!(", last level {}", size(bytes)))
            .unwrap_or_default()
    )
}
