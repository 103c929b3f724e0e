//! Helpers shared by the integration tests: parsing hand-written KIR and
//! naming blocks and values by their text-form numbers.
#![allow(dead_code)]

use lockstep_kir::{parse_module, verify_module, BlockId, FuncId, Function, Module, ValueId};

/// Parses and verifies a module written in the text form.
pub fn module(text: &str) -> Module {
    let m = parse_module(text).unwrap_or_else(|e| panic!("parse error: {e}\n{text}"));
    if let Err(errors) = verify_module(&m) {
        panic!("test module does not verify: {errors:?}");
    }
    m
}

/// The fixture lowered from real CUDA by `lockstep check --dump-kir`.
pub fn fixture(name: &str) -> Module {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    module(&text)
}

pub fn func<'m>(m: &'m Module, name: &str) -> (FuncId, &'m Function) {
    let id = m.function_by_name(name).unwrap_or_else(|| panic!("no function {name}"));
    (id, &m.functions[id])
}

pub fn b(n: u32) -> BlockId {
    BlockId::from_u32(n)
}

pub fn v(n: u32) -> ValueId {
    ValueId::from_u32(n)
}

pub fn blocks(ns: &[u32]) -> Vec<BlockId> {
    ns.iter().map(|&n| b(n)).collect()
}
