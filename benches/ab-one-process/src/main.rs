//! One process, two libraries: each pair's relayout by an older commit's library (`old`) and by
//! the working tree's (`new`: `relayout_into`, and a plan made once), alternating call by call
//! (every other round in the reverse order), each call after a memcpy of the pair's bytes that
//! pushes the source out of the caches (as `benches/ab.sh` alternates). Between processes the
//! same build moves by up to half its speed on a virtual machine (where its buffers land in
//! physical memory); within one process both libraries meet the same machine, minute by minute.
//! Prints per pair and contender the best GB/s (source plus destination bytes), its ratio to the
//! best memcpy, and the median.
//!
//! ```sh
//! bash benches/ab_one_process.sh c4b881b [PAIR-FILTER...]
//! ```

use std::time::Instant;

fn best(times: &[f64]) -> f64 {
    times.iter().copied().fold(f64::MAX, f64::min)
}

fn median(times: &mut [f64]) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// Runs one pair: `$t` elements from oneDNN layout `$a` into `$b`, dims `$dims`.
macro_rules! pair {
    ($name:expr, $t:ty, $a:ident, $b:ident, $dims:expr, $rounds:expr) => {{
        let dims: [usize; 4] = $dims;
        let value = |[n, c, h, w]: [usize; 4]| {
            let i = ((n * dims[1] + c) * dims[2] + h) * dims[3] + w;
            (i ^ (i >> 8)) as $t
        };
        let src_new = new::Tensor::<$t, new::onednn::$a>::from_fn(dims, value);
        let mut dst_new = new::Tensor::<$t, new::onednn::$b>::zeros(dims);
        let src_old = old::Tensor::<$t, old::onednn::$a>::from_fn(dims, value);
        let mut dst_old = old::Tensor::<$t, old::onednn::$b>::zeros(dims);
        let bytes = (src_new.as_raw().len() + dst_new.as_raw().len()) * size_of::<$t>();
        let from = vec![1u8; bytes / 2];
        let mut into = vec![0u8; from.len()];
        let plan = new::prelude::RelayoutPlan::new(&src_new, &dst_new).unwrap();
        let mut times: [Vec<f64>; 4] = Default::default();
        for round in 0..$rounds {
            // Every other round in the reverse order: the call that follows one into the same
            // destination runs faster (`new` and `new plan` share `dst_new`), which lifted
            // whichever contender always came right after the other.
            for turn in 0..times.len() {
                let k = if round % 2 == 0 {
                    turn
                } else {
                    times.len() - 1 - turn
                };
                let times = &mut times[k];
                for _ in 0..3 {
                    let m = Instant::now();
                    std::hint::black_box(&mut into[..])
                        .copy_from_slice(std::hint::black_box(&from));
                    let m = m.elapsed().as_secs_f64();
                    let t = Instant::now();
                    match k {
                        0 => src_old.relayout_into(&mut dst_old).unwrap(),
                        1 => src_new.relayout_into(&mut dst_new).unwrap(),
                        2 => plan.run(&src_new, &mut dst_new).unwrap(),
                        _ => {}
                    }
                    let t = t.elapsed().as_secs_f64();
                    times.push(if k == 3 { m } else { t });
                }
            }
        }
        assert!(
            dst_new.as_raw() == dst_old.as_raw(),
            "{}: the two libraries disagree",
            $name
        );
        let gb = |seconds: f64| bytes as f64 / seconds / 1e9;
        let memcpy = gb(best(&times[3]));
        print!("{:30}", $name);
        for (k, label) in ["old", "new", "new plan"].into_iter().enumerate() {
            let fastest = gb(best(&times[k]));
            print!(
                "  {label} {fastest:5.1} ({:.2}x, median {:5.1})",
                fastest / memcpy,
                gb(median(&mut times[k]))
            );
        }
        println!("  memcpy {memcpy:5.1}");
    }};
}

fn main() {
    let rounds: usize = std::env::var("AB_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8);
    let wanted: Vec<String> = std::env::args().skip(1).collect();
    let on = |name: &str| wanted.is_empty() || wanted.iter().any(|w| name.contains(w.as_str()));
    macro_rules! pairs {
        ($($t:ty, $a:ident, $b:ident, [$n:expr, $c:expr, $h:expr, $w:expr];)+) => {$(
            let name = format!("{} {}x{}x{}x{} {}->{}", stringify!($t), $n, $c, $h, $w, stringify!($a), stringify!($b));
            if on(&name) { pair!(name, $t, $a, $b, [$n, $c, $h, $w], rounds); }
        )+};
    }
    pairs! {
        f32, nchw, nhwc, [8, 256, 56, 56];
        f32, nhwc, nchw, [8, 256, 56, 56];
        f32, nchw, nhwc, [8, 256, 55, 55];
        f32, nchw, nhwc, [8, 256, 3136, 1];
        f32, nchw, nhwc, [8, 1024, 32, 32];
        f32, nchw, nChw16c, [8, 256, 56, 56];
        f32, nChw16c, nchw, [8, 256, 56, 56];
        u16, nchw, nChw16c, [8, 256, 56, 56];
        u8, nchw, nhwc, [8, 256, 56, 56];
        u8, nhwc, nchw, [8, 256, 56, 56];
        f32, nhwc, nchw, [32, 24, 112, 112];
        u8, nhwc, nchw, [32, 2, 224, 224];
        u8, nhwc, nchw, [32, 3, 224, 224];
        u8, nhwc, nchw, [32, 4, 224, 224];
        u8, nhwc, nchw, [4, 4, 224, 224];
        f32, nchw, nhwc, [1, 256, 56, 56];
        f32, nhwc, nchw, [1, 256, 56, 56];
        f32, nhwc, nchw, [8, 255, 56, 56];
        f32, nhwc, nchw, [8, 256, 55, 55];
        f32, nhwc, nchw, [8, 256, 3136, 1];
        f32, nhwc, nchw, [8, 256, 32, 32];
        u8, nchw, nhwc, [4, 256, 56, 56];
        u8, nhwc, nchw, [4, 256, 56, 56];
        u8, nhwc, nchw, [8, 256, 32, 32];
        u8, nchw, nhwc, [8, 256, 64, 64];
        u8, nchw, nhwc, [2, 256, 64, 64];
        f32, nchw, nhwc, [8, 17, 230, 230];
        u16, nchw, nhwc, [2, 256, 56, 56];
        u16, nhwc, nchw, [2, 256, 56, 56];
    }
}
