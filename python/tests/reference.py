"""What a chunked layout's storage holds, computed with NumPy alone (pad, reshape, transpose),
to check the package's relayouts against."""

import numpy as np


def blocks(entries, rank):
    """Each dimension's block: the product of its fixed entries' sizes."""
    out = [1] * rank
    for dim, size in entries:
        if size:
            out[dim] *= size
    return out


def storage_of(logical, entries):
    """The storage of `logical` (shape: the dims in the layout's axis order) in the layout of
    chunk list `entries` ((dim, size) pairs, most major first; size 0: the rest of the dim).

    Each dim is padded with zeros to whole blocks, split into its entries' extents (the rest
    entry's `padded / block`, then each fixed size, in list order: a mixed-radix number, the
    leftmost most significant), and the pieces are put in the list's order."""
    rank = logical.ndim
    block = blocks(entries, rank)
    padded_dims = [-(-d // b) * b for d, b in zip(logical.shape, block)]
    padded = np.pad(logical, [(0, p - d) for d, p in zip(logical.shape, padded_dims)])
    # Split dim by dim, keeping, for each entry of the list, the axis it became.
    split_shape, axis_of_entry = [], [None] * len(entries)
    for dim in range(rank):
        for k, (d, size) in enumerate(entries):
            if d == dim:
                axis_of_entry[k] = len(split_shape)
                split_shape.append(size if size else padded_dims[dim] // block[dim])
    return padded.reshape(split_shape).transpose(axis_of_entry).reshape(-1)


def row_major(layout):
    """The text of the layout with `layout`'s axes stored in row-major order."""
    entries = " ".join(f"{d},0" for d in range(layout.rank))
    word = layout.axes
    return f"{word}: {entries}" if word.isupper() else f"{layout.rank}: {entries}"


def small_dims(layout):
    """Small dims that pad every blocked dim (one more than its block) and keep the rest small."""
    small = [2, 3, 5, 4, 3, 2, 2, 2]
    return tuple(b + 1 if b > 1 else small[d] for d, b in enumerate(blocks(layout.entries, layout.rank)))


def numbered(dims, dtype):
    """An array of `dims` whose elements differ (modulo the type's range) along every axis."""
    return (np.arange(1, int(np.prod(dims)) + 1) % 97).astype(dtype).reshape(dims)
