//! Every named layout of the catalog, looked up by name at run time.

use crate::{htp, megengine, onednn, sophgo};
use core::fmt;
use layout_core::DynLayout;

/// The system a catalog layout comes from (its module).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum System {
    /// Qualcomm Hexagon HTP (module `htp`).
    Htp,
    /// oneDNN (module `onednn`).
    OneDnn,
    /// MegEngine (module `megengine`).
    MegEngine,
    /// Sophgo TPU-Kernel (module `sophgo`; its system-memory layouts).
    Sophgo,
}

impl System {
    /// The module name: `htp`, `onednn`, `megengine`.
    ///
    /// ```
    /// assert_eq!(layouts_catalog::registry::System::OneDnn.module(), "onednn");
    /// ```
    pub fn module(self) -> &'static str {
        match self {
            Self::Htp => "htp",
            Self::OneDnn => "onednn",
            Self::MegEngine => "megengine",
            Self::Sophgo => "sophgo",
        }
    }
}

impl fmt::Display for System {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.module())
    }
}

/// One named layout: where it comes from, what its logical dims are called, its chunk list.
#[derive(Clone, Copy, Debug)]
pub struct CatalogEntry {
    /// The type's name in its module, e.g. `R4CroutonLayout` or `nChw16c`.
    pub name: &'static str,
    /// The system (module) it belongs to.
    pub system: System,
    /// The names of its logical dims in words, in order (its axis word is
    /// `layout().axes()`).
    pub dims: &'static [&'static str],
    /// What it is used for.
    pub used_for: &'static str,
    layout: fn() -> DynLayout,
}

impl CatalogEntry {
    /// The layout as a run-time value (equal to the type's `to_dyn()`).
    ///
    /// ```
    /// let entry = layouts_catalog::registry::lookup("NCHW4").unwrap();
    /// assert_eq!(entry.layout().to_string(), "ChunkedMemoryLayout<NCHW, 0,0, 1,0, 2,0, 3,0, 1,4>");
    /// ```
    pub fn layout(&self) -> DynLayout {
        (self.layout)()
    }

    /// `module::Name`, e.g. `htp::R4CroutonLayout`.
    ///
    /// ```
    /// let entry = layouts_catalog::registry::lookup("nChw16c").unwrap();
    /// assert_eq!(entry.qualified_name(), "onednn::nChw16c");
    /// ```
    pub fn qualified_name(&self) -> alloc::string::String {
        alloc::format!("{}::{}", self.system, self.name)
    }
}

const NHWC: &[&str] = &["n", "h", "w", "c"];
const HTP_WEIGHTS: &[&str] = &["filter height", "filter width", "in", "out"];
const NCHW: &[&str] = &["n", "c", "h", "w"];
const NCDHW: &[&str] = &["n", "c", "d", "h", "w"];
const NCW: &[&str] = &["n", "c", "w"];
const OIW: &[&str] = &["o", "i", "w"];
const OIDHW: &[&str] = &["o", "i", "d", "h", "w"];
const OIHW: &[&str] = &["o", "i", "h", "w"];
const IOHW: &[&str] = &["i", "o", "h", "w"];
const GOIHW: &[&str] = &["g", "o", "i", "h", "w"];

macro_rules! entries {
    ($($module:ident :: $name:ident, $system:ident, $dims:expr, $used:expr;)+) => {
        &[$(CatalogEntry {
            name: stringify!($name),
            system: System::$system,
            dims: $dims,
            used_for: $used,
            layout: || <$module::$name>::default().to_dyn(),
        }),+]
    };
}

