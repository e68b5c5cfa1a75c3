//! What one transpose call moves: a batch of equal tiles of listed rows by listed columns.

use crate::relayout::choices::Choices;

/// The transposes of one call: `dst[d + at.1 + row.1 + col.1] = src[s + at.0 + row.0 + col.0]`
/// for every `at` of `origins`, `row` of `rows` and `col` of `cols`. The rows' source offsets
/// count up by one, as do the columns' destination offsets.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TileBatch<'a> {
    /// Where each tile starts, relative to the call's `s` and `d`, in destination order.
    pub origins: &'a [(usize, usize)],
    /// The tile's rows, in source order.
    pub rows: &'a [(usize, usize)],
    /// The tile's columns, in destination order.
    pub cols: &'a [(usize, usize)],
    /// `Some(p)` when, in every block of [`ROWS`](crate::relayout::tuning::ROWS) rows, destination
    /// lines are `p` apart ([`Plan::listings`](crate::relayout::plan::Plan::listings) found).
    pub row_pitch: Option<usize>,
    /// `Some(p)` when all the rows' destination offsets are one run `p` apart.
    pub rows_run: Option<usize>,
    /// `Some(p)` when all the columns' source offsets are one run `p` apart.
    pub cols_run: Option<usize>,
    /// The machine-dependent choices the tiles are cut and visited by.
    pub choices: &'a Choices,
}

impl TileBatch<'_> {
    /// Whether the rows' source offsets count up by one: each column's elements of a tile lie
    /// together in the source (NHWC's channels), one run for the narrow kernels and few rows.
    pub(crate) fn rows_follow_in_source(&self) -> bool {
        let rows = self.rows;
        rows.iter().zip(0..).all(|(row, k)| row.0 == rows[0].0 + k)
    }
}

#[cfg(test)]
impl<'a> TileBatch<'a> {
    /// Tiles of listed rows and columns at `origins`, rows `row_pitch` apart in each block, with
    /// no runs known and the default choices.
    pub(crate) fn listed(
        origins: &'a [(usize, usize)],
        rows: &'a [(usize, usize)],
        cols: &'a [(usize, usize)],
        row_pitch: Option<usize>,
    ) -> Self {
        TileBatch {
            origins,
            rows,
            cols,
            row_pitch,
            rows_run: None,
            cols_run: None,
            choices: &Choices::DEFAULT,
        }
    }

    /// This batch with the runs `rows_run` and `cols_run` ([`TileBatch::rows_run`]) known.
    pub(crate) fn runs(self, rows_run: Option<usize>, cols_run: Option<usize>) -> Self {
        TileBatch {
            rows_run,
            cols_run,
            ..self
        }
    }
}

/// One tile, `dst[d + row.1 + col.1] = src[s + row.0 + col.0]` element by element, each index
/// checked: every transpose kernel's fallback for the blocks its fast paths do not take.
#[inline(always)]
pub(crate) fn move_elements<T: Copy>(
    dst: &mut [T],
    d: usize,
    src: &[T],
    s: usize,
    rows: &[(usize, usize)],
    cols: &[(usize, usize)],
) {
    for &(row_s, row_d) in rows {
        for &(col_s, col_d) in cols {
            dst[d + row_d + col_d] = src[s + row_s + col_s];
        }
    }
}
