//! Sorts (the types of SMT terms).
//!
//! Sorts are small values compared structurally; every term in a
//! [`TermStore`](crate::TermStore) records its sort, so that
//! [`sort_of`](crate::TermStore::sort_of) is a lookup and sort checking at
//! construction is cheap.

use std::fmt;

use crate::print::quote_symbol;

/// The sort of a term.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sort {
    /// The Boolean sort.
    Bool,
    /// A bit-vector of the given (positive) width.
    BitVec(u32),
    /// An array from the first sort (index) to the second (element).
    Array(Box<Sort>, Box<Sort>),
    /// An uninterpreted sort of arity 0, declared by name (e.g. opaque floats).
    /// The solver driver sends `(declare-sort NAME 0)` the first time it is used.
    Uninterpreted(String),
    /// IEEE floating point, as SMT-LIB's `(_ FloatingPoint eb sb)`; the
    /// significand width includes the hidden bit (single precision is 8, 24).
    Float {
        /// Exponent width in bits.
        exponent: u32,
        /// Significand width in bits, including the hidden bit.
        significand: u32,
    },
}

impl Sort {
    /// The bit-vector sort of width `width`.
    pub fn bv(width: u32) -> Sort {
        Sort::BitVec(width)
    }

    /// The array sort from `index` to `elem`.
    pub fn array(index: Sort, elem: Sort) -> Sort {
        Sort::Array(Box::new(index), Box::new(elem))
    }

    /// An uninterpreted sort named `name`.
    pub fn uninterpreted(name: impl Into<String>) -> Sort {
        Sort::Uninterpreted(name.into())
    }

    /// IEEE single precision, `(_ FloatingPoint 8 24)`.
    pub fn float32() -> Sort {
        Sort::Float {
            exponent: 8,
            significand: 24,
        }
    }

    /// IEEE double precision, `(_ FloatingPoint 11 53)`.
    pub fn float64() -> Sort {
        Sort::Float {
            exponent: 11,
            significand: 53,
        }
    }

    /// Whether this is the Boolean sort.
    pub fn is_bool(&self) -> bool {
        matches!(self, Sort::Bool)
    }

    /// The width if this is a bit-vector sort.
    pub fn bv_width(&self) -> Option<u32> {
        match self {
            Sort::BitVec(w) => Some(*w),
            _ => None,
        }
    }

    /// The index and element sorts if this is an array sort.
    pub fn array_parts(&self) -> Option<(&Sort, &Sort)> {
        match self {
            Sort::Array(i, e) => Some((i, e)),
            _ => None,
        }
    }

    /// Calls `f` on the name of every uninterpreted sort inside this sort.
    pub(crate) fn for_each_uninterpreted<'a>(&'a self, f: &mut impl FnMut(&'a str)) {
        match self {
            Sort::Bool | Sort::BitVec(_) | Sort::Float { .. } => {}
            Sort::Uninterpreted(name) => f(name),
            Sort::Array(i, e) => {
                i.for_each_uninterpreted(f);
                e.for_each_uninterpreted(f);
            }
        }
    }
}

/// Prints the sort in SMT-LIB2 syntax.
impl fmt::Display for Sort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sort::Bool => f.write_str("Bool"),
            Sort::BitVec(w) => write!(f, "(_ BitVec {w})"),
            Sort::Array(i, e) => write!(f, "(Array {i} {e})"),
            Sort::Uninterpreted(name) => f.write_str(&quote_symbol(name)),
            Sort::Float {
                exponent,
                significand,
            } => {
                write!(f, "(_ FloatingPoint {exponent} {significand})")
            }
        }
    }
}
