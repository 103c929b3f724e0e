//! The solver process driver.
//!
//! A [`Solver`] runs one long-lived z3 or cvc5 process and talks SMT-LIB2 to
//! it over pipes. It
//!
//! * declares the free symbols of asserted terms on first use, tracking them
//!   per `push`/`pop` scope (declarations are scoped in SMT-LIB);
//! * turns on `:print-success`, so that every command has exactly one answer
//!   and a solver `(error ...)` is reported against the command that caused
//!   it, as an [`Error`], never ignored;
//! * bounds every query three ways. z3 gets a limit on its *work* (its
//!   `rlimit`, [`SolverConfig::work_per_ms`] units per millisecond of the
//!   query's time limit), which makes its answers independent of the
//!   machine's speed and load: a query that runs out of work is
//!   [`SatResult::Unknown`]`("work limit")` on every run. The safety net
//!   behind the work limit is the solver process's *CPU time* in the query
//!   ([`SolverConfig::timer_factor`] times the query's time limit, read
//!   from `/proc` while the driver waits; a process over it is killed),
//!   which load does not use up either, and behind that, so that nothing
//!   hangs, the wall clock: z3's own timer and the watchdog (the timer plus
//!   `watchdog_margin`, which kills a solver that does not answer), at
//!   [`WALL_BACKSTOP`] times the CPU timer. A `check-sat` that ends on
//!   either net yields [`SatResult::Unknown`]`("timeout")`. A caller that
//!   keeps a deadline (factor 1) gets the wall-clock timer alone, equal to
//!   the query's limit;
//! * restarts a killed or exited process on the next command (or on
//!   [`Solver::restart`]), replaying the declarations and assertions of every
//!   open scope, so callers can simply `pop` and go on;
//! * optionally logs every command, and every answer as a comment
//!   (`; -> sat`), to a file that `z3 FILE` replays (a restart appears there
//!   as `(reset)` followed by the replayed commands).
//!
//! Output is read by a helper thread per pipe, so the watchdog can wait with
//! a deadline on a channel and no read ever blocks the caller indefinitely.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};

use crate::cpu::CpuMeter;
use std::time::{Duration, Instant};

use crate::error::{shorten, Error, Result};
use crate::print::{declare_fun_command, declare_sort_command, quote_symbol, term_to_string};
use crate::sexp::{parse_prefix, SExpr};
use crate::sort::Sort;
use crate::term::{SortError, TermId, TermKind, TermStore};
use crate::value::Value;

/// Which solver to run.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SolverKind {
    /// Z3, run as `z3 -in -smt2`.
    Z3,
    /// cvc5, run as `cvc5 --lang=smt2 --incremental --produce-models
    /// --tlimit-per=MS --rlimit-per=UNITS`.
    Cvc5,
}

impl SolverKind {
    /// The program looked up on `PATH` when no other is configured.
    pub fn default_program(self) -> &'static str {
        match self {
            SolverKind::Z3 => "z3",
            SolverKind::Cvc5 => "cvc5",
        }
    }

    fn args(self, timeout_ms: u128, memory_limit: Option<u64>, cvc5_work: Option<u64>) -> Vec<String> {
        match self {
            // z3 also watches its own heap (`-memory:MB`), which makes it stop
            // a query with an error before the address-space limit bites;
            // the rest of the limit is its code and stacks.
            SolverKind::Z3 => {
                let mut args = vec!["-in".to_string(), "-smt2".to_string()];
                if let Some(bytes) = memory_limit {
                    args.push(format!("-memory:{}", (bytes >> 20).saturating_mul(3) / 4));
                }
                args
            }
            // cvc5 fixes its limits when it starts: a work limit per query
            // (`--rlimit-per`, its reproducible resource limit) and the
            // time limit as the safety net.
            SolverKind::Cvc5 => {
                let mut args = vec!["--lang=smt2".into(), "--incremental".into(), "--produce-models".into(), format!("--tlimit-per={timeout_ms}")];
                if let Some(work) = cvc5_work {
                    args.push(format!("--rlimit-per={work}"));
                }
                args
            }
        }
    }
}

impl fmt::Display for SolverKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.default_program())
    }
}

/// z3's work units (`rlimit`) per millisecond of a query's time limit,
/// unless configured otherwise ([`SolverConfig::work_per_ms`]). Measured
/// with z3 4.8.12 on lockstep's queries (finder, Houdini and the checks
/// after it; the incremental core and the bit-blasting tactic alike): one
/// core does 3,000 to 6,500 units per millisecond of CPU time, so the work
/// limit is reached at about the time limit on an unloaded machine, and a
/// loaded one reaches the time limit (the safety net) first.
pub const Z3_WORK_PER_MS: u64 = 3_000;

/// How many times a query's time limit z3's timer allows when its work is
/// limited, unless configured otherwise ([`SolverConfig::timer_factor`]).
/// On an idle core the work limit ([`Z3_WORK_PER_MS`]) ends a query at or
/// before its time limit; a machine running other jobs slows z3 down, and
/// a timer equal to the limit then ended hard queries first, so that their
/// answers (and the verdicts built on them) changed with the load. With
/// three times the limit, the work limit decides on a machine shared by up
/// to about three busy jobs per core.
pub const TIMER_FACTOR: u32 = 3;

/// How many times the CPU-time timer ([`SolverConfig::timer_factor`] times
/// a query's limit) the wall clock allows a z3 query whose work is limited,
/// before z3's own timer or the watchdog ends it: only a backstop, for a
/// solver that uses no CPU time yet does not answer, or a machine so
/// loaded that its CPU time says little. Under [`TIMER_FACTOR`]'s default
/// a query of the prover's 20 s limit may then take 4 minutes of wall
/// time, which the engines' own wall-clock backstops bound further.
pub const WALL_BACKSTOP: u32 = 4;

/// How often the driver reads a solver's CPU time while it waits for the
/// answer to a check (see [`SolverConfig::timer_factor`]).
const CPU_POLL: Duration = Duration::from_millis(50);

/// cvc5's resource units (`--rlimit-per`) per millisecond of a query's time
/// limit, when work is limited ([`SolverConfig::work_per_ms`] is set).
/// Measured with cvc5 1.0.3 on lockstep's queries (prover sessions of the
/// binomial-options and barrier-interval kernels): a query spends 30 to
/// 1,700 units per millisecond, unevenly (bit-blasting a product spends
/// tens of thousands at once; a long SAT search few). No single rate makes
/// the work limit bite at the time limit for every query, so it is set
/// high: queries that spend work fast end on the work limit, the same on
/// every run, and the others on the time limit, as before.
pub const CVC5_WORK_PER_MS: u64 = 1_000;

