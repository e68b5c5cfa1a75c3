//! Transposes of tiles one to four columns or rows wide, too narrow for the blocks (or, at four,
//! faster here): NCHW <-> NHWC of RGB or RGBA images. Where a tile's long side is one run on
//! both sides, it becomes `N` runs zipped into one (or one unzipped into `N`, by the CPU's kernel
//! where [`Pieces`] has one), loops LLVM unrolls; other tiles move element by element.

use super::tile_batch::{TileBatch, move_elements};
use super::transposes::Transposes;

/// How the zipped (or split) pieces of narrow tiles reach the destination.
pub(crate) trait Pieces<T> {
    /// Whether pieces are plain writes through the caches, made in place (assembling each piece
    /// first is slower in the caches).
    const IN_PLACE: bool;

    /// Writes `piece` to `out`, of the same length.
    ///
    /// # Safety
    ///
    /// The CPU runs the implementation's instructions.
    unsafe fn put(out: &mut [T], piece: &[T]);

    /// Splits `input`, rows of `planes.len()` interleaved elements, into `planes` by the
    /// implementation's own kernel; `false` where it has none.
    ///
    /// # Safety
    ///
    /// The CPU runs the implementation's instructions.
    #[inline(always)]
    unsafe fn split(input: &[T], planes: &mut [&mut [T]]) -> bool {
        let _ = (input, planes);
        false
    }

    /// Whether [`split`](Pieces::split) has a kernel for rows of `planes` elements of `T`.
    #[inline(always)]
    fn splits(planes: usize) -> bool {
        let _ = planes;
        false
    }
}

/// Pieces written through the caches, as plain copies: any CPU.
pub(crate) struct Cached;

impl<T: Copy> Pieces<T> for Cached {
    const IN_PLACE: bool = true;

    #[inline(always)]
    unsafe fn put(out: &mut [T], piece: &[T]) {
        out.copy_from_slice(piece);
    }
}

/// Runs `t` if its tiles are at most three columns or rows wide (or four that
/// [zip](four_columns_zip) or [split](four_rows_split) here), pieces written by `P`; else
/// `false`, nothing written. Inlined, so builds with more CPU features compile the loops too.
///
/// # Safety
///
/// The CPU runs `P`'s instructions.
#[inline(always)]
pub(crate) unsafe fn narrow_transpose<T: Copy, P: Pieces<T>>(t: Transposes<'_, T>) -> bool {
    // SAFETY (each arm): passed on from the caller.
    unsafe {
        match (t.batch.cols.len(), t.batch.rows.len()) {
            (1, _) => tiles_of::<T, P, 1>(t),
            (2, _) => tiles_of::<T, P, 2>(t),
            (3, _) => tiles_of::<T, P, 3>(t),
            (4, _) if four_columns_zip::<T, P>(&t.batch) => tiles_of::<T, P, 4>(t),
            (_, 1) => short_tiles_of::<T, P, 1>(t),
            (_, 2) => short_tiles_of::<T, P, 2>(t),
            (_, 3) => short_tiles_of::<T, P, 3>(t),
            (_, 4) if four_rows_split::<T, P>(&t.batch) => short_tiles_of::<T, P, 4>(t),
            _ => return false,
        }
    }
    true
}

/// Whether tiles of four columns (NCHW -> NHWC of RGBA) zip here rather than by blocks: one run
/// on both sides ([`zips_as_one_run`]), of 1- or 2-byte elements, or of 4-byte ones written past
/// the caches (`P` not in place; cached, the blocks are faster).
fn four_columns_zip<T, P: Pieces<T>>(batch: &TileBatch<'_>) -> bool {
    (size_of::<T>() < 4 || !P::IN_PLACE) && zips_as_one_run::<4>(batch)
}

/// Whether `batch`'s tiles of `N` columns are one run on both sides: rows' destination offsets
/// `N` apart (source ones count up by one in every tile), columns' destination offsets `0..N`.
fn zips_as_one_run<const N: usize>(batch: &TileBatch<'_>) -> bool {
    batch.rows_run == Some(N) && batch.cols.iter().zip(0..).all(|(col, c)| col.1 == c)
}

/// Whether tiles of four rows split here rather than through the few-rows stage: one run on both
/// sides, of 1- or 4-byte elements (which LLVM splits by shuffles; 2-byte ones are faster
/// staged) or where [`Pieces::splits`]. Others would go element by element here.
fn four_rows_split<T, P: Pieces<T>>(batch: &TileBatch<'_>) -> bool {
    (matches!(size_of::<T>(), 1 | 4) || P::splits(4))
        && batch.cols_run == Some(4)
        && batch.rows_follow_in_source()
}

