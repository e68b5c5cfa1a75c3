//! `chunked_layout![RANK; d,s, d,s, ...]`.

use crate::input::{combine, crate_path, errors_as_type, layout_type};
use layout_notation::{Entry, axis_word_problem, check_chunk_list, is_positional};
use proc_macro2::{Span, TokenStream};
use syn::parse::{ParseStream, Parser};

/// A number of the input and where it stands.
struct Number {
    value: usize,
    span: Span,
}

/// Parses one number, or records why the token there is not one.
fn number(
    input: ParseStream<'_>,
    what: &str,
    errors: &mut Vec<syn::Error>,
) -> syn::Result<Option<Number>> {
    if input.peek(syn::LitInt) {
        let lit: syn::LitInt = input.parse()?;
        return match lit.base10_parse::<usize>() {
            Ok(value) => Ok(Some(Number {
                value,
                span: lit.span(),
            })),
            Err(_) => {
                errors.push(syn::Error::new(
                    lit.span(),
                    format!("{what} must be a non-negative integer that fits in usize"),
                ));
                Ok(None)
            }
        };
    }
    let token: proc_macro2::TokenTree = input.parse()?;
    errors.push(syn::Error::new(
        token.span(),
        format!("expected {what} (an integer), found `{token}`"),
    ));
    Ok(None)
}

/// The rank, or an axis word such as `NHWC` (which gives the rank and names the axes).
fn rank_or_axes(
    input: ParseStream<'_>,
    errors: &mut Vec<syn::Error>,
) -> syn::Result<(Option<Number>, Option<String>)> {
    if !input.peek(syn::Ident) {
        return Ok((
            number(input, "the rank or an axis word such as NHWC", errors)?,
            None,
        ));
    }
    let word: syn::Ident = input.parse()?;
    let text = word.to_string();
    if let Some(problem) = axis_word_problem(text.as_bytes()) {
        errors.push(syn::Error::new(
            word.span(),
            format!("`{text}` is not an axis word: {}", problem.message()),
        ));
        return Ok((None, None));
    }
    let rank = Number {
        value: text.len(),
        span: word.span(),
    };
    let named = !is_positional(text.as_bytes());
    Ok((Some(rank), named.then_some(text)))
}

fn parse(input: ParseStream<'_>) -> syn::Result<TokenStream> {
    let path = crate_path(input)?;
    let mut errors = Vec::new();
    if input.is_empty() {
        return Err(input.error(
            "expected `RANK; dim,size, ...` or `AXES; dim,size, ...`, for example `NHWC; 0,0, 1,0, 2,0, 3,0`",
        ));
    }
    let (rank, axes) = rank_or_axes(input, &mut errors)?;
    input
        .parse::<syn::Token![;]>()
        .map_err(|e| syn::Error::new(e.span(), "expected `;` after the rank or axis word"))?;
    let mut numbers: Vec<Option<Number>> = Vec::new();
    while !input.is_empty() {
        let what = if numbers.len().is_multiple_of(2) {
            "a dimension"
        } else {
            "a size"
        };
        numbers.push(number(input, what, &mut errors)?);
        if !input.is_empty() {
            input.parse::<syn::Token![,]>()?;
        }
    }
    if !numbers.len().is_multiple_of(2) {
        let span = numbers
            .last()
            .and_then(|n| n.as_ref())
            .map_or(Span::call_site(), |n| n.span);
        errors.push(syn::Error::new(
            span,
            "odd count of numbers: every entry is a pair `dim, size`; this one has no size",
        ));
    }
    // The list rules are checked when every whole pair parsed (a lone last number is reported
    // above and left out).
    let pairs: Vec<(&Number, &Number)> = numbers
        .chunks_exact(2)
        .filter_map(|pair| Some((pair[0].as_ref()?, pair[1].as_ref()?)))
        .collect();
    let all_pairs_parsed = pairs.len() == numbers.len() / 2;
    if let (Some(rank), true) = (&rank, all_pairs_parsed) {
        let entries: Vec<Entry> = pairs
            .iter()
            .map(|(d, s)| Entry::new(d.value, s.value))
            .collect();
        for problem in check_chunk_list(rank.value, &entries) {
            let span = problem.entry.map_or(rank.span, |i| pairs[i].0.span);
            errors.push(syn::Error::new(span, problem.message));
        }
        if errors.is_empty() {
            return Ok(layout_type(&path, rank.value, axes.as_deref(), &entries));
        }
    }
    Err(combine(errors).unwrap_or_else(|| input.error("invalid chunk list")))
}

/// Expands the macro, or into `compile_error!`s, one per problem.
pub(crate) fn expand(input: TokenStream) -> TokenStream {
    parse.parse2(input).unwrap_or_else(errors_as_type)
}