/// The address space a solver may use unless configured otherwise: 768 MiB,
/// three quarters of lockstep's default memory limit (`--memory-limit`).
pub const DEFAULT_MEMORY_LIMIT: u64 = 768 << 20;

/// How to run a solver. Build one with [`SolverConfig::new`] and adjust the
/// public fields.
#[derive(Clone, Debug)]
pub struct SolverConfig {
    /// Which solver.
    pub kind: SolverKind,
    /// The solver's own time limit for each `check-sat` (at least 1 ms is used).
    pub timeout_per_query: Duration,
    /// Where to write the replayable session log, if anywhere.
    pub log_path: Option<PathBuf>,
    /// The program to run instead of `kind`'s default (`z3` or `cvc5` on `PATH`).
    pub program: Option<PathBuf>,
    /// How much longer than `timeout_per_query` the watchdog waits for any
    /// answer before it kills the process. Default: one second.
    pub watchdog_margin: Duration,
    /// The most address space the solver process may use, in bytes
    /// (`RLIMIT_AS`); `None` leaves it unlimited. Default:
    /// [`DEFAULT_MEMORY_LIMIT`].
    pub memory_limit: Option<u64>,
    /// z3's work limit (`rlimit`) for a query, in units per millisecond of
    /// the query's time limit (`timeout_per_query`, or the shorter one of
    /// [`Solver::check_sat_within`]); `None` bounds queries by time alone,
    /// which makes an answer near the limit depend on the machine's load.
    /// Default: [`Z3_WORK_PER_MS`]. cvc5's limit (`--rlimit-per`) is in its
    /// own units, [`CVC5_WORK_PER_MS`] per millisecond at the default and in
    /// proportion otherwise; `None` leaves cvc5 without a work limit too.
    pub work_per_ms: Option<u64>,
    /// How many times a query's time limit the solver process may use of
    /// CPU time in the query when `work_per_ms` limits z3's work: the work
    /// limit is the bound that decides, the CPU timer only a safety net
    /// (with the wall clock at [`WALL_BACKSTOP`] times it behind). 1 makes
    /// z3's wall-clock timer the limit itself, with no CPU timer, for
    /// callers that must keep a deadline (an engine under `--timeout`).
    /// Ignored for cvc5 and without a work limit. Default: [`TIMER_FACTOR`].
    pub timer_factor: u32,
    /// Counts the CPU time of every process started with this
    /// configuration (and its clones), for an engine's budget
    /// ([`CpuStopwatch`](crate::CpuStopwatch)). Default: none.
    pub cpu_meter: Option<CpuMeter>,
    /// Once set (by another thread), a check in progress is ended: the
    /// process is killed and the answer is [`SatResult::Unknown`]`("stopped")`,
    /// for a caller whose answer is no longer wanted. Read while the driver
    /// waits for an answer, as the CPU timer is. Default: none.
    pub stop: Option<Arc<std::sync::atomic::AtomicBool>>,
}

impl SolverConfig {
    /// A configuration without log, with the default program and margin.
    pub fn new(kind: SolverKind, timeout_per_query: Duration) -> SolverConfig {
        SolverConfig {
            kind,
            timeout_per_query,
            log_path: None,
            program: None,
            watchdog_margin: Duration::from_secs(1),
            memory_limit: Some(DEFAULT_MEMORY_LIMIT),
            work_per_ms: Some(Z3_WORK_PER_MS),
            timer_factor: TIMER_FACTOR,
            cpu_meter: None,
            stop: None,
        }
    }

    /// The same configuration, logging to `path`.
    pub fn with_log(mut self, path: impl Into<PathBuf>) -> SolverConfig {
        self.log_path = Some(path.into());
        self
    }

    fn timeout_ms(&self) -> u128 {
        self.timeout_per_query.as_millis().max(1)
    }

    /// z3's (wall-clock) timer for a query limited to `limit` of time:
    /// [`WALL_BACKSTOP`] times the CPU timer (`cpu_timer_for`) when there
    /// is one, `limit` itself otherwise.
    fn timer_for(&self, limit: Duration) -> Duration {
        match self.cpu_timer_for(limit) {
            Some(cpu) => cpu.saturating_mul(WALL_BACKSTOP),
            None => limit,
        }
    }

    /// The CPU time a z3 query limited to `limit` may use before the driver
    /// kills the process: `limit` times [`SolverConfig::timer_factor`] when
    /// work bounds the query and the factor is above 1; none otherwise
    /// (cvc5, no work limit, or a caller keeping a deadline).
    fn cpu_timer_for(&self, limit: Duration) -> Option<Duration> {
        match (self.kind, self.work_per_ms) {
            (SolverKind::Z3, Some(_)) if self.timer_factor > 1 => Some(limit.saturating_mul(self.timer_factor)),
            _ => None,
        }
    }

    /// cvc5's work limit per query (`--rlimit-per`), when work is limited:
    /// [`CVC5_WORK_PER_MS`] units per millisecond with the default
    /// `work_per_ms`, in proportion with another.
    fn cvc5_work(&self) -> Option<u64> {
        let per_ms = self.work_per_ms?;
        let work = (self.timeout_ms() as u64).saturating_mul(per_ms).saturating_mul(CVC5_WORK_PER_MS) / Z3_WORK_PER_MS;
        Some(work.max(1))
    }

    /// z3's work limit for a query limited to `limit` of time, if work is
    /// limited: at least 1 (0 would mean no limit) and at most what z3's
    /// 32-bit option holds.
    fn work_for(&self, limit: Duration) -> Option<u64> {
        let per_ms = self.work_per_ms?;
        let work = (limit.as_millis().max(1) as u64).saturating_mul(per_ms);
        Some(work.clamp(1, u64::from(u32::MAX)))
    }

    fn program(&self) -> PathBuf {
        self.program
            .clone()
            .unwrap_or_else(|| PathBuf::from(self.kind.default_program()))
    }
}

/// The answer to `check-sat`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatResult {
    /// Satisfiable; values and models can be queried.
    Sat,
    /// Unsatisfiable.
    Unsat,
    /// The solver gave up; the reason is [`WORK_LIMIT`] when z3 ran out of
    /// work ([`SolverConfig::work_per_ms`]), `"timeout"` for both the
    /// solver's own time limit and the watchdog, otherwise the solver's
    /// `:reason-unknown`.
    Unknown(String),
}

impl SatResult {
    /// Whether this is `Sat`.
    pub fn is_sat(&self) -> bool {
        *self == SatResult::Sat
    }

    /// Whether this is `Unsat`.
    pub fn is_unsat(&self) -> bool {
        *self == SatResult::Unsat
    }
}

/// Values of the declared constants in scope, by name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Model {
    values: BTreeMap<String, Value>,
}

