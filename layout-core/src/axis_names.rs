//! Axis names: what each logical dimension of a layout means, as part of the layout's type.
//!
//! A layout type carries an [`AxisNames`] marker: [`Named`] letters from one vocabulary shared by
//! every system (`N` batch, `C` channels, `D` depth of 5-D data, `H` height, `W` width, `O`
//! output channels, `I` input channels, `G` groups; other upper-case letters for other
//! meanings), or [`Positional`] axes `a`, `b`, ... that state no meaning. Two layouts with the
//! same chunk list but other names are other types, so an HTP NHWC tensor is never taken for a
//! oneDNN NCHW one; relayouts move elements by name.

use crate::LayoutError;
use crate::mappings::MAX_RANK;
use alloc::string::ToString;
use const_panic::concat_panic;
use core::fmt;
use core::hash::Hash;
use layout_notation::axis_word_problem;

/// The names of a layout's logical axes as a value: `NHWC`, `OIHW`, or positional `abcd`.
///
/// ```
/// use layout_core::axes::AxisWord;
/// let nhwc = AxisWord::new("NHWC").unwrap();
/// assert_eq!((nhwc.rank(), nhwc.to_string()), (4, "NHWC".to_string()));
/// assert_eq!(AxisWord::positional(3).as_str(), "abc");
/// assert!(AxisWord::new("NHWN").is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct AxisWord {
    letters: [u8; MAX_RANK],
    len: usize,
}

impl AxisWord {
    /// The positional word of `rank` axes (`abcd` for rank 4; at most [`MAX_RANK`] letters).
    ///
    /// ```
    /// assert!(layout_core::axes::AxisWord::positional(4).is_positional());
    /// ```
    pub const fn positional(rank: usize) -> Self {
        let len = if rank < MAX_RANK { rank } else { MAX_RANK };
        Self::from_valid(b"abcdefgh".split_at(len).0)
    }

    /// Reads an axis word: 1 to 8 distinct upper-case letters, or `a`, `b`, `c`, ... in order.
    ///
    /// # Errors
    /// [`LayoutError::InvalidAxisWord`] saying what is wrong.
    ///
    /// ```
    /// use layout_core::axes::AxisWord;
    /// assert_eq!(AxisWord::new("abcd").unwrap(), AxisWord::positional(4));
    /// assert_eq!(AxisWord::new("NhWC").unwrap_err().to_string(),
    ///            "`NhWC` is not an axis word: axis names are upper-case letters (N, C, H, W, ...) or the positional a, b, c, ...");
    /// ```
    pub fn new(word: &str) -> Result<Self, LayoutError> {
        match axis_word_problem(word.as_bytes()) {
            None => Ok(Self::from_valid(word.as_bytes())),
            Some(problem) => Err(LayoutError::InvalidAxisWord {
                word: word.to_string(),
                reason: problem.message().to_string(),
            }),
        }
    }

    /// A word already checked by `axis_word_problem`.
    pub(crate) const fn from_valid(word: &[u8]) -> Self {
        let mut letters = [0u8; MAX_RANK];
        let mut i = 0;
        while i < word.len() {
            letters[i] = word[i];
            i += 1;
        }
        Self {
            letters,
            len: word.len(),
        }
    }

    /// Number of axes.
    ///
    /// ```
    /// assert_eq!(layout_core::axes::AxisWord::new("NCDHW").unwrap().rank(), 5);
    /// ```
    pub const fn rank(&self) -> usize {
        self.len
    }

    /// Whether the axes are positional (`a`, `b`, ...), stating no meaning.
    ///
    /// ```
    /// assert!(!layout_core::axes::AxisWord::new("NCHW").unwrap().is_positional());
    /// ```
    pub const fn is_positional(&self) -> bool {
        layout_notation::is_positional(self.bytes())
    }

    pub(crate) const fn bytes(&self) -> &[u8] {
        self.letters.split_at(self.len).0
    }

