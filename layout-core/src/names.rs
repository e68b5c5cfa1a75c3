//! The common axis words as types: `names::NCHW`, `names::NHWC`, `names::OIHW`, ...
//!
//! Every layout of the catalog names its axes with one of these, and `chunked_layout![NHWC; ...]`
//! and `onednn_layout!` write them for these words, so compiler errors print the word itself
//! (`NHWC`) and relayouts between them are checked by the trait system ([`SameAxesAs`]), which
//! `cargo check` runs. A word without a type here is spelled with [`Named`]
//! letters; `Named<...>` letters that spell one of these words are refused, so that each word
//! is one type.
//!
//! ```
//! use tensor_layout::prelude::*;
//! let nhwc = Tensor::<u8, htp::R4FlatMemoryLayout>::from_fn([1, 2, 3, 4], |[_, h, w, c]| (h * 100 + w * 10 + c) as u8);
//! let as_nchw = nhwc.align_to::<names::NCHW>().unwrap(); // no copy
//! assert_eq!(as_nchw.dims(), [1, 4, 2, 3]);
//! assert_eq!(as_nchw[[0, 3, 1, 2]], nhwc[[0, 1, 2, 3]]);
//! ```

use crate::axis_names::{impl_for_named_letters, named_word};
use crate::{axes::AxisNames, axes::AxisNaming, axes::Named, axes::RunTimeNames, axes::SameAxesAs};

macro_rules! words {
    ($($(#[doc = $doc:literal])* $word:ident;)+) => {$(
        $(#[doc = $doc])*
        ///
        #[doc = concat!(
            "```\nuse tensor_layout::prelude::*;\nuse tensor_layout::{axes::AxisNames, axes::AxisNaming};\n",
            "let AxisNaming::ByName(word) = names::", stringify!($word),
            "::NAMING else { unreachable!() };\nassert_eq!(word.as_str(), \"",
            stringify!($word), "\");\n```"
        )]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $word;

        impl AxisNames for $word {
            const NAMING: AxisNaming = AxisNaming::ByName(named_word(stringify!($word).as_bytes()));
        }

        // Letters that may spell any word: checked when the conversion is compiled to machine
        // code. Names known at run time: checked when it runs.
        impl_for_named_letters!(SameAxesAs<Named<A, B, C, D, E, F, G, H>> for $word {});
        impl_for_named_letters!(SameAxesAs<$word> for Named<A, B, C, D, E, F, G, H> {});
        impl SameAxesAs<RunTimeNames> for $word {}
        impl SameAxesAs<$word> for RunTimeNames {}
    )+};
}

words! {
    /// Batch, channels, height, width: oneDNN's and MegEngine's activations, Sophgo's tensors.
    NCHW;
    /// Batch, height, width, channels: Qualcomm HTP's activations.
    NHWC;
    /// Channels, height, width, batch.
    CHWN;
    /// Batch, channels, width: oneDNN's 1-D activations.
    NCW;
    /// Batch, width, channels.
    NWC;
    /// Batch, channels, depth, height, width: oneDNN's 3-D activations.
    NCDHW;
    /// Batch, depth, height, width, channels.
    NDHWC;
    /// Output channels, input channels, width: oneDNN's 1-D weights.
    OIW;
    /// Output channels, input channels, height, width: oneDNN's weights.
    OIHW;
    /// Output channels, input channels, depth, height, width: oneDNN's 3-D weights.
    OIDHW;
    /// Groups, output channels, input channels, height, width: oneDNN's grouped weights.
    GOIHW;
    /// Filter height, filter width, input channels, output channels: Qualcomm HTP's weights.
    HWIO;
    /// Output channels, height, width, input channels.
    OHWI;
    /// Input channels, output channels, height, width: Sophgo's 2IC convolution weights.
    IOHW;
}

/// `impl SameAxesAs<B> for A` for every two different words of one set of letters, both ways
/// (each word with itself is the blanket identity of [`SameAxesAs`]).
macro_rules! same_letters {
    ($([$($word:ident)+])+) => {$(
        same_letters!(@pairs $($word)+);
    )+};
    (@pairs $first:ident $($rest:ident)*) => {
        $(
            impl SameAxesAs<$rest> for $first {}
            impl SameAxesAs<$first> for $rest {}
        )*
        same_letters!(@pairs $($rest)*);
    };
    (@pairs) => {};
}

same_letters! {
    [NCHW NHWC CHWN]
    [NCW NWC]
    [NCDHW NDHWC]
    [OIHW HWIO OHWI IOHW]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::axes::AxisWord;

    /// The words here are the words the macros give a type (layout-notation's list).
    #[test]
    fn words_are_the_macros_words() {
        let ours = [
            NCHW::NAMING,
            NHWC::NAMING,
            CHWN::NAMING,
            NCW::NAMING,
            NWC::NAMING,
            NCDHW::NAMING,
            NDHWC::NAMING,
            OIW::NAMING,
            OIHW::NAMING,
            OIDHW::NAMING,
            GOIHW::NAMING,
            HWIO::NAMING,
            OHWI::NAMING,
            IOHW::NAMING,
        ];
        let theirs = layout_notation::AXIS_WORD_TYPES
            .iter()
            .map(|w| AxisNaming::ByName(AxisWord::new(w).unwrap()));
        assert!(ours.into_iter().eq(theirs));
    }
}