impl Model {
    /// The value of the constant named `name`.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.values.get(name)
    }

    /// The value of a constant term of `store`.
    pub fn get_const(&self, store: &TermStore, t: TermId) -> Option<&Value> {
        match store.kind(t) {
            TermKind::Const(f) => self.get(&store.fun(*f).name),
            _ => None,
        }
    }

    /// All (name, value) pairs, sorted by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// The number of constants.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether there is no constant.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

/// A running solver process and the threads that read its output.
struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: Receiver<Vec<u8>>,
    /// Output received but not yet parsed into an answer.
    pending: Vec<u8>,
    stderr: Arc<Mutex<Vec<u8>>>,
    stderr_thread: Option<JoinHandle<()>>,
    /// Whether the child has been waited for: from then on its id may name
    /// another process, and its group must not be signalled.
    reaped: bool,
    /// The meter that counts the process's CPU time until it ends.
    meter: Option<CpuMeter>,
}

/// The reason of a z3 `unknown` caused by the work limit
/// ([`SolverConfig::work_per_ms`]).
pub const WORK_LIMIT: &str = "work limit";

/// How much standard error is kept for error messages.
const STDERR_LIMIT: usize = 1 << 16;

/// The ids of the solver processes this program has running, so that a
/// run stopped from outside the solver layer (the CLI's `--timeout`) kills
/// them before it exits instead of leaving them to finish their query.
static RUNNING: std::sync::Mutex<Vec<u32>> = std::sync::Mutex::new(Vec::new());

/// The ids of the solver processes this program has running (to measure
/// what they hold).
pub fn running_solvers() -> Vec<u32> {
    RUNNING.lock().map(|r| r.clone()).unwrap_or_default()
}

/// Kills every solver process this program has running, with whatever it
/// started (each runs in a process group of its own). For a process about
/// to exit: the solvers' owners are not told.
pub fn kill_running_solvers() {
    let pids = {
        let mut running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
        STOPPING.store(true, std::sync::atomic::Ordering::SeqCst);
        std::mem::take(&mut *running)
    };
    for pid in pids {
        kill_group(pid);
    }
}

/// Set once the run is being stopped (`kill_running_solvers`): solvers
/// started from then on are killed at once.
static STOPPING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Kills the process group that the solver `pid` leads, and `pid` itself.
fn kill_group(pid: u32) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(pid) {
        // SAFETY: kill(2) has no memory effects; the pid is a child not yet
        // reaped (it leaves the list before it is waited for), so neither it
        // nor its group id can name another process.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
            libc::kill(pid, libc::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = pid;
}

/// Makes `cmd` start in a process group of its own (so that a kill reaches
/// everything the solver starts), limited to `memory` bytes of address
/// space when given: a solver that needs more fails its query (an error or
/// `unknown`, never `unsat`) instead of exhausting the machine.
fn confine(cmd: &mut Command, memory: Option<u64>) {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
        if let Some(bytes) = memory {
            let limit = libc::rlimit { rlim_cur: bytes as libc::rlim_t, rlim_max: bytes as libc::rlim_t };
            // SAFETY: the closure runs in the child between fork and exec,
            // and only calls setrlimit(2), which is async-signal-safe and
            // touches no memory of the parent's.
            unsafe {
                cmd.pre_exec(move || {
                    if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        }
    }
    #[cfg(not(unix))]
    let _ = (cmd, memory);
}

impl Process {
    fn start(config: &SolverConfig) -> Result<Process> {
        let program = config.program();
        let mut cmd = Command::new(&program);
        confine(&mut cmd, config.memory_limit);
        // Spawning and registering happen under the lock that
        // `kill_running_solvers` takes: a solver is either started before a
        // stop (and killed by it) or not at all, so a process that exits
        // while another thread spawns cannot leave the new solver behind.
        let mut running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
        if STOPPING.load(std::sync::atomic::Ordering::SeqCst) {
            return Err(Error::Spawn {
                program: program.display().to_string(),
                source: std::io::Error::other("the run is stopping"),
            });
        }
        let mut child = cmd
            .args(config.kind.args(config.timeout_ms(), config.memory_limit, config.cvc5_work()))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|source| Error::Spawn {
                program: program.display().to_string(),
                source,
            })?;
        running.push(child.id());
        drop(running);
        if let Some(meter) = &config.cpu_meter {
            meter.started(child.id());
        }
        let stdin = child.stdin.take().expect("stdin is piped");
        let mut stdout = child.stdout.take().expect("stdout is piped");
        let mut stderr = child.stderr.take().expect("stderr is piped");
        let (tx, rx) = mpsc::channel();
        // The reader threads end by themselves when the process closes its
        // pipes (at exit or when killed), so they are never joined blindly.
        thread::Builder::new()
            .name("smt-stdout".into())
            .spawn(move || {
                let mut buf = vec![0u8; 1 << 16];
                loop {
                    match stdout.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => {
                            if tx.send(buf[..n].to_vec()).is_err() {
                                break;
                            }
                        }
                    }
                }
            })?;
        let err_buf = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&err_buf);
        let stderr_thread = thread::Builder::new()
            .name("smt-stderr".into())
            .spawn(move || {
                let mut buf = [0u8; 4096];
                loop {
                    match stderr.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => {
                            let mut kept = sink.lock().unwrap_or_else(|p| p.into_inner());
                            let room = STDERR_LIMIT.saturating_sub(kept.len()).min(n);
                            kept.extend_from_slice(&buf[..room]);
                        }
                    }
                }
            })?;
        Ok(Process {
            child,
            stdin: Some(stdin),
            stdout: rx,
            pending: Vec::new(),
            stderr: err_buf,
            stderr_thread: Some(stderr_thread),
            reaped: false,
            meter: config.cpu_meter.clone(),
        })
    }

    /// Hands the process's CPU time to its meter, once, while the process
    /// can still be read (before it is reaped).
    fn stop_metering(&mut self) {
        if let Some(meter) = self.meter.take() {
            meter.ending(self.child.id());
        }
    }

    /// Waits up to `limit` for the process to exit, then kills it; returns
    /// the exit code if it exited normally.
    fn finish(&mut self, limit: Duration) -> Option<i32> {
        self.stdin = None;
        self.stop_metering();
        let deadline = Instant::now() + limit;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.reaped = true;
                    return status.code();
                }
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                _ => break,
            }
        }
        kill_group(self.child.id());
        let _ = self.child.kill();
        self.reaped = true;
        self.child.wait().ok().and_then(|s| s.code())
    }

    /// The standard error collected so far, waiting briefly for the reader
    /// thread to see the end of the pipe.
    fn stderr_text(&mut self) -> String {
        if let Some(handle) = self.stderr_thread.take() {
            let deadline = Instant::now() + Duration::from_millis(500);
            while !handle.is_finished() && Instant::now() < deadline {
                thread::sleep(Duration::from_millis(5));
            }
            if handle.is_finished() {
                let _ = handle.join();
            }
        }
        let kept = self.stderr.lock().unwrap_or_else(|p| p.into_inner());
        String::from_utf8_lossy(&kept).into_owned()
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.stop_metering();
        if let Ok(mut running) = RUNNING.lock() {
            running.retain(|&pid| pid != self.child.id());
        }
        // Never leave a solver running, nor anything it started: kill is
        // harmless if it already exited (it is not reaped yet, so its id
        // names nothing else).
        if !self.reaped {
            kill_group(self.child.id());
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What `recv` saw.
enum Reply {
    Answer(SExpr),
    TimedOut,
    Closed,
}

/// Declarations and assertions made in one scope, kept to replay them after
/// a restart and to forget declarations on `pop`.
#[derive(Default)]
struct Frame {
    commands: Vec<String>,
    funs: Vec<String>,
    sorts: Vec<String>,
}

/// What to remember once a command succeeded.
enum Registration {
    Nothing,
    Sort(String),
    Fun { name: String, is_const: bool },
}

struct DeclaredFun {
    command: String,
    is_const: bool,
}

/// A solver process with incremental scopes. See the module docs.
pub struct Solver {
    config: SolverConfig,
    process: Option<Process>,
    /// `frames[0]` is the base scope; each `push` adds one.
    frames: Vec<Frame>,
    funs: HashMap<String, DeclaredFun>,
    sorts: HashSet<String>,
    options: Vec<String>,
    log: Option<BufWriter<File>>,
    starts: u32,
    /// z3's incremental core gets this much of a query's work before the
    /// query goes to the bit-blasting tactic (`fall_back_after`).
    fallback: Option<Duration>,
}

impl fmt::Debug for Solver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solver")
            .field("kind", &self.config.kind)
            .field("running", &self.process.is_some())
            .field("depth", &self.depth())
            .field("starts", &self.starts)
            .finish()
    }
}

