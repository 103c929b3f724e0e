//! Launch sizes for a kernel checked alone, from the file's own launch
//! sites (see `lockstep_frontend::launch_sites`).
//!
//! With no sizing flags, a kernel is checked for every launch; but most
//! kernels are written for the block shape their launch sites use (a
//! shared tile of `[BLOCK_Y][BLOCK_X]` indexed by `threadIdx`), and at other
//! shapes they "race" or overflow in ways no launch of the program shows.
//! When every launch of a kernel goes through this file's `<<<...>>>` sites,
//! each grid or block dimension (and the dynamic shared size) that all the
//! sites give as the same constant is fixed to it; the rest stay symbolic.
//! The report states this as an assumption: a launch from another file
//! with other sizes is not covered.

use lockstep_frontend::{LaunchSite, LaunchSites};
use lockstep_kir::{BuiltinVar, Function};

/// What the sites fixed, for the report.
pub struct FromSites {
    /// A note for the file's report.
    pub note: String,
    /// The assumption the kernel's verdict rests on.
    pub assumption: String,
}

/// The value all sites agree on for one dimension, if any.
fn common<T: Copy + PartialEq>(
    sites: &[LaunchSite],
    get: impl Fn(&LaunchSite) -> Option<T>,
) -> Option<T> {
    let first = get(sites.first()?)?;
    sites.iter().all(|s| get(s) == Some(first)).then_some(first)
}

/// Whether CUDA can launch these sizes at all (a site that cannot launch
/// fixes nothing: the engines check only launchable sizes).
fn launchable(block: [Option<u32>; 3], grid: [Option<u32>; 3]) -> bool {
    let launch = lockstep_replay::Launch {
        group_size: block.map(|d| d.unwrap_or(1)),
        num_groups: grid.map(|d| d.unwrap_or(1)),
        global_offset: [0; 3],
    };
    launch.cuda_launchable()
}

fn shape(dims: [Option<u32>; 3]) -> String {
    let parts: Vec<String> = dims
        .iter()
        .map(|d| d.map_or_else(|| "?".to_string(), |v| v.to_string()))
        .collect();
    format!("({})", parts.join(", "))
}

/// Fixes in `config` the sizes every launch site of `kernel` agrees on.
pub fn apply(
    config: &mut lockstep_engine::CheckConfig,
    kernel: &Function,
    sites: &LaunchSites,
) -> Option<FromSites> {
    let sites = sites.only_sites_of(&kernel.link_name)?;
    let block = [0, 1, 2].map(|d| common(sites, |s| s.block[d]));
    let grid = [0, 1, 2].map(|d| common(sites, |s| s.grid[d]));
    if !launchable(block, grid)
        || (block.iter().all(Option::is_none) && grid.iter().all(Option::is_none))
    {
        return None;
    }
    for d in 0..3 {
        if let Some(v) = block[d] {
            config.group_size[d] = Some(u64::from(v));
        }
        if let Some(v) = grid[d] {
            config.num_groups[d] = Some(u64::from(v));
        }
    }
    if let Some(bytes) = common(sites, |s| s.shared_bytes) {
        config.dynamic_shared_bytes = Some(bytes);
    }
    let lines: Vec<String> = sites.iter().map(|s| s.line.to_string()).collect();
    let any = if grid.iter().chain(&block).any(Option::is_none) {
        " (? = any size)"
    } else {
        ""
    };
    let what = format!("grid {} and block {}{any}", shape(grid), shape(block));
    let at = format!(
        "line{} {}",
        if lines.len() == 1 { "" } else { "s" },
        lines.join(", ")
    );
    Some(FromSites {
        note: format!(
            "`{}` is checked as this file launches it ({at}): {what}; give --blockDim and --gridDim to check other launches",
            kernel.name
        ),
        assumption: format!("`{}` is launched only by this file's launch sites ({at}), with {what}", kernel.name),
    })
}

/// The kernel with the precondition its launch sites establish on its
/// arguments and on the sizes `config` leaves symbolic (see
/// `lockstep_frontend::launch_preconditions`), and what it says. `dims` is
/// the number of dimensions the kernel reads: the sizes of the others are
/// not constrained. Nothing when the user fixed arguments (their values
/// rule, and a precondition contradicting them would make every check
/// vacuous) or when some site establishes nothing.
pub fn preconditions(
    kernel: &Function,
    config: &mut lockstep_engine::CheckConfig,
    dims: u8,
    sites: &LaunchSites,
) -> Option<(Function, FromSites)> {
    let sites = sites.only_sites_of(&kernel.link_name)?;
    if config.scalar_args.iter().any(Option::is_some) {
        return None;
    }
    let usable = |var: BuiltinVar, d: u8| {
        let fixed = match var {
            BuiltinVar::LocalSize => config.group_size[usize::from(d)],
            _ => config.num_groups[usize::from(d)],
        };
        d < dims && fixed.is_none()
    };
    let mut patched = kernel.clone();
    let facts = lockstep_frontend::launch_preconditions::add_launch_preconditions(
        &mut patched,
        sites,
        &usable,
    )?;
    // The bounded search must reach the block sizes the sites launch
    // (its symbolic sizes are otherwise small).
    let largest = sites.iter().flat_map(|s| s.block_exprs.iter().flatten()).filter_map(|e| e.as_const()).filter(|&c| c <= 1024).max();
    if let Some(c) = largest {
        config.largest_searched_size = Some(c as u64);
    }
    let listed = facts.join("; ");
    Some((
        patched,
        FromSites {
            note: format!("`{}` is checked for the arguments its launch sites pass ({listed})", kernel.name),
            assumption: format!("`{}` is launched only by this file's launch sites, with arguments as they pass them ({listed})", kernel.name),
        },
    ))
}
