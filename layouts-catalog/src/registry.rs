//! Every named layout of the catalog, looked up by name at run time: a view of the catalog's
//! table of names (`layout_notation::CATALOG`), which `DynLayout::parse` reads names through.

use core::fmt;
use layout_core::DynLayout;
use layout_notation::CATALOG;

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
///
/// A view of one row of the catalog's table of names (`layout_notation::CATALOG`), the one
/// list the run-time parser reads names through too.
#[derive(Clone, Copy, Debug)]
pub struct CatalogEntry {
    /// The type's name in its module, e.g. `R4CroutonLayout` or `nChw16c`.
    pub name: &'static str,
    /// The system (module) it belongs to.
    pub system: System,
    /// The names of its logical dims in words, in order (its axis word is
    /// `layout().axis_word()`).
    pub dims: &'static [&'static str],
    /// What it is used for.
    pub used_for: &'static str,
    spelling: &'static str,
}

impl CatalogEntry {
    /// The layout as a run-time value (equal to the type's `to_dyn()`).
    ///
    /// ```
    /// let entry = layouts_catalog::registry::lookup("NCHW4").unwrap();
    /// assert_eq!(entry.layout().to_string(), "ChunkedMemoryLayout<NCHW, 0,0, 1,0, 2,0, 3,0, 1,4>");
    /// ```
    pub fn layout(&self) -> DynLayout {
        match DynLayout::parse(self.spelling) {
            Ok(layout) => layout,
            // The catalog's tests read every spelling of the table.
            Err(error) => unreachable!("the catalog spells {} wrongly: {error}", self.name),
        }
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

/// The system of a module name of the table.
const fn system_of(module: &str) -> System {
    match module.as_bytes() {
        b"htp" => System::Htp,
        b"onednn" => System::OneDnn,
        b"megengine" => System::MegEngine,
        b"sophgo" => System::Sophgo,
        _ => panic!("a module of the catalog's table has no System"),
    }
}

/// The table's rows as entries, made at compile time.
static ENTRIES: [CatalogEntry; CATALOG.len()] = {
    let mut entries = [CatalogEntry {
        name: "",
        system: System::Htp,
        dims: &[],
        used_for: "",
        spelling: "",
    }; CATALOG.len()];
    let mut i = 0;
    while i < CATALOG.len() {
        let row = &CATALOG[i];
        entries[i] = CatalogEntry {
            name: row.name,
            system: system_of(row.module),
            dims: row.dims,
            used_for: row.used_for,
            spelling: row.spelling,
        };
        i += 1;
    }
    entries
};

/// Every named layout, module by module.
///
/// ```
/// let names: Vec<_> = layouts_catalog::registry::all().iter().map(|e| e.name).collect();
/// assert!(names.contains(&"R4CroutonLayout") && names.contains(&"CHWN4"));
/// ```
pub fn all() -> &'static [CatalogEntry] {
    &ENTRIES
}

/// The named layout `name` (`R4CroutonLayout`, `nChw16c`, `NCHW4`), or qualified with its module
/// (`htp::R4CroutonLayout`, `megengine::NCHW`). Names are case-sensitive: oneDNN's `nchw` and
/// MegEngine's `NCHW` are different entries (their dims are both n, c, h, w: the same layout).
/// [`DynLayout::parse`] reads the same names.
///
/// ```
/// use layouts_catalog::registry::lookup;
/// assert_eq!(lookup("htp::R4CroutonLayout").unwrap().name, "R4CroutonLayout");
/// assert_eq!(lookup("NCHW4").unwrap().system.module(), "megengine");
/// assert!(lookup("onednn::NCHW4").is_none());
/// assert!(lookup("R5CroutonLayout").is_none());
/// ```
pub fn lookup(name: &str) -> Option<&'static CatalogEntry> {
    let found = layout_notation::find_catalog_name(name)?;
    ENTRIES
        .iter()
        .find(|e| e.name == found.name && e.system.module() == found.module)
}