impl Solver {
    /// Starts the solver. Fails if it cannot be started, the log cannot be
    /// created, or the solver rejects the initial options.
    pub fn spawn(config: SolverConfig) -> Result<Solver> {
        let log = match &config.log_path {
            Some(path) => Some(BufWriter::new(File::create(path)?)),
            None => None,
        };
        let mut solver = Solver {
            config,
            process: None,
            frames: vec![Frame::default()],
            funs: HashMap::new(),
            sorts: HashSet::new(),
            options: Vec::new(),
            log,
            starts: 0,
            fallback: None,
        };
        let header = format!(
            "; lockstep-smt session log: {} {}",
            solver.config.program().display(),
            solver
                .config
                .kind
                .args(solver.config.timeout_ms(), solver.config.memory_limit, solver.config.cvc5_work())
                .join(" ")
        );
        solver.log_line(&header)?;
        solver.start()?;
        Ok(solver)
    }

    /// The configuration.
    pub fn config(&self) -> &SolverConfig {
        &self.config
    }

    /// Whether a solver process is running now (it is not after a kill,
    /// until the next command restarts it).
    pub fn is_running(&self) -> bool {
        self.process.is_some()
    }

    /// How many processes were started, including the first.
    pub fn starts(&self) -> u32 {
        self.starts
    }

    /// The number of open scopes (pushes not yet popped).
    pub fn depth(&self) -> usize {
        self.frames.len() - 1
    }

    /// Kills the process if it runs and starts a new one with every open
    /// scope replayed.
    pub fn restart(&mut self) -> Result<()> {
        self.kill("restart requested");
        self.start()
    }

    /// Sets a solver option, e.g. `set_option(":random-seed", "7")`; it is
    /// set again after every restart.
    pub fn set_option(&mut self, keyword: &str, value: &str) -> Result<()> {
        let command = format!("(set-option {keyword} {value})");
        self.ensure_running()?;
        self.run_registered(vec![(command.clone(), Registration::Nothing)])?;
        // Options are global, not scoped; keep them out of the frames.
        self.frames.last_mut().expect("base frame").commands.pop();
        self.options.push(command);
        Ok(())
    }

    /// Lets z3 answer a query with its non-incremental solver (its
    /// `default` tactic: simplify, then bit-blast to SAT) when its
    /// incremental core has not answered within the work it does in
    /// `after` (see [`SolverConfig::work_per_ms`]). The incremental core is
    /// slow on many bit-vector queries with uninterpreted functions, and
    /// without this z3 never leaves it once a scope has been pushed: a query
    /// the fallback answers in milliseconds can run into the query timeout.
    ///
    /// This is what z3's own `combined_solver.solver2_timeout` does, except
    /// that the switch happens after an amount of work rather than of time:
    /// with a timer, which of the two solvers answered (and so the model a
    /// witness is read from) depended on the machine's load. Without a
    /// work limit (`work_per_ms` is `None`) the switch is z3's timer again.
    /// Plain `check-sat` only (z3 uses its incremental core for
    /// `check-sat-assuming`). No-op for cvc5.
    ///
    /// `Duration::ZERO` (with a work limit) sends every plain check to the
    /// tactic at once, without the incremental core ever running in the
    /// process: a query that the core did not answer elsewhere costs the
    /// tactic far less in a process whose core never ran (2.3M units of
    /// work instead of 9.4M on a 2-D race check of
    /// `bench/items59/rowcol_rows.cu`, 7.3M instead of 15.4M on
    /// `layernorm.cu`'s).
    pub fn fall_back_after(&mut self, after: Duration) -> Result<()> {
        if self.config.kind != SolverKind::Z3 {
            return Ok(());
        }
        if self.config.work_per_ms.is_none() {
            return self.set_option(":combined_solver.solver2_timeout", &after.as_millis().max(1).to_string());
        }
        self.fallback = Some(after);
        Ok(())
    }

    /// Writes a comment line to the log (if any).
    pub fn log_comment(&mut self, text: &str) -> Result<()> {
        for line in text.lines() {
            self.log_line(&format!("; {line}"))?;
        }
        Ok(())
    }

    /// Declares the free symbols of `terms` that the solver does not know
    /// yet, in the current scope. `assert`, `get_value` and
    /// `check_sat_assuming` do this themselves; calling it directly makes
    /// unconstrained constants part of [`Solver::get_model`].
    pub fn declare(&mut self, store: &TermStore, terms: &[TermId]) -> Result<()> {
        self.ensure_running()?;
        let items = self.pending_declarations(store, terms)?;
        self.run_registered(items)
    }

