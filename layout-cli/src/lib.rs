//! The reports and drawings of the `layout` command as functions, for programs that show a
//! layout the way the command does (the Python package's `Layout.explain()` and `_repr_svg_`
//! call these). The command itself is the `layout` binary of this package.
//!
//! ```
//! use tensor_layout::DynLayout;
//! let m = DynLayout::parse("nChw8c").unwrap().bind(&[1, 10, 2, 2]).unwrap();
//! let text = layout_cli::explain(&m, 4);
//! assert!(text.starts_with("layout         ChunkedMemoryLayout<NCHW, 0,0, 1,0, 2,0, 3,0, 1,8>\n"));
//! let svg = layout_cli::svg_drawing(&m, 1).unwrap();
//! assert!(svg.starts_with("<svg"));
//! ```

// The command's modules, public so that the `layout` binary (a separate crate) reaches them;
// the functions re-exported below are the interface meant for other programs.
#[doc(hidden)]
pub mod args;
#[doc(hidden)]
pub mod draw;
#[doc(hidden)]
pub mod draw_local;
#[doc(hidden)]
pub mod report;
#[doc(hidden)]
pub mod report_local;

/// `layout explain`'s text for a chunked layout bound to dims, byte counts for
/// `element_bytes`-byte elements.
///
/// ```
/// let m = tensor_layout::DynLayout::parse("R4CroutonLayout").unwrap().bind(&[1, 3, 5, 30]).unwrap();
/// assert!(layout_cli::explain(&m, 1).contains("storage        2048 elements, 2048 bytes (1-byte elements)"));
/// ```
pub use report::explain;

/// `layout explain`'s text for a Sophgo local-memory layout bound to dims.
///
/// ```
/// use tensor_layout::sophgo::{ChipName, DynLocalLayout, LocalKind};
/// let m = DynLocalLayout::new(LocalKind::EuAligned, ChipName::ExampleChip, 2048, 4).bind(&[2, 3, 4, 5]).unwrap();
/// assert!(layout_cli::explain_local(&m).starts_with("layout         EuAligned<ExampleChip> at address 2048"));
/// ```
pub use report_local::explain as explain_local;

/// `layout draw`'s picture of a layout bound to dims, as SVG text, coloured by the coordinate
/// of axis `color_dim`.
///
/// # Errors
/// One line when the storage is too large to draw ([`MAX_CELLS`] slots) or `color_dim` is
/// not an axis.
///
/// ```
/// let m = tensor_layout::DynLayout::parse("nChw4c").unwrap().bind(&[1, 6, 2, 3]).unwrap();
/// assert!(layout_cli::svg_drawing(&m, 1).unwrap().contains("url(#hatch)")); // the padding
/// assert!(layout_cli::svg_drawing(&m, 4).is_err());
/// ```
pub use draw::svg_drawing;

/// `layout draw`'s picture of a Sophgo local-memory layout bound to dims, one lane per NPU, as
/// SVG text.
///
/// # Errors
/// As for [`svg_drawing`].
///
/// ```
/// use tensor_layout::sophgo::{ChipName, DynLocalLayout, LocalKind};
/// let m = DynLocalLayout::new(LocalKind::Compact, ChipName::ExampleChip, 0, 4).bind(&[1, 5, 2, 2]).unwrap();
/// assert!(layout_cli::svg_drawing_local(&m, 1).unwrap().contains("NPU"));
/// ```
pub use draw_local::svg_drawing as svg_drawing_local;

/// Writes `layout draw`'s picture of a layout to a file, SVG or (with the `png` feature) PNG
/// by its extension, coloured by the coordinate of axis `color_dim`, and says what it wrote.
///
/// # Errors
/// One line: an extension other than `.svg` or `.png`, an axis out of range, storage too large
/// to draw, a file that cannot be written.
///
/// ```
/// let m = tensor_layout::DynLayout::parse("nchw").unwrap().bind(&[1, 2, 2, 2]).unwrap();
/// let path = std::env::temp_dir().join(format!("layout-cli-doc-{}.svg", std::process::id()));
/// assert!(layout_cli::draw(&m, 1, &path).unwrap().starts_with("wrote "));
/// std::fs::remove_file(&path).unwrap();
/// ```
pub use draw::draw;

/// Writes `layout draw`'s picture of a Sophgo local-memory layout to a file, one lane per NPU
/// (see [`draw`]).
///
/// # Errors
/// As for [`draw`].
///
/// ```
/// use tensor_layout::sophgo::{ChipName, DynLocalLayout, LocalKind};
/// let m = DynLocalLayout::new(LocalKind::Compact, ChipName::ExampleChip, 0, 4).bind(&[1, 5, 2, 2]).unwrap();
/// let path = std::env::temp_dir().join(format!("layout-cli-doc-local-{}.svg", std::process::id()));
/// assert!(layout_cli::draw_local(&m, 1, &path).is_ok());
/// std::fs::remove_file(&path).unwrap();
/// ```
pub use draw_local::draw as draw_local;

/// The most storage slots a drawing shows.
///
/// ```
/// assert_eq!(layout_cli::MAX_CELLS, 16_384);
/// ```
pub use draw::MAX_CELLS;
