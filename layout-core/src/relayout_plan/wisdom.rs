//! [`Wisdom`]: the choices of plans kept as text, so that a service measures its relayouts once
//! per machine ([`RelayoutPlan::measured`](crate::RelayoutPlan)) and plans with the answers
//! afterwards.

use crate::LayoutError;
use crate::relayout::{Choices, Pair, PlanChoices, Streaming};
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use core::fmt;

/// The first line of every wisdom text; a text without it is not wisdom.
const HEADER: &str = "tensor-layout wisdom 1";

/// Most lines per row and visit a wisdom entry may ask for (the kernels' groups of column
/// blocks stay on the stack's scale).
const MOST_LINES_PER_VISIT: usize = 64;

/// Farthest a wisdom entry may ask source prefetches to reach, in bytes.
const FARTHEST_PREFETCH: usize = 1 << 20;

/// The choices of relayout plans, remembered per relayout (element size, both mappings and
/// where each axis lands), as text that [`Wisdom::parse`] reads back. A plan made
/// [`RelayoutPlan::with_wisdom`](crate::RelayoutPlan::with_wisdom) takes the remembered
/// choices of its relayout where there are any. The choices only pick between ways of moving
/// the data that are correct either way: wisdom from another machine, or edited by hand,
/// changes speed, never results.
///
/// `Wisdom` is `Send` and `Sync` (plain owned data, no interior mutability): threads may read
/// one `Wisdom` at once ([`RelayoutPlan::with_wisdom`](crate::RelayoutPlan::with_wisdom),
/// `to_string`) through a shared reference; to [`remember`](Wisdom::remember) plans from many
/// threads, share it behind a lock such as `Mutex<Wisdom>`.
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::plans::Wisdom;
/// let src = Tensor::<f32, onednn::nchw>::zeros([1, 16, 8, 8]);
/// let dst = Tensor::<f32, onednn::nhwc>::zeros([1, 16, 8, 8]);
/// let mut wisdom = Wisdom::new();
/// wisdom.remember(&RelayoutPlan::new(&src, &dst).unwrap());
/// let text = wisdom.to_string();
/// let again = Wisdom::parse(&text).unwrap();
/// assert_eq!(again.len(), 1);
/// let plan = RelayoutPlan::with_wisdom(&src, &dst, &again).unwrap();
/// assert!(plan.explain().ends_with("(wisdom)"));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Wisdom {
    /// Per relayout key ([`key`]) and element size: the choices, with the geometry of the
    /// machine the wisdom is used on.
    entries: BTreeMap<EntryKey, Remembered>,
}

/// The choices wisdom keeps: every machine-dependent choice but the cache geometry, which is
/// always the machine's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Remembered {
    lines_per_visit: usize,
    whole_rows: bool,
    stream_one_block_tiles: bool,
    prefetch_apart: usize,
    streamed_prefetch_bytes: Option<usize>,
    /// `None`: the machine's own (wisdom written before the choice existed).
    run_prefetch_bytes: Option<usize>,
    cached_prefetch_below: usize,
    stream_short_rows: bool,
    sweep_four_byte: bool,
    /// `None`: the machine's own (wisdom written before the choice existed).
    realign_overlapped_rows: Option<bool>,
    /// `None`: the machine's own (wisdom written before the choice existed).
    stage_crowded_columns: Option<bool>,
    min_parallel_bytes: usize,
    /// `None`: from the destination's size; else stores past the caches forced on or off.
    stream: Option<bool>,
}

impl Wisdom {
    /// Wisdom that remembers nothing.
    ///
    /// ```
    /// assert!(tensor_layout::plans::Wisdom::new().is_empty());
    /// ```
    pub fn new() -> Wisdom {
        Wisdom::default()
    }

