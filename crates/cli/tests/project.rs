//! Project runs (`lockstep check PATH... / -p BUILD_DIR`): the example CMake
//! project of `examples/project` checked from its compilation database,
//! the cache (a second run reuses every report; a changed header re-checks
//! exactly its includers), suppressions, the baseline, the run's JSON and
//! SARIF (validated with Microsoft's SARIF multitool when setup installed
//! it), and the exit status of the worst verdict.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
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

/// A fresh copy of the example project, so that its cache and baseline are
/// this test's own.
fn example_project(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lockstep-project-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&workspace_root().join("examples/project"), &dir);
    dir
}

fn check(dir: &Path, args: &[&str]) -> (Value, i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_lockstep")).current_dir(dir).arg("check").args(args).output().expect("lockstep runs");
    let code = out.status.code().unwrap_or(-1);
    let stderr = common::stderr(&out);
    if args.contains(&"--format=json") || args.contains(&"--format=sarif") {
        (common::json(&out), code, stderr)
    } else {
        (Value::String(String::from_utf8_lossy(&out.stdout).into_owned()), code, stderr)
    }
}

fn file<'a>(run: &'a Value, name: &str) -> &'a Value {
    run["files"].as_array().unwrap().iter().find(|f| f["file"].as_str().unwrap().ends_with(name)).unwrap_or_else(|| panic!("no {name} in {run}"))
}

