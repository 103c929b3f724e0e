//! A small, deterministic sample of the mutation harness (`cargo xtask
//! mutants` runs the full one over the suites): kernels written for it
//! (`tests/mutants/`), each verified, are mutated by the harness's own
//! operators, and no mutant that the interpreter shows defective (a
//! replay-confirmed violation of the check or of `--mode=find`) may be
//! reported `verified`.

mod common;

#[path = "../../../xtask/src/mutants/ops.rs"]
#[allow(dead_code)]
mod ops;

use std::path::Path;

/// The flags of a sample kernel: its `// flags:` line.
fn flags(src: &str) -> Vec<String> {
    src.lines()
        .find_map(|l| l.strip_prefix("// flags:"))
        .map(|f| f.split_whitespace().map(String::from).collect())
        .unwrap_or_default()
}

/// The file's verdict and whether a violation was confirmed by the replay.
fn run(path: &Path, flags: &[String], extra: &[&str]) -> (String, bool) {
    let mut args: Vec<&str> = vec!["check", path.to_str().unwrap(), "--format=json"];
    args.extend(flags.iter().map(String::as_str));
    args.extend(extra);
    let j = common::json(&common::lockstep(&args));
    let confirmed = j["kernels"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|k| k["violations"].as_array().into_iter().flatten())
        .any(|v| v["confirmed"].as_bool() == Some(true));
    (j["verdict"].as_str().unwrap_or("?").to_string(), confirmed)
}

#[test]
fn no_mutant_shown_defective_is_verified() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mutants");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let (mut defective, mut unsound) = (0, Vec::new());
    for file in files {
        let src = std::fs::read_to_string(&file).unwrap();
        let flags = flags(&src);
        assert_eq!(run(&file, &flags, &[]).0, "verified", "{} must be verified unmutated", file.display());
        let name = file.file_name().unwrap().to_str().unwrap().to_string();
        for (k, m) in ops::sample(ops::mutants(&src), 7).into_iter().enumerate() {
            let path = common::scratch_in("mutants", &format!("{k}-{name}"), &m.text);
            let (verdict, confirmed) = run(&path, &flags, &[]);
            let shown = confirmed || (verdict != "rejected" && run(&path, &flags, &["--mode=find"]).1);
            defective += usize::from(shown);
            if shown && verdict == "verified" {
                unsound.push(format!("{name} line {} ({})", m.line, m.op));
            }
        }
    }
    assert!(unsound.is_empty(), "defective mutants verified: {unsound:?}");
    // The sample must exercise the property: some mutants are defective.
    assert!(defective >= 4, "only {defective} mutants shown defective");
}
