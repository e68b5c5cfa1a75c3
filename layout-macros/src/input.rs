//! What both macros share: the optional `@path (crate path)` prefix the forwarding macros add,
//! and the expansion of a checked chunk list into the layout type.

use layout_notation::Entry;
use proc_macro2::TokenStream;
use quote::quote;
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

/// `path::ChunkedMemoryLayout<rank, (path::Chunk<d, s>, ...)>`, with
/// `path::Named<'N', 'H', 'W', 'C'>` after the list when `axes` names the axes (a positional
/// layout leaves the default, so every spelling of it is one type).
pub(crate) fn layout_type(
    path: &TokenStream,
    rank: usize,
    axes: Option<&str>,
    entries: &[Entry],
) -> TokenStream {
    let chunks = entries.iter().map(|e| {
        let (dim, size) = (
            proc_macro2::Literal::usize_unsuffixed(e.dim),
            proc_macro2::Literal::usize_unsuffixed(e.size),
        );
        quote!(#path::Chunk<#dim, #size>,)
    });
    let rank = proc_macro2::Literal::usize_unsuffixed(rank);
    match axes {
        Some(word) => {
            let letters = word.chars().map(proc_macro2::Literal::character);
            quote!(#path::ChunkedMemoryLayout<#rank, (#(#chunks)*), #path::Named<#(#letters),*>>)
        }
        None => quote!(#path::ChunkedMemoryLayout<#rank, (#(#chunks)*)>),
    }
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
