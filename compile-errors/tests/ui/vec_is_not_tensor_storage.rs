// Tensors hold an aligned buffer or a borrowed slice; the message says how to use a Vec.
use tensor_layout::tensors::TensorBase;
use tensor_layout::prelude::*;

fn first(t: &TensorBase<Vec<f32>, onednn::nchw, Plain>) -> f32 {
    t[[0, 0, 0, 0]]
}

fn main() {}