    /// The word as text.
    ///
    /// ```
    /// assert_eq!(layout_core::axes::AxisWord::new("HWIO").unwrap().as_str(), "HWIO");
    /// ```
    pub const fn as_str(&self) -> &str {
        match core::str::from_utf8(self.bytes()) {
            Ok(text) => text,
            Err(_) => "",
        }
    }

    /// The name of axis `axis` (its letter).
    ///
    /// # Panics
    /// When `axis >= self.rank()`.
    ///
    /// ```
    /// assert_eq!(layout_core::axes::AxisWord::new("NHWC").unwrap().letter(3), 'C');
    /// ```
    pub const fn letter(&self, axis: usize) -> char {
        assert!(axis < self.len, "axis out of range");
        self.letters[axis] as char
    }

    /// Where the axis named `letter` stands, if this word has it.
    ///
    /// ```
    /// let nhwc = layout_core::axes::AxisWord::new("NHWC").unwrap();
    /// assert_eq!((nhwc.position_of('C'), nhwc.position_of('O')), (Some(3), None));
    /// ```
    pub const fn position_of(&self, letter: char) -> Option<usize> {
        let mut i = 0;
        while i < self.len {
            if self.letters[i] as char == letter {
                return Some(i);
            }
            i += 1;
        }
        None
    }

    /// For each axis of this word, where the axis of the same name stands in `other`; `None`
    /// unless the two words have the same names (in any order). Positional words match only
    /// positional words of the same rank, axis for axis.
    ///
    /// ```
    /// use layout_core::axes::AxisWord;
    /// let nhwc = AxisWord::new("NHWC").unwrap();
    /// let nchw = AxisWord::new("NCHW").unwrap();
    /// assert_eq!(nhwc.positions_in(&nchw).unwrap()[..4], [0, 2, 3, 1]);
    /// assert!(nhwc.positions_in(&AxisWord::new("OIHW").unwrap()).is_none());
    /// assert!(nchw.positions_in(&AxisWord::positional(4)).is_none());
    /// ```
    pub const fn positions_in(&self, other: &AxisWord) -> Option<[usize; MAX_RANK]> {
        let mut positions = [0usize; MAX_RANK];
        if self.len != other.len || self.is_positional() != other.is_positional() {
            return None;
        }
        let mut i = 0;
        while i < self.len {
            positions[i] = match other.position_of(self.letters[i] as char) {
                Some(at) => at,
                None => return None,
            };
            i += 1;
        }
        Some(positions)
    }
}

impl fmt::Display for AxisWord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for AxisWord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AxisWord({})", self.as_str())
    }
}

/// How a layout type names its axes (the value of [`AxisNames::NAMING`]).
///
/// ```
/// use layout_core::{axes::AxisNames, axes::AxisNaming, axes::Positional, names};
/// assert!(matches!(Positional::NAMING, AxisNaming::ByPosition));
/// assert!(matches!(names::NHWC::NAMING, AxisNaming::ByName(word) if word.as_str() == "NHWC"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AxisNaming {
    /// Axes `a`, `b`, ... of whatever rank the layout has.
    ByPosition,
    /// These names, in logical order.
    ByName(AxisWord),
    /// The layout value holds its names (a layout read at run time).
    AtRunTime,
}

impl AxisNaming {
    /// The word for a layout of `rank` axes; `None` when only the layout value knows it.
    ///
    /// ```
    /// use layout_core::axes::AxisNaming;
    /// assert_eq!(AxisNaming::ByPosition.word(2).unwrap().as_str(), "ab");
    /// assert_eq!(AxisNaming::AtRunTime.word(2), None);
    /// ```
    pub const fn word(&self, rank: usize) -> Option<AxisWord> {
        match self {
            Self::ByPosition => Some(AxisWord::positional(rank)),
            Self::ByName(word) => Some(*word),
            Self::AtRunTime => None,
        }
    }
}

