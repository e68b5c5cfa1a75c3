//! `layout`: explain, compare and draw any tensor layout, by catalog name, the long form
//! `ChunkedMemoryLayout<NHWC, ...>`, the short form or a oneDNN tag.
//!
//! Every failure prints one line to stderr saying what was expected, and exits with code 2.

mod local_args;

use clap::{Parser, Subcommand};
use layout_cli::{args, draw, draw_local, report, report_local};
use local_args::LocalOptions;
use std::path::PathBuf;
use std::process::ExitCode;

/// Explain, compare and draw tensor memory layouts.
///
/// LAYOUT is a catalog name (`R4CroutonLayout`, `htp::R4CroutonLayout`, `nChw16c`, `NCHW4`), the
/// long form `ChunkedMemoryLayout<NHWC, 0,0, 1,0, ...>` (or `ChunkedMemoryLayout<4, ...>` for
/// positional axes), the short form `NHWC: 0,0 1,0 ...` (or `4: 0,0 1,0 ...`) or a oneDNN tag;
/// `explain` and `draw` also take Sophgo's local-memory layouts (`sophgo::EuAligned --chip
/// BM1684X`). DIMS are logical dims in the layout's axis order, like `1x3x5x30`.
#[derive(Parser)]
#[command(name = "layout", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Axis names, dims, padding, chunks, per-entry extents and strides, storage size, oneDNN
    /// description; for a Sophgo local-memory layout, the chip, the start, which NPU holds each
    /// channel, the strides, and the bytes each NPU holds, reserves and leaves as padding.
    #[command(
        after_help = "Examples:\n  layout explain R4CroutonLayout 1x3x5x30 --type u8\n  layout explain nChw8c 2x17x3x5\n  layout explain \"NHWC: 0,0 1,0 2,0 3,0 1,8 2,8 3,32\" 1x3x5x30\n  layout explain sophgo::EuAligned 2x3x4x5 --chip ExampleChip --address 2048\n  layout explain sophgo::EuAligned 6x5x4x5 --chip ExampleChip --mode 4N --type i8\n  layout explain sophgo::Matrix 2x40 --chip ExampleChip --width 15\n  layout explain sophgo::FreeStrides 2x3x1x10 --chip ExampleChip --address 1024 --strides 120,0,0,2\n  layout explain sophgo::Compact 1x64x56x56 --chip BM1684X --type f16"
    )]
    Explain {
        /// The layout: a catalog name (`layout list`), `ChunkedMemoryLayout<NHWC, 0,0, ...>`,
        /// `NHWC: 0,0 ...`, a oneDNN tag, or a Sophgo local-memory layout (with --chip).
        layout: String,
        /// Logical dims in the layout's axis order (`layout explain` shows it), e.g. 1x3x5x30.
        dims: String,
        /// Element type for byte counts (and a local layout's placement): u8 i8 u16 i16 f16
        /// bf16 u32 i32 f32 u64 i64 f64.
        #[arg(long = "type", default_value = "f32")]
        element: String,
        #[command(flatten)]
        local: LocalOptions,
    },
    /// The memory order as runs of logical indices: padding marked, chunk ends marked; with
    /// --offsets, each index followed by its storage offset.
    #[command(
        after_help = "Examples:\n  layout order R4CroutonLayout 2x9x20x50 --max-lines 12\n  layout order nChw4c 1x6x1x2\n  layout order nChw4c 1x6x1x2 --offsets"
    )]
    Order {
        /// The layout: a catalog name (`layout list`), `ChunkedMemoryLayout<NHWC, 0,0, ...>`,
        /// `NHWC: 0,0 ...` or a oneDNN tag.
        layout: String,
        /// Logical dims in the layout's axis order (`layout explain` shows it), e.g. 1x3x5x30.
        dims: String,
        /// Print at most this many lines.
        #[arg(long, default_value_t = 200)]
        max_lines: usize,
        /// Follow each index with its storage offset, in elements from the start (padding
        /// slots count): `(0,0,1,0)@32`.
        #[arg(long)]
        offsets: bool,
    },
    /// The storage offset of a logical index such as `0,2,4,29` or `N=0,H=2,W=4,C=29`.
    #[command(
        after_help = "Examples:\n  layout where R4CroutonLayout 1x3x5x30 0,2,4,29\n  layout where R4CroutonLayout 1x3x5x30 N=0,H=2,W=4,C=29"
    )]
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
    #[command(
        after_help = "Examples:\n  layout at R4CroutonLayout 1x3x5x30 607\n  layout at nChw16c 1x3x2x2 5"
    )]
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
    #[command(
        after_help = "Examples:\n  layout diff nChw8c nChw16c 1x16x1x1\n  layout diff R4CroutonLayout nchw 1x5x6x40"
    )]
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
    /// Draw the memory order as SVG or PNG: cells coloured by one coordinate, padding hatched,
    /// at most 64 rows of 32 cells (larger storage shows its first chunks and says how many
    /// more); a Sophgo local-memory layout as one lane per NPU.
    #[command(
        after_help = "Examples:\n  layout draw nChw4c 1x6x2x3 -o nChw4c.svg --color-by C\n  layout draw R4Crouton2x2Layout 1x4x4x2 -o crouton.png\n  layout draw sophgo::EuAligned 2x3x4x5 --chip ExampleChip --address 2048 -o aligned.svg\n  layout draw sophgo::Compact 6x5x1x2 --chip ExampleChip --mode 4N --type i8 -o four-n.png"
    )]
    Draw {
        /// The layout: a catalog name (`layout list`), `ChunkedMemoryLayout<NHWC, 0,0, ...>`,
        /// `NHWC: 0,0 ...`, a oneDNN tag, or a Sophgo local-memory layout (with --chip).
        layout: String,
        /// Logical dims in the layout's axis order (`layout explain` shows it), e.g. 1x3x5x30.
        dims: String,
        /// Output file, `.svg` or `.png`.
        #[arg(short, long)]
        output: PathBuf,
        /// The axis whose coordinate colours each cell, by letter (`C`) or position (`1`);
        /// default: the last axis (the channels for a Sophgo local-memory layout).
        #[arg(long)]
        color_by: Option<String>,
        /// Sophgo local-memory layouts only: the element type, which sets the bytes per cell
        /// (u8 i8 u16 i16 f16 bf16 u32 i32 f32 u64 i64 f64) [default: f32].
        #[arg(long = "type")]
        element: Option<String>,
        #[command(flatten)]
        local: LocalOptions,
    },
    /// Every catalog layout with its axis word, its logical dims and what it is for.
    #[command(after_help = "Example:\n  layout list")]
    List,
}

