//! The types of the catalog's chunk lists, one per list, named by its positional oneDNN tag:
//! what `layout_core::catalog_lists` holds, generated from the catalog's one table of names.

use crate::input::tuple;
use layout_notation::catalog_lists;
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

/// Every list type, with its documentation and its `ChunkList` implementation; expanded inside
/// layout-core, so paths start at `crate`.
pub(crate) fn expand() -> TokenStream {
    let path = quote!(crate);
    let types = catalog_lists().into_iter().map(|list| {
        let name = Ident::new(&list.tag, Span::call_site());
        let spelling = tuple(&path, &list.entries);
        let numbers: Vec<String> = list
            .entries
            .iter()
            .map(|e| format!("{},{}", e.dim, e.size))
            .collect();
        let numbers = numbers.join(", ");
        let layouts: Vec<String> = list.layouts.iter().map(|l| format!("`{l}`")).collect();
        let summary = format!(
            "The chunk list `{numbers}` (positional oneDNN tag `{}`), of {}.",
            list.tag,
            layouts.join(", ")
        );
        let example = format!(
            "```\nuse tensor_layout::prelude::*;\nuse tensor_layout::layouts::ChunkList;\nuse tensor_layout::catalog_lists::{tag};\n\
             let _: ChunkedMemoryLayout<{rank}, {tag}> = <chunked_layout![{rank}; {numbers}]>::default();\n\
             assert_eq!(<{tag} as ChunkList>::ENTRIES.len(), {len});\n```",
            tag = list.tag,
            rank = list.rank,
            len = list.entries.len(),
        );
        quote! {
            #[doc = #summary]
            ///
            /// `chunked_layout!` and `onednn_layout!` write this type for the list, whatever the
            /// axis names, so a compiler error names the list by its tag.
            ///
            #[doc = #example]
            #[allow(non_camel_case_types)]
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
            pub struct #name;

            impl #path::chunk::sealed::Sealed for #name {}

            impl #path::layouts::ChunkList for #name {
                type Spelling = #spelling;
                const ENTRIES: &'static [#path::layouts::ChunkEntry] =
                    <Self::Spelling as #path::layouts::ChunkList>::ENTRIES;
                const SUMMARY: #path::layouts::ChunkListSummary = <Self::Spelling as #path::layouts::ChunkList>::SUMMARY;

                #[inline(always)]
                fn offset<const RANK: usize>(
                    index: &[usize; RANK],
                    rest_strides: &[usize; RANK],
                ) -> usize {
                    <Self::Spelling as #path::layouts::ChunkList>::offset(index, rest_strides)
                }
            }
        }
    });
    quote!(#(#types)*)
}