/// The names of a layout's axes as a type: a word of [`names`](crate::names), [`Named`]
/// letters, [`Positional`], or [`RunTimeNames`].
///
/// ```
/// use layout_core::{axes::AxisNames, axes::AxisNaming, axes::Named, names};
/// let AxisNaming::ByName(word) = names::OIHW::NAMING else { unreachable!() };
/// assert_eq!(word.as_str(), "OIHW");
/// let AxisNaming::ByName(word) = Named::<'T', 'F'>::NAMING else { unreachable!() };
/// assert_eq!(word.as_str(), "TF");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not name axes",
    label = "expected axis names such as `names::NCHW` or `Named<'T', 'F'>`",
    note = "axis names are the types of `tensor_layout::names`, `Named<...>` letters, or `Positional`"
)]
pub trait AxisNames: Copy + Default + Eq + Hash + fmt::Debug + Send + Sync + 'static {
    /// The names this type stands for.
    const NAMING: AxisNaming;
}

/// Positional axes `a`, `b`, ...: a layout that states no meaning for its dimensions (oneDNN's
/// positional tags such as `aBcd16b`; `chunked_layout![4; ...]`).
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::axes::Positional;
/// let _: ChunkedMemoryLayout<2, (Chunk<0, 0>, Chunk<1, 0>), Positional> = <chunked_layout![2; 0,0, 1,0]>::default();
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Positional;

impl AxisNames for Positional {
    const NAMING: AxisNaming = AxisNaming::ByPosition;
}

/// Holds for [`Positional`] axes only: the bound of the views that reorder dims by number.
///
/// ```
/// use tensor_layout::prelude::*;
/// let t = Tensor::<u8, chunked_layout![2; 0,0, 1,0]>::zeros([2, 3]);
/// assert_eq!(t.permute([1, 0]).unwrap().dims(), [3, 2]);
/// ```
#[diagnostic::on_unimplemented(
    message = "the axes of this tensor have names (`{Self}`), so its dims are reordered by name",
    label = "`permute`, `permute_mut` and `transpose` take positional axes only",
    note = "view the tensor in another axis order with `align_to::<names::NCHW>()` (any word of the same names)"
)]
pub trait PositionalAxes: AxisNames {}

impl PositionalAxes for Positional {}

/// Named axes, one upper-case letter each, in logical order, for an axis word that has no type
/// in [`names`](crate::names): `Named<'T', 'F'>` (time, frequency). Unused trailing letters stay
/// at their default, a space. The common words (`NHWC`, `NCHW`, `OIHW`, ...) are types of
/// [`names`](crate::names), and `Named<...>` letters that spell one of them do not compile, so
/// that each word is one type.
///
/// A conversion between two `Named<...>` words, or between one and a word of
/// [`names`](crate::names), is checked when it is compiled to machine code (`cargo build`, not
/// `cargo check`); between words of [`names`](crate::names) the trait system checks it.
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::axes::Named;
/// type Spectrogram = chunked_layout![TF; 0,0, 1,0, 1,8];
/// let _: ChunkedMemoryLayout<2, (Chunk<0, 0>, Chunk<1, 0>, Chunk<1, 8>), Named<'T', 'F'>> = Spectrogram::default();
/// assert_eq!(Spectrogram::default().axis_word().as_str(), "TF");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Named<
    const A: char,
    const B: char = ' ',
    const C: char = ' ',
    const D: char = ' ',
    const E: char = ' ',
    const F: char = ' ',
    const G: char = ' ',
    const H: char = ' ',
>;

/// `impl<const A: char, ..., const H: char>` before the rest of an impl, which names the
/// letters as `Named<A, B, C, D, E, F, G, H>`: the impl for every `Named<...>` word.
macro_rules! impl_for_named_letters {
    ($($rest_of_impl:tt)*) => {
        impl<
            const A: char,
            const B: char,
            const C: char,
            const D: char,
            const E: char,
            const F: char,
            const G: char,
            const H: char,
        > $($rest_of_impl)*
    };
}
pub(crate) use impl_for_named_letters;

impl_for_named_letters!(AxisNames for Named<A, B, C, D, E, F, G, H> {
    const NAMING: AxisNaming = AxisNaming::ByName(word_of_letters([A, B, C, D, E, F, G, H]));
});

