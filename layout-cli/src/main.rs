//! `layout`: explain, compare and draw any tensor layout, by catalog name, the seed's spelling,
//! the short form or a oneDNN tag.
//!
//! Every failure prints one line to stderr saying what was expected, and exits with code 2.

mod args;
mod draw;
mod report;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// Explain, compare and draw tensor memory layouts.
///
/// LAYOUT is a catalog name (`R4CroutonLayout`, `htp::R4CroutonLayout`, `nChw16c`, `NCHW4`), the
/// long form `ChunkedMemoryLayout<4, 0,0, 1,0, ...>`, the short form `4: 0,0 1,0 ...` or a oneDNN
/// tag. DIMS are logical dims like `1x3x5x30`.
#[derive(Parser)]
#[command(name = "layout", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Dims, padding, chunks, per-entry extents and strides, storage size, oneDNN description.
    Explain {
        layout: String,
        dims: String,
        /// Element type for byte counts: u8 i8 u16 i16 f16 bf16 u32 i32 f32 u64 i64 f64.
        #[arg(long = "type", default_value = "f32")]
        element: String,
    },
    /// The memory order in seed 001's notation, padding marked, chunk ends marked.
    Order {
        layout: String,
        dims: String,
        /// Print at most this many lines.
        #[arg(long, default_value_t = 200)]
        max_lines: usize,
    },
    /// The storage offset of a logical index such as `0,2,4,29`.
    Where {
        layout: String,
        dims: String,
        index: String,
    },
    /// The logical index stored at a storage offset (or that it is padding).
    At {
        layout: String,
        dims: String,
        offset: usize,
    },
    /// Whether two layouts are the same function on these dims, and what a relayout does.
    Diff { a: String, b: String, dims: String },
    /// Draw the memory order as SVG or PNG: cells coloured by one coordinate, padding hatched.
    Draw {
        layout: String,
        dims: String,
        /// Output file, `.svg` or `.png`.
        #[arg(short, long)]
        output: PathBuf,
        /// The logical dimension whose coordinate colours each cell (default: the innermost).
        #[arg(long)]
        color_by: Option<usize>,
    },
    /// Every catalog layout with its system and logical dims.
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
        } => args::with_layout(&layout, &dims, |m| draw::draw(m, color_by, &output)),
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
