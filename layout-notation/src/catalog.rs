//! The catalog's names: every named layout of Qualcomm HTP, oneDNN, MegEngine and Sophgo, with
//! its spelling, the words for its logical dims and what it is for. This table is the one list
//! of names: the run-time parser reads names through it, the `layouts-catalog` registry is a view
//! of it, and that crate's tests check that each typed layout (`htp::R4CroutonLayout`) is the
//! layout its name here reads as.

/// One named layout of the catalog.
///
/// ```
/// let entry = layout_notation::find_catalog_name("R4CroutonLayout").unwrap();
/// assert_eq!((entry.module, entry.spelling), ("htp", "NHWC: 0,0 1,0 2,0 3,0 1,8 2,8 3,32"));
/// assert_eq!(entry.dims, ["n", "h", "w", "c"]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CatalogName {
    /// The module (system) it belongs to: `htp`, `onednn`, `megengine`, `sophgo`.
    pub module: &'static str,
    /// The type's name in its module.
    pub name: &'static str,
    /// The layout in the named short form (`NHWC: 0,0 1,0 ...`) or, for oneDNN, its tag.
    pub spelling: &'static str,
    /// The names of its logical dims in words, in order.
    pub dims: &'static [&'static str],
    /// What it is used for.
    pub used_for: &'static str,
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

macro_rules! names {
    ($($module:ident $name:literal $spelling:literal $dims:ident $used:literal;)+) => {
        &[$(CatalogName {
            module: stringify!($module),
            name: $name,
            spelling: $spelling,
            dims: $dims,
            used_for: $used,
        }),+]
    };
}

