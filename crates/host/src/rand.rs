//! glibc's `rand()`: the additive feedback generator behind `random()`
//! (TYPE_3: degree 31, separation 3), seeded as `srand` seeds it.
//!
//! A program that calls `rand()` without seeding it from the clock is
//! deterministic: it sees the same sequence on every run. Reproducing glibc's
//! sequence exactly lets the host model run such a program as it really
//! runs, instead of treating every `rand()` as an unknown input.

/// The generator's state: the last 31 outputs of the recurrence.
#[derive(Clone, Debug)]
pub struct GlibcRand {
    ring: [u32; 31],
    /// Position of `r[i - 31]` in `ring`.
    pos: usize,
}

impl GlibcRand {
    /// The generator after `srand(seed)` (a fresh program behaves as after
    /// `srand(1)`).
    pub fn new(seed: u32) -> GlibcRand {
        let mut r = [0i64; 34];
        r[0] = if seed == 0 { 1 } else { seed as i32 as i64 };
        for i in 1..31 {
            // 16807 * r[i-1] mod (2^31 - 1), by Schrage's method as glibc does.
            let (hi, lo) = (r[i - 1] / 127773, r[i - 1] % 127773);
            let mut word = 16807 * lo - 2836 * hi;
            if word < 0 {
                word += 2147483647;
            }
            r[i] = word;
        }
        let mut ring = [0u32; 31];
        for (slot, value) in ring.iter_mut().zip(r.iter()) {
            *slot = *value as u32;
        }
        let mut generator = GlibcRand { ring, pos: 0 };
        // r[31..34] copy r[0..3]; glibc then discards 310 outputs. Stepping
        // the recurrence from r[31] on does both: the first 3 steps give the
        // copies only if the separation term is skipped, so do them apart.
        let copies = [generator.ring[0], generator.ring[1], generator.ring[2]];
        let mut window: Vec<u32> = generator.ring.to_vec();
        window.extend_from_slice(&copies);
        // window now holds r[0..34]; keep the last 31 as the ring.
        let start = window.len() - 31;
        generator.ring.copy_from_slice(&window[start..]);
        generator.pos = 0;
        for _ in 34..344 {
            generator.step();
        }
        generator
    }

    /// r[i] = r[i-31] + r[i-3] (mod 2^32); returns r[i].
    fn step(&mut self) -> u32 {
        let minus31 = self.ring[self.pos];
        let minus3 = self.ring[(self.pos + 28) % 31];
        let next = minus31.wrapping_add(minus3);
        self.ring[self.pos] = next;
        self.pos = (self.pos + 1) % 31;
        next
    }

    /// The next `rand()` value, in `0..=RAND_MAX` (2^31 - 1).
    pub fn next(&mut self) -> u32 {
        self.step() >> 1
    }
}

impl Default for GlibcRand {
    fn default() -> GlibcRand {
        GlibcRand::new(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_glibc_for_the_default_seed() {
        // The first values glibc's rand() returns without srand (or srand(1)).
        let mut r = GlibcRand::default();
        let first: Vec<u32> = (0..5).map(|_| r.next()).collect();
        assert_eq!(first, [1804289383, 846930886, 1681692777, 1714636915, 1957747793]);
    }

    #[test]
    fn seed_zero_is_seed_one() {
        let (mut a, mut b) = (GlibcRand::new(0), GlibcRand::new(1));
        assert_eq!(a.next(), b.next());
    }
}
