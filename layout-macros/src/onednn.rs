//! `onednn_layout!("tag")`.

use crate::input::{combine, crate_path, errors_as_type, layout_type};
use layout_notation::onednn_tag;
use proc_macro2::TokenStream;
use syn::parse::{ParseStream, Parser};

fn parse(input: ParseStream<'_>) -> syn::Result<TokenStream> {
    let path = crate_path(input)?;
    let tag: syn::LitStr = input.parse().map_err(|e| {
        syn::Error::new(
            e.span(),
            "expected a oneDNN format tag in quotes, such as \"nChw16c\"",
        )
    })?;
    if !input.is_empty() {
        return Err(input.error("expected only the tag"));
    }
    let text = tag.value();
    match onednn_tag(&text) {
        Ok(parsed) => Ok(layout_type(
            &path,
            parsed.rank,
            parsed.axes.as_deref(),
            &parsed.entries,
        )),
        Err(problems) => {
            let errors = problems.into_iter().map(|p| {
                syn::Error::new(
                    tag.span(),
                    format!(
                        "invalid oneDNN tag \"{text}\" at character {}: {}",
                        p.at, p.message
                    ),
                )
            });
            Err(combine(errors.collect()).expect("a failed parse reports a problem"))
        }
    }
}

/// Expands the macro, or into `compile_error!`s, one per problem.
pub(crate) fn expand(input: TokenStream) -> TokenStream {
    parse.parse2(input).unwrap_or_else(errors_as_type)
}
