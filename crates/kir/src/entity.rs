//! Typed index arenas.
//!
//! Every entity in KIR (a function, a block, a value, an instruction...) lives
//! in a `PrimaryMap` owned by its container and is named by a small `Copy`
//! index type. Facts computed by analyses are stored beside the IR in
//! `SecondaryMap`s keyed by the same index, so the IR itself stays free of
//! analysis state. This is the scheme of cranelift-entity, written out here
//! because KIR depends on no other crate.

use std::fmt;
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// An index type usable as a key of a `PrimaryMap` or `SecondaryMap`.
pub trait EntityRef: Copy + Eq + Ord + std::hash::Hash + fmt::Debug {
    fn new(index: usize) -> Self;
    fn index(self) -> usize;
}

/// Declares a `u32` newtype index that prints as `{prefix}{index}`.
#[macro_export]
macro_rules! entity {
    ($(#[$attr:meta])* $name:ident, $prefix:expr) => {
        $(#[$attr])*
        #[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(u32);

        impl $crate::entity::EntityRef for $name {
            fn new(index: usize) -> Self {
                $name(u32::try_from(index).expect("entity index overflows u32"))
            }
            fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl $name {
            /// The prefix used by the text form, e.g. `block` in `block3`.
            pub const PREFIX: &'static str = $prefix;
            pub fn from_u32(index: u32) -> Self {
                $name(index)
            }
            pub fn as_u32(self) -> u32 {
                self.0
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}{}", $prefix, self.0)
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Display::fmt(self, f)
            }
        }
    };
}

/// An arena that owns its elements and hands out typed indices.
#[derive(Clone, PartialEq, Eq)]
pub struct PrimaryMap<K: EntityRef, V> {
    elems: Vec<V>,
    _key: PhantomData<K>,
}

impl<K: EntityRef, V> PrimaryMap<K, V> {
    pub fn new() -> Self {
        PrimaryMap { elems: Vec::new(), _key: PhantomData }
    }

    /// Adds an element and returns its index.
    pub fn push(&mut self, value: V) -> K {
        let key = K::new(self.elems.len());
        self.elems.push(value);
        key
    }

    /// The index the next `push` will return.
    pub fn next_key(&self) -> K {
        K::new(self.elems.len())
    }

    pub fn len(&self) -> usize {
        self.elems.len()
    }

    pub fn is_empty(&self) -> bool {
        self.elems.is_empty()
    }

    pub fn is_valid(&self, key: K) -> bool {
        key.index() < self.elems.len()
    }

    pub fn get(&self, key: K) -> Option<&V> {
        self.elems.get(key.index())
    }

    pub fn get_mut(&mut self, key: K) -> Option<&mut V> {
        self.elems.get_mut(key.index())
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = K> + ExactSizeIterator {
        (0..self.elems.len()).map(K::new)
    }

    pub fn values(&self) -> std::slice::Iter<'_, V> {
        self.elems.iter()
    }

    pub fn values_mut(&mut self) -> std::slice::IterMut<'_, V> {
        self.elems.iter_mut()
    }

    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (K, &V)> + ExactSizeIterator {
        self.elems.iter().enumerate().map(|(i, v)| (K::new(i), v))
    }

    pub fn iter_mut(&mut self) -> impl DoubleEndedIterator<Item = (K, &mut V)> + ExactSizeIterator {
        self.elems.iter_mut().enumerate().map(|(i, v)| (K::new(i), v))
    }
}

impl<K: EntityRef, V> Default for PrimaryMap<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: EntityRef, V> Index<K> for PrimaryMap<K, V> {
    type Output = V;
    fn index(&self, key: K) -> &V {
        &self.elems[key.index()]
    }
}

impl<K: EntityRef, V> IndexMut<K> for PrimaryMap<K, V> {
    fn index_mut(&mut self, key: K) -> &mut V {
        &mut self.elems[key.index()]
    }
}

impl<K: EntityRef, V: fmt::Debug> fmt::Debug for PrimaryMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// A side table keyed by the indices of some `PrimaryMap`. Reading a key that
/// was never written yields the default value, so a side table never needs to
/// be sized up front.
#[derive(Clone)]
pub struct SecondaryMap<K: EntityRef, V: Clone> {
    elems: Vec<V>,
    default: V,
    _key: PhantomData<K>,
}

impl<K: EntityRef, V: Clone> SecondaryMap<K, V> {
    pub fn with_default(default: V) -> Self {
        SecondaryMap { elems: Vec::new(), default, _key: PhantomData }
    }

    pub fn get(&self, key: K) -> &V {
        self.elems.get(key.index()).unwrap_or(&self.default)
    }

    pub fn set(&mut self, key: K, value: V) {
        let i = key.index();
        if i >= self.elems.len() {
            self.elems.resize(i + 1, self.default.clone());
        }
        self.elems[i] = value;
    }

    /// Keys that have been written (or lie below one that has), with values.
    pub fn iter(&self) -> impl Iterator<Item = (K, &V)> {
        self.elems.iter().enumerate().map(|(i, v)| (K::new(i), v))
    }
}

impl<K: EntityRef, V: Clone + Default> SecondaryMap<K, V> {
    pub fn new() -> Self {
        Self::with_default(V::default())
    }
}

impl<K: EntityRef, V: Clone + Default> Default for SecondaryMap<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: EntityRef, V: Clone> Index<K> for SecondaryMap<K, V> {
    type Output = V;
    fn index(&self, key: K) -> &V {
        self.get(key)
    }
}

impl<K: EntityRef, V: Clone> IndexMut<K> for SecondaryMap<K, V> {
    fn index_mut(&mut self, key: K) -> &mut V {
        let i = key.index();
        if i >= self.elems.len() {
            self.elems.resize(i + 1, self.default.clone());
        }
        &mut self.elems[i]
    }
}

impl<K: EntityRef, V: Clone + fmt::Debug> fmt::Debug for SecondaryMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // A test-only entity: not every generated method is used here.
    #[allow(dead_code)]
    mod thing {
        crate::entity!(Thing, "thing");
    }
    use thing::Thing;

    #[test]
    fn primary_map_hands_out_dense_keys() {
        let mut map: PrimaryMap<Thing, &str> = PrimaryMap::new();
        let a = map.push("a");
        let b = map.push("b");
        assert_eq!(a.index(), 0);
        assert_eq!(b.index(), 1);
        assert_eq!(map[b], "b");
        assert_eq!(format!("{b}"), "thing1");
        assert_eq!(map.keys().collect::<Vec<_>>(), vec![a, b]);
    }

    #[test]
    fn secondary_map_reads_default_for_unwritten_keys() {
        let mut side: SecondaryMap<Thing, u32> = SecondaryMap::new();
        side.set(Thing::new(3), 7);
        assert_eq!(side[Thing::new(3)], 7);
        assert_eq!(side[Thing::new(1)], 0);
        assert_eq!(side[Thing::new(100)], 0);
    }
}