    /// Asserts the Boolean term `t` in the current scope, declaring its free
    /// symbols first.
    pub fn assert(&mut self, store: &TermStore, t: TermId) -> Result<()> {
        check_bool(store, t, "assert")?;
        self.ensure_running()?;
        let mut items = self.pending_declarations(store, &[t])?;
        items.push((
            format!("(assert {})", term_to_string(store, t)),
            Registration::Nothing,
        ));
        self.run_registered(items)
    }

    /// Asserts each Boolean term of `terms` in the current scope, declaring
    /// their free symbols first: what `assert` does for each, sent to the
    /// solver as one batch (one write, then the answers), so that a slice
    /// of hundreds of assertions costs one round trip to the process
    /// rather than one each.
    pub fn assert_all(&mut self, store: &TermStore, terms: &[TermId]) -> Result<()> {
        for &t in terms {
            check_bool(store, t, "assert")?;
        }
        if terms.is_empty() {
            return Ok(());
        }
        self.ensure_running()?;
        let mut items = self.pending_declarations(store, terms)?;
        for &t in terms {
            items.push((format!("(assert {})", term_to_string(store, t)), Registration::Nothing));
        }
        self.run_registered(items)
    }

    /// Opens a scope.
    pub fn push(&mut self) -> Result<()> {
        self.ensure_running()?;
        let command = "(push 1)".to_string();
        let result = self.run_batch(std::slice::from_ref(&command))?;
        result.into_iter().next().expect("one answer")?;
        self.frames.push(Frame::default());
        Ok(())
    }

    /// Closes the innermost scope.
    pub fn pop(&mut self) -> Result<()> {
        self.pop_n(1)
    }

    /// Closes the `n` innermost scopes, forgetting their assertions and
    /// declarations. If no process runs (after a kill), only the bookkeeping
    /// changes; the next command starts a process with the remaining scopes.
    pub fn pop_n(&mut self, n: usize) -> Result<()> {
        if n > self.depth() {
            return Err(Error::InvalidPop {
                requested: n,
                depth: self.depth(),
            });
        }
        if n == 0 {
            return Ok(());
        }
        let mut outcome = Ok(());
        if self.process.is_some() {
            let command = format!("(pop {n})");
            match self.run_batch(std::slice::from_ref(&command)) {
                Ok(results) => results.into_iter().next().expect("one answer")?,
                // The process died; the scopes are gone with it, so the
                // bookkeeping below is still right, but the death is reported.
                Err(e) => outcome = Err(e),
            }
        }
        let keep = self.frames.len() - n;
        for frame in self.frames.drain(keep..) {
            for name in frame.funs {
                self.funs.remove(&name);
            }
            for name in frame.sorts {
                self.sorts.remove(&name);
            }
        }
        outcome
    }

    /// Checks the satisfiability of the assertions in scope.
    pub fn check_sat(&mut self) -> Result<SatResult> {
        self.ensure_running()?;
        self.check_limited(self.config.timeout_per_query)
    }

    /// `check_sat` under a limit shorter than the session's, for a question
    /// whose answer is only worth a little time. z3 takes the limit for
    /// this one query (its `:timeout` is set and restored around it, outside
    /// the replayed options, so a restart keeps the session's); cvc5 fixes
    /// its limit when it starts, so it gets the session's.
    pub fn check_sat_within(&mut self, limit: Duration) -> Result<SatResult> {
        if self.config.kind != SolverKind::Z3 {
            return self.check_sat();
        }
        self.ensure_running()?;
        let short = limit.min(self.config.timeout_per_query);
        self.run_unrecorded(&format!("(set-option :timeout {})", self.config.timer_for(short).as_millis().max(1)))?;
        let answer = self.check_limited(short);
        if self.process.is_some() {
            self.run_unrecorded(&format!("(set-option :timeout {})", self.config.timer_for(self.config.timeout_per_query).as_millis().max(1)))?;
        }
        answer
    }

    /// A plain `check-sat` limited to `limit` of time and, for z3 with a
    /// work limit, to the work it does in that time; with a fallback
    /// (`fall_back_after`), the incremental core first gets its share of
    /// the work, then the `default` tactic gets the query and the whole
    /// work limit. Both steps are deterministic: the same commands get the
    /// same answers and models on every run, however loaded the machine.
    fn check_limited(&mut self, limit: Duration) -> Result<SatResult> {
        let total = if self.config.kind == SolverKind::Z3 { self.config.work_for(limit) } else { None };
        let Some(total) = total else {
            return self.check("(check-sat)".to_string(), None);
        };
        // The safety nets behind the work limit: the process's CPU time in
        // the query (both steps below together), and z3's wall-clock
        // timer (set by the caller) behind it.
        let timer = self.config.timer_for(limit);
        let cpu_stop = self.config.cpu_timer_for(limit).and_then(|cpu| Some(self.process_cpu_time()? + cpu));
        if self.fallback == Some(Duration::ZERO) {
            return self.check_with_work("(check-sat-using default)", total, timer, cpu_stop);
        }
        let first = self.fallback.and_then(|after| self.config.work_for(after)).filter(|&first| first < total);
        let Some(first) = first else {
            return self.check_with_work("(check-sat)", total, timer, cpu_stop);
        };
        let started = Instant::now();
        match self.check_with_work("(check-sat)", first, timer, cpu_stop)? {
            SatResult::Unknown(reason) if reason == WORK_LIMIT => {}
            answer => return Ok(answer),
        }
        // The two steps together keep to the query's timer, as z3's
        // combined solver did: the tactic's timer gets what the first step
        // left (its work limit stays the whole query's, so that its answer
        // does not depend on how long the first step took).
        let left = timer.saturating_sub(started.elapsed());
        if left < Duration::from_millis(1) {
            return Ok(SatResult::Unknown("timeout".to_string()));
        }
        self.run_unrecorded(&format!("(set-option :timeout {})", left.as_millis().max(1)))?;
        let answer = self.check_with_work("(check-sat-using default)", total, left, cpu_stop);
        if self.process.is_some() {
            self.run_unrecorded(&format!("(set-option :timeout {})", timer.as_millis().max(1)))?;
        }
        answer
    }

