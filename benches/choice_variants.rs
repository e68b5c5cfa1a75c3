//! One engine choice against its alternatives, in one process: for each benchmarked pair asked
//! for, the plan the cache model makes, and one plan per variant with one field of its wisdom
//! line changed (`Wisdom`'s text, docs/relayout.md "Wisdom"), timed in turn round after round
//! against memcpy of the same bytes. Before every call a memcpy of twice the source's bytes
//! (into buffers of its own) pushes the tensors out of the caches, as a call in a model's run
//! finds them; the table gives each plan's best and median GB/s (source plus destination), and
//! the memcpy's best. In one process every plan's buffers are the same, which a comparison of
//! builds (`benches/ab.sh`) cannot promise on a virtual machine.
//!
//! `cargo bench --bench choice_variants -- PAIR... FIELD=VALUE...`: each argument with `=` is a
//! variant (`far=near`, `short=0`, `run=8192`), each other one part of a pair's name (quote
//! them in a shell: `'crouton->flat'`). At least one of each. A variant whose field the pair's
//! wisdom does not have is reported and skipped.

use std::hint::black_box;
use std::time::Duration;
use tensor_layout::axes::RelayoutFrom;
use tensor_layout::plans::Wisdom;
use tensor_layout::prelude::*;

mod support;
use support::alternating::{median, memcpy_buffers, timed};
use support::relayout_pairs::{Element, Measure, each_pair};

/// Rounds: each runs every plan three times, in turn.
const ROUNDS: usize = 8;

/// The pairs and the variants asked for.
struct Variants {
    pairs: Vec<String>,
    edits: Vec<(String, String)>,
}

impl Variants {
    fn from_args() -> Self {
        // `cargo bench` passes `--bench`.
        let args: Vec<String> = std::env::args()
            .skip(1)
            .filter(|a| !a.starts_with("--"))
            .collect();
        let (edits, pairs): (Vec<String>, Vec<String>) =
            args.into_iter().partition(|a| a.contains('='));
        let edits: Vec<(String, String)> = edits
            .iter()
            .filter_map(|e| e.split_once('='))
            .map(|(field, value)| (field.to_string(), value.to_string()))
            .collect();
        if pairs.is_empty() || edits.is_empty() {
            eprintln!("usage: cargo bench --bench choice_variants -- PAIR... FIELD=VALUE...");
            std::process::exit(2);
        }
        Variants { pairs, edits }
    }
}

/// `line` (a wisdom line: key, then `field=value` words) with `field` set to `value`; `None`
/// where the line has no such field.
fn with_field(line: &str, field: &str, value: &str) -> Option<String> {
    let mut found = false;
    let words: Vec<String> = line
        .split(' ')
        .map(|word| match word.split_once('=') {
            Some((name, _)) if name == field => {
                found = true;
                format!("{field}={value}")
            }
            _ => word.to_string(),
        })
        .collect();
    found.then(|| words.join(" "))
}

impl Measure for Variants {
    fn pair<T: Element, A, B>(&mut self, name: &str, dims: [usize; 4], _naive: bool)
    where
        A: Layout<Index = [usize; 4]> + Default + PartialEq,
        B: Layout<Index = [usize; 4]> + RelayoutFrom<A> + Default + PartialEq,
    {
        if !self.pairs.iter().any(|part| name.contains(part.as_str())) {
            return;
        }
        let number = |[n, c, h, w]: [usize; 4]| ((n * dims[1] + c) * dims[2] + h) * dims[3] + w;
        let src = Tensor::<T, A>::from_fn(dims, |index| T::of(number(index)));
        let mut dst = src.relayout::<B>();
        let want = dst.as_raw().to_vec();
        let model = RelayoutPlan::new(&src, &dst).expect("a plan of the pair");
        let mut wisdom = Wisdom::new();
        wisdom.remember(&model);
        let text = wisdom.to_string();
        let (header, line) = text.split_once('\n').expect("a header and a line");
        let line = line.trim_end();
        println!("{name}: {line}");
        let mut plans = vec![("model".to_string(), model)];
        for (field, value) in &self.edits {
            let Some(edited) = with_field(line, field, value) else {
                println!("  {field}={value}: no field {field} in this pair's wisdom, skipped");
                continue;
            };
            let variant = Wisdom::parse(&format!("{header}\n{edited}\n"))
                .unwrap_or_else(|e| panic!("{field}={value}: {e}"));
            let plan = RelayoutPlan::with_wisdom(&src, &dst, &variant).expect("a plan");
            plans.push((format!("{field}={value}"), plan));
        }
        let src_bytes = size_of_val(src.as_raw());
        let bytes = src_bytes + size_of_val(dst.as_raw());
        let (copy_from, mut copy_into) = memcpy_buffers(src_bytes);
        let (evict_from, mut evict_into) = memcpy_buffers(2 * src_bytes);
        let mut evict = || black_box(&mut evict_into[..]).copy_from_slice(black_box(&evict_from));
        let mut times = vec![Vec::new(); plans.len()];
        let mut copies = Vec::new();
        for _ in 0..ROUNDS {
            for (k, (label, plan)) in plans.iter().enumerate() {
                for _ in 0..3 {
                    evict();
                    times[k].push(timed(|| plan.run(black_box(&src), &mut dst).unwrap()));
                    let same = dst
                        .as_raw()
                        .iter()
                        .zip(&want)
                        .all(|(a, b)| a.bits() == b.bits());
                    assert!(
                        same,
                        "{name}, {label}: another destination than the relayout's"
                    );
                }
            }
            evict();
            copies.push(timed(|| {
                black_box(&mut copy_into[..]).copy_from_slice(black_box(&copy_from[..]))
            }));
        }
        let gbps = |bytes: usize, time: Duration| bytes as f64 / time.as_secs_f64() / 1e9;
        for ((label, _), times) in plans.iter().zip(times) {
            let best = *times.iter().min().expect("timed calls");
            println!(
                "  {label:16} best {:6.2}  median {:6.2} GB/s",
                gbps(bytes, best),
                gbps(bytes, median(times)),
            );
        }
        let best_copy = *copies.iter().min().expect("timed copies");
        println!(
            "  {:16} best {:6.2}",
            "memcpy",
            gbps(2 * src_bytes, best_copy)
        );
    }
}

fn main() {
    let mut variants = Variants::from_args();
    each_pair(&mut variants);
}
