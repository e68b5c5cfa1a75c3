//! A relayout drawn from bytes: two chunk lists of rank 1 to 4 with named axes in two orders,
//! the dims, the element size; and the check every relayout's result must pass, element by
//! element, against the two mappings' `index -> offset`.

use tensor_layout::{
    DynLayout, Mapping, Tensor, axes::AxisWord, dynamic::DynChunked, layouts::ChunkEntry,
    mappings::for_each_row_major_index,
};

/// Bytes a [`Case`] is read from.
pub const CASE_BYTES: usize = 24;

/// Most storage slots a case's tensors may have (so that one input costs well under a
/// millisecond).
const MOST_SLOTS: usize = 1 << 14;

/// Block sizes an entry may take: small odd ones, and the powers of two the vector kernels
/// are built for.
const SIZES: [usize; 12] = [1, 2, 3, 4, 5, 7, 8, 12, 16, 32, 64, 128];

/// A relayout from `src` to `dst`, both bound to `dims` (in `src`'s axis order).
#[derive(Clone, Debug)]
pub struct Case {
    /// Bytes per element: 1, 2, 4 or 8.
    pub element_bytes: usize,
    /// The source layout.
    pub src: DynLayout,
    /// The destination layout: the same axis names, maybe in another order.
    pub dst: DynLayout,
    /// The dims, in the source's axis order.
    pub dims: Vec<usize>,
    /// For each source axis, its position in the destination.
    pub to: Vec<usize>,
}

impl Case {
    /// The case the first [`CASE_BYTES`] of `data` spell; `None` when `data` is shorter or
    /// spells no valid chunk list.
    pub fn read(data: &[u8]) -> Option<Case> {
        let data = data.get(..CASE_BYTES)?;
        let element_bytes = 1 << (data[0] % 4);
        let rank = usize::from(data[1] % 4) + 1;
        let letters: Vec<u8> = b"NCHW"[..rank].to_vec();
        let src_word = permuted(&letters, data[2]);
        let dst_word = permuted(&letters, data[3]);
        let dims: Vec<usize> = data[4..4 + rank]
            .iter()
            .map(|&b| usize::from(b % 40))
            .collect();
        let src = list(&src_word, &data[8..16])?;
        let dst = list(&dst_word, &data[16..24])?;
        let to = src_word
            .iter()
            .map(|l| dst_word.iter().position(|m| m == l).expect("same letters"))
            .collect();
        Some(Case {
            element_bytes,
            src,
            dst,
            dims,
            to,
        })
    }

    /// The destination's dims: the source's in the destination's axis order.
    pub fn dst_dims(&self) -> Vec<usize> {
        let mut out = vec![0; self.dims.len()];
        for (d, &p) in self.to.iter().enumerate() {
            out[p] = self.dims[d];
        }
        out
    }
}

/// `letters` in the order numbered `code` (modulo the number of orders).
fn permuted(letters: &[u8], code: u8) -> Vec<u8> {
    let mut left = letters.to_vec();
    let mut code = usize::from(code);
    let mut out = Vec::with_capacity(letters.len());
    while !left.is_empty() {
        let i = code % left.len();
        code /= left.len();
        out.push(left.remove(i));
    }
    out
}

/// A chunk list over the axes `word`: the rest entries in a byte-chosen order, then up to 3
/// fixed entries of the [`SIZES`].
fn list(word: &[u8], bytes: &[u8]) -> Option<DynLayout> {
    let rank = word.len();
    let dims: Vec<u8> = (0..rank as u8).collect();
    let mut entries: Vec<ChunkEntry> = permuted(&dims, bytes[0])
        .into_iter()
        .map(|dim| ChunkEntry {
            dim: usize::from(dim),
            size: 0,
        })
        .collect();
    let fixed = usize::from(bytes[1] % 4);
    for pair in bytes[2..].chunks(2).take(fixed) {
        if let [dim, size] = pair {
            entries.push(ChunkEntry {
                dim: usize::from(*dim) % rank,
                size: SIZES[usize::from(*size) % SIZES.len()],
            });
        }
    }
    let word = AxisWord::new(std::str::from_utf8(word).ok()?).ok()?;
    DynLayout::named(word, &entries).ok()
}

