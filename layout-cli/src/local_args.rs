//! The options of Sophgo local-memory layouts (`--chip`, `--address`, `--mode`, `--strides`,
//! `--width`) and how LAYOUT names one: `sophgo::EuAligned`, `Compact`, ...

use tensor_layout::LayoutError;
use tensor_layout::sophgo::{ChipName, DynLocalLayout, LocalKind, StorageModeName};

/// Where a Sophgo local-memory layout lives. LAYOUT names one as `sophgo::Compact`,
/// `sophgo::EuAligned`, `sophgo::LineAligned`, `sophgo::FreeStrides` or `sophgo::Matrix` (the
/// `sophgo::` may be left out).
#[derive(clap::Args, Debug, Default)]
#[command(
    next_help_heading = "Sophgo local memory (LAYOUT sophgo::Compact, EuAligned, LineAligned, FreeStrides or Matrix)"
)]
pub struct LocalOptions {
    /// The chip whose local memory holds the tensor: BM1684, BM1684X, BM1688, or ExampleChip (4
    /// NPUs of 1024 bytes, the TPU-Kernel documentation's pictures). Needed by every local layout.
    #[arg(long)]
    pub chip: Option<String>,
    /// The start address in bytes, decimal or 0x hex: NPU address / NPU bytes, byte address % NPU
    /// bytes there [default: 0].
    #[arg(long)]
    pub address: Option<String>,
    /// Storage mode: 4N (i8/u8: 4 batch elements packed), 2N (i16/u16: 2 packed) or 2IC (f32
    /// weights IOHW: 2 input channels packed) [default: none].
    #[arg(long)]
    pub mode: Option<String>,
    /// sophgo::FreeStrides only: the N,C,H,W strides in (packed) elements, e.g. 120,56,16,2 (the
    /// C stride steps from one channel slot of an NPU to the next).
    #[arg(long)]
    pub strides: Option<String>,
    /// sophgo::Matrix only: the channel width W, the columns each channel holds (1 to M).
    #[arg(long)]
    pub width: Option<usize>,
}

impl LocalOptions {
    /// Whether any option is given.
    fn any(&self) -> bool {
        self.chip.is_some()
            || self.address.is_some()
            || self.mode.is_some()
            || self.strides.is_some()
            || self.width.is_some()
    }

    /// The local layout LAYOUT names with these options and `element_bytes`-byte elements;
    /// `None` when LAYOUT names no local layout and no option is given (a chunked layout).
    ///
    /// # Errors
    /// One line: a local layout without `--chip`, options given to a chunked layout, or the
    /// library's error for a chip, mode, address or strides it cannot read.
    pub fn layout(
        &self,
        layout_text: &str,
        element_bytes: usize,
    ) -> Result<Option<DynLocalLayout>, String> {
        let kind = match LocalKind::parse(layout_text) {
            Ok(kind) => kind,
            Err(_) if !self.any() => return Ok(None),
            Err(unknown) => {
                // Options for local memory: LAYOUT should name a local layout. Say which exist,
                // unless it is a chunked layout, whose reader has the better message otherwise.
                return Err(match tensor_layout::DynLayout::parse(layout_text) {
                    Ok(_) => format!(
                        "--chip, --address, --mode, --strides and --width place a Sophgo \
                         local-memory layout, and {layout_text} is not one: {unknown}"
                    ),
                    Err(_) => unknown.to_string(),
                });
            }
        };
        let Some(chip) = &self.chip else {
            return Err(format!(
                "{kind} lives in the local memory of a chip: give --chip BM1684, BM1684X, \
                 BM1688 or ExampleChip"
            ));
        };
        let chip = ChipName::parse(chip).map_err(text)?;
        let address = match &self.address {
            Some(text) => address(text)?,
            None => 0,
        };
        let mut layout = DynLocalLayout::new(kind, chip, address, element_bytes);
        if let Some(mode) = &self.mode {
            layout = layout.with_mode(StorageModeName::parse(mode).map_err(text)?);
        }
        if let Some(strides) = &self.strides {
            let numbers = layout_cli::args::numbers(strides, "--strides")?;
            let strides: [usize; 4] = numbers.try_into().map_err(|found: Vec<usize>| {
                format!(
                    "--strides {strides}: expected 4 strides N,C,H,W, found {}",
                    found.len()
                )
            })?;
            layout = layout.with_strides(strides);
        }
        if let Some(width) = self.width {
            layout = layout.with_width(width);
        }
        match (kind, layout.strides, layout.width) {
            (LocalKind::FreeStrides, None, _) => Err(format!(
                "{kind} needs --strides N,C,H,W (in elements, e.g. 120,56,16,2)"
            )),
            (LocalKind::Matrix, _, None) => Err(format!(
                "{kind} needs --width W (the columns per channel, 1 to M)"
            )),
            _ => Ok(Some(layout)),
        }
    }
}

fn text(error: LayoutError) -> String {
    error.to_string()
}

/// A byte address, decimal or `0x` hexadecimal.
fn address(text: &str) -> Result<usize, String> {
    let parsed = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => usize::from_str_radix(hex, 16),
        None => text.parse(),
    };
    parsed.map_err(|_| format!("--address {text:?}: expected a byte address such as 2048 or 0x800"))
}
