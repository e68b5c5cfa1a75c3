//! Many threads at once: 8 threads build relayout plans between random pairs of layouts, share
//! them (`Arc`) and run each other's plans on random tensors, while they remember plans in one
//! `Mutex<Wisdom>`, export it, read it back and plan with it. Every result is checked element
//! by element against both mappings' `index -> offset`. Run under ThreadSanitizer and Miri by
//! `.ci/run`, with fewer rounds and smaller tensors under Miri.

use std::sync::{Arc, Mutex};
use tensor_layout::{
    DynLayout, Mapping, RelayoutPlan, Tensor, dynamic::DynChunked,
    mappings::for_each_row_major_index, plans::Wisdom,
};

/// Threads running at once.
const THREADS: usize = 8;

/// Rounds per thread, each building, sharing and running one plan.
const ROUNDS: usize = if cfg!(miri) { 2 } else { 60 };

/// Largest dim along each axis (N, C, H, W); small under Miri, where every element is slow.
const MOST_DIMS: [usize; 4] = if cfg!(miri) {
    [1, 5, 2, 3]
} else {
    [2, 40, 12, 12]
};

/// Layouts of the axes N, C, H, W (in some order each): plain, blocked by channels, HTP's flat
/// and crouton layouts, a batch-blocked one.
const LAYOUTS: [&str; 8] = [
    "nchw",
    "nhwc",
    "nChw8c",
    "nChw16c",
    "NChw16n16c",
    "R4FlatMemoryLayout",
    "R4CroutonLayout",
    "chwn",
];

type Layout4 = DynChunked<4>;
type Plan = RelayoutPlan<u32, Layout4, Layout4>;

/// A small deterministic generator (SplitMix64), one per thread.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n`.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A plan with the two mappings it was made for and where each source axis lands.
struct Shared {
    plan: Plan,
    src: Mapping<Layout4>,
    dst: Mapping<Layout4>,
    to: [usize; 4],
}

/// The layout named `name`, of rank 4.
fn layout(name: &str) -> Layout4 {
    DynLayout::parse(name).unwrap().ranked::<4>().unwrap()
}

/// For each axis of `a`, its position in `b` (by name).
fn renumbering(a: &Layout4, b: &Layout4) -> [usize; 4] {
    let (wa, wb) = (a.to_dyn().axis_word(), b.to_dyn().axis_word());
    let (wa, wb) = (wa.as_str().as_bytes(), wb.as_str().as_bytes());
    std::array::from_fn(|d| wb.iter().position(|&l| l == wa[d]).unwrap())
}

/// A source tensor of `m` with random elements.
fn random_source(m: Mapping<Layout4>, rng: &mut Rng) -> Tensor<u32, Layout4> {
    let mut t = Tensor::try_filled(m, 0, 0xDEAD).unwrap();
    t.for_each_in_memory_order_mut(|_, v| *v = rng.next() as u32);
    t
}

/// Panics unless `dst` holds each element of `src` where its mapping puts it and 0xFEED (the
/// destination's pad value) in every other slot.
fn assert_relayout(src: &Tensor<u32, Layout4>, dst: &Tensor<u32, Layout4>, to: [usize; 4]) {
    let (ma, mb) = (*src.mapping(), *dst.mapping());
    let mut hit = vec![false; mb.storage_len()];
    for_each_row_major_index(&ma.dims(), |_, index| {
        let index: [usize; 4] = index.try_into().unwrap();
        let mut at = [0; 4];
        for d in 0..4 {
            at[to[d]] = index[d];
        }
        let (from, into) = (ma.offset(index), mb.offset(at));
        hit[into] = true;
        assert_eq!(
            dst.as_raw()[into],
            src.as_raw()[from],
            "{ma:?} -> {mb:?} at {index:?}"
        );
    });
    for (slot, _) in hit.iter().enumerate().filter(|(_, h)| !**h) {
        assert_eq!(dst.as_raw()[slot], 0xFEED, "{mb:?}: padding slot {slot}");
    }
}