/// The tiles of `batch`, `N` rows each (and more than three columns).
///
/// # Safety
///
/// The CPU runs `P`'s instructions.
#[inline(always)]
unsafe fn short_tiles_of<T: Copy, P: Pieces<T>, const N: usize>(t: Transposes<'_, T>) {
    let (dst, d, src, s, batch, _) = t.parts();
    let rows: &[(usize, usize); N] = batch.rows.try_into().expect("N rows");
    let cols = batch.cols;
    let len = cols.len();
    // One run on both sides: columns' source lines N apart, rows' source offsets one apart.
    let run = (batch.cols_run == Some(N) && batch.rows_follow_in_source())
        .then(|| cols.first().copied())
        .flatten();
    for &(tile_s, tile_d) in batch.origins {
        let (s, d) = (s + tile_s, d + tile_d);
        let starts = rows.map(|row| d + row.1 + cols[0].1);
        match run.and_then(|(col_s, _)| Some((col_s, disjoint_runs(dst, starts, len)?))) {
            Some((col_s, mut planes)) => {
                let input = &src[s + rows[0].0 + col_s..][..len * N];
                // SAFETY (each arm): passed on from the caller.
                unsafe {
                    if P::split(input, &mut planes) {
                        continue;
                    }
                    match size_of::<T>() {
                        1 => unzip_planes::<T, P, N, 64>(input, planes),
                        2 => unzip_planes::<T, P, N, 32>(input, planes),
                        _ => unzip_planes::<T, P, N, 16>(input, planes),
                    }
                }
            }
            None => move_elements(dst, d, src, s, rows, cols),
        }
    }
}

/// The `N` runs of `len` slots from `starts`, if they lie in `slots` in order, not overlapping.
fn disjoint_runs<T, const N: usize>(
    mut slots: &mut [T],
    starts: [usize; N],
    len: usize,
) -> Option<[&mut [T]; N]> {
    let mut runs: [Option<&mut [T]>; N] = [(); N].map(|_| None);
    let mut taken = 0;
    for (run, start) in runs.iter_mut().zip(starts) {
        let rest = core::mem::take(&mut slots);
        let rest = rest.get_mut(start.checked_sub(taken)?..)?;
        let (this, after) = rest.split_at_mut_checked(len)?;
        *run = Some(this);
        slots = after;
        taken = start + len;
    }
    Some(runs.map(|run| run.expect("every run taken")))
}

/// The tiles of `batch`, `N` columns each.
///
/// # Safety
///
/// The CPU runs `P`'s instructions.
#[inline(always)]
unsafe fn tiles_of<T: Copy, P: Pieces<T>, const N: usize>(t: Transposes<'_, T>) {
    let (dst, d, src, s, batch, _) = t.parts();
    let cols: &[(usize, usize); N] = batch.cols.try_into().expect("N columns");
    let run = zips_as_one_run::<N>(&batch)
        .then(|| batch.rows.first().copied())
        .flatten();
    for &(tile_s, tile_d) in batch.origins {
        let (s, d) = (s + tile_s, d + tile_d);
        match run {
            Some((first_s, first_d)) => {
                let rows = batch.rows.len();
                let out = &mut dst[d + first_d..][..rows * N];
                let planes: [&[T]; N] =
                    core::array::from_fn(|c| &src[s + first_s + cols[c].0..][..rows]);
                // SAFETY (each arm): passed on from the caller.
                unsafe {
                    match size_of::<T>() {
                        1 => zip_planes::<T, P, N, 64, 256>(out, planes),
                        2 => zip_planes::<T, P, N, 32, 128>(out, planes),
                        _ => zip_planes::<T, P, N, 16, 64>(out, planes),
                    }
                }
            }
            None => move_elements(dst, d, src, s, batch.rows, cols),
        }
    }
}

/// `out[k * N + c] = planes[c][k]`: `N` equal runs interleaved `STEP` rows (64 bytes) at a time
/// from fixed-size pieces LLVM turns into vector shuffles, `N` lines a step written by `P`;
/// `MOST` is `4 * STEP`.
///
/// # Safety
///
/// The CPU runs `P`'s instructions.
#[inline(always)]
unsafe fn zip_planes<T, P, const N: usize, const STEP: usize, const MOST: usize>(
    out: &mut [T],
    planes: [&[T]; N],
) where
    T: Copy,
    P: Pieces<T>,
{
    let rows = out.len() / N;
    let whole = rows / STEP * STEP;
    let (head, tail) = out.split_at_mut(whole * N);
    for (i, chunk) in head.chunks_exact_mut(STEP * N).enumerate() {
        let pieces: [&[T; STEP]; N] =
            core::array::from_fn(|c| planes[c][i * STEP..][..STEP].try_into().expect("STEP rows"));
        // In place, or into a local piece that `P` then writes (past `STEP * N`, unused).
        let mut local = [pieces[0][0]; MOST];
        let zipped: &mut [T] = if P::IN_PLACE {
            chunk
        } else {
            &mut local[..STEP * N]
        };
        for k in 0..STEP {
            for c in 0..N {
                zipped[k * N + c] = pieces[c][k];
            }
        }
        if !P::IN_PLACE {
            // SAFETY: passed on from the caller.
            unsafe { P::put(chunk, &local[..STEP * N]) };
        }
    }
    for (k, row) in tail.chunks_exact_mut(N).enumerate() {
        for (slot, plane) in row.iter_mut().zip(planes) {
            *slot = plane[whole + k];
        }
    }
}

