//! Input as numbered draws, for exploring a program's paths through it.
//!
//! A plain run gives every value the program reads the same number (the
//! run's `choice`), which is one behaviour among many. To decide a program
//! for every input, the engine runs it once per path through its input
//! (`lockstep_engine::input_paths`), and needs to say which value each read
//! gets. Here every input the program consumes is a *draw*, numbered in the
//! order the run makes it, with its own term (`lockstep_replay::terms`) and
//! the range of values it may take; the run takes the value of draw `k`
//! from the plan (`InputPlan::values[k]`), or a default.
//!
//! A call of the `scanf` family is modelled as the C library defines it:
//! its result `r` is a draw in `[-1, n]` (EOF, or how many of its `n`
//! conversions succeeded), the `j`-th target is written with a draw of its
//! own only when `r > j` and otherwise keeps what it held, and the test
//! `r > j` is put on the path condition, so that the runs that explore
//! the path see every way the call can go. The value draws are made
//! whether or not they are written, so that a draw keeps its number when a
//! run changes `r`. `getchar` and friends return a draw in `[-1, 255]`.

use lockstep_kir::IntCC;
use lockstep_replay::terms::TermId;
use lockstep_replay::Memory;

/// The most input draws an exploring run makes; past it the run stops,
/// incomplete (a loop that keeps reading).
pub const MAX_DRAWS: usize = 512;

/// The values an exploring run gives its draws.
#[derive(Clone, Debug, Default)]
pub struct InputPlan {
    /// The value of each draw, by number (as the draw's bits); draws past
    /// the end take their default.
    pub values: Vec<u128>,
    /// Run input loops as the program does, without the rounds that give
    /// their targets fresh values (see `round`): to reproduce, with real
    /// input only, what a run with such rounds showed.
    pub no_rounds: bool,
}

/// One value the run consumed as input.
#[derive(Clone, Debug)]
pub struct InputDraw {
    /// Its term in the run's `Memory::terms`.
    pub term: TermId,
    /// Its width in bits.
    pub width: u32,
    /// The signed values it may take.
    pub min: i128,
    pub max: i128,
    /// The value it had in the run (its bits).
    pub value: u128,
    /// What it is, for a witness ("`scanf` (line 12) returns", "the value
    /// `scanf` (line 12) reads").
    pub what: String,
    /// Whether the program saw it (a value draw of a conversion that
    /// failed was never written).
    pub used: bool,
    /// Whether it is a value an input loop's round gave its target (see
    /// `round`): not a value the program read, but any value it could have
    /// read in earlier rounds.
    pub round: bool,
}

/// The draws of one exploring run.
#[derive(Debug, Default)]
pub struct Draws {
    pub plan: InputPlan,
    pub draws: Vec<InputDraw>,
}

impl Draws {
    /// A new draw of `width` bits in `[min, max]` with `default` as its
    /// value unless the plan gives one.
    pub fn draw(&mut self, memory: &mut Memory, width: u32, min: i128, max: i128, default: u128, what: String) -> Option<(u128, TermId)> {
        if self.draws.len() >= MAX_DRAWS {
            return None;
        }
        let k = self.draws.len();
        let mask = lockstep_replay::value::mask(width);
        let value = self.plan.values.get(k).copied().unwrap_or(default) & mask;
        let term = memory.terms.fresh();
        self.draws.push(InputDraw { term, width, min, max, value, what, used: true, round: false });
        Some((value, term))
    }
}

/// What one `scanf`-like call did: its result and its term.
pub struct ScanfOutcome {
    pub result: u64,
    pub term: TermId,
}

/// A `scanf`-like call in an exploring run: `targets` are the conversions'
/// destinations (each with the bytes it stores), `line` where the call is.
/// `None` when the run has made all the draws it may.
pub fn scanf(draws: &mut Draws, memory: &mut Memory, targets: &[(Option<(lockstep_replay::ObjId, u64)>, u64)], name: &str, line: &str) -> Option<ScanfOutcome> {
    let n = targets.len() as i128;
    let (r, r_term) = draws.draw(memory, 32, -1, n, n as u128, format!("the result of `{name}`{line}"))?;
    let r_signed = lockstep_replay::value::sext(r, 32);
    for (j, &(target, width)) in targets.iter().enumerate() {
        let what = format!("conversion {} of `{name}`{line}", j + 1);
        let bits = (8 * width.min(16)) as u32;
        let (value, term) = draws.draw(memory, bits, i128::MIN, i128::MAX, 0, what)?;
        // Whether conversion `j` succeeded is a branch on the result.
        let j_term = memory.terms.constant(j as u128, 32);
        let succeeded = memory.terms.compare(IntCC::Sgt, r_term, j_term);
        let written = r_signed > j as i128;
        memory.terms.note_path(succeeded, written);
        let Some((id, off)) = target else { continue };
        if written {
            let bytes = value.to_le_bytes();
            let mut out = vec![0u8; width as usize];
            let k = out.len().min(16);
            out[..k].copy_from_slice(&bytes[..k]);
            memory.write(id, off, &out);
            memory.note_undefined(id, off, &vec![true; width as usize]);
            memory.tag(id, off, width, term);
        } else if let Some(d) = draws.draws.last_mut() {
            d.used = false;
        }
    }
    Some(ScanfOutcome { result: r as u64 & 0xffff_ffff, term: r_term })
}

