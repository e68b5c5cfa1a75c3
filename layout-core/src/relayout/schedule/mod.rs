//! How a plan runs ([`copy`]): the walk of the destination's loops ([`walk`]), which stores go
//! past the caches ([`streaming`]), and the split across threads (the `parallel` feature).

mod copy;
#[cfg(feature = "parallel")]
mod parallel;
#[cfg(feature = "std")]
mod recent;
mod streaming;
mod walk;

pub(crate) use copy::{Description, Job, KernelKind, Planned, run};
#[cfg(feature = "parallel")]
pub(crate) use parallel::threads_for;
#[cfg(feature = "std")]
pub(crate) use recent::with_last_plan;
pub(crate) use streaming::Streaming;
pub(crate) use walk::{RowWalk, SourceOffsets};
