//! What both macros share: the optional `@path (crate path)` prefix the forwarding macros add,
//! and the expansion of a checked chunk list into the layout type.

use layout_notation::{CatalogList, Entry, catalog_lists, has_word_type};
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;
use std::sync::OnceLock;
use syn::parse::ParseStream;

/// The crate path to expand under: `@path (...)` when given, else `::tensor_layout`.
pub(crate) fn crate_path(input: ParseStream<'_>) -> syn::Result<TokenStream> {
    if input.peek(syn::Token![@]) {
        input.parse::<syn::Token![@]>()?;
        let keyword: syn::Ident = input.parse()?;
        if keyword != "path" {
            return Err(syn::Error::new(keyword.span(), "expected `path`"));
        }
        let content;
        syn::parenthesized!(content in input);
        return content.parse();
    }
    Ok(quote!(::tensor_layout))
}

/// `path::ChunkedMemoryLayout<rank, list, names>`: the list is the catalog's type for it
/// (`path::catalog_lists::aBcd16b`) when some catalog layout has it, else the tuple
/// `(path::Chunk<d, s>, ...)`; the names are `path::names::NHWC` for a word with a type of its own,
/// else `path::Named<'T', 'F'>`, and a positional layout leaves the default. So every spelling of
/// one layout is one type, and a compiler error prints the catalog's short names.
pub(crate) fn layout_type(
    path: &TokenStream,
    rank: usize,
    axes: Option<&str>,
    entries: &[Entry],
) -> TokenStream {
    let list = match catalog_list_tag(entries) {
        Some(tag) => {
            let tag = Ident::new(tag, Span::call_site());
            quote!(#path::catalog_lists::#tag)
        }
        None => tuple(path, entries),
    };
    let rank = proc_macro2::Literal::usize_unsuffixed(rank);
    match axes {
        Some(word) if has_word_type(word.as_bytes()) => {
            let word = Ident::new(word, Span::call_site());
            quote!(#path::ChunkedMemoryLayout<#rank, #list, #path::names::#word>)
        }
        Some(word) => {
            let letters = word.chars().map(proc_macro2::Literal::character);
            quote!(#path::ChunkedMemoryLayout<#rank, #list, #path::axes::Named<#(#letters),*>>)
        }
        None => quote!(#path::ChunkedMemoryLayout<#rank, #list>),
    }
}

/// The tag of `entries` when a catalog layout has that list; the catalog is read once per
/// compiler process, not once per macro call.
fn catalog_list_tag(entries: &[Entry]) -> Option<&'static str> {
    static LISTS: OnceLock<Vec<CatalogList>> = OnceLock::new();
    LISTS
        .get_or_init(catalog_lists)
        .iter()
        .find(|list| list.entries == entries)
        .map(|list| list.tag.as_str())
}

/// The tuple spelling of a chunk list: `(path::Chunk<d, s>, ...)`.
pub(crate) fn tuple(path: &TokenStream, entries: &[Entry]) -> TokenStream {
    let chunks = entries.iter().map(|e| {
        let (dim, size) = (
            proc_macro2::Literal::usize_unsuffixed(e.dim),
            proc_macro2::Literal::usize_unsuffixed(e.size),
        );
        quote!(#path::Chunk<#dim, #size>,)
    });
    quote!((#(#chunks)*))
}

/// Folds errors into one (rustc shows each), or `None` when there are none.
pub(crate) fn combine(errors: Vec<syn::Error>) -> Option<syn::Error> {
    errors.into_iter().reduce(|mut all, next| {
        all.combine(next);
        all
    })
}

/// The errors as something that stands where a type is expected: several `compile_error!`s in
/// a row are not a type, so they go in the array length of a placeholder `[(); N]`, and rustc
/// reports each of them on its own span, and nothing else about the macro call.
pub(crate) fn errors_as_type(error: syn::Error) -> TokenStream {
    let errors = error.into_compile_error();
    quote!([(); { #errors 0 }])
}
