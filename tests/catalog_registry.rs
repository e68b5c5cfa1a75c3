//! The run-time registry of the catalog, and docs/catalog.md, which is generated from it.
//!
//! `UPDATE_DOCS=1 cargo test --test catalog_registry` rewrites docs/catalog.md after a change.

use std::collections::HashSet;
use tensor_layout::registry::{self, CatalogEntry};
use tensor_layout::{DynLayout, layouts::ChunkEntry};

#[test]
fn every_name_is_found_bare_and_qualified() {
    let mut seen = HashSet::new();
    for entry in registry::all() {
        assert!(
            seen.insert(entry.qualified_name()),
            "{} listed twice",
            entry.qualified_name()
        );
        assert_eq!(
            registry::lookup(&entry.qualified_name()).unwrap().name,
            entry.name
        );
        assert_eq!(registry::lookup(entry.name).unwrap().system, entry.system);
        assert_eq!(entry.dims.len(), entry.layout().rank(), "{}", entry.name);
        // The registry's layout is the type's; parsing its long form gives it back.
        assert_eq!(
            DynLayout::parse(&entry.layout().to_string()).unwrap(),
            entry.layout()
        );
    }
    assert_eq!(registry::all().len(), 13 + 31 + 6 + 2);
}

/// Every typed layout of the catalog with the name it goes by, `module::Name` and its layout.
macro_rules! typed_catalog {
    ($($module:ident :: $name:ident),+ $(,)?) => {
        vec![$((concat!(stringify!($module), "::", stringify!($name)), tensor_layout::$module::$name::default().to_dyn())),+]
    };
}

#[test]
fn every_type_is_the_layout_its_name_reads_as() {
    // The catalog's names live in one table (layout_notation::CATALOG); the types are spelled
    // in their modules. Each type and its name there are one layout, axis names included, and
    // every name has its type.
    let typed = typed_catalog![
        htp::R4FlatMemoryLayout,
        htp::R4NCHWMemoryLayout,
        htp::R4NHWCAsNCHWLayout,
        htp::R4Depth32MemoryLayout,
        htp::R4CroutonLayout,
        htp::R4Crouton4x1Layout,
        htp::R4Crouton2x2Layout,
        htp::R4Crouton2Layout,
        htp::R4Crouton4Layout,
        htp::R4ConvWeightLayout,
        htp::SpatialXMajor,
        htp::ChannelMajorCrouton,
        htp::SpatialXYMajor,
        onednn::ncw,
        onednn::nwc,
        onednn::nCw8c,
        onednn::nCw16c,
        onednn::nchw,
        onednn::nhwc,
        onednn::chwn,
        onednn::nChw4c,
        onednn::nChw8c,
        onednn::nChw16c,
        onednn::nChw32c,
        onednn::NChw16n16c,
        onednn::ncdhw,
        onednn::ndhwc,
        onednn::nCdhw16c,
        onednn::oiw,
        onednn::oihw,
        onednn::hwio,
        onednn::ohwi,
        onednn::iohw,
        onednn::OIhw8i8o,
        onednn::OIhw16i16o,
        onednn::OIhw16o16i,
        onednn::IOhw16o16i,
        onednn::OIhw4i16o4i,
        onednn::OIhw8i16o2i,
        onednn::Ohwi16o,
        onednn::oidhw,
        onednn::OIdhw16i16o,
        onednn::goihw,
        onednn::gOIhw16i16o,
        megengine::NCHW,
        megengine::NHWC,
        megengine::NCHW4,
        megengine::NCHW32,
        megengine::NCHW64,
        megengine::CHWN4,
        sophgo::Continuous,
        sophgo::ContinuousWeights,
    ];
    for (name, layout) in &typed {
        let entry = registry::lookup(name).unwrap_or_else(|| panic!("{name} is not in the table"));
        assert_eq!(entry.layout(), *layout, "{name}");
        let bare = name.split_once("::").unwrap().1;
        for spelling in [*name, bare] {
            assert_eq!(DynLayout::parse(spelling).unwrap(), *layout, "{spelling}");
        }
    }
    let typed: HashSet<&str> = typed.iter().map(|(name, _)| *name).collect();
    let named: HashSet<String> = registry::all().iter().map(|e| e.qualified_name()).collect();
    assert_eq!(
        typed.len(),
        named.len(),
        "a name without a type, or a type listed twice"
    );
    assert!(named.iter().all(|n| typed.contains(n.as_str())));
}

#[test]
fn misspelt_names_are_answered_with_the_nearest() {
    for (text, position, nearest) in [
        ("R4CrotonLayout", 0, "htp::R4CroutonLayout"),
        ("htp::R4CroutonLayot", 5, "htp::R4CroutonLayout"),
        ("megengine::NCHW33", 11, "megengine::NCHW32"),
        ("sophgo::Continous", 8, "sophgo::Continuous"),
    ] {
        let error = DynLayout::parse(text).unwrap_err();
        let tensor_layout::LayoutError::Parse {
            position: at,
            expected,
            ..
        } = &error
        else {
            panic!("{text}: {error}")
        };
        assert_eq!(*at, position, "{text}: {error}");
        assert!(
            expected.contains(&format!("did you mean {nearest}")),
            "{text}: {error}"
        );
    }
    let error = DynLayout::parse("tflite::NHWC").unwrap_err().to_string();
    assert!(
        error.contains(
            "expected a module (htp, onednn, megengine or sophgo) before `::`, found `tflite`"
        ),
        "{error}"
    );
}