    /// How many relayouts it remembers.
    ///
    /// ```
    /// assert_eq!(tensor_layout::plans::Wisdom::new().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it remembers no relayout.
    ///
    /// ```
    /// assert!(tensor_layout::plans::Wisdom::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Remembers `made_with` for the relayout `pair` of elements of `element_bytes` (replacing
    /// what it had).
    pub(crate) fn insert(&mut self, pair: &Pair, element_bytes: usize, made_with: PlanChoices) {
        let c = made_with.choices;
        let remembered = Remembered {
            lines_per_visit: c.lines_per_visit,
            whole_rows: c.whole_rows,
            stream_one_block_tiles: c.stream_one_block_tiles,
            prefetch_apart: c.prefetch_apart,
            streamed_prefetch_bytes: c.streamed_prefetch_bytes,
            run_prefetch_bytes: Some(c.run_prefetch_bytes),
            cached_prefetch_below: c.cached_prefetch_below,
            stream_short_rows: c.stream_short_rows,
            sweep_four_byte: c.sweep_four_byte,
            realign_overlapped_rows: Some(c.realign_overlapped_rows),
            stage_crowded_columns: Some(c.stage_crowded_columns),
            min_parallel_bytes: c.min_parallel_bytes,
            stream: made_with.streaming.map(|s| s.blocks),
        };
        self.entries.insert((key(pair), element_bytes), remembered);
    }

    /// Reads wisdom written by its `Display` (`to_string()`): a header line, then one line per
    /// relayout; blank lines and lines starting with `#` are skipped.
    ///
    /// # Errors
    /// [`LayoutError::Parse`] at the first character that does not fit, naming what was
    /// expected there: any text but wisdom's is refused, never half read.
    ///
    /// ```
    /// use tensor_layout::plans::Wisdom;
    /// assert!(Wisdom::parse("tensor-layout wisdom 1\n").unwrap().is_empty());
    /// assert!(Wisdom::parse("not wisdom").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Wisdom, LayoutError> {
        let fail = |at: usize, expected: &str| LayoutError::Parse {
            what: "wisdom",
            input: text.chars().take(200).collect(),
            position: text[..at].chars().count(),
            expected: match text[at..].split_whitespace().next() {
                Some(found) => format!("expected {expected}, found `{found}`"),
                None => format!("expected {expected}, found the end"),
            },
        };
        let mut lines = line_starts(text);
        match lines.next() {
            Some((_, line)) if line.trim_end() == HEADER => {}
            _ => return Err(fail(0, &format!("the header `{HEADER}`"))),
        }
        let mut entries = BTreeMap::new();
        for (start, line) in lines {
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let (entry_key, remembered) =
                parse_entry(line).map_err(|(at, expected)| fail(start + at, expected))?;
            entries.insert(entry_key, remembered);
        }
        Ok(Wisdom { entries })
    }

    /// The choices remembered for the relayout `pair` of elements of `element_bytes`, with this
    /// machine's geometry.
    pub(crate) fn choices_for(&self, pair: &Pair, element_bytes: usize) -> Option<PlanChoices> {
        let r = self.entries.get(&(key(pair), element_bytes))?;
        let machine = Choices::of_this_machine();
        let choices = Choices {
            lines_per_visit: r.lines_per_visit,
            whole_rows: r.whole_rows,
            stream_one_block_tiles: r.stream_one_block_tiles,
            prefetch_apart: r.prefetch_apart,
            streamed_prefetch_bytes: r.streamed_prefetch_bytes,
            run_prefetch_bytes: r.run_prefetch_bytes.unwrap_or(machine.run_prefetch_bytes),
            cached_prefetch_below: r.cached_prefetch_below,
            stream_short_rows: r.stream_short_rows,
            sweep_four_byte: r.sweep_four_byte,
            realign_overlapped_rows: r
                .realign_overlapped_rows
                .unwrap_or(machine.realign_overlapped_rows),
            stage_crowded_columns: r
                .stage_crowded_columns
                .unwrap_or(machine.stage_crowded_columns),
            min_parallel_bytes: r.min_parallel_bytes,
            ..machine
        };
        Some(PlanChoices {
            choices,
            streaming: r.stream.map(|on| Streaming::forced(on, &choices)),
        })
    }
}

