//! Relayouts out of and into a chunk table (a chunked layout's chunks in separate allocations,
//! in chunk-number order) without a contiguous copy of the whole table: large chunks one at a
//! time ([`alone`]), small ones in bands of whole blocks ([`bands`]), on several threads with
//! the `parallel` feature ([`split`]).

mod alone;
mod bands;
mod by_shape;
mod split;
mod table_rows;

use super::plan::{Band, Grid, Pair, Renumbering, Side};
use super::tuning::{CHUNK_ALONE_BYTES, CHUNK_BAND_BYTES};
use crate::table_chunks::{TableChunks, TableChunksMut};
use crate::{Layout, Mapping, mappings::Coords, mappings::MAX_RANK};

/// Which way a relayout moves a chunk table, with the slots of both sides.
pub(crate) enum TableMove<'s, T> {
    /// Out of the table `chunks` (the source) into `dst_slots`.
    Out {
        chunks: TableChunks<'s, T>,
        dst_slots: &'s mut [T],
    },
    /// Out of `src_slots` into the table `chunks` (the destination).
    In {
        src_slots: &'s [T],
        chunks: TableChunksMut<'s, T>,
    },
}

/// [`copy_into`](super::copy_into) with one side a chunk table as `moves` says: one chunk at a
/// time (`band_bytes` 0) or in bands of at most `band_bytes` (`None`: by the chunks' size).
/// `false` when the chunks are not whole blocks or the other tensor cannot be cut to their
/// boxes: the destination may then hold part of the copy, and the caller writes it all again.
pub(crate) fn copy_table<T, L1, L2>(
    src: &Mapping<L1>,
    dst: &Mapping<L2>,
    to: &Renumbering,
    moves: TableMove<'_, T>,
    pad: T,
    band_bytes: Option<usize>,
) -> bool
where
    T: Copy + Send + Sync + 'static,
    L1: Layout,
    L2: Layout<Index = L1::Index>,
{
    let pair = Pair::of(src, dst, to);
    let Some(table) = (match &moves {
        TableMove::Out { chunks, .. } => Table::of(&pair, src, true, chunks.len()),
        TableMove::In { chunks, .. } => Table::of(&pair, dst, false, chunks.len()),
    }) else {
        return false;
    };
    let alone = table.volume.saturating_mul(size_of::<T>()) >= CHUNK_ALONE_BYTES;
    let band_bytes = band_bytes.unwrap_or(if alone { 0 } else { CHUNK_BAND_BYTES });
    if band_bytes == 0 {
        // The offset in the other tensor of `origin`, in the table's numbering.
        let other_offset = |origin: &[usize; MAX_RANK]| {
            let mut index = L1::Index::splat(0);
            for d in 0..<L1::Index as Coords>::RANK {
                index[d] = origin[table.other_dims[d]];
            }
            if table.is_src {
                dst.offset(index)
            } else {
                src.offset(index)
            }
        };
        alone::move_chunks(&table, moves, pad, other_offset)
    } else {
        bands::move_bands(&table, src, moves, pad, band_bytes)
    }
}

/// A relayout with a chunk table on one side: the pair, the grid of the table's chunks (boxes
/// in the table's numbering), their volume, and which side the table is.
struct Table<'a> {
    pair: &'a Pair,
    grid: Grid,
    volume: usize,
    /// Whether the table is the pair's source (else its destination).
    is_src: bool,
    /// Per dimension of the other tensor, the table's dimension it is.
    other_dims: [usize; MAX_RANK],
}