static ENTRIES: &[CatalogEntry] = entries! {
    htp::R4FlatMemoryLayout, Htp, NHWC, "plain NHWC; exchange with the outside world";
    htp::R4NCHWMemoryLayout, Htp, NHWC, "the SDK's NCHW spelling (memory order N, C, W, H)";
    htp::R4NHWCAsNCHWLayout, Htp, NHWC, "NHWC dims stored as NCHW (the HTP documentation's prose)";
    htp::R4Depth32MemoryLayout, Htp, NHWC, "d32: 4 columns x 32 channels chunks";
    htp::R4CroutonLayout, Htp, NHWC, "8-bit activations in 8x8x32 croutons";
    htp::R4Crouton4x1Layout, Htp, NHWC, "croutons with 4-column groups";
    htp::R4Crouton2x2Layout, Htp, NHWC, "croutons of 2x2 pixel tiles";
    htp::R4Crouton2Layout, Htp, NHWC, "16-bit activations, 8x4x32 croutons";
    htp::R4Crouton4Layout, Htp, NHWC, "32-bit activations, 8x2x32 croutons";
    htp::R4ConvWeightLayout, Htp, HTP_WEIGHTS, "convolution weights, 32x32 channel chunks";
    htp::SpatialXMajor, Htp, NHWC, "the HTP documentation's 4x8x32 spatial-x-major crouton";
    htp::ChannelMajorCrouton, Htp, NHWC, "the HTP documentation's name for R4CroutonLayout";
    htp::SpatialXYMajor, Htp, NHWC, "the HTP documentation's name for R4Crouton2x2Layout";
    onednn::ncw, OneDnn, NCW, "plain 1-D activations";
    onednn::nwc, OneDnn, NCW, "plain 1-D activations, channels last";
    onednn::nCw8c, OneDnn, NCW, "1-D, channels blocked by 8";
    onednn::nCw16c, OneDnn, NCW, "1-D, channels blocked by 16";
    onednn::nchw, OneDnn, NCHW, "plain NCHW (Caffe)";
    onednn::nhwc, OneDnn, NCHW, "plain NHWC (TensorFlow)";
    onednn::chwn, OneDnn, NCHW, "plain CHWN (Neon)";
    onednn::nChw4c, OneDnn, NCHW, "channels blocked by 4";
    onednn::nChw8c, OneDnn, NCHW, "channels blocked by 8 (SSE4.2/AVX2)";
    onednn::nChw16c, OneDnn, NCHW, "channels blocked by 16 (AVX-512)";
    onednn::nChw32c, OneDnn, NCHW, "channels blocked by 32";
    onednn::NChw16n16c, OneDnn, NCHW, "batch and channels blocked by 16";
    onednn::ncdhw, OneDnn, NCDHW, "plain 5-D activations";
    onednn::ndhwc, OneDnn, NCDHW, "plain 5-D, channels last";
    onednn::nCdhw16c, OneDnn, NCDHW, "5-D, channels blocked by 16";
    onednn::oihw, OneDnn, OIHW, "plain weights";
    onednn::hwio, OneDnn, OIHW, "plain weights, TensorFlow order";
    onednn::ohwi, OneDnn, OIHW, "plain weights, input channels last";
    onednn::iohw, OneDnn, OIHW, "plain deconvolution weights";
    onednn::OIhw8i8o, OneDnn, OIHW, "weights in 8x8 channel tiles";
    onednn::OIhw16i16o, OneDnn, OIHW, "weights in 16x16 channel tiles (AVX-512)";
    onednn::OIhw16o16i, OneDnn, OIHW, "weights in 16x16 tiles, input fastest";
    onednn::IOhw16o16i, OneDnn, OIHW, "deconvolution weights in 16x16 tiles";
    onednn::OIhw4i16o4i, OneDnn, OIHW, "int8 VNNI weights";
    onednn::OIhw8i16o2i, OneDnn, OIHW, "bf16 weights";
    onednn::Ohwi16o, OneDnn, OIHW, "weights, output channels blocked by 16";
    onednn::oiw, OneDnn, OIW, "plain 1-D weights";
    onednn::oidhw, OneDnn, OIDHW, "plain 3-D weights";
    onednn::OIdhw16i16o, OneDnn, OIDHW, "3-D weights in 16x16 channel tiles";
    onednn::goihw, OneDnn, GOIHW, "plain grouped weights";
    onednn::gOIhw16i16o, OneDnn, GOIHW, "grouped weights in 16x16 tiles";
    megengine::NCHW, MegEngine, NCHW, "plain NCHW";
    megengine::NHWC, MegEngine, NCHW, "plain NHWC";
    megengine::NCHW4, MegEngine, NCHW, "int8 dp4a: 4 channels first";
    megengine::NCHW32, MegEngine, NCHW, "int8 tensor cores: 32 channels first";
    megengine::NCHW64, MegEngine, NCHW, "int4 tensor cores: 64 channels first";
    megengine::CHWN4, MegEngine, NCHW, "dp4a: 4 channels, then the batch";
    sophgo::Continuous, Sophgo, NCHW, "system memory: what store and load move";
    sophgo::ContinuousWeights, Sophgo, IOHW, "system memory: 2IC convolution weights";
};

/// Every named layout, module by module.
///
/// ```
/// let names: Vec<_> = layouts_catalog::registry::all().iter().map(|e| e.name).collect();
/// assert!(names.contains(&"R4CroutonLayout") && names.contains(&"CHWN4"));
/// ```
pub fn all() -> &'static [CatalogEntry] {
    ENTRIES
}

/// The named layout `name` (`R4CroutonLayout`, `nChw16c`, `NCHW4`), or qualified with its module
/// (`htp::R4CroutonLayout`, `megengine::NCHW`). Names are case-sensitive: oneDNN's `nchw` and
/// MegEngine's `NCHW` are different entries (their dims are both n, c, h, w: the same layout).
///
/// ```
/// use layouts_catalog::registry::lookup;
/// assert_eq!(lookup("htp::R4CroutonLayout").unwrap().name, "R4CroutonLayout");
/// assert_eq!(lookup("NCHW4").unwrap().system.module(), "megengine");
/// assert!(lookup("onednn::NCHW4").is_none());
/// assert!(lookup("R5CroutonLayout").is_none());
/// ```
pub fn lookup(name: &str) -> Option<&'static CatalogEntry> {
    // The names resolve as `DynLayout::parse` resolves them; the typed entry is its twin.
    let found = layout_notation::find_catalog_name(name)?;
    ENTRIES
        .iter()
        .find(|e| e.name == found.name && e.system.module() == found.module)
}
