//! `layout`: explain, compare and draw any tensor layout, by catalog name, the long form
//! `ChunkedMemoryLayout<NHWC, ...>`, the short form or a oneDNN tag.
//!
//! Every failure prints one line to stderr saying what was expected, and exits with code 2.

mod any_mapping;
mod args;
mod draw;
mod report;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// Explain, compare and draw tensor memory layouts.
///
/// LAYOUT is a catalog name (`R4CroutonLayout`, `htp::R4CroutonLayout`, `nChw16c`, `NCHW4`), the
/// long form `ChunkedMemoryLayout<NHWC, 0,0, 1,0, ...>` (or `ChunkedMemoryLayout<4, ...>` for
/// positional axes), the short form `NHWC: 0,0 1,0 ...` (or `4: 0,0 1,0 ...`) or a oneDNN tag.
/// DIMS are logical dims in the layout's axis order, like `1x3x5x30`.
#[derive(Parser)]
#[command(name = "layout", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Axis names, dims, padding, chunks, per-entry extents and strides, storage size, oneDNN
    /// description.
    Explain {
        /// The layout: a catalog name (`layout list`), `ChunkedMemoryLayout<NHWC, 0,0, ...>`,
        /// `NHWC: 0,0 ...` or a oneDNN tag.
        layout: String,
        /// Logical dims in the layout's axis order (`layout explain` shows it), e.g. 1x3x5x30.
        dims: String,
        /// Element type for byte counts: u8 i8 u16 i16 f16 bf16 u32 i32 f32 u64 i64 f64.
        #[arg(long = "type", default_value = "f32")]
        element: String,
    },
    /// The memory order as runs of logical indices: padding marked, chunk ends marked.
    Order {
        /// The layout: a catalog name (`layout list`), `ChunkedMemoryLayout<NHWC, 0,0, ...>`,
        /// `NHWC: 0,0 ...` or a oneDNN tag.
        layout: String,
        /// Logical dims in the layout's axis order (`layout explain` shows it), e.g. 1x3x5x30.
        dims: String,
        /// Print at most this many lines.
        #[arg(long, default_value_t = 200)]
        max_lines: usize,
    },
    /// The storage offset of a logical index such as `0,2,4,29` or `N=0,H=2,W=4,C=29`.
    Where {
        /// The layout: a catalog name (`layout list`), `ChunkedMemoryLayout<NHWC, 0,0, ...>`,
        /// `NHWC: 0,0 ...` or a oneDNN tag.
        layout: String,
        /// Logical dims in the layout's axis order (`layout explain` shows it), e.g. 1x3x5x30.
        dims: String,
        /// The logical index: coordinates in the layout's axis order (`0,2,4,29`), or every axis
        /// by name in any order (`N=0,H=2,W=4,C=29`).
        index: String,
    },
    /// The logical index stored at a storage offset (or that it is padding).
    At {
        /// The layout: a catalog name (`layout list`), `ChunkedMemoryLayout<NHWC, 0,0, ...>`,
        /// `NHWC: 0,0 ...` or a oneDNN tag.
        layout: String,
        /// Logical dims in the layout's axis order (`layout explain` shows it), e.g. 1x3x5x30.
        dims: String,
        /// The storage offset, in elements from the start (padding slots count).
        offset: usize,
    },
    /// Whether two layouts are the same function on these dims, where an element moves, and what
    /// a relayout from A to B does. Elements correspond by axis name: B's dims are A's in B's
    /// axis order.
    Diff {
        /// The layout converted from: a catalog name (`layout list`),
        /// `ChunkedMemoryLayout<NHWC, 0,0, ...>`, `NHWC: 0,0 ...` or a oneDNN tag.
        a: String,
        /// The layout converted to, spelled like A: the same axis names as A in any order (or
        /// positional axes, taken in A's order).
        b: String,
        /// Logical dims in A's axis order, e.g. 1x5x6x40.
        dims: String,
    },
    /// Draw the memory order as SVG or PNG: cells coloured by one coordinate, padding hatched.
    Draw {
        /// The layout: a catalog name (`layout list`), `ChunkedMemoryLayout<NHWC, 0,0, ...>`,
        /// `NHWC: 0,0 ...` or a oneDNN tag.
        layout: String,
        /// Logical dims in the layout's axis order (`layout explain` shows it), e.g. 1x3x5x30.
        dims: String,
        /// Output file, `.svg` or `.png`.
        #[arg(short, long)]
        output: PathBuf,
        /// The axis whose coordinate colours each cell, by letter (`C`) or position (`1`);
        /// default: the last axis.
        #[arg(long)]
        color_by: Option<String>,
    },
    /// Every catalog layout with its axis word, its logical dims and what it is for.
    List,
}

fn run(cli: Cli) -> Result<String, String> {
    match cli.command {
        Command::List => Ok(report::list()),
        Command::Explain {
            layout,
            dims,
            element,
        } => {
            let bytes = args::element_size(&element)?;
            args::with_layout(&layout, &dims, |m| Ok(report::explain(m, bytes)))
        }
        Command::Order {
            layout,
            dims,
            max_lines,
        } => args::with_layout(&layout, &dims, |m| Ok(m.order(max_lines))),
        Command::Where {
            layout,
            dims,
            index,
        } => args::with_layout(&layout, &dims, |m| report::where_is(m, &index)),
        Command::At {
            layout,
            dims,
            offset,
        } => args::with_layout(&layout, &dims, |m| report::at(m, offset)),
        Command::Diff { a, b, dims } => args::with_two_layouts(&a, &b, &dims, report::diff),
        Command::Draw {
            layout,
            dims,
            output,
            color_by,
        } => args::with_layout(&layout, &dims, |m| {
            draw::draw(m, color_by.as_deref(), &output)
        }),
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("layout: {message}");
            ExitCode::from(2)
        }
    }
}