#[test]
fn a_cmake_project_is_checked_from_its_compilation_database_and_cached() {
    let dir = example_project("db");
    let (run, code, stderr) = check(&dir, &["-p", "build", "-j", "2", "--format=json"]);
    assert_eq!(run["summary"]["files"], 4, "{run}\n{stderr}");
    // The racy reduction fails the run; the other files are verified: they
    // compile only with the database's -I and -D (BLOCK).
    assert_eq!(file(&run, "reduce.cu")["verdict"], "errors", "{run}");
    for ok in ["scale.cu", "stencil.cu"] {
        assert_eq!(file(&run, ok)["verdict"], "verified", "{ok}: {run}");
    }
    // flag.cu's race is real, and suppressed with its reason.
    let flag = file(&run, "flag.cu");
    assert_eq!(flag["verdict"], "errors", "{run}");
    let v = &flag["kernels"][0]["violations"][0];
    assert_eq!(v["suppression"]["kind"], "inSource");
    assert!(v["suppression"]["reason"].as_str().unwrap().contains("which thread wins"));
    assert_eq!(run["verdict"], "errors");
    assert_eq!(code, 1);
    // nvcc's options are ignored with a note, never fatal.
    let notes = run["notes"].to_string();
    assert!(notes.contains("-gencode") && notes.contains("--expt-extended-lambda"), "{notes}");
    // Plain progress lines on stderr (not a terminal).
    assert!(stderr.contains("[4/4]"), "{stderr}");

    // Nothing changed: every report comes from the cache.
    let (again, code, _) = check(&dir, &["-p", "build", "--format=json"]);
    assert_eq!(code, 1);
    assert_eq!(again["summary"]["cached"], 4, "{again}");
    assert_eq!(file(&again, "reduce.cu")["verdict"], "errors");

    // A header only scale.cu includes changes: scale.cu alone is checked.
    let header = dir.join("include/scale.cuh");
    let text = std::fs::read_to_string(&header).unwrap();
    std::fs::write(&header, text + "// changed\n").unwrap();
    let (third, _, _) = check(&dir, &["-p", "build", "--format=json"]);
    assert_eq!(third["summary"]["cached"], 3, "{third}");
    assert_eq!(file(&third, "scale.cu")["cached"], false);
    // The header every file but flag.cu includes: three files again.
    let tile = dir.join("include/tile.cuh");
    let text = std::fs::read_to_string(&tile).unwrap();
    std::fs::write(&tile, text + "// changed\n").unwrap();
    let (fourth, _, _) = check(&dir, &["-p", "build", "--format=json"]);
    assert_eq!(fourth["summary"]["cached"], 1, "{fourth}");
    assert_eq!(file(&fourth, "flag.cu")["cached"], true);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn without_the_database_the_files_lack_their_flags() {
    let dir = example_project("nodb");
    // The include folder given, but not the build's BLOCK definition.
    let (run, code, _) = check(&dir, &["src", "-I", "include", "--no-cache", "--format=json"]);
    let scale = file(&run, "scale.cu");
    assert_eq!(scale["verdict"], "rejected", "{run}");
    assert!(scale["error"].as_str().unwrap().contains("BLOCK must be defined"));
    assert_eq!(code, 2, "rejected is the worst verdict");
    // The human summary names the rejected file and why.
    let (text, _, _) = check(&dir, &["src", "-I", "include", "--no-cache"]);
    let text = text.as_str().unwrap();
    assert!(text.contains("rejected files:") && text.contains("BLOCK must be defined"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_baseline_accepts_known_findings_only() {
    let dir = example_project("baseline");
    let (_, code, _) = check(&dir, &["-p", "build", "--write-baseline", "--format=json"]);
    assert_eq!(code, 0);
    let baseline = std::fs::read_to_string(dir.join("lockstep-baseline.json")).unwrap();
    assert!(baseline.contains("src/reduce.cu|reduce|data-race"), "{baseline}");
    // The baseline lies beside lockstep.toml: it is read by default.
    let (run, code, _) = check(&dir, &["-p", "build", "--format=json"]);
    assert_eq!(code, 0, "{run}");
    assert_eq!(run["summary"]["baselined"], 1);
    // A new finding still fails the run.
    let racy = "#include \"tile.cuh\"\n__global__ void bad(int *a) {\n  a[0] = threadIdx.x;\n}\n";
    std::fs::write(dir.join("src/new.cu"), racy).unwrap();
    let (run, code, _) = check(&dir, &["src", "-I", "include", "-DBLOCK=128", "--format=json"]);
    assert_eq!(code, 1, "{run}");
    assert!(file(&run, "new.cu")["kernels"][0]["violations"][0].get("suppression").is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Where `scripts/setup.sh` installs Microsoft's SARIF multitool.
fn sarif_multitool() -> Option<PathBuf> {
    let home = std::env::var_os("HOME")?;
    let tool = PathBuf::from(home).join(".cache/lockstep/npm/node_modules/.bin/sarif-multitool");
    tool.is_file().then_some(tool)
}

#[test]
fn the_runs_sarif_is_valid_and_shows_the_race_and_its_witness() {
    let dir = example_project("sarif");
    let out = Command::new(env!("CARGO_BIN_EXE_lockstep")).current_dir(&dir).args(["check", "-p", "build", "--format=sarif"]).output().unwrap();
    let sarif = common::json(&out);
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let race = results.iter().find(|r| r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "src/reduce.cu").expect("the race");
    assert_eq!(race["ruleId"], "data-race");
    assert_eq!(race["level"], "error");
    // Both accesses: the result's location and its related location.
    assert_eq!(race["locations"][0]["physicalLocation"]["region"]["startLine"], 13);
    assert_eq!(race["relatedLocations"][0]["physicalLocation"]["region"]["startLine"], 13);
    assert_eq!(race["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"], "src/reduce.cu");
    // The witness: one thread flow per racing thread, with the launch.
    let flows = race["codeFlows"][0]["threadFlows"].as_array().unwrap();
    assert_eq!(flows.len(), 2, "{race}");
    assert!(flows[0]["message"]["text"].as_str().unwrap().starts_with("thread (0, 0, 0)"), "{race}");
    assert!(flows[1]["message"]["text"].as_str().unwrap().starts_with("thread (1, 0, 0)"), "{race}");
    assert!(flows[0]["locations"][0]["state"]["blockDim"]["text"].as_str().is_some());
    // The suppressed race carries its justification.
    let flag = results.iter().find(|r| r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "src/flag.cu").unwrap();
    assert_eq!(flag["suppressions"][0]["kind"], "inSource");
    match sarif_multitool() {
        Some(tool) => {
            let file = dir.join("run.sarif");
            std::fs::write(&file, &out.stdout).unwrap();
            let v = Command::new(tool).arg("validate").arg(&file).current_dir(&dir).env("DOTNET_SYSTEM_GLOBALIZATION_INVARIANT", "1").output().unwrap();
            let text = String::from_utf8_lossy(&v.stdout).into_owned() + &String::from_utf8_lossy(&v.stderr);
            assert!(v.status.success() && !text.contains(": error "), "the SARIF multitool rejects the log:\n{text}");
        }
        None => eprintln!("note: the SARIF multitool is not installed (scripts/setup.sh installs it): structure checked, schema not validated"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn command_line_errors_of_a_run_are_one_rejection() {
    let dir = example_project("errors");
    let (run, code, _) = check(&dir, &["src", "--frobnicate", "--format=json"]);
    assert_eq!(code, 2);
    assert!(run["error"].as_str().unwrap().contains("--frobnicate"));
    let (run, code, _) = check(&dir, &["src", "missing_dir", "--format=json"]);
    assert_eq!(code, 2);
    assert!(run["error"].as_str().unwrap().contains("missing_dir"));
    std::fs::write(dir.join("lockstep.toml"), "flagz = []\n").unwrap();
    let (run, code, _) = check(&dir, &["src", "--format=json"]);
    assert_eq!(code, 2);
    assert!(run["error"].as_str().unwrap().contains("unknown key `flagz`"), "{run}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether process `pid` has ended (gone, or a zombie nobody reaped yet).
fn ended(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat.rsplit(')').next().is_some_and(|rest| rest.trim_start().starts_with('Z')),
        Err(_) => true,
    }
}

#[test]
fn ctrl_c_stops_the_run_and_the_compilers_of_its_checks() {
    let dir = example_project("interrupt");
    // A clang that never finishes, and says who it is: the run is surely
    // in the middle of its checks when it is interrupted.
    let clang = dir.join("slow-clang");
    let pids = dir.join("clang-pids");
    std::fs::write(&clang, format!("#!/bin/sh\necho $$ >> '{}'\nexec sleep 60\n", pids.display())).unwrap();
    std::fs::set_permissions(&clang, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_lockstep"))
        .current_dir(&dir)
        .env("LOCKSTEP_CLANG", &clang)
        .args(["check", "-p", "build", "--no-cache", "-j", "2", "--format=json"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while std::fs::read_to_string(&pids).map_or(true, |p| p.lines().count() < 2) {
        assert!(started.elapsed() < std::time::Duration::from_secs(60), "the checks never started clang");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    extern "C" {
        fn kill(pid: i32, sig: i32) -> i32;
    }
    // SAFETY: kill(2) on our own child.
    unsafe {
        kill(child.id() as i32, 2);
    }
    let stopped = std::time::Instant::now();
    let out = child.wait_with_output().unwrap();
    assert!(stopped.elapsed() < std::time::Duration::from_secs(10), "the run took {:?} to stop", stopped.elapsed());
    let run = common::json(&out);
    assert_eq!(out.status.code(), Some(130), "{run}");
    assert_eq!(run["interrupted"], true);
    // The clang processes of the stopped checks were killed with them.
    std::thread::sleep(std::time::Duration::from_millis(500));
    for pid in std::fs::read_to_string(&pids).unwrap().lines() {
        let pid: i32 = pid.trim().parse().unwrap();
        assert!(ended(pid), "clang {pid} outlived the run");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn directories_honour_gitignore_and_kernels_get_their_own_flags() {
    let dir = std::env::temp_dir().join(format!("lockstep-project-{}-walk", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("gen")).unwrap();
    std::fs::write(dir.join(".gitignore"), "gen/\n").unwrap();
    // Generated code the project does not check.
    std::fs::write(dir.join("gen/ignored.cu"), "__global__ void g(int *a) { a[0] = threadIdx.x; }\n").unwrap();
    // `single` races as soon as a block has two threads; it is only ever
    // launched with one, which lockstep.toml says for that kernel alone.
    let two = "__global__ void single(int *a) {\n  a[0] = threadIdx.x;\n}\n\n__global__ void each(int *a) {\n  a[threadIdx.x] = 1;\n}\n";
    std::fs::write(dir.join("two.cu"), two).unwrap();
    let (run, code, _) = check(&dir, &[".", "--no-cache", "--no-config", "--blockDim=32", "--gridDim=1", "--format=json"]);
    assert_eq!(run["summary"]["files"], 1, "gen/ is ignored: {run}");
    assert_eq!(code, 1);
    assert_eq!(file(&run, "two.cu")["verdict"], "errors");
    std::fs::write(
        dir.join("lockstep.toml"),
        "flags = [\"--blockDim=32\", \"--gridDim=1\"]\n[[kernels]]\nfile = \"two.cu\"\nname = \"single\"\nflags = [\"--blockDim=1\"]\n",
    )
    .unwrap();
    let (run, code, _) = check(&dir, &[".", "--no-cache", "--format=json"]);
    let two = file(&run, "two.cu");
    assert_eq!(two["verdict"], "verified", "{run}");
    let names: Vec<&str> = two["kernels"].as_array().unwrap().iter().map(|k| k["name"].as_str().unwrap()).collect();
    assert_eq!(names, vec!["single", "each"]);
    assert_eq!(code, 0);
    // A folder without kernel sources: nothing checked is not verified.
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    let (run, code, _) = check(&dir, &["empty", "--format=json"]);
    assert_eq!((run["verdict"].as_str(), code), (Some("unknown"), 3), "{run}");
    let _ = std::fs::remove_dir_all(&dir);
}
