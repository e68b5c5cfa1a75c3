//! What `DynLayout::parse` costs per call: good text in each spelling, short bad text (garbage,
//! a misspelt catalog name), and long bad text, whose cost must grow at most linearly with its
//! length (the rows of 1 KB and 100 KB report bytes per second as well).
//!
//! `cargo bench --bench parse`

// The garbage the parse tests refuse, shared with them.
#[path = "../tests/common/garbage.rs"]
mod garbage;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use garbage::garbage;
use std::hint::black_box;
use tensor_layout::DynLayout;

/// One long word of letters, as a misspelt name would be if it never ended.
fn long_word(len: usize) -> String {
    "R4CroutonLayout".chars().cycle().take(len).collect()
}

/// A oneDNN tag repeated: every letter after the first tag is a problem of its own.
fn tag_letters(len: usize) -> String {
    "nChw16c".chars().cycle().take(len).collect()
}

/// A short form whose entries never end: far more entries than a chunk list may have.
fn long_short_form(len: usize) -> String {
    let mut text = String::from("4:");
    while text.len() < len {
        text += " 0,0 1,0 2,0 3,0 1,8";
    }
    text
}

/// One row: parses `text` over and over; good text must read, bad text must not.
fn row(group: &mut BenchmarkGroup<'_, WallTime>, name: &str, text: &str, good: bool) {
    assert_eq!(DynLayout::parse(text).is_ok(), good, "{name}: {text:.40}");
    group.bench_function(name, |b| b.iter(|| DynLayout::parse(black_box(text))));
}

fn parse(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse/good");
    row(
        &mut group,
        "long form",
        "ChunkedMemoryLayout<NHWC, 0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32>",
        true,
    );
    row(
        &mut group,
        "short form",
        "4: 0,0 1,0 2,0 3,0 1,8 2,8 3,32",
        true,
    );
    row(
        &mut group,
        "short form named",
        "NHWC: 0,0 1,0 2,0 3,0 1,8 2,8 3,32",
        true,
    );
    row(&mut group, "onednn tag", "nChw16c", true);
    row(&mut group, "catalog name", "R4CroutonLayout", true);
    row(
        &mut group,
        "catalog name with module",
        "megengine::NCHW4",
        true,
    );
    group.finish();

    let mut group = c.benchmark_group("parse/bad");
    row(&mut group, "garbage x3(;hW", "x3(;hW", false);
    row(&mut group, "typo R4CrotonLayout", "R4CrotonLayout", false);
    row(
        &mut group,
        "typo htp::R4CrotonLayout",
        "htp::R4CrotonLayout",
        false,
    );
    row(
        &mut group,
        "no name near NoSuchLayout",
        "NoSuchLayout",
        false,
    );
    let longest_advised = long_word(42);
    row(
        &mut group,
        "longest word advised (42 letters)",
        &longest_advised,
        false,
    );
    row(
        &mut group,
        "tag letters 128 bytes",
        &tag_letters(128),
        false,
    );
    group.finish();

    let mut group = c.benchmark_group("parse/long");
    group.sample_size(10);
    let long = [
        ("garbage 1 KB", garbage(1_000)),
        ("garbage 100 KB", garbage(100_000)),
        ("word 100 KB", long_word(100_000)),
        ("tag letters 100 KB", tag_letters(100_000)),
        ("short form 100 KB", long_short_form(100_000)),
    ];
    for (name, text) in &long {
        group.throughput(Throughput::Bytes(text.len() as u64));
        row(&mut group, name, text, false);
    }
    group.finish();
}

criterion_group!(benches, parse);
criterion_main!(benches);