fn run(cli: Cli) -> Result<String, String> {
    match cli.command {
        Command::List => Ok(report::list()),
        Command::Explain {
            layout,
            dims,
            element,
            local,
        } => {
            let bytes = args::element_size(&element)?;
            match local.layout(&layout, bytes)? {
                Some(local) => Ok(report_local::explain(&args::bind_local(&local, &dims)?)),
                None => Ok(report::explain(&args::bind(&layout, &dims)?, bytes)),
            }
        }
        Command::Order {
            layout,
            dims,
            max_lines,
            offsets,
        } => Ok(report::order(
            &args::bind(&layout, &dims)?,
            max_lines,
            offsets,
        )),
        Command::Where {
            layout,
            dims,
            index,
        } => report::where_is(&args::bind(&layout, &dims)?, &index),
        Command::At {
            layout,
            dims,
            offset,
        } => report::at(&args::bind(&layout, &dims)?, offset),
        Command::Diff { a, b, dims } => {
            let (ma, mb, at) = args::bind_two(&a, &b, &dims)?;
            report::diff(&ma, &mb, &at)
        }
        Command::Draw {
            layout,
            dims,
            output,
            color_by,
            element,
            local,
        } => {
            draw::Format::of(&output)?;
            let bytes = args::element_size(element.as_deref().unwrap_or("f32"))?;
            match local.layout(&layout, bytes)? {
                Some(local) => {
                    let m = args::bind_local(&local, &dims)?;
                    let word = m.mapping().axis_word();
                    let color_dim = match color_by.as_deref() {
                        Some(text) => {
                            args::axis(text, &word).map_err(|e| format!("--color-by {e}"))?
                        }
                        None => 1,
                    };
                    draw_local::draw(&m, color_dim, &output)
                }
                None if element.is_some() => Err(format!(
                    "--type sets the bytes of a Sophgo local-memory layout's cells; {layout} is drawn in elements, whatever their type"
                )),
                None => {
                    let m = args::bind(&layout, &dims)?;
                    let word = m.layout().axis_word();
                    let color_dim = match color_by.as_deref() {
                        Some(text) => {
                            args::axis(text, &word).map_err(|e| format!("--color-by {e}"))?
                        }
                        None => word.rank() - 1,
                    };
                    draw::draw(&m, color_dim, &output)
                }
            }
        }
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