impl fmt::Display for Wisdom {
    /// The text [`Wisdom::parse`] reads: the header, then per relayout its key (16 hex
    /// digits), its element size in bytes and each choice as `name=value`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{HEADER}")?;
        for (&(entry_key, bytes), r) in &self.entries {
            let number = |v: usize| {
                if v == usize::MAX {
                    String::from("max")
                } else {
                    v.to_string()
                }
            };
            let run = r
                .run_prefetch_bytes
                .map_or(String::new(), |v| format!(" run={v}"));
            // A choice wisdom may lack, written where it has it.
            let optional_flag = |name: &str, v: Option<bool>| {
                v.map_or(String::new(), |v| format!(" {name}={}", u8::from(v)))
            };
            let realign = optional_flag("realign", r.realign_overlapped_rows);
            let stage = optional_flag("stage", r.stage_crowded_columns);
            writeln!(
                f,
                "{entry_key:016x} {bytes} lines={} whole={} one-block={} apart={} far={}{run} below={} short={} sweep={}{realign}{stage} parallel-from={} stream={}",
                r.lines_per_visit,
                u8::from(r.whole_rows),
                u8::from(r.stream_one_block_tiles),
                number(r.prefetch_apart),
                r.streamed_prefetch_bytes
                    .map_or(String::from("near"), |v| v.to_string()),
                number(r.cached_prefetch_below),
                u8::from(r.stream_short_rows),
                u8::from(r.sweep_four_byte),
                number(r.min_parallel_bytes),
                match r.stream {
                    None => "size",
                    Some(true) => "on",
                    Some(false) => "off",
                },
            )?;
        }
        Ok(())
    }
}

/// The lines of `text` with the byte offset each starts at.
fn line_starts(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut start = 0;
    text.split_inclusive('\n').map(move |line| {
        let at = start;
        start += line.len();
        (at, line.trim_end_matches(['\n', '\r']))
    })
}

/// What an entry is remembered under: its relayout's key and its element size in bytes.
type EntryKey = (u64, usize);

