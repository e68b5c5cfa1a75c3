//! The main job on the example of Qualcomm's HTP documentation: an NHWC tensor converted to HTP's crouton layout.
//!
//! Run with `cargo run --release --example tour`.

use tensor_layout::prelude::*;

fn main() -> Result<(), LayoutError> {
    // The HTP documentation's 1x3x5x30 activation in plain NHWC (HTP's flat layout), filled with a counter.
    let dims = [1, 3, 5, 30];
    let data: Vec<u8> = (0..dims.iter().product::<usize>())
        .map(|k| (k % 251) as u8)
        .collect();
    let nhwc = Tensor::<u8, htp::R4FlatMemoryLayout>::from_row_major(dims, &data)?;

    // The same logical tensor in 8x8x32 croutons. The layout is the type: a function taking
    // `&Tensor<u8, htp::R4CroutonLayout>` cannot be handed `nhwc`.
    let crouton: Tensor<u8, htp::R4CroutonLayout> = nhwc.relayout();
    assert_eq!(crouton.to_row_major(), data);

    let layout = crouton.mapping().layout();
    let storage = crouton.storage_len();
    println!("layout       {layout}");
    println!(
        "logical dims {:?} (n, h, w, c): {} elements",
        crouton.dims(),
        crouton.len()
    );
    println!("padded dims  {:?}", crouton.padded_dims());
    println!(
        "storage      {storage} elements = {storage} bytes of u8, {} padding ({:.1}% overhead)",
        storage - crouton.len(),
        100.0 * (storage - crouton.len()) as f64 / crouton.len() as f64
    );
    println!(
        "chunks       {} of {} elements",
        crouton.chunks().count(),
        crouton.mapping().chunk_volume()
    );
    println!();
    println!(
        "memory order (the HTP documentation's notation; `pad` slots are padding, at padded coordinates):"
    );
    print!("{}", crouton.mapping().memory_order());
    Ok(())
}
