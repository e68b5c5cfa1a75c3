//! The names of the catalog's layouts and their spellings, so that a layout read at run time
//! may be given by name (`htp::R4CroutonLayout`, `nChw16c`, `megengine::NCHW4`).
//!
//! The typed layouts live in the `layouts-catalog` crate; its tests check that every type there
//! and its entry here are the same layout.

/// One named layout of the catalog.
///
/// ```
/// let entry = layout_notation::find_catalog_name("R4CroutonLayout").unwrap();
/// assert_eq!((entry.module, entry.spelling), ("htp", "NHWC: 0,0 1,0 2,0 3,0 1,8 2,8 3,32"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CatalogName {
    /// The module (system) it belongs to: `htp`, `onednn`, `megengine`, `sophgo`.
    pub module: &'static str,
    /// The type's name in its module.
    pub name: &'static str,
    /// The layout in the named short form (`NHWC: 0,0 1,0 ...`) or, for oneDNN, its tag.
    pub spelling: &'static str,
}

macro_rules! names {
    ($($module:ident $name:literal $spelling:literal;)+) => {
        &[$(CatalogName { module: stringify!($module), name: $name, spelling: $spelling }),+]
    };
}

static NAMES: &[CatalogName] = names! {
    htp "R4FlatMemoryLayout" "NHWC: 0,0 1,0 2,0 3,0";
    htp "R4NCHWMemoryLayout" "NHWC: 0,0 3,0 2,0 1,0";
    htp "R4NHWCAsNCHWLayout" "NHWC: 0,0 3,0 1,0 2,0";
    htp "R4Depth32MemoryLayout" "NHWC: 0,0 1,0 3,0 2,0 2,4 3,32";
    htp "R4CroutonLayout" "NHWC: 0,0 1,0 2,0 3,0 1,8 2,8 3,32";
    htp "R4Crouton4x1Layout" "NHWC: 0,0 1,0 2,0 3,0 1,8 2,2 3,32 2,4";
    htp "R4Crouton2x2Layout" "NHWC: 0,0 1,0 2,0 3,0 1,4 2,4 3,32 1,2 2,2";
    htp "R4Crouton2Layout" "NHWC: 0,0 1,0 2,0 3,0 1,8 2,2 3,32 2,2";
    htp "R4Crouton4Layout" "NHWC: 0,0 1,0 2,0 3,0 1,8 2,2 3,32";
    htp "R4ConvWeightLayout" "HWIO: 3,0 2,0 0,0 1,0 2,8 3,32 2,4";
    htp "SpatialXMajor" "NHWC: 0,0 1,0 2,0 3,0 1,4 2,2 3,32 2,4";
    htp "ChannelMajorCrouton" "NHWC: 0,0 1,0 2,0 3,0 1,8 2,8 3,32";
    htp "SpatialXYMajor" "NHWC: 0,0 1,0 2,0 3,0 1,4 2,4 3,32 1,2 2,2";
    onednn "ncw" "ncw";
    onednn "nwc" "nwc";
    onednn "nCw8c" "nCw8c";
    onednn "nCw16c" "nCw16c";
    onednn "nchw" "nchw";
    onednn "nhwc" "nhwc";
    onednn "chwn" "chwn";
    onednn "nChw4c" "nChw4c";
    onednn "nChw8c" "nChw8c";
    onednn "nChw16c" "nChw16c";
    onednn "nChw32c" "nChw32c";
    onednn "NChw16n16c" "NChw16n16c";
    onednn "ncdhw" "ncdhw";
    onednn "ndhwc" "ndhwc";
    onednn "nCdhw16c" "nCdhw16c";
    onednn "oiw" "oiw";
    onednn "oihw" "oihw";
    onednn "hwio" "hwio";
    onednn "ohwi" "ohwi";
    onednn "iohw" "iohw";
    onednn "OIhw8i8o" "OIhw8i8o";
    onednn "OIhw16i16o" "OIhw16i16o";
    onednn "OIhw16o16i" "OIhw16o16i";
    onednn "IOhw16o16i" "IOhw16o16i";
    onednn "OIhw4i16o4i" "OIhw4i16o4i";
    onednn "OIhw8i16o2i" "OIhw8i16o2i";
    onednn "Ohwi16o" "Ohwi16o";
    onednn "oidhw" "oidhw";
    onednn "OIdhw16i16o" "OIdhw16i16o";
    onednn "goihw" "goihw";
    onednn "gOIhw16i16o" "gOIhw16i16o";
    megengine "NCHW" "NCHW: 0,0 1,0 2,0 3,0";
    megengine "NHWC" "NCHW: 0,0 2,0 3,0 1,0";
    megengine "NCHW4" "NCHW: 0,0 1,0 2,0 3,0 1,4";
    megengine "NCHW32" "NCHW: 0,0 1,0 2,0 3,0 1,32";
    megengine "NCHW64" "NCHW: 0,0 1,0 2,0 3,0 1,64";
    megengine "CHWN4" "NCHW: 1,0 2,0 3,0 0,0 1,4";
    sophgo "Continuous" "NCHW: 0,0 1,0 2,0 3,0";
    sophgo "ContinuousWeights" "IOHW: 0,0 1,0 2,0 3,0";
};

/// Every named layout, module by module.
///
/// ```
/// assert!(layout_notation::catalog_names().iter().any(|n| n.name == "CHWN4"));
/// ```
pub fn catalog_names() -> &'static [CatalogName] {
    NAMES
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
    NAMES
        .iter()
        .find(|e| e.name == name && module.is_none_or(|m| m == e.module))
}