/// Where a line stops fitting: a byte offset in it, and what was expected there.
type Misfit = (usize, &'static str);

/// One entry line: key, element size, then every choice once.
fn parse_entry(line: &str) -> Result<(EntryKey, Remembered), Misfit> {
    let mut words = words_of(line);
    let (at, word) = words.next().ok_or((0, "a key of 16 hex digits"))?;
    let entry_key = (word.len() == 16)
        .then(|| u64::from_str_radix(word, 16).ok())
        .flatten()
        .ok_or((at, "a key of 16 hex digits"))?;
    let (at, word) = words
        .next()
        .ok_or((line.len(), "an element size in bytes"))?;
    let bytes = word
        .parse::<usize>()
        .ok()
        .filter(|&b| (1..=1 << 16).contains(&b))
        .ok_or((at, "an element size in bytes"))?;
    let mut r = Remembered {
        lines_per_visit: 0,
        whole_rows: false,
        stream_one_block_tiles: false,
        prefetch_apart: 0,
        streamed_prefetch_bytes: None,
        run_prefetch_bytes: None,
        cached_prefetch_below: 0,
        stream_short_rows: false,
        sweep_four_byte: false,
        realign_overlapped_rows: None,
        stage_crowded_columns: None,
        min_parallel_bytes: 0,
        stream: None,
    };
    const NAMES: [&str; 13] = [
        "lines",
        "whole",
        "one-block",
        "apart",
        "far",
        "run",
        "below",
        "short",
        "sweep",
        "realign",
        "stage",
        "parallel-from",
        "stream",
    ];
    let mut seen = [false; NAMES.len()];
    for (at, word) in words {
        let (name, value) = word.split_once('=').ok_or((at, "`name=value`"))?;
        let value_at = at + name.len() + 1;
        let which = NAMES
            .iter()
            .position(|&n| n == name)
            .ok_or((at, "a choice: lines, whole, one-block, apart, far, run, below, short, sweep, realign, stage, parallel-from or stream"))?;
        if core::mem::replace(&mut seen[which], true) {
            return Err((at, "each choice once"));
        }
        let flag = || match value {
            "0" => Ok(false),
            "1" => Ok(true),
            _ => Err((value_at, "0 or 1")),
        };
        let count = || match value {
            "max" => Ok(usize::MAX),
            _ => value
                .parse::<usize>()
                .map_err(|_| (value_at, "a whole number or max")),
        };
        match name {
            "lines" => {
                r.lines_per_visit = value
                    .parse::<usize>()
                    .ok()
                    .filter(|n| (1..=MOST_LINES_PER_VISIT).contains(n))
                    .ok_or((value_at, "a number of lines from 1 to 64"))?;
            }
            "whole" => r.whole_rows = flag()?,
            "one-block" => r.stream_one_block_tiles = flag()?,
            "apart" => r.prefetch_apart = count()?,
            "far" => {
                r.streamed_prefetch_bytes = match value {
                    "near" => None,
                    _ => Some(
                        value
                            .parse::<usize>()
                            .ok()
                            .filter(|n| (1..=FARTHEST_PREFETCH).contains(n))
                            .ok_or((value_at, "near, or bytes from 1 to 1048576"))?,
                    ),
                }
            }
            "run" => {
                r.run_prefetch_bytes = Some(
                    value
                        .parse::<usize>()
                        .ok()
                        .filter(|n| (1..=FARTHEST_PREFETCH).contains(n))
                        .ok_or((value_at, "bytes from 1 to 1048576"))?,
                )
            }
            "below" => r.cached_prefetch_below = count()?,
            "short" => r.stream_short_rows = flag()?,
            "sweep" => r.sweep_four_byte = flag()?,
            "realign" => r.realign_overlapped_rows = Some(flag()?),
            "stage" => r.stage_crowded_columns = Some(flag()?),
            "parallel-from" => r.min_parallel_bytes = count()?,
            _ => {
                r.stream = match value {
                    "size" => None,
                    "on" => Some(true),
                    "off" => Some(false),
                    _ => return Err((value_at, "size, on or off")),
                }
            }
        }
    }
    // `run`, `realign` and `stage` may be missing: wisdom written before those choices existed
    // takes the machine's.
    let optional = |name: &str| matches!(name, "run" | "realign" | "stage");
    if NAMES
        .iter()
        .zip(seen)
        .any(|(&name, seen)| !seen && !optional(name))
    {
        return Err((
            line.len(),
            "every choice: lines, whole, one-block, apart, far, below, short, sweep, parallel-from and stream",
        ));
    }
    Ok(((entry_key, bytes), r))
}

/// The words of a line (split at spaces and tabs) with the byte offset each starts at.
fn words_of(line: &str) -> impl Iterator<Item = (usize, &str)> {
    line.split([' ', '\t'])
        .scan(0, |at, word| {
            let start = *at;
            *at += word.len() + 1;
            Some((start, word))
        })
        .filter(|(_, word)| !word.is_empty())
}

/// A relayout's key: 64 bits of FNV-1a over everything its plan depends on (both sides' storage
/// walks, dims, origins and bases, where each axis lands, whether the destination pads).
fn key(pair: &Pair) -> u64 {
    struct Fnv(u64);
    impl fmt::Write for Fnv {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            for byte in s.bytes() {
                self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
            }
            Ok(())
        }
    }
    let mut hash = Fnv(0xcbf2_9ce4_8422_2325);
    let _ = fmt::Write::write_fmt(&mut hash, format_args!("{pair:?}"));
    hash.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    const ENTRY: &str = "00000000000000ff 4 lines=2 whole=0 one-block=1 apart=512 far=392 below=max short=0 sweep=1 parallel-from=524288 stream=on";

    #[test]
    fn entries_read_back_as_written() {
        let text = format!("{HEADER}\n# made by hand\n\n{ENTRY}\n");
        let wisdom = Wisdom::parse(&text).unwrap();
        assert_eq!(wisdom.len(), 1);
        assert_eq!(wisdom.to_string(), format!("{HEADER}\n{ENTRY}\n"));
        assert_eq!(Wisdom::parse(&wisdom.to_string()).unwrap(), wisdom);
        // The run prefetch distance, the realigned rows and the staged columns are optional
        // (wisdom written before they existed leaves them to the machine) and, when given, read
        // back as written.
        let with_run = ENTRY
            .replace("far=392", "far=392 run=2048")
            .replace("sweep=1", "sweep=1 realign=0 stage=1");
        let wisdom = Wisdom::parse(&format!("{HEADER}\n{with_run}\n")).unwrap();
        assert_eq!(wisdom.to_string(), format!("{HEADER}\n{with_run}\n"));
        let remembered = |w: &Wisdom| w.entries.values().next().unwrap().run_prefetch_bytes;
        assert_eq!(remembered(&wisdom), Some(2048));
        assert_eq!(remembered(&Wisdom::parse(&text).unwrap()), None);
        let realign = |w: &Wisdom| w.entries.values().next().unwrap().realign_overlapped_rows;
        assert_eq!(realign(&wisdom), Some(false));
        assert_eq!(realign(&Wisdom::parse(&text).unwrap()), None);
        let stage = |w: &Wisdom| w.entries.values().next().unwrap().stage_crowded_columns;
        assert_eq!(stage(&wisdom), Some(true));
        assert_eq!(stage(&Wisdom::parse(&text).unwrap()), None);
        let start = HEADER.len() + 1 + with_run.find("run=").unwrap() + 4;
        match Wisdom::parse(&format!(
            "{HEADER}\n{}",
            with_run.replace("run=2048", "run=0")
        )) {
            Err(LayoutError::Parse { position, .. }) => assert_eq!(position, start),
            other => panic!("{other:?}"),
        }
    }

    /// Every malformed entry is refused at the character that does not fit.
    #[test]
    fn bad_text_is_refused_where_it_goes_wrong() {
        let at = |text: &str| match Wisdom::parse(text) {
            Err(LayoutError::Parse { position, .. }) => position,
            other => panic!("{text:?}: {other:?}"),
        };
        assert_eq!(at(""), 0);
        assert_eq!(at("tensor-layout wisdom 2\n"), 0);
        let message = Wisdom::parse("not wisdom").unwrap_err().to_string();
        assert_eq!(
            message,
            "cannot read wisdom \"not wisdom\": at character 0, expected the header \
             `tensor-layout wisdom 1`, found `not`"
        );
        let line = |entry: &str| format!("{HEADER}\n{entry}");
        let start = HEADER.len() + 1;
        assert_eq!(at(&line("xyz 4")), start);
        assert_eq!(at(&line(&ENTRY.replace(" 4 ", " 0 "))), start + 17);
        assert_eq!(at(&line(&ENTRY.replace("lines=2", "lines=0"))), start + 25);
        assert_eq!(at(&line(&ENTRY.replace("lines=2", "lines=65"))), start + 25);
        assert_eq!(at(&line(&ENTRY.replace("whole=0", "whole=2"))), start + 33);
        assert_eq!(at(&line(&ENTRY.replace("far=392", "far=0"))), start + 61);
        assert_eq!(
            at(&line(&ENTRY.replace("stream=on", "stream=yes"))),
            start + 119
        );
        assert_eq!(
            at(&line(&ENTRY.replace("sweep=1", "sweep=1 sweep=1"))),
            start + 91
        );
        let missing: Vec<&str> = ENTRY
            .split(' ')
            .filter(|w| !w.starts_with("far="))
            .collect();
        assert!(at(&line(&missing.join(" "))) > start);
        assert_eq!(at(&line(&ENTRY.replace("apart=", "apart"))), start + 47);
    }

    #[test]
    fn keys_tell_relayouts_apart() {
        type Nchw = crate::onednn_layout!("nchw");
        type Nhwc = crate::onednn_layout!("nhwc");
        let pair = |dims: [usize; 4]| {
            let to = crate::relayout::Renumbering::default();
            let mut to = to;
            for (d, slot) in to.iter_mut().enumerate() {
                *slot = d;
            }
            Pair::of(
                &crate::Mapping::<Nchw>::new(dims).unwrap(),
                &crate::Mapping::<Nhwc>::new(dims).unwrap(),
                &to,
            )
        };
        assert_eq!(key(&pair([1, 2, 3, 4])), key(&pair([1, 2, 3, 4])));
        assert_ne!(key(&pair([1, 2, 3, 4])), key(&pair([1, 2, 4, 3])));
    }
}
