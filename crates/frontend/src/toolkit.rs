//! Finding a CUDA toolkit's headers.
//!
//! Real CUDA code includes the toolkit's headers (`cuda_bf16.h`, cooperative
//! groups' `reduce.h`, CUB, libcu++...), which lockstep's own prelude does not
//! and should not imitate. A toolkit is found the way clang and nvcc users
//! expect: `--cuda-path=DIR`, then the `CUDA_PATH` and `CUDA_HOME`
//! environment variables, then `/usr/local/cuda`, then the default toolkit
//! that `scripts/install-cuda-headers.sh` (run by `scripts/setup.sh`) lays out
//! from NVIDIA's header wheels in lockstep's cache directory. Only headers are
//! needed: lockstep compiles device code to LLVM IR and never links or runs
//! it.

use std::path::{Path, PathBuf};

/// The CUDA version of the default toolkit, which clang is told it targets
/// (`-target-sdk-version`): with it clang uses the launch API of CUDA 9.2 and
/// later, which CUB's own launcher needs.
pub const DEFAULT_SDK_VERSION: &str = "12.4";

/// The name of the default toolkit's folder in lockstep's cache directory.
const DEFAULT_FOLDER: &str = "cuda-12.4";

/// A CUDA toolkit whose headers clang can compile against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Toolkit {
    /// The folder holding `include/` (what clang's `--cuda-path` takes).
    pub root: PathBuf,
    /// The CUDA version its headers declare, as `MAJOR.MINOR`.
    pub version: String,
    /// Where the toolkit came from, for notes: `--cuda-path`, `CUDA_PATH`...
    pub origin: &'static str,
}

/// lockstep's cache directory (`$XDG_CACHE_HOME/lockstep`, else
/// `$HOME/.cache/lockstep`, else the temporary directory's `lockstep`).
pub fn cache_dir() -> PathBuf {
    std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").filter(|v| !v.is_empty()).map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir)
        .join("lockstep")
}

/// Where `scripts/install-cuda-headers.sh` installs the default toolkit.
pub fn default_toolkit_dir() -> PathBuf {
    cache_dir().join(DEFAULT_FOLDER)
}

/// Finds a toolkit. `explicit` is the user's `--cuda-path`: when it is given
/// and holds no toolkit, that is an error (the user named it), not a reason
/// to look elsewhere.
pub fn find_toolkit(explicit: Option<&Path>) -> Result<Option<Toolkit>, String> {
    if let Some(dir) = explicit {
        return match toolkit_at(dir, "--cuda-path") {
            Some(t) => Ok(Some(t)),
            None => Err(format!(
                "--cuda-path={}: no CUDA toolkit there (expected {})",
                dir.display(),
                dir.join("include/cuda_runtime.h").display()
            )),
        };
    }
    for (var, origin) in [("CUDA_PATH", "CUDA_PATH"), ("CUDA_HOME", "CUDA_HOME")] {
        if let Some(dir) = std::env::var_os(var).filter(|v| !v.is_empty()) {
            if let Some(t) = toolkit_at(Path::new(&dir), origin) {
                return Ok(Some(t));
            }
        }
    }
    if let Some(t) = toolkit_at(Path::new("/usr/local/cuda"), "/usr/local/cuda") {
        return Ok(Some(t));
    }
    Ok(toolkit_at(&default_toolkit_dir(), "lockstep's default toolkit"))
}

/// The toolkit at `dir`, if `dir/include/cuda_runtime.h` exists.
fn toolkit_at(dir: &Path, origin: &'static str) -> Option<Toolkit> {
    let include = dir.join("include");
    if !include.join("cuda_runtime.h").is_file() {
        return None;
    }
    let version = std::fs::read_to_string(include.join("cuda.h"))
        .ok()
        .and_then(|text| cuda_version_of(&text))
        .unwrap_or_else(|| DEFAULT_SDK_VERSION.to_string());
    Some(Toolkit { root: dir.to_path_buf(), version, origin })
}

/// The `MAJOR.MINOR` version of `#define CUDA_VERSION 12040` in `cuda.h`.
fn cuda_version_of(cuda_h: &str) -> Option<String> {
    cuda_h.lines().find_map(|line| {
        let rest = line.trim().strip_prefix("#define")?.trim_start().strip_prefix("CUDA_VERSION")?;
        let number: u32 = rest.trim().parse().ok()?;
        Some(format!("{}.{}", number / 1000, (number % 1000) / 10))
    })
}

/// Headers of NVIDIA libraries that ship apart from the toolkit's core (and
/// so are not in lockstep's default toolkit), with what provides them.
pub fn library_of_header(header: &str) -> Option<&'static str> {
    let name = header.rsplit('/').next().unwrap_or(header);
    let table: &[(&str, &str)] = &[
        ("cublas", "cuBLAS (pip package nvidia-cublas-cu12)"),
        ("cublasLt", "cuBLAS (pip package nvidia-cublas-cu12)"),
        ("cufft", "cuFFT (pip package nvidia-cufft-cu12)"),
        ("cusparse", "cuSPARSE (pip package nvidia-cusparse-cu12)"),
        ("cusolver", "cuSOLVER (pip package nvidia-cusolver-cu12)"),
        ("cudnn", "cuDNN (pip package nvidia-cudnn-cu12)"),
        ("nvrtc", "NVRTC (pip package nvidia-cuda-nvrtc-cu12)"),
        ("npp", "NPP (pip package nvidia-npp-cu12)"),
        ("nvjpeg", "nvJPEG (pip package nvidia-nvjpeg-cu12)"),
        ("nvml", "NVML (pip package nvidia-ml-py, or the driver's development files)"),
        ("nccl", "NCCL (pip package nvidia-nccl-cu12)"),
        ("cupti", "CUPTI (pip package nvidia-cuda-cupti-cu12)"),
        ("nvtx", "NVTX (pip package nvidia-nvtx-cu12)"),
    ];
    table.iter().find(|(prefix, _)| name.starts_with(prefix)).map(|(_, what)| *what)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_version_from_cuda_h() {
        assert_eq!(cuda_version_of("/* x */\n#define CUDA_VERSION 12040\n").as_deref(), Some("12.4"));
        assert_eq!(cuda_version_of("#define CUDA_VERSION 11080").as_deref(), Some("11.8"));
        assert_eq!(cuda_version_of("#define CUDA_VERSION_MAJOR 12"), None);
    }

    #[test]
    fn an_explicit_path_without_a_toolkit_is_an_error() {
        let dir = std::env::temp_dir().join(format!("lockstep-no-toolkit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert!(find_toolkit(Some(&dir)).is_err());
        std::fs::create_dir_all(dir.join("include")).unwrap();
        std::fs::write(dir.join("include/cuda_runtime.h"), "").unwrap();
        std::fs::write(dir.join("include/cuda.h"), "#define CUDA_VERSION 12020\n").unwrap();
        let found = find_toolkit(Some(&dir)).unwrap().unwrap();
        assert_eq!(found.version, "12.2");
        assert_eq!(found.origin, "--cuda-path");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn library_headers_name_their_package() {
        assert!(library_of_header("cublas_v2.h").unwrap().contains("cuBLAS"));
        assert!(library_of_header("cufft.h").unwrap().contains("cuFFT"));
        assert_eq!(library_of_header("cuda_bf16.h"), None);
    }
}
