//! Errors of the solver driver.

use std::fmt;
use std::io;

use crate::sexp::ParseError;
use crate::term::SortError;

/// Anything that can go wrong talking to a solver. Every failure to obtain an
/// answer is an error (or, for `check-sat`,
/// [`SatResult::Unknown`](crate::SatResult::Unknown)); none is ever reported
/// as success.
#[derive(Debug)]
pub enum Error {
    /// The solver program could not be started (e.g. it is not installed).
    Spawn {
        /// The program that was run.
        program: String,
        /// Why it failed.
        source: io::Error,
    },
    /// Reading from or writing to the solver or the log failed.
    Io(io::Error),
    /// The solver answered `(error "...")`.
    Solver {
        /// The command (shortened) that failed.
        command: String,
        /// The solver's message.
        message: String,
    },
    /// The solver answered `unsupported`.
    Unsupported {
        /// The command (shortened) it does not support.
        command: String,
    },
    /// The solver process exited while a command was pending.
    Exited {
        /// The command (shortened) that was pending.
        command: String,
        /// The exit status, if known.
        status: Option<i32>,
        /// What the solver wrote on its standard error.
        stderr: String,
    },
    /// A command other than `check-sat` got no answer within the watchdog
    /// limit; the process was killed.
    Timeout {
        /// The command (shortened) that got no answer.
        command: String,
    },
    /// The solver's output is not a well-formed S-expression.
    Parse(ParseError),
    /// The solver answered something the protocol does not allow here.
    UnexpectedResponse {
        /// The command (shortened).
        command: String,
        /// The answer.
        response: String,
    },
    /// A term given to the solver is ill sorted for its use (e.g. asserting
    /// a bit-vector).
    Sort(SortError),
    /// A symbol was already declared to this solver with another signature
    /// (two term stores disagree about a name).
    DeclarationConflict {
        /// The symbol.
        name: String,
        /// The declaration sent earlier.
        existing: String,
        /// The declaration now needed.
        new: String,
    },
    /// `pop` of more scopes than were pushed.
    InvalidPop {
        /// Scopes requested.
        requested: usize,
        /// Scopes open.
        depth: usize,
    },
}

/// Shortens a command for error messages; asserted terms can be huge.
pub(crate) fn shorten(command: &str) -> String {
    const MAX: usize = 200;
    if command.len() <= MAX {
        return command.to_string();
    }
    let mut end = MAX;
    while !command.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}... ({} bytes)", &command[..end], command.len())
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Spawn { program, source } => {
                write!(f, "cannot start solver `{program}`: {source}")
            }
            Error::Io(e) => write!(f, "solver I/O error: {e}"),
            Error::Solver { command, message } => {
                write!(f, "solver error on `{command}`: {message}")
            }
            Error::Unsupported { command } => write!(f, "solver does not support `{command}`"),
            Error::Exited {
                command,
                status,
                stderr,
            } => {
                write!(f, "solver exited")?;
                if let Some(s) = status {
                    write!(f, " with status {s}")?;
                }
                write!(f, " while running `{command}`")?;
                if !stderr.trim().is_empty() {
                    write!(f, "; stderr: {}", stderr.trim())?;
                }
                // The address-space limit the solver runs under
                // (`SolverConfig::memory_limit`) ends it this way.
                if ["out of memory", "bad_alloc", "Cannot allocate memory"].iter().any(|m| stderr.contains(m)) {
                    write!(f, " (the solver ran out of the memory it may use; lockstep's --memory-limit raises it)")?;
                }
                Ok(())
            }
            Error::Timeout { command } => write!(
                f,
                "solver did not answer `{command}` within its time limit and was killed"
            ),
            Error::Parse(e) => write!(f, "cannot parse solver output: {e}"),
            Error::UnexpectedResponse { command, response } => {
                write!(f, "unexpected solver answer to `{command}`: {response}")
            }
            Error::Sort(e) => write!(f, "{e}"),
            Error::DeclarationConflict {
                name,
                existing,
                new,
            } => {
                write!(
                    f,
                    "symbol {name:?} was declared as `{existing}` and is now needed as `{new}`"
                )
            }
            Error::InvalidPop { requested, depth } => {
                write!(f, "cannot pop {requested} scope(s): only {depth} open")
            }
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Spawn { source, .. } | Error::Io(source) => Some(source),
            Error::Parse(e) => Some(e),
            Error::Sort(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Self {
        Error::Io(e)
    }
}

impl From<SortError> for Error {
    fn from(e: SortError) -> Self {
        Error::Sort(e)
    }
}

impl From<ParseError> for Error {
    fn from(e: ParseError) -> Self {
        Error::Parse(e)
    }
}

/// The driver's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    /// A query the watchdog killed depends on the machine's speed: its
    /// message says so in the words that the determinism test and the
    /// fuzzer's recheck look for ("time limit"), so that two reports that
    /// differ only by it are not taken for nondeterminism.
    #[test]
    fn a_killed_query_names_its_time_limit() {
        let e = Error::Timeout { command: "(check-sat)".into() };
        assert!(e.to_string().contains("time limit"), "{e}");
    }
}