    /// Runs the check `command` under z3's work limit `work`, its timer
    /// being `timer` (the session's or `check_sat_within`'s). z3 4.8 gives
    /// the same reason (`canceled`) for both, so the time tells them apart:
    /// an answer that came back before `timer` had passed since the command
    /// was sent cannot be the timer's (z3 starts it after the command
    /// arrives), and is the work limit's.
    ///
    /// The limit is set for the check alone and lifted right after it: z3
    /// 4.8.12 applies a `:rlimit` left set to the commands between checks
    /// too (`push`, `assert`, `pop`), and some of them leave it behind, so
    /// that after a few queries every check of the session was `canceled`
    /// at once, whatever its own limit.
    fn check_with_work(&mut self, command: &str, work: u64, timer: Duration, cpu_stop: Option<Duration>) -> Result<SatResult> {
        self.run_unrecorded(&format!("(set-option :rlimit {work})"))?;
        let sent = Instant::now();
        let answer = self.check(command.to_string(), cpu_stop);
        if self.process.is_some() {
            self.run_unrecorded("(set-option :rlimit 0)")?;
        }
        Ok(match answer? {
            SatResult::Unknown(reason) if reason == "timeout" && self.process.is_some() && sent.elapsed() < timer => {
                SatResult::Unknown(WORK_LIMIT.to_string())
            }
            answer => answer,
        })
    }

    /// The work z3 has done since its process started: its `rlimit` count
    /// (`(get-info :rlimit)`), which depends only on the commands it got,
    /// never on the machine's speed or load. `None` for cvc5 and when no
    /// process runs; the count starts again from zero in a restarted
    /// process.
    pub fn work_done(&mut self) -> Result<Option<u64>> {
        if self.config.kind != SolverKind::Z3 || self.process.is_none() {
            return Ok(None);
        }
        let command = "(get-info :rlimit)";
        self.send(command, true)?;
        let answer = self.answer(command)?;
        Ok(match answer.as_list() {
            Some([key, SExpr::Atom(n)]) if key.is_atom(":rlimit") => n.parse().ok(),
            _ => None,
        })
    }

    /// Runs a command that a restart must not replay.
    fn run_unrecorded(&mut self, command: &str) -> Result<()> {
        self.run_batch(&[command.to_string()])?.into_iter().next().unwrap_or(Ok(()))
    }

    /// Checks satisfiability under additional Boolean assumptions, which
    /// SMT-LIB restricts to Boolean constants and their negations.
    pub fn check_sat_assuming(
        &mut self,
        store: &TermStore,
        assumptions: &[TermId],
    ) -> Result<SatResult> {
        for &a in assumptions {
            check_bool(store, a, "check-sat-assuming")?;
        }
        self.ensure_running()?;
        let items = self.pending_declarations(store, assumptions)?;
        self.run_registered(items)?;
        let lits: Vec<String> = assumptions
            .iter()
            .map(|&a| term_to_string(store, a))
            .collect();
        self.check(format!("(check-sat-assuming ({}))", lits.join(" ")), None)
    }

    /// The values of `terms` in the model of the last satisfiable check.
    /// Bit-vectors and Booleans are parsed; other values are returned as
    /// S-expressions. Fails (with the solver's error) if there is no model.
    pub fn get_value(&mut self, store: &TermStore, terms: &[TermId]) -> Result<Vec<Value>> {
        if terms.is_empty() {
            return Ok(Vec::new());
        }
        self.ensure_running()?;
        let items = self.pending_declarations(store, terms)?;
        self.run_registered(items)?;
        let texts: Vec<String> = terms.iter().map(|&t| term_to_string(store, t)).collect();
        self.get_values(&texts)
    }

    /// The values of all constants declared in the open scopes, in the
    /// model of the last satisfiable check. Uninterpreted functions are not
    /// included.
    pub fn get_model(&mut self) -> Result<Model> {
        let mut names: Vec<String> = self
            .funs
            .iter()
            .filter(|(_, d)| d.is_const)
            .map(|(name, _)| name.clone())
            .collect();
        names.sort();
        if names.is_empty() {
            return Ok(Model::default());
        }
        self.ensure_running()?;
        let texts: Vec<String> = names.iter().map(|n| quote_symbol(n).into_owned()).collect();
        let values = self.get_values(&texts)?;
        Ok(Model {
            values: names.into_iter().zip(values).collect(),
        })
    }

    // ----- internals --------------------------------------------------------

    fn get_values(&mut self, texts: &[String]) -> Result<Vec<Value>> {
        let command = format!("(get-value ({}))", texts.join(" "));
        self.send(&command, true)?;
        let answer = self.answer(&command)?;
        if let Some(message) = answer.as_error() {
            return Err(Error::Solver {
                command: shorten(&command),
                message,
            });
        }
        let unexpected = |answer: &SExpr| Error::UnexpectedResponse {
            command: shorten(&command),
            response: answer.to_string(),
        };
        let pairs = answer
            .as_list()
            .filter(|p| p.len() == texts.len())
            .ok_or_else(|| unexpected(&answer))?;
        pairs
            .iter()
            .map(|pair| match pair.as_list() {
                Some([_, value]) => Ok(Value::from_sexpr(value)),
                _ => Err(unexpected(&answer)),
            })
            .collect()
    }

    fn watchdog_limit(&self) -> Duration {
        self.config.timer_for(self.config.timeout_per_query) + self.config.watchdog_margin
    }

    fn ensure_running(&mut self) -> Result<()> {
        if self.process.is_none() {
            self.start()?;
        }
        Ok(())
    }

    /// Starts a process and replays options and open scopes into it.
    fn start(&mut self) -> Result<()> {
        debug_assert!(self.process.is_none());
        if self.starts > 0 {
            // In the log, a restart is a reset followed by the same replay.
            self.log_line("; solver restarted: reset and replay of the open scopes")?;
            self.log_line("(reset)")?;
        }
        self.process = Some(Process::start(&self.config)?);
        self.starts += 1;
        // Print-success is driver plumbing; the log replays fine without it.
        self.send("(set-option :print-success true)", false)?;
        let answer = self.answer("(set-option :print-success true)")?;
        expect_success("(set-option :print-success true)", &answer)?;
        let mut commands = vec!["(set-option :produce-models true)".to_string()];
        match self.config.kind {
            SolverKind::Z3 => commands.push(format!(
                "(set-option :timeout {})",
                self.config.timer_for(self.config.timeout_per_query).as_millis().max(1)
            )),
            // cvc5 takes its time limit on the command line and warns
            // without a logic.
            SolverKind::Cvc5 => commands.push("(set-logic ALL)".to_string()),
        }
        commands.extend(self.options.iter().cloned());
        for (i, frame) in self.frames.iter().enumerate() {
            if i > 0 {
                commands.push("(push 1)".to_string());
            }
            commands.extend(frame.commands.iter().cloned());
        }
        let results = self.run_batch(&commands)?;
        if let Some(Err(e)) = results.into_iter().find(|r| r.is_err()) {
            self.kill("a replayed command failed");
            return Err(e);
        }
        Ok(())
    }

    /// Kills the process, if any, noting `why` in the log.
    fn kill(&mut self, why: &str) {
        if let Some(process) = self.process.take() {
            // Dropping the process kills it, waits for it and unregisters it.
            drop(process);
            // The log is best effort here: the kill itself must happen
            // whatever the log does, and callers report the cause.
            let _ = self.log_line(&format!("; solver killed: {why}"));
        }
    }

