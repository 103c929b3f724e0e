//! The SARIF 2.1.0 log of a project run (`--format=sarif`): one run, one
//! result per finding of every file, shown by code-scanning services on
//! the finding's lines. A race's accesses are the result's location and
//! `relatedLocations`; its witness is a `codeFlows` entry with one thread
//! flow per thread of the witness (its ids, the launch and the arguments
//! as the flow's state), each at the access that thread makes. Suppressed
//! and baselined findings carry SARIF `suppressions`; undecided kernels
//! and rejected files are the invocation's notifications.

use serde_json::{json, Value};

use super::parallel::Outcome;
use super::summary::Summary;

fn uri(file: &str) -> String {
    super::inputs::display(std::path::Path::new(file))
}

/// A SARIF location of a report's `{"file", "line", "column"}`.
fn location(loc: &Value, message: Option<&str>) -> Option<Value> {
    let file = loc.get("file")?.as_str()?;
    let line = loc.get("line")?.as_u64()?.max(1);
    let column = loc.get("column").and_then(Value::as_u64).unwrap_or(1).max(1);
    let mut l = json!({
        "physicalLocation": {
            "artifactLocation": {"uri": uri(file)},
            "region": {"startLine": line, "startColumn": column},
        }
    });
    if let Some(m) = message.filter(|m| !m.is_empty()) {
        l["message"] = json!({"text": m});
    }
    Some(l)
}

fn triple(v: &Value) -> String {
    match v.as_array() {
        Some(a) => format!("({})", a.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")),
        None => "?".into(),
    }
}

/// The witness of a violation as a code flow: thread `i` of the witness at
/// the `i`-th of the violation's locations (primary first).
fn code_flow(witness: &Value, locations: &[Value]) -> Option<Value> {
    let threads = witness.get("threads")?.as_array()?;
    if threads.is_empty() || locations.is_empty() {
        return None;
    }
    let mut state = serde_json::Map::new();
    if !witness["block_dim"].is_null() {
        state.insert("blockDim".into(), json!({"text": triple(&witness["block_dim"])}));
    }
    if !witness["grid_dim"].is_null() {
        state.insert("gridDim".into(), json!({"text": triple(&witness["grid_dim"])}));
    }
    for a in witness.get("args").and_then(Value::as_array).into_iter().flatten() {
        if let (Some(n), Some(v)) = (a.get("name").and_then(Value::as_str), a.get("value").and_then(Value::as_str)) {
            state.insert(n.to_string(), json!({"text": v}));
        }
    }
    let flows: Vec<Value> = threads
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let at = locations[i.min(locations.len() - 1)].clone();
            let name = format!("thread {} of block {}", triple(&t["local_id"]), triple(&t["group_id"]));
            json!({
                "id": format!("t{i}"),
                "message": {"text": name},
                "locations": [{"location": at, "state": state, "nestingLevel": 0}],
            })
        })
        .collect();
    Some(json!({"message": {"text": "the witness: the threads and inputs that show the violation"}, "threadFlows": flows}))
}

/// The SARIF results of one file's report.
fn results(outcome: &Outcome, rules: &mut Vec<&'static str>, out: &mut Vec<Value>) {
    for k in outcome.report.get("kernels").and_then(Value::as_array).into_iter().flatten() {
        let kernel = k.get("name").and_then(Value::as_str).unwrap_or("");
        for v in k.get("violations").and_then(Value::as_array).into_iter().flatten() {
            let kind = v.get("kind").and_then(Value::as_str).unwrap_or("violation");
            let rule: &'static str = crate::project::sarif::rule_name(kind);
            if !rules.contains(&rule) {
                rules.push(rule);
            }
            let confirmed = v.get("confirmed").and_then(Value::as_bool) == Some(true);
            let primary = location(&v["primary"], v.get("primary_label").and_then(Value::as_str));
            let related: Vec<Value> = v
                .get("related")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|r| location(r, r.get("message").and_then(Value::as_str)))
                .collect();
            let mut result = json!({
                "ruleId": rule,
                "level": if confirmed { "error" } else { "warning" },
                "message": {"text": format!("kernel `{kernel}`: {}", v.get("message").and_then(Value::as_str).unwrap_or(""))},
                "locations": primary.iter().cloned().collect::<Vec<_>>(),
                "relatedLocations": related.iter().enumerate().map(|(i, l)| { let mut l = l.clone(); l["id"] = json!(i); l }).collect::<Vec<_>>(),
                "properties": {"kernel": kernel, "confirmed": confirmed},
            });
            if let Some(w) = v.get("witness").filter(|w| !w.is_null()) {
                let mut places: Vec<Value> = primary.iter().cloned().collect();
                places.extend(related.iter().cloned());
                if let Some(flow) = code_flow(w, &places) {
                    result["codeFlows"] = json!([flow]);
                }
                result["properties"]["witness"] = w.clone();
            }
            if let Some(s) = v.get("suppression") {
                result["suppressions"] = json!([{"kind": s["kind"], "justification": s["reason"]}]);
            }
            out.push(result);
        }
    }
}

/// The rule id of a violation kind (the kinds DESIGN.md lists; another
/// name, which no check prints today, is `violation`).
pub fn rule_name(kind: &str) -> &'static str {
    const KINDS: &[&str] = &[
        "data-race", "barrier-divergence", "assertion", "precondition", "postcondition", "invariant", "out-of-bounds",
        "null-pointer", "division-by-zero", "overflow", "constant-write", "api-misuse",
    ];
    KINDS.iter().find(|k| **k == kind).copied().unwrap_or("violation")
}

/// The run's SARIF log.
pub fn log(summary: &Summary<'_>) -> String {
    let mut rules = Vec::new();
    let mut out = Vec::new();
    let mut notifications = Vec::new();
    for o in summary.outcomes {
        results(o, &mut rules, &mut out);
        let file = o.file.display().to_string();
        if let Some(e) = o.report.get("error").and_then(Value::as_str) {
            notifications.push(json!({"level": "error", "message": {"text": format!("{}: rejected: {e}", uri(&file))},
                "locations": [location(&json!({"file": file, "line": 1}), None)]}));
        }
        for k in o.report.get("kernels").and_then(Value::as_array).into_iter().flatten() {
            if let Some(reason) = k["reason"]["message"].as_str() {
                let at = location(&k["reason"]["location"], None).or_else(|| location(&json!({"file": file, "line": 1}), None));
                notifications.push(json!({"level": "warning",
                    "message": {"text": format!("{}: kernel `{}`: {}: {reason}", uri(&file), k["name"].as_str().unwrap_or(""), k["verdict"].as_str().unwrap_or("unknown"))},
                    "locations": at.into_iter().collect::<Vec<_>>()}));
            }
        }
    }
    let invocation = json!({
        "executionSuccessful": !summary.interrupted,
        "toolExecutionNotifications": notifications,
    });
    let properties = json!({
        "verdict": summary.verdict().name(),
        "files": summary.outcomes.iter().map(|o| json!({"file": uri(&o.file.display().to_string()), "verdict": o.report["verdict"]})).collect::<Vec<_>>(),
        "elapsed_ms": summary.elapsed_ms,
    });
    crate::render::sarif_log(&rules, out, invocation, properties)
}
