//! The GitHub Action (`action.yml`) run locally: its composite steps, as the
//! file lists them, executed as scripts with the environment a runner gives
//! them (`GITHUB_ACTION_PATH`, the inputs, `GITHUB_OUTPUT`), on a copy of
//! the example project. The upload step is GitHub's own action and is only
//! checked to be there.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_yaml::Value;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// `${{ inputs.NAME }}` and `${{ steps.ID.outputs.NAME }}` replaced by
/// their values; other expressions are left as they are.
fn substitute(text: &str, inputs: &HashMap<String, String>, outputs: &HashMap<String, String>) -> String {
    let mut out = text.to_string();
    for (k, v) in inputs {
        out = out.replace(&format!("${{{{ inputs.{k} }}}}"), v);
    }
    for (k, v) in outputs {
        out = out.replace(&format!("${{{{ steps.check.outputs.{k} }}}}"), v);
    }
    out
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

#[test]
fn the_actions_steps_run_as_scripts() {
    let root = workspace_root();
    let action: Value = serde_yaml::from_str(&std::fs::read_to_string(root.join("action.yml")).unwrap()).unwrap();
    assert_eq!(action["runs"]["using"], "composite");
    let work = std::env::temp_dir().join(format!("lockstep-action-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    copy_dir(&root.join("examples/project"), &work);
    let output_file = work.join("github_output");
    std::fs::write(&output_file, "").unwrap();

    // The inputs a workflow gives, over the defaults action.yml declares.
    let mut inputs: HashMap<String, String> = HashMap::new();
    for (k, v) in action["inputs"].as_mapping().unwrap() {
        inputs.insert(k.as_str().unwrap().to_string(), v["default"].as_str().unwrap_or("").to_string());
    }
    inputs.insert("paths".into(), "src".into());
    inputs.insert("args".into(), "-p build -j 2".into());
    // lockstep is on the PATH: the install step finds it and stops there.
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_lockstep")).parent().unwrap().to_path_buf();
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap_or_default());

    let mut outputs: HashMap<String, String> = HashMap::new();
    let mut ran = Vec::new();
    let mut final_status = None;
    for step in action["runs"]["steps"].as_sequence().unwrap() {
        let name = step["name"].as_str().unwrap_or("").to_string();
        if let Some(uses) = step["uses"].as_str() {
            assert!(uses.starts_with("github/codeql-action/upload-sarif@"), "{uses}");
            assert_eq!(step["with"]["sarif_file"], "${{ inputs.sarif-file }}");
            continue;
        }
        let condition = step["if"].as_str().map(|c| substitute(c, &inputs, &outputs)).unwrap_or_default();
        if condition.contains("'false' == 'true'") {
            continue;
        }
        let script = substitute(step["run"].as_str().expect("a run step"), &inputs, &outputs);
        let mut cmd = Command::new("bash");
        cmd.arg("-c").arg(&script).current_dir(&work);
        cmd.env("GITHUB_ACTION_PATH", &root).env("GITHUB_OUTPUT", &output_file).env("PATH", &path);
        for (k, v) in step["env"].as_mapping().into_iter().flatten() {
            cmd.env(k.as_str().unwrap(), substitute(v.as_str().unwrap_or(""), &inputs, &outputs));
        }
        let out = cmd.output().unwrap();
        let log = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
        if name.starts_with("Install") || name.starts_with("Check") {
            assert!(out.status.success(), "step `{name}` failed:\n{log}");
        }
        if name.starts_with("Check") {
            assert!(log.contains("src/reduce.cu:13:18: error[data-race]"), "{log}");
        }
        for line in std::fs::read_to_string(&output_file).unwrap().lines() {
            if let Some((k, v)) = line.split_once('=') {
                outputs.insert(k.to_string(), v.to_string());
            }
        }
        final_status = out.status.code();
        ran.push(name);
    }
    assert_eq!(ran.len(), 3, "install, check and verdict ran: {ran:?}");
    assert_eq!(outputs.get("exit-code").map(String::as_str), Some("1"), "{outputs:?}");
    assert_eq!(outputs.get("verdict").map(String::as_str), Some("errors"));
    // The racy reduction fails the job.
    assert_eq!(final_status, Some(1));
    let sarif: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(work.join("lockstep.sarif")).unwrap()).unwrap();
    assert!(sarif["runs"][0]["results"].as_array().unwrap().iter().any(|r| r["ruleId"] == "data-race"));
    let _ = std::fs::remove_dir_all(&work);
}