    /// The error for a process that exited while `command` was pending.
    fn exited(&mut self, command: &str) -> Error {
        let Some(mut process) = self.process.take() else {
            return Error::Exited {
                command: shorten(command),
                status: None,
                stderr: String::new(),
            };
        };
        let status = process.finish(Duration::from_secs(1));
        let stderr = process.stderr_text();
        let _ = self.log_line(&format!("; solver exited (status {status:?})"));
        Error::Exited {
            command: shorten(command),
            status,
            stderr,
        }
    }

    fn log_line(&mut self, line: &str) -> Result<()> {
        if let Some(log) = &mut self.log {
            writeln!(log, "{line}")?;
            log.flush()?;
        }
        Ok(())
    }

    /// Sends one command (and logs it if `log`).
    fn send(&mut self, command: &str, log: bool) -> Result<()> {
        if log {
            self.log_line(command)?;
        }
        self.write_text(&format!("{command}\n"), command)
    }

    /// Sends `commands` (and logs them) with one write to the process: a
    /// write per command made the batches of a slice's hundreds of
    /// declarations and assertions cost as many system calls.
    fn send_all(&mut self, commands: &[String]) -> Result<()> {
        let Some(first) = commands.first() else { return Ok(()) };
        let mut text = String::with_capacity(commands.iter().map(|c| c.len() + 1).sum());
        for command in commands {
            self.log_line(command)?;
            text.push_str(command);
            text.push('\n');
        }
        self.write_text(&text, first)
    }

    /// Writes `text` to the process's input; `command` names it in an
    /// error.
    fn write_text(&mut self, text: &str, command: &str) -> Result<()> {
        let process = self.process.as_mut().expect("send needs a running process");
        let stdin = process.stdin.as_mut().expect("stdin open while running");
        let written = stdin.write_all(text.as_bytes()).and_then(|()| stdin.flush());
        match written {
            Ok(()) => Ok(()),
            // A closed pipe means the solver is gone; report it as such.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(self.exited(command)),
            Err(e) => {
                self.kill("writing to the solver failed");
                Err(Error::Io(e))
            }
        }
    }

    /// Waits until `deadline` for the next answer.
    fn recv(&mut self, deadline: Instant) -> Result<Reply> {
        let process = self.process.as_mut().expect("recv needs a running process");
        loop {
            match parse_prefix(&process.pending) {
                Ok(Some((answer, used))) => {
                    process.pending.drain(..used);
                    // `success` carries no information; every other answer
                    // (results, values, errors) goes to the log.
                    let logged = if answer.is_atom("success") {
                        Ok(())
                    } else {
                        self.log_line(&format!("; -> {answer}"))
                    };
                    if let Err(e) = logged {
                        self.kill("writing the log failed");
                        return Err(e);
                    }
                    return Ok(Reply::Answer(answer));
                }
                Ok(None) => {}
                Err(e) => {
                    self.kill("malformed output");
                    return Err(Error::Parse(e));
                }
            }
            let Some(left) = deadline.checked_duration_since(Instant::now()) else {
                return Ok(Reply::TimedOut);
            };
            match process.stdout.recv_timeout(left) {
                Ok(bytes) => process.pending.extend_from_slice(&bytes),
                Err(RecvTimeoutError::Timeout) => return Ok(Reply::TimedOut),
                Err(RecvTimeoutError::Disconnected) => return Ok(Reply::Closed),
            }
        }
    }

    /// The next answer to `command`, within the watchdog limit; a missing
    /// answer kills the process and is an error.
    fn answer(&mut self, command: &str) -> Result<SExpr> {
        let deadline = Instant::now() + self.watchdog_limit();
        match self.recv(deadline)? {
            Reply::Answer(answer) => Ok(answer),
            Reply::TimedOut => {
                self.kill("no answer within the watchdog limit");
                Err(Error::Timeout {
                    command: shorten(command),
                })
            }
            Reply::Closed => Err(self.exited(command)),
        }
    }

    /// Sends `commands` that answer `success`, then reads one answer each.
    /// The outer error means the process failed (and is gone); the inner
    /// results are the commands' own outcomes.
    fn run_batch(&mut self, commands: &[String]) -> Result<Vec<Result<()>>> {
        let mut results: Vec<Result<()>> = Vec::with_capacity(commands.len());
        let outcome = (|| {
            self.send_all(commands)?;
            for command in commands {
                let answer = self.answer(command)?;
                results.push(expect_success(command, &answer));
            }
            Ok(())
        })();
        match outcome {
            Ok(()) => Ok(results),
            Err(e) => {
                // A solver that reported an error and then exited (cvc5 does
                // this) is better explained by the error than by the exit.
                self.kill("the batch failed");
                Err(results.into_iter().find_map(|r| r.err()).unwrap_or(e))
            }
        }
    }