/// Element values of every size the engine moves, from a number.
pub trait Value:
    tensor_layout::tensors::Element + PartialEq + std::fmt::Debug + Send + Sync + 'static
{
    /// The value of `n` (its low bytes).
    fn of(n: u64) -> Self;
}

macro_rules! value {
    ($($t:ty),*) => {$(
        impl Value for $t {
            fn of(n: u64) -> Self {
                n as $t
            }
        }
    )*};
}
value!(u8, u16, u32, u64);

/// What the source's padding holds.
pub const SRC_PAD: u64 = 0x5a5a_5a5a_5a5a_5a5a;
/// What the destination's padding must hold after a relayout.
pub const DST_PAD: u64 = 0x3c3c_3c3c_3c3c_3c3c;
/// What a destination holds in every slot before a relayout (neither pad value).
pub const STALE: u64 = 0xa5a5_a5a5_a5a5_a5a5;

/// The case's two mappings at rank `R`; `None` when the storage is larger than the fuzz
/// targets move.
pub fn mappings<const R: usize>(
    case: &Case,
) -> Option<(Mapping<DynChunked<R>>, Mapping<DynChunked<R>>)> {
    let a = case.src.ranked::<R>().ok()?;
    let b = case.dst.ranked::<R>().ok()?;
    let ma = Mapping::with_layout(a, case.dims.clone().try_into().ok()?).ok()?;
    let mb = Mapping::with_layout(b, case.dst_dims().try_into().ok()?).ok()?;
    (ma.storage_len() <= MOST_SLOTS && mb.storage_len() <= MOST_SLOTS).then_some((ma, mb))
}

/// A source tensor whose elements differ with `salt` and from their neighbours.
pub fn source<T: Value, const R: usize>(
    m: Mapping<DynChunked<R>>,
    salt: u64,
) -> Tensor<T, DynChunked<R>> {
    let mut t = Tensor::try_filled(m, T::of(0), T::of(SRC_PAD)).expect("small storage");
    let mut k = salt.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    t.for_each_in_memory_order_mut(|_, v| {
        k = k
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        *v = T::of(k >> 24);
    });
    t
}

/// A destination of `m` whose pad value is [`DST_PAD`] and every slot [`STALE`].
pub fn stale_destination<T: Value, const R: usize>(
    m: Mapping<DynChunked<R>>,
) -> Tensor<T, DynChunked<R>> {
    let mut t = Tensor::try_filled(m, T::of(STALE), T::of(DST_PAD)).expect("small storage");
    t.as_raw_mut().fill(T::of(STALE));
    t
}

/// Panics unless `dst` holds, at the destination offset of every index, what `src` holds at its
/// source offset (axis `d` of the source being axis `to[d]` of the destination), and
/// [`DST_PAD`] in every slot no index maps to. `what` names the plan in the message.
pub fn assert_relayout<T: Value, const R: usize>(
    src: &Tensor<T, DynChunked<R>>,
    dst: &Tensor<T, DynChunked<R>>,
    to: &[usize],
    what: &dyn Fn() -> String,
) {
    let (ma, mb) = (*src.mapping(), *dst.mapping());
    let mut hit = vec![false; mb.storage_len()];
    for_each_row_major_index(&ma.dims(), |_, index| {
        let index: [usize; R] = index.try_into().expect("rank R");
        let mut at = [0; R];
        for d in 0..R {
            at[to[d]] = index[d];
        }
        let (from, into) = (ma.offset(index), mb.offset(at));
        assert!(!hit[into], "{}: two indices land on slot {into}", what());
        hit[into] = true;
        assert_eq!(
            dst.as_raw()[into],
            src.as_raw()[from],
            "{}: index {index:?} (slot {from}) into {at:?} (slot {into})",
            what()
        );
    });
    for (slot, _) in hit.iter().enumerate().filter(|(_, h)| !**h) {
        assert_eq!(
            dst.as_raw()[slot],
            T::of(DST_PAD),
            "{}: padding slot {slot}",
            what()
        );
    }
}