/// A `getchar`-like call in an exploring run: a character or EOF.
pub fn getchar(draws: &mut Draws, memory: &mut Memory, name: &str, line: &str) -> Option<(u64, TermId)> {
    let (v, t) = draws.draw(memory, 32, -1, 255, b'\n' as u128, format!("the result of `{name}`{line}"))?;
    Some((v as u64, t))
}

/// The input loops of `module` (`lockstep_analysis::input_loops`), with
/// the functions this model reads input with and prints with.
pub fn loops(module: &lockstep_kir::Module) -> Vec<lockstep_analysis::input_loops::InputLoop> {
    lockstep_analysis::input_loops::input_loops(
        module,
        |name| matches!(name.trim_start_matches("__isoc99_"), "scanf" | "fscanf" | "sscanf"),
        |name| matches!(name, "getchar" | "getc" | "fgetc" | "getch"),
        lockstep_replay::definedness::is_output_only,
    )
}

/// The first round of an input loop: each target (an object and its size)
/// takes a fresh value, as after a round whose reads gave any values.
/// `false` when a target is too large for one draw or the draws are spent.
pub fn round(draws: &mut Draws, memory: &mut Memory, targets: &[(lockstep_replay::ObjId, u64)]) -> bool {
    for &(id, size) in targets {
        if size == 0 || size > 16 {
            return false;
        }
        let what = format!("the value of `{}` after a round of the input loop", memory.object(id).name);
        let Some((value, term)) = draws.draw(memory, 8 * size as u32, i128::MIN, i128::MAX, 0, what) else {
            return false;
        };
        if let Some(d) = draws.draws.last_mut() {
            d.round = true;
        }
        memory.write(id, 0, &value.to_le_bytes()[..size as usize]);
        memory.note_undefined(id, 0, &vec![true; size as usize]);
        memory.tag(id, 0, size, term);
    }
    true
}

/// The bytes each conversion of a `scanf` format stores, in order
/// (`%*d`, which stores nothing, and `%%` are skipped).
pub(crate) fn scanf_widths(format: &[u8]) -> Vec<u64> {
    let mut widths = Vec::new();
    let mut i = 0;
    while i < format.len() {
        if format[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        let mut suppressed = false;
        let mut long = 0;
        let mut short = 0;
        while i < format.len() {
            match format[i] {
                b'*' => suppressed = true,
                b'l' => long += 1,
                b'h' => short += 1,
                b'0'..=b'9' | b'j' | b'z' | b't' | b'L' => {}
                _ => break,
            }
            i += 1;
        }
        let Some(&conv) = format.get(i) else { break };
        i += 1;
        let width = match conv {
            b'%' => continue,
            b'd' | b'i' | b'u' | b'x' | b'X' | b'o' | b'n' => match (long, short) {
                (0, 0) => 4,
                (0, 1) => 2,
                (0, _) => 1,
                _ => 8,
            },
            b'f' | b'e' | b'g' | b'E' | b'G' | b'a' => if long > 0 { 8 } else { 4 },
            b'c' | b's' | b'[' => 1,
            b'p' => 8,
            _ => 4,
        };
        if !suppressed {
            widths.push(width);
        }
    }
    widths
}

#[cfg(test)]
mod scanf_tests {
    use super::scanf_widths;

    #[test]
    fn scanf_formats_give_the_widths_they_store() {
        assert_eq!(scanf_widths(b"%d %u"), vec![4, 4]);
        assert_eq!(scanf_widths(b"%ld%lf%f%c%*d%%%hhd"), vec![8, 8, 4, 1, 1]);
        assert_eq!(scanf_widths(b"no conversions"), Vec::<u64>::new());
    }
}