    /// Runs a batch and records each command that succeeded in the current
    /// scope; returns the first command error.
    fn run_registered(&mut self, items: Vec<(String, Registration)>) -> Result<()> {
        let commands: Vec<String> = items.iter().map(|(c, _)| c.clone()).collect();
        let results = self.run_batch(&commands)?;
        let mut first_error = None;
        for ((command, registration), result) in items.into_iter().zip(results) {
            match result {
                Ok(()) => self.register(command, registration),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        first_error.map_or(Ok(()), Err)
    }

    fn register(&mut self, command: String, registration: Registration) {
        let frame = self.frames.last_mut().expect("base frame");
        match registration {
            Registration::Nothing => {}
            Registration::Sort(name) => {
                frame.sorts.push(name.clone());
                self.sorts.insert(name);
            }
            Registration::Fun { name, is_const } => {
                frame.funs.push(name.clone());
                self.funs.insert(
                    name,
                    DeclaredFun {
                        command: command.clone(),
                        is_const,
                    },
                );
            }
        }
        frame.commands.push(command);
    }

    /// The declarations that `roots` need and the solver does not have yet.
    fn pending_declarations(
        &self,
        store: &TermStore,
        roots: &[TermId],
    ) -> Result<Vec<(String, Registration)>> {
        let free = store.free_symbols(roots);
        let mut items = Vec::new();
        for name in free.sorts {
            if !self.sorts.contains(&name) {
                items.push((declare_sort_command(&name), Registration::Sort(name)));
            }
        }
        for f in free.funs {
            let command = declare_fun_command(store, f);
            let decl = store.fun(f);
            match self.funs.get(&decl.name) {
                Some(known) if known.command == command => {}
                Some(known) => {
                    return Err(Error::DeclarationConflict {
                        name: decl.name.clone(),
                        existing: known.command.clone(),
                        new: command,
                    })
                }
                None => items.push((
                    command,
                    Registration::Fun {
                        name: decl.name.clone(),
                        is_const: decl.args.is_empty(),
                    },
                )),
            }
        }
        Ok(items)
    }

    /// The CPU time the running solver process has used since it started
    /// (`None` when no process runs or `/proc` cannot tell).
    fn process_cpu_time(&self) -> Option<Duration> {
        crate::cpu::process_cpu_time(self.process.as_ref()?.child.id())
    }

    /// Runs a `check-sat` style command. With `cpu_stop`, the process is
    /// killed, and the answer is a timeout, once its CPU time (since it
    /// started) passes `cpu_stop`; the watchdog's wall-clock limit applies
    /// in any case.
    fn check(&mut self, command: String, cpu_stop: Option<Duration>) -> Result<SatResult> {
        self.send(&command, true)?;
        let deadline = Instant::now() + self.watchdog_limit();
        let answer = loop {
            // Without a CPU timer, the wait is one wait until the deadline;
            // with one, it is cut into polls of the process's CPU time.
            let polled = cpu_stop.is_some() || self.config.stop.is_some();
            let wait_until = if polled { deadline.min(Instant::now() + CPU_POLL) } else { deadline };
            match self.recv(wait_until)? {
                Reply::Answer(answer) => break answer,
                Reply::TimedOut if Instant::now() < deadline => {
                    if self.config.stop.as_ref().is_some_and(|stop| stop.load(std::sync::atomic::Ordering::Relaxed)) {
                        self.kill("the caller stopped the check");
                        return Ok(SatResult::Unknown("stopped".to_string()));
                    }
                    let used = self.process_cpu_time();
                    if let (Some(stop), Some(used)) = (cpu_stop, used) {
                        if used > stop {
                            self.kill(&format!("no answer to check-sat within its CPU time ({used:?} of the process's CPU time, the limit {stop:?})"));
                            return Ok(SatResult::Unknown("timeout".to_string()));
                        }
                    }
                }
                Reply::TimedOut => {
                    let limit = self.watchdog_limit();
                    self.kill(&format!(
                        "no answer to check-sat within {limit:?} (watchdog)"
                    ));
                    return Ok(SatResult::Unknown("timeout".to_string()));
                }
                Reply::Closed => return Err(self.exited(&command)),
            }
        };
        match answer.as_atom() {
            Some("sat") => Ok(SatResult::Sat),
            Some("unsat") => Ok(SatResult::Unsat),
            Some("unknown") => Ok(SatResult::Unknown(self.reason_unknown()?)),
            _ => match answer.as_error() {
                Some(message) => Err(Error::Solver {
                    command: shorten(&command),
                    message,
                }),
                None => Err(Error::UnexpectedResponse {
                    command: shorten(&command),
                    response: answer.to_string(),
                }),
            },
        }
    }

    /// Asks why the last check was `unknown`; both "timeout" and z3's
    /// "canceled" (its timer fired) are reported as "timeout".
    fn reason_unknown(&mut self) -> Result<String> {
        let command = "(get-info :reason-unknown)";
        self.send(command, true)?;
        let answer = self.answer(command)?;
        if let Some(message) = answer.as_error() {
            return Err(Error::Solver {
                command: command.into(),
                message,
            });
        }
        let reason = match answer.as_list() {
            Some([key, SExpr::Str(r) | SExpr::Atom(r)]) if key.is_atom(":reason-unknown") => {
                r.clone()
            }
            Some([key, other]) if key.is_atom(":reason-unknown") => other.to_string(),
            _ => {
                return Err(Error::UnexpectedResponse {
                    command: command.into(),
                    response: answer.to_string(),
                })
            }
        };
        let lower = reason.to_ascii_lowercase();
        Ok(if lower.contains("timeout") || lower == "canceled" {
            "timeout".to_string()
        } else if lower == "resourceout" {
            // cvc5's `--rlimit-per` ran out: deterministic, like z3's.
            WORK_LIMIT.to_string()
        } else if reason.is_empty() {
            "unknown".to_string()
        } else {
            reason
        })
    }
}

impl Drop for Solver {
    fn drop(&mut self) {
        if self.process.is_some() {
            // Ask politely, then make sure: `Process::drop` kills whatever is left.
            if self.send("(exit)", true).is_ok() {
                if let Some(process) = self.process.as_mut() {
                    process.finish(Duration::from_millis(200));
                }
            }
        }
        self.process = None;
    }
}

fn check_bool(store: &TermStore, t: TermId, what: &str) -> Result<()> {
    if store.sort_of(t) != &Sort::Bool {
        return Err(Error::Sort(SortError {
            op: what.into(),
            message: format!("term has sort {}, expected Bool", store.sort_of(t)),
        }));
    }
    Ok(())
}

fn expect_success(command: &str, answer: &SExpr) -> Result<()> {
    if answer.is_atom("success") {
        Ok(())
    } else if let Some(message) = answer.as_error() {
        Err(Error::Solver {
            command: shorten(command),
            message,
        })
    } else if answer.is_atom("unsupported") {
        Err(Error::Unsupported {
            command: shorten(command),
        })
    } else {
        Err(Error::UnexpectedResponse {
            command: shorten(command),
            response: answer.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// z3's timer is the safety net behind its work limit: longer than the
    /// query's limit by the factor, unless the work is not limited, the
    /// solver is cvc5 (whose limits are fixed on its command line), or the
    /// caller keeps a deadline (factor 1).
    #[test]
    fn the_timer_outlasts_the_work_limit_only_when_work_is_limited() {
        let limit = Duration::from_millis(2_000);
        let z3 = SolverConfig::new(SolverKind::Z3, Duration::from_secs(10));
        assert_eq!(z3.cpu_timer_for(limit), Some(limit * TIMER_FACTOR));
        assert_eq!(z3.timer_for(limit), limit * TIMER_FACTOR * WALL_BACKSTOP);
        assert_eq!(z3.work_for(limit), Some(2_000 * Z3_WORK_PER_MS));
        let strict = SolverConfig { timer_factor: 1, ..z3.clone() };
        assert_eq!(strict.timer_for(limit), limit);
        assert_eq!(strict.cpu_timer_for(limit), None);
        let unlimited = SolverConfig { work_per_ms: None, ..z3.clone() };
        assert_eq!(unlimited.timer_for(limit), limit);
        assert_eq!(unlimited.cpu_timer_for(limit), None);
        let cvc5 = SolverConfig::new(SolverKind::Cvc5, Duration::from_secs(10));
        assert_eq!(cvc5.timer_for(limit), limit);
        assert_eq!(cvc5.cpu_timer_for(limit), None);
    }
}