/// `planes[c][k] = input[k * N + c]`: one run split into `N` equal runs, `STEP` rows at a time
/// as [`zip_planes`], each plane's `STEP` elements written by `P`.
///
/// # Safety
///
/// The CPU runs `P`'s instructions.
#[inline(always)]
unsafe fn unzip_planes<T: Copy, P: Pieces<T>, const N: usize, const STEP: usize>(
    input: &[T],
    planes: [&mut [T]; N],
) {
    let rows = input.len() / N;
    let whole = rows / STEP * STEP;
    let mut planes = planes.map(|plane| &mut plane[..rows]);
    let (head, tail) = input.split_at(whole * N);
    for (i, chunk) in head.chunks_exact(STEP * N).enumerate() {
        let chunk: &[T] = chunk;
        for (c, plane) in planes.iter_mut().enumerate() {
            let out: &mut [T; STEP] = (&mut plane[i * STEP..][..STEP])
                .try_into()
                .expect("STEP rows");
            // In place, or into a local piece that `P` then writes.
            let mut local = [chunk[c]; STEP];
            let piece = if P::IN_PLACE { &mut *out } else { &mut local };
            for (k, slot) in piece.iter_mut().enumerate() {
                *slot = chunk[k * N + c];
            }
            if !P::IN_PLACE {
                // SAFETY: passed on from the caller.
                unsafe { P::put(out, &local) };
            }
        }
    }
    for (k, row) in tail.chunks_exact(N).enumerate() {
        for (plane, &value) in planes.iter_mut().zip(row) {
            plane[whole + k] = value;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tile_batch::TileBatch;
    use super::super::tiles::tests::{against_definition, evenly};
    use super::*;
    use crate::relayout::tuning::ROWS;
    use alloc::vec::Vec;

    /// `batch` through the narrow kernels against the definition; they take it iff `takes`.
    fn narrow(batch: TileBatch<'_>, src_len: usize, dst_len: usize, takes: bool, case: &str) {
        let src: Vec<u32> = (0..src_len as u32).collect();
        // SAFETY: plain copies run on any CPU.
        let kernel = |t: Transposes<'_, u32>| unsafe { narrow_transpose::<u32, Cached>(t) };
        let moved = against_definition(batch, &src, (dst_len, u32::MAX), case, kernel);
        assert_eq!(moved, takes, "{case}: taken");
    }

    /// Planes of 37 rows (two steps of 16 and a tail) into rows of one, two and three, as one
    /// run and as listed rows; rows whose blocks jump; two tiles; four columns are not narrow.
    #[test]
    fn narrow_tiles_interleave_their_planes() {
        for n in 1..=3 {
            let (cols, rows) = (evenly(n, 37, 1), evenly(37, 1, n));
            let origins = [(0, 0), (37 * n, 37 * n)];
            for pitch in [Some(n), None] {
                let batch = TileBatch::listed(&origins, &rows, &cols, pitch).runs(pitch, None);
                let case = alloc::format!("{n} columns, pitch {pitch:?}");
                narrow(batch, 2 * 37 * n, 2 * 37 * n, true, &case);
            }
            // Two blocks whose second starts past the first's reach: pitched, but not one run.
            let jumping: Vec<(usize, usize)> = (0..2 * ROWS)
                .map(|r| (r, r * n + if r >= ROWS { 5 } else { 0 }))
                .collect();
            let batch = TileBatch::listed(&[(0, 0)], &jumping, &cols[..n], Some(n));
            let case = alloc::format!("{n} columns, jumping");
            narrow(batch, 37 * n, 2 * ROWS * n + 5, true, &case);
        }
        // The other way: rows of one to three split into planes 40 apart, listed in order and
        // out of order; four only as one run of 4-byte elements (else the few-rows stage's).
        for n in 1..=4 {
            let (cols, rows) = (evenly(37, n, 1), evenly(n, 1, 40));
            let reversed: Vec<(usize, usize)> = rows.iter().rev().copied().collect();
            let origins = [(0, 0), (37 * n, 40 * n)];
            for (rows, cols_run) in [(&rows, Some(n)), (&rows, None), (&reversed, Some(n))] {
                let batch = TileBatch::listed(&origins, rows, &cols, None).runs(None, cols_run);
                let split = n < 4 || (cols_run.is_some() && rows[0].0 == 0);
                let case = alloc::format!("{n} rows {rows:?}, run {cols_run:?}");
                narrow(batch, 2 * 37 * n, 80 * n, split, &case);
            }
        }
        let (rows, cols) = (evenly(4, 1, 4), evenly(4, 5, 1));
        let wide = TileBatch::listed(&[(0, 0)], &rows, &cols, None).runs(Some(4), Some(5));
        narrow(wide, 19, 16, false, "4 x 4");
    }
}
