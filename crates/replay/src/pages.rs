//! Lazily backed storage for the contents of one memory object.
//!
//! A program may allocate far more memory than it touches (`malloc(1 << 30)`
//! to write a few bytes, a 4 GB `__shared__` array of which each thread uses
//! one element), and a replay must not pay for what is never touched. The
//! contents are therefore kept in pages of `PAGE_BYTES` elements, created on
//! the first write that changes one; an element of a page never created
//! reads as the object's `default` (its fill byte, or "undefined" for the
//! definedness flags of `malloc`'d memory). Reads and writes take element
//! ranges and never index by anything the program computed without a
//! bounds check: out-of-range requests answer `None`/`false`.

use std::collections::BTreeMap;

/// Elements per page.
pub const PAGE_BYTES: u64 = 4096;
const PAGE: usize = PAGE_BYTES as usize;

/// One page: all one value (what a `memset` or a copy of such memory
/// leaves, at no cost), or its elements.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Page<T> {
    Uniform(T),
    Data(Box<[T]>),
}

/// The contents of an object: `len` elements, those never written reading
/// as `default`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pages<T: Copy + PartialEq> {
    len: u64,
    default: T,
    pages: BTreeMap<u64, Page<T>>,
}

impl<T: Copy + PartialEq> Pages<T> {
    /// `len` elements, all `default`; nothing is allocated.
    pub fn new(len: u64, default: T) -> Pages<T> {
        Pages { len, default, pages: BTreeMap::new() }
    }

    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many pages are backed by real memory (uniform pages cost
    /// nothing worth counting).
    pub fn resident_pages(&self) -> u64 {
        self.pages.values().filter(|p| matches!(p, Page::Data(_))).count() as u64
    }

    fn in_bounds(&self, start: u64, len: u64) -> bool {
        start.checked_add(len).is_some_and(|end| end <= self.len)
    }

    /// The element at `index`, if it is inside the object.
    pub fn get(&self, index: u64) -> Option<T> {
        if index >= self.len {
            return None;
        }
        Some(match self.pages.get(&(index / PAGE_BYTES)) {
            None => self.default,
            Some(Page::Uniform(v)) => *v,
            Some(Page::Data(p)) => p[(index % PAGE_BYTES) as usize],
        })
    }

    /// Fills `out` with the elements from `start`; false (and `out`
    /// untouched) when the range leaves the object.
    pub fn read_into(&self, start: u64, out: &mut [T]) -> bool {
        if !self.in_bounds(start, out.len() as u64) {
            return false;
        }
        let mut done = 0usize;
        while done < out.len() {
            let at = start + done as u64;
            let (page, within) = (at / PAGE_BYTES, (at % PAGE_BYTES) as usize);
            let n = (PAGE - within).min(out.len() - done);
            match self.pages.get(&page) {
                Some(Page::Data(p)) => out[done..done + n].copy_from_slice(&p[within..within + n]),
                Some(Page::Uniform(v)) => out[done..done + n].fill(*v),
                None => out[done..done + n].fill(self.default),
            }
            done += n;
        }
        true
    }

    /// `len` elements from `start`, if they lie inside the object. The
    /// caller bounds `len`: the result is a real allocation.
    pub fn read(&self, start: u64, len: u64) -> Option<Vec<T>> {
        if !self.in_bounds(start, len) {
            return None;
        }
        let mut out = vec![self.default; usize::try_from(len).ok()?];
        self.read_into(start, &mut out);
        Some(out)
    }

    /// The whole contents (for objects known to be small: test buffers,
    /// kernel outputs compared byte for byte).
    pub fn to_vec(&self) -> Vec<T> {
        self.read(0, self.len).unwrap_or_default()
    }

    /// Whether an element of `[start, start + len)` equals `value` (false
    /// for a range outside the object).
    pub fn any(&self, start: u64, len: u64, value: T) -> bool {
        if len == 0 || !self.in_bounds(start, len) {
            return false;
        }
        let end = start + len;
        let (first, last) = (start / PAGE_BYTES, (end - 1) / PAGE_BYTES);
        let mut present = 0u64;
        for (&page, data) in self.pages.range(first..=last) {
            present += 1;
            let found = match data {
                Page::Uniform(v) => *v == value,
                Page::Data(p) => {
                    let lo = if page == first { (start % PAGE_BYTES) as usize } else { 0 };
                    let hi = if page == last { ((end - 1) % PAGE_BYTES) as usize + 1 } else { PAGE };
                    p[lo..hi].contains(&value)
                }
            };
            if found {
                return true;
            }
        }
        // A page never written holds only the default.
        present < last - first + 1 && self.default == value
    }

    /// The first index at or after `start` whose element is `value`.
    pub fn position(&self, start: u64, value: T) -> Option<u64> {
        let mut at = start;
        while at < self.len {
            let (page, within) = (at / PAGE_BYTES, (at % PAGE_BYTES) as usize);
            let n = (PAGE - within).min((self.len - at) as usize);
            let found = match self.pages.get(&page) {
                Some(Page::Data(p)) => p[within..within + n].iter().position(|&x| x == value).map(|i| i as u64),
                Some(Page::Uniform(v)) => (*v == value).then_some(0),
                None => (self.default == value).then_some(0),
            };
            if let Some(i) = found {
                return Some(at + i);
            }
            at += n as u64;
        }
        None
    }

    /// Sets page `page` to all `value`; returns the change in backed pages.
    fn set_uniform(&mut self, page: u64, value: T) -> i64 {
        let old = if value == self.default { self.pages.remove(&page) } else { self.pages.insert(page, Page::Uniform(value)) };
        -(matches!(old, Some(Page::Data(_))) as i64)
    }

    /// The elements of page `page`, created from what it reads as when it
    /// has none; the flag says whether they were created.
    fn data(&mut self, page: u64) -> (&mut [T], bool) {
        let default = self.default;
        let entry = self.pages.entry(page).or_insert(Page::Uniform(default));
        let created = match entry {
            Page::Uniform(v) => {
                *entry = Page::Data(vec![*v; PAGE].into_boxed_slice());
                true
            }
            Page::Data(_) => false,
        };
        match entry {
            Page::Data(p) => (p, created),
            Page::Uniform(_) => unreachable!("made data above"),
        }
    }

    /// What every element of page `page` reads as, if it is uniform.
    fn uniform(&self, page: u64) -> Option<T> {
        match self.pages.get(&page) {
            None => Some(self.default),
            Some(Page::Uniform(v)) => Some(*v),
            Some(Page::Data(_)) => None,
        }
    }

    /// Writes `data` at `start`; returns the change in backed pages, or
    /// `None` (writing nothing) when the range leaves the object. Whole
    /// pages of one value, and parts of pages that already hold the values
    /// written, cost nothing.
    pub(crate) fn write(&mut self, start: u64, data: &[T]) -> Option<i64> {
        if !self.in_bounds(start, data.len() as u64) {
            return None;
        }
        let mut delta = 0i64;
        let mut done = 0usize;
        while done < data.len() {
            let at = start + done as u64;
            let (page, within) = (at / PAGE_BYTES, (at % PAGE_BYTES) as usize);
            let n = (PAGE - within).min(data.len() - done);
            let chunk = &data[done..done + n];
            let same = |v: T| chunk.iter().all(|&x| x == v);
            if n == PAGE && same(chunk[0]) {
                delta += self.set_uniform(page, chunk[0]);
            } else if !self.uniform(page).is_some_and(same) {
                let (p, created) = self.data(page);
                p[within..within + n].copy_from_slice(chunk);
                delta += created as i64;
            }
            done += n;
        }
        Some(delta)
    }

    /// Sets `len` elements from `start` to `value`; returns the change in
    /// backed pages, or `None` when the range leaves the object. Only the
    /// partial pages at either end can cost memory, so `memset` of a large
    /// buffer stays cheap.
    pub(crate) fn fill(&mut self, start: u64, len: u64, value: T) -> Option<i64> {
        if !self.in_bounds(start, len) {
            return None;
        }
        if len == 0 {
            return Some(0);
        }
        if start == 0 && len == self.len {
            let freed = self.resident_pages() as i64;
            self.pages.clear();
            self.default = value;
            return Some(-freed);
        }
        let end = start + len;
        let mut delta = 0i64;
        let mut at = start;
        while at < end {
            let (page, within) = (at / PAGE_BYTES, (at % PAGE_BYTES) as usize);
            let n = (PAGE - within).min((end - at) as usize);
            if n == PAGE {
                delta += self.set_uniform(page, value);
            } else if self.uniform(page) != Some(value) {
                let (p, created) = self.data(page);
                p[within..within + n].fill(value);
                delta += created as i64;
            }
            at += n as u64;
        }
        Some(delta)
    }

    /// Drops the contents and makes the object empty; returns the change in
    /// backed pages.
    pub(crate) fn clear(&mut self) -> i64 {
        let freed = self.resident_pages() as i64;
        self.pages.clear();
        self.len = 0;
        -freed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn untouched_memory_costs_nothing_and_reads_as_the_default() {
        let mut p = Pages::new(1 << 40, 0xA5u8);
        assert_eq!(p.resident_pages(), 0);
        assert_eq!(p.get(123_456_789), Some(0xA5));
        assert_eq!(p.write(5000, &[1, 2, 3]), Some(1));
        assert_eq!(p.read(4999, 5), Some(vec![0xA5, 1, 2, 3, 0xA5]));
        assert_eq!(p.resident_pages(), 1);
        assert_eq!(p.get(1 << 40), None);
        assert_eq!(p.read(u64::MAX, 2), None);
        assert_eq!(p.write(u64::MAX - 1, &[1, 2, 3]), None);
    }

    #[test]
    fn writes_across_pages_and_fills() {
        let mut p = Pages::new(3 * PAGE_BYTES, 0u8);
        let data: Vec<u8> = (0..=255).cycle().take(PAGE + 10).collect();
        assert_eq!(p.write(PAGE_BYTES - 5, &data), Some(3));
        assert_eq!(p.read(PAGE_BYTES - 5, data.len() as u64), Some(data.clone()));
        // A whole page filled costs nothing.
        assert_eq!(p.fill(PAGE_BYTES, PAGE_BYTES, 0), Some(-1));
        assert_eq!(p.fill(2 * PAGE_BYTES, PAGE_BYTES, 9), Some(-1));
        assert_eq!(p.get(2 * PAGE_BYTES + 1), Some(9));
        assert_eq!(p.get(PAGE_BYTES + 3), Some(0));
        assert_eq!(p.get(PAGE_BYTES - 1), Some(data[4]));
        // A fill of the whole object changes the default.
        assert_eq!(p.fill(0, 3 * PAGE_BYTES, 7), Some(-1));
        // Writing a whole page of one value costs nothing either.
        assert_eq!(p.write(0, &[3u8; PAGE]), Some(0));
        assert_eq!(p.get(17), Some(3));
        assert_eq!(p.resident_pages(), 0);
        assert_eq!(p.get(2 * PAGE_BYTES + 9), Some(7));
    }

    #[test]
    fn any_and_position_see_default_pages() {
        let mut flags = Pages::new(10 * PAGE_BYTES, true);
        assert!(flags.any(3, 10, true));
        flags.fill(0, PAGE_BYTES + 7, false);
        assert!(!flags.any(0, PAGE_BYTES + 7, true));
        assert!(flags.any(PAGE_BYTES, 8, true));
        let mut text = Pages::new(2 * PAGE_BYTES, b'a');
        assert_eq!(text.position(3, 0), None);
        text.write(PAGE_BYTES + 1, &[0]);
        assert_eq!(text.position(3, 0), Some(PAGE_BYTES + 1));
        let zeros = Pages::new(100, 0u8);
        assert_eq!(zeros.position(40, 0), Some(40));
    }
}