impl<'a> Table<'a> {
    /// The table of `count` chunks laid out by `table`, the source of `pair` (`is_src`) or its
    /// destination; `None` without a [`Grid`] of `count` chunks.
    fn of<L: Layout>(
        pair: &'a Pair,
        table: &Mapping<L>,
        is_src: bool,
        count: usize,
    ) -> Option<Table<'a>> {
        let side = if is_src { &pair.src } else { &pair.dst };
        let grid = Grid::of(side, table.dims().as_ref(), table.layout().chunk_axes())?;
        let mut other_dims = [0; MAX_RANK];
        for (s, &d) in pair.to.iter().enumerate().take(pair.rank) {
            let (table, other) = if is_src { (s, d) } else { (d, s) };
            other_dims[other] = table;
        }
        (grid.count() == count).then(|| Table {
            pair,
            grid,
            volume: table.chunk_volume(),
            is_src,
            other_dims,
        })
    }

    /// The relayout of `band`'s chunks alone: both sides cut to its box, the table's side from
    /// the band's first chunk (base 0), the other's at the box's place in it. `None` when a side
    /// cannot be cut or the table's side does not walk exactly the band's chunks.
    fn cut(&self, band: &Band) -> Option<Pair> {
        let mut pair = self.pair.part(&band.part, self.is_src)?;
        let (table, _) = self.sides(&mut pair);
        let chunks = &band.chunks;
        let slots = chunks.start * self.volume..chunks.end * self.volume;
        if table.slots() != slots {
            return None;
        }
        table.base = 0;
        Some(pair)
    }

    /// The table's side of `pair` (a part of this table's relayout), then the other tensor's.
    fn sides<'p>(&self, pair: &'p mut Pair) -> (&'p mut Side, &'p mut Side) {
        if self.is_src {
            (&mut pair.src, &mut pair.dst)
        } else {
            (&mut pair.dst, &mut pair.src)
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::relayout::copy_into;
    use crate::relayout::test_layouts::{Flat, FourDims, under_miri};
    use alloc::boxed::Box;
    use alloc::vec::Vec;
    use core::fmt::Debug;
    use core::ptr::NonNull;

    /// `slots` cut into chunks of `volume`, each its own allocation, and each one's first slot.
    fn chunked<T: Copy>(slots: &[T], volume: usize) -> (Vec<Box<[T]>>, Vec<NonNull<T>>) {
        let mut chunks: Vec<Box<[T]>> = slots.chunks(volume).map(Box::from).collect();
        let start = |c: &mut Box<[T]>| NonNull::new(c.as_mut_ptr()).unwrap();
        let starts = chunks.iter_mut().map(start).collect();
        (chunks, starts)
    }

    /// Chunks of 2x2x4: 24 of them for the dims below, the last ones cut by the dims.
    type Small = crate::chunked_layout![NHWC; 0,0, 1,0, 2,0, 3,0, 1,2, 2,2, 3,4];
    /// Channels outermost, as oneDNN's `nchw` (the relayouts are transposes).
    type Nchw = crate::chunked_layout![NHWC; 0,0, 3,0, 1,0, 2,0];
    /// Channel blocks of 8, as oneDNN's `nChw8c`.
    type NChw8c = crate::chunked_layout![NHWC; 0,0, 3,0, 1,0, 2,0, 3,8];
    /// Channel blocks of 3, which the table's 4 do not divide.
    type NChw3c = crate::chunked_layout![NHWC; 0,0, 3,0, 1,0, 2,0, 3,3];
    /// Chunks of 2 pixels by 4 channels, channel blocks outside pixel blocks, as HTP's depth-32
    /// layout: each chunk's rows land in pixels of their own in flat NHWC.
    pub(super) type Depth = crate::chunked_layout![NHWC; 0,0, 1,0, 3,0, 2,0, 2,2, 3,4];

    const DIMS: [usize; 4] = [2, 5, 3, 6];

    /// `A`'s table into `B` and back, chunk by chunk (`band_bytes` 0) or in bands, against the
    /// contiguous engine, padding included; `false` when the table did not move this way.
    fn moves<T, A, B>(of: impl Fn(u32) -> T, band_bytes: usize) -> bool
    where
        T: Copy + Send + Sync + PartialEq + Debug + 'static,
        A: FourDims,
        B: FourDims,
    {
        let (to, bands) = (crate::relayout::plan::SAME_ORDER, Some(band_bytes));
        let table = Mapping::<A>::new(DIMS).unwrap();
        let other = Mapping::<B>::new(DIMS).unwrap();
        let volume = table.chunk_volume();
        let slots: Vec<T> = (0..table.storage_len()).map(|i| of(i as u32 + 1)).collect();
        let (_chunks, starts_out) = chunked(&slots, volume);
        let mut want = alloc::vec![of(7); other.storage_len()];
        copy_into(&table, &slots, &other, &mut want, of(0), &to);
        let mut got = alloc::vec![of(9); other.storage_len()];
        let moves = TableMove::Out {
            // SAFETY: the boxes' slots, read only while `_chunks` holds them.
            chunks: unsafe { TableChunks::new(&starts_out, volume) },
            dst_slots: &mut got,
        };
        if !copy_table(&table, &other, &to, moves, of(0), bands) {
            return false;
        }
        assert_eq!(got, want, "out of the table, bands of {band_bytes}");

        let mut back = alloc::vec![of(7); table.storage_len()];
        copy_into(&other, &want, &table, &mut back, of(0), &to);
        let (chunks, starts_in) = chunked(&alloc::vec![of(9); back.len()], volume);
        let moves = TableMove::In {
            src_slots: &want,
            // SAFETY: the boxes' slots, apart, written only through this borrow until read below.
            chunks: unsafe { TableChunksMut::new(&starts_in, volume) },
        };
        assert!(copy_table(&other, &table, &to, moves, of(0), bands));
        let got = chunks.concat();
        assert_eq!(got, back, "into the table, bands of {band_bytes}");
        true
    }

    /// Chunk by chunk and in bands of one chunk up to the whole table, to plain and blocked
    /// layouts, for a plain element type, one moved as bytes and one moved as itself.
    #[test]
    fn tables_move_chunk_by_chunk_and_in_bands_like_contiguous_tensors() {
        let chunk_bytes = 16;
        let wide = |second: u64| move |v: u32| (u64::from(v), second);
        // Under Miri, chunk by chunk, bands of a few chunks, and the whole table.
        let bands = [0, 1, 3 * chunk_bytes, 7 * chunk_bytes, 1 << 20];
        for bytes in under_miri(&bands, &[0, 2, 4]) {
            assert!(moves::<u8, Small, Nchw>(|v| v as u8, bytes));
            assert!(moves::<u8, Small, NChw8c>(|v| v as u8, bytes));
            assert!(moves::<bool, Small, NChw8c>(|v| v % 3 == 0, bytes));
            assert!(moves::<_, Small, Nchw>(wide(1), bytes * 16));
        }
        // Bands whose rows each lie in one chunk, copied straight between the chunks and the
        // other tensor (its padding, and the chunks' past the dims, written as well).
        for bytes in under_miri(&[1, 8, 5 * 8, 1 << 20], &[1, 3]) {
            assert!(moves::<u8, Depth, Flat>(|v| v as u8, bytes));
            assert!(moves::<u16, Depth, NChw8c>(|v| v as u16, bytes * 2));
            assert!(moves::<_, Depth, Flat>(wide(2), bytes * 16));
        }
        // Blocks that do not divide the table's: no chunk by chunk, and bands through the
        // engine's index-driven walk.
        assert!(!moves::<u8, Small, NChw3c>(|v| v as u8, 0));
        assert!(moves::<u8, Small, NChw3c>(|v| v as u8, 3 * chunk_bytes));
    }
}