#[test]
fn onednn_entries_read_from_their_own_names() {
    for entry in registry::all()
        .iter()
        .filter(|e| e.system.module() == "onednn")
    {
        assert_eq!(
            DynLayout::parse(entry.name).unwrap(),
            entry.layout(),
            "{}",
            entry.name
        );
    }
}

/// `8 h x 8 w x 32 c`: the chunk's extent in each blocked dimension.
fn chunk_shape(entry: &CatalogEntry) -> String {
    let layout = entry.layout();
    let block = |dim: usize| {
        layout
            .entries()
            .iter()
            .filter(|e| e.dim == dim && e.size > 0)
            .map(|e| e.size)
            .product::<usize>()
    };
    let parts: Vec<String> = (0..layout.rank())
        .filter(|&d| block(d) > 1)
        .map(|d| format!("{} {}", block(d), entry.dims[d]))
        .collect();
    if parts.is_empty() {
        "1 (no blocks)".into()
    } else {
        parts.join(" x ")
    }
}

fn list(entries: &[ChunkEntry]) -> String {
    entries
        .iter()
        .map(|e| format!("{},{}", e.dim, e.size))
        .collect::<Vec<_>>()
        .join(" ")
}

fn catalog_table() -> String {
    let mut out = String::from(
        "| name | system | axes | logical dims | chunk list | oneDNN tag (positional) | chunk | used for |\n",
    );
    out += "| --- | --- | --- | --- | --- | --- | --- | --- |\n";
    for entry in registry::all() {
        let layout = entry.layout();
        out += &format!(
            "| `{}` | {} | `{}` | {} | `{}` | `{}` | {} | {} |\n",
            entry.name,
            entry.system,
            layout.axis_word(),
            entry.dims.join(", "),
            list(layout.entries()),
            layout.positional_tag(),
            chunk_shape(entry),
            entry.used_for
        );
    }
    out
}

#[test]
fn docs_catalog_md_lists_every_layout() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/catalog.md");
    let table = catalog_table();
    let header = "# The catalog\n\nEvery named layout, generated from `layouts_catalog::registry` by \
                  `UPDATE_DOCS=1 cargo test --test catalog_registry` (the test fails when this file \
                  is stale). Chunk lists are most major first, `dim,size`, size 0 = all the rest. \
                  The positional tag spells the same chunk list in oneDNN's letters (`a` = dim 0); \
                  oneDNN itself implements the tags of its own module.\n\n\
                  The axes column is the layout's axis word, part of its type \
                  ([concepts.md](concepts.md#axis-names)): N batch, C channels (the Qualcomm HTP \
                  SDK's \"depth\"), D depth of 5-D data, H height, W width, O output channels, I \
                  input channels, G groups. Two entries are one type exactly when their axes \
                  (in order) and chunk lists are equal: `onednn::nchw`, `megengine::NCHW` and \
                  `sophgo::Continuous` are one type, and `htp::R4FlatMemoryLayout` (NHWC) is \
                  another although its chunk list is the same. A relayout moves elements by axis \
                  name between layouts whose axes are the same letters in any order: HTP's NHWC \
                  activations convert into oneDNN's and MegEngine's NCHW ones, HTP's HWIO weights \
                  into oneDNN's OIHW and Sophgo's IOHW ones; activations never convert into \
                  weights, nor named axes into positional ones.\n\n\
                  Not in the table, because it is generic: `htp::FlatMemoryLayout<R>`, the \
                  Qualcomm HTP SDK's rank-generic flat layout (chunk list `0,0 1,0 ... R-1,0`, \
                  ranks 1 to 8). `FlatMemoryLayout<4>` is `R4FlatMemoryLayout` (axes `NHWC`); the \
                  other ranks have positional axes (`a`, `ab`, `abc`, `abcde`, ...), because the \
                  SDK names the axes of rank-4 tensors only. Nor are the Sophgo TPU-Kernel \
                  local-memory layouts (`sophgo::Compact`, `EuAligned`, `LineAligned`, \
                  `FreeStrides`, `Matrix`), which are not chunk lists ([sophgo.md](sophgo.md)): \
                  their axes are `NCHW`, or `IOHW` in the 2IC storage mode (fp32 convolution \
                  weights), and `Matrix`'s are positional (`ab`).\n\n";
    let expected = format!("{header}{table}");
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(path, &expected).unwrap();
    }
    let current = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        current == expected,
        "docs/catalog.md is stale: run UPDATE_DOCS=1 cargo test --test catalog_registry"
    );
}