/// Every named layout, module by module (the table behind [`catalog_names`], readable in
/// constant expressions).
///
/// ```
/// const COUNT: usize = layout_notation::CATALOG.len();
/// assert_eq!(COUNT, layout_notation::catalog_names().len());
/// ```
pub const CATALOG: &[CatalogName] = names! {
    htp "R4FlatMemoryLayout" "NHWC: 0,0 1,0 2,0 3,0" NHWC "plain NHWC; exchange with the outside world";
    htp "R4NCHWMemoryLayout" "NHWC: 0,0 3,0 2,0 1,0" NHWC "the SDK's NCHW spelling (memory order N, C, W, H)";
    htp "R4NHWCAsNCHWLayout" "NHWC: 0,0 3,0 1,0 2,0" NHWC "NHWC dims stored as NCHW (the HTP documentation's prose)";
    htp "R4Depth32MemoryLayout" "NHWC: 0,0 1,0 3,0 2,0 2,4 3,32" NHWC "d32: 4 columns x 32 channels chunks";
    htp "R4CroutonLayout" "NHWC: 0,0 1,0 2,0 3,0 1,8 2,8 3,32" NHWC "8-bit activations in 8x8x32 croutons";
    htp "R4Crouton4x1Layout" "NHWC: 0,0 1,0 2,0 3,0 1,8 2,2 3,32 2,4" NHWC "croutons with 4-column groups";
    htp "R4Crouton2x2Layout" "NHWC: 0,0 1,0 2,0 3,0 1,4 2,4 3,32 1,2 2,2" NHWC "croutons of 2x2 pixel tiles";
    htp "R4Crouton2Layout" "NHWC: 0,0 1,0 2,0 3,0 1,8 2,2 3,32 2,2" NHWC "16-bit activations, 8x4x32 croutons";
    htp "R4Crouton4Layout" "NHWC: 0,0 1,0 2,0 3,0 1,8 2,2 3,32" NHWC "32-bit activations, 8x2x32 croutons";
    htp "R4ConvWeightLayout" "HWIO: 3,0 2,0 0,0 1,0 2,8 3,32 2,4" HTP_WEIGHTS "convolution weights, 32x32 channel chunks";
    htp "SpatialXMajor" "NHWC: 0,0 1,0 2,0 3,0 1,4 2,2 3,32 2,4" NHWC "the HTP documentation's 4x8x32 spatial-x-major crouton";
    htp "ChannelMajorCrouton" "NHWC: 0,0 1,0 2,0 3,0 1,8 2,8 3,32" NHWC "the HTP documentation's name for R4CroutonLayout";
    htp "SpatialXYMajor" "NHWC: 0,0 1,0 2,0 3,0 1,4 2,4 3,32 1,2 2,2" NHWC "the HTP documentation's name for R4Crouton2x2Layout";
    onednn "ncw" "ncw" NCW "plain 1-D activations";
    onednn "nwc" "nwc" NCW "plain 1-D activations, channels last";
    onednn "nCw8c" "nCw8c" NCW "1-D, channels blocked by 8";
    onednn "nCw16c" "nCw16c" NCW "1-D, channels blocked by 16";
    onednn "nchw" "nchw" NCHW "plain NCHW (Caffe)";
    onednn "nhwc" "nhwc" NCHW "plain NHWC (TensorFlow)";
    onednn "chwn" "chwn" NCHW "plain CHWN (Neon)";
    onednn "nChw4c" "nChw4c" NCHW "channels blocked by 4";
    onednn "nChw8c" "nChw8c" NCHW "channels blocked by 8 (SSE4.2/AVX2)";
    onednn "nChw16c" "nChw16c" NCHW "channels blocked by 16 (AVX-512)";
    onednn "nChw32c" "nChw32c" NCHW "channels blocked by 32";
    onednn "NChw16n16c" "NChw16n16c" NCHW "batch and channels blocked by 16";
    onednn "ncdhw" "ncdhw" NCDHW "plain 5-D activations";
    onednn "ndhwc" "ndhwc" NCDHW "plain 5-D, channels last";
    onednn "nCdhw16c" "nCdhw16c" NCDHW "5-D, channels blocked by 16";
    onednn "oiw" "oiw" OIW "plain 1-D weights";
    onednn "oihw" "oihw" OIHW "plain weights";
    onednn "hwio" "hwio" OIHW "plain weights, TensorFlow order";
    onednn "ohwi" "ohwi" OIHW "plain weights, input channels last";
    onednn "iohw" "iohw" OIHW "plain deconvolution weights";
    onednn "OIhw8i8o" "OIhw8i8o" OIHW "weights in 8x8 channel tiles";
    onednn "OIhw16i16o" "OIhw16i16o" OIHW "weights in 16x16 channel tiles (AVX-512)";
    onednn "OIhw16o16i" "OIhw16o16i" OIHW "weights in 16x16 tiles, input fastest";
    onednn "IOhw16o16i" "IOhw16o16i" OIHW "deconvolution weights in 16x16 tiles";
    onednn "OIhw4i16o4i" "OIhw4i16o4i" OIHW "int8 VNNI weights";
    onednn "OIhw8i16o2i" "OIhw8i16o2i" OIHW "bf16 weights";
    onednn "Ohwi16o" "Ohwi16o" OIHW "weights, output channels blocked by 16";
    onednn "oidhw" "oidhw" OIDHW "plain 3-D weights";
    onednn "OIdhw16i16o" "OIdhw16i16o" OIDHW "3-D weights in 16x16 channel tiles";
    onednn "goihw" "goihw" GOIHW "plain grouped weights";
    onednn "gOIhw16i16o" "gOIhw16i16o" GOIHW "grouped weights in 16x16 tiles";
    megengine "NCHW" "NCHW: 0,0 1,0 2,0 3,0" NCHW "plain NCHW";
    megengine "NHWC" "NCHW: 0,0 2,0 3,0 1,0" NCHW "plain NHWC";
    megengine "NCHW4" "NCHW: 0,0 1,0 2,0 3,0 1,4" NCHW "int8 dp4a: 4 channels first";
    megengine "NCHW32" "NCHW: 0,0 1,0 2,0 3,0 1,32" NCHW "int8 tensor cores: 32 channels first";
    megengine "NCHW64" "NCHW: 0,0 1,0 2,0 3,0 1,64" NCHW "int4 tensor cores: 64 channels first";
    megengine "CHWN4" "NCHW: 1,0 2,0 3,0 0,0 1,4" NCHW "dp4a: 4 channels, then the batch";
    sophgo "Continuous" "NCHW: 0,0 1,0 2,0 3,0" NCHW "system memory: what store and load move";
    sophgo "ContinuousWeights" "IOHW: 0,0 1,0 2,0 3,0" IOHW "system memory: 2IC convolution weights";
};

/// Every named layout, module by module.
///
/// ```
/// assert!(layout_notation::catalog_names().iter().any(|n| n.name == "CHWN4"));
/// ```
pub fn catalog_names() -> &'static [CatalogName] {
    CATALOG
}

/// The named layout `name`, alone (`R4CroutonLayout`, `nChw16c`, `NCHW4`) or with its module
/// (`htp::R4CroutonLayout`, `megengine::NCHW`). Names are case-sensitive: oneDNN's `nchw` and
/// MegEngine's `NCHW` are two entries (the same layout). A name without its module that two
/// modules share is the first module's (none does today).
///
/// ```
/// use layout_notation::find_catalog_name;
/// assert_eq!(find_catalog_name("megengine::NCHW4").unwrap().spelling, "NCHW: 0,0 1,0 2,0 3,0 1,4");
/// assert!(find_catalog_name("onednn::NCHW4").is_none());
/// ```
pub fn find_catalog_name(name: &str) -> Option<&'static CatalogName> {
    let (module, name) = match name.split_once("::") {
        Some((module, name)) => (Some(module), name),
        None => (None, name),
    };
    CATALOG
        .iter()
        .find(|e| e.name == name && module.is_none_or(|m| m == e.module))
}

/// Whether `module` is one of the catalog's modules.
///
/// ```
/// assert!(layout_notation::is_module("htp") && !layout_notation::is_module("tflite"));
/// ```
pub fn is_module(module: &str) -> bool {
    CATALOG.iter().any(|e| e.module == module)
}