/// One thread's rounds: plan a random relayout (with the shared wisdom, read back from its
/// text, or from the cache model), remember it, share it, then run a random shared plan (often
/// another thread's) on a fresh random tensor and check the result.
fn rounds(seed: u64, pool: &Mutex<Vec<Arc<Shared>>>, wisdom: &Mutex<Wisdom>) -> usize {
    let mut rng = Rng(seed);
    let mut checked = 0;
    for _ in 0..ROUNDS {
        let (a, b) = (
            layout(LAYOUTS[rng.below(LAYOUTS.len())]),
            layout(LAYOUTS[rng.below(LAYOUTS.len())]),
        );
        let to = renumbering(&a, &b);
        let dims: [usize; 4] = std::array::from_fn(|d| 1 + rng.below(MOST_DIMS[d]));
        let mut dst_dims = [0; 4];
        for d in 0..4 {
            dst_dims[to[d]] = dims[d];
        }
        let src = Mapping::with_layout(a, dims).unwrap();
        let dst = Mapping::with_layout(b, dst_dims).unwrap();
        let (s, d) = (
            Tensor::<u32, _>::try_filled(src, 0, 0).unwrap(),
            Tensor::<u32, _>::try_filled(dst, 0, 0).unwrap(),
        );
        let plan = match rng.below(3) {
            0 => RelayoutPlan::new(&s, &d).unwrap(),
            // Planned with the shared wisdom, read under the lock.
            1 => RelayoutPlan::with_wisdom(&s, &d, &wisdom.lock().unwrap()).unwrap(),
            // Planned with wisdom read back from the shared wisdom's text, outside the lock.
            _ => {
                let text = wisdom.lock().unwrap().to_string();
                let read = Wisdom::parse(&text).unwrap();
                assert_eq!(read.to_string(), text);
                RelayoutPlan::with_wisdom(&s, &d, &read).unwrap()
            }
        };
        wisdom.lock().unwrap().remember(&plan);
        pool.lock()
            .unwrap()
            .push(Arc::new(Shared { plan, src, dst, to }));
        let shared = {
            let pool = pool.lock().unwrap();
            Arc::clone(&pool[rng.below(pool.len())])
        };
        let src = random_source(shared.src, &mut rng);
        let mut dst = Tensor::try_filled(shared.dst, 0xAAAA_AAAA, 0xFEED).unwrap();
        dst.as_raw_mut().fill(0xAAAA_AAAA);
        shared.plan.run(&src, &mut dst).unwrap();
        assert_relayout(&src, &dst, shared.to);
        checked += 1;
    }
    checked
}

#[test]
fn eight_threads_build_share_and_run_plans_and_wisdom_at_once() {
    let pool = Mutex::new(Vec::new());
    let wisdom = Mutex::new(Wisdom::new());
    let checked: usize = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..THREADS as u64)
            .map(|t| {
                let (pool, wisdom) = (&pool, &wisdom);
                scope.spawn(move || rounds(t + 1, pool, wisdom))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    assert_eq!(checked, THREADS * ROUNDS);
    let pool = pool.into_inner().unwrap();
    assert_eq!(pool.len(), THREADS * ROUNDS);
    // The wisdom every thread wrote to reads back whole, and plans what it remembers.
    let wisdom = wisdom.into_inner().unwrap();
    let read = Wisdom::parse(&wisdom.to_string()).unwrap();
    assert_eq!(read, wisdom);
    assert!(!wisdom.is_empty());
    let shared = &pool[0];
    let mut rng = Rng(99);
    let src = random_source(shared.src, &mut rng);
    let mut dst = Tensor::try_filled(shared.dst, 0, 0xFEED).unwrap();
    let plan = RelayoutPlan::with_wisdom(&src, &dst, &read).unwrap();
    assert!(plan.explain().ends_with("(wisdom)"), "{}", plan.explain());
    plan.run(&src, &mut dst).unwrap();
    assert_relayout(&src, &dst, shared.to);
}