/// The word of `Named<...>` letters, or a compile error saying what is wrong with them.
const fn word_of_letters(chars: [char; MAX_RANK]) -> AxisWord {
    let mut bytes = [0u8; MAX_RANK];
    let mut len = 0;
    while len < MAX_RANK && chars[len] != ' ' {
        if !chars[len].is_ascii() {
            concat_panic!("axis names are ASCII letters; found `", chars[len], "`");
        }
        bytes[len] = chars[len] as u8;
        len += 1;
    }
    let mut rest = len;
    while rest < MAX_RANK {
        if chars[rest] != ' ' {
            concat_panic!("`Named<...>` letters come first, with no space between them");
        }
        rest += 1;
    }
    let word = named_word(bytes.split_at(len).0);
    if layout_notation::has_word_type(word.bytes()) {
        concat_panic!(
            "\n\nthe axes ",
            display: word.as_str(),
            " have a type of their own: write `names::",
            display: word.as_str(),
            "` rather than `Named<...>` letters\n\n"
        );
    }
    word
}

/// The named word `word`, or a compile error saying what is wrong with it.
pub(crate) const fn named_word(word: &[u8]) -> AxisWord {
    if let Some(problem) = axis_word_problem(word) {
        concat_panic!("invalid axis names: ", problem.message());
    }
    if layout_notation::is_positional(word) {
        concat_panic!(
            "`Named<...>` takes upper-case names; write `Positional` for the axes a, b, c, ..."
        );
    }
    AxisWord::from_valid(word)
}

/// Names held by the layout value rather than its type: a layout chosen at run time
/// ([`DynChunked`](crate::dynamic::DynChunked)). Conversions check them when they run.
///
/// ```
/// use layout_core::{axes::AxisNames, axes::AxisNaming, axes::RunTimeNames};
/// assert_eq!(RunTimeNames::NAMING, AxisNaming::AtRunTime);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RunTimeNames;

impl AxisNames for RunTimeNames {
    const NAMING: AxisNaming = AxisNaming::AtRunTime;
}

/// Checks at compile time that `N` names `rank` axes (a layout's own check).
pub(crate) const fn check_rank<N: AxisNames>(rank: usize) {
    if let AxisNaming::ByName(word) = N::NAMING
        && word.rank() != rank
    {
        concat_panic!(
            "the axis names ",
            display: word.as_str(),
            " are ",
            word.rank(),
            " letters, but the layout has rank ",
            rank
        );
    }
}

/// Checks, in a `const` block, that a tensor with axes `From` (of `rank` axes) can be converted
/// into axes `To` by name: the same names in any order, or positional on both sides; a compile
/// error naming both words otherwise. Names known only at run time are checked when the
/// conversion runs. Every conversion of this library checks it; a generic function of yours that
/// converts can check it too, so that the error points at its caller.
///
/// ```
/// use tensor_layout::{axes::check_convertible, names};
/// const _: () = check_convertible::<names::NHWC, names::NCHW>(4);
/// ```
pub const fn check_convertible<From: AxisNames, To: AxisNames>(rank: usize) {
    let (Some(from), Some(to)) = (From::NAMING.word(rank), To::NAMING.word(rank)) else {
        return;
    };
    if from.positions_in(&to).is_some() {
        return;
    }
    if from.is_positional() != to.is_positional() {
        concat_panic!(
            "\n\ncannot convert between positional axes and named axes: ",
            display: from.as_str(),
            " -> ",
            display: to.as_str(),
            "\nname the positional tensor's axes first, with `with_axes::<names::...>()`\n\n"
        );
    }
    concat_panic!(
        "\n\ncannot convert axes ",
        display: from.as_str(),
        " into axes ",
        display: to.as_str(),
        ": elements move by axis name, and these are not the same names\n\n"
    );
}

/// The run-time form of [`check_convertible`] for two words: where each source axis goes.
pub(crate) fn positions(from: &AxisWord, to: &AxisWord) -> Result<[usize; MAX_RANK], LayoutError> {
    from.positions_in(to).ok_or_else(|| LayoutError::AxisNames {
        source: from.to_string(),
        destination: to.to_string(),
    })
}
