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
/// A new layout (another wheel added) gets a new folder, so that an install
/// in use by running checks is never rewritten under them.
const DEFAULT_FOLDER: &str = "cuda-12.4-v3";

/// The folders of earlier layouts of the default toolkit, newest first: used
/// while the current one is not installed, so that a machine set up before
/// keeps working (without what the newer layout added, NVTX's headers).
const EARLIER_FOLDERS: &[&str] = &["cuda-12.4"];

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

/// The default toolkit: the current layout, else an earlier one.
fn default_toolkit() -> Option<Toolkit> {
    let cache = cache_dir();
    std::iter::once(DEFAULT_FOLDER)
        .chain(EARLIER_FOLDERS.iter().copied())
        .find_map(|folder| toolkit_at(&cache.join(folder), "lockstep's default toolkit"))
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
    Ok(default_toolkit())
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
        ("nvToolsExt", "NVTX (pip package nvidia-nvtx-cu12)"),
    ];
    table.iter().find(|(prefix, _)| name.starts_with(prefix)).map(|(_, what)| *what)
}

/// Headers that no CUDA toolkit provides (graphics and windowing APIs,
/// OpenMP, MPI, the embedded platforms' libraries), with what does: a
/// missing one is the build's business, not a fault in the file, and the
/// user needs to know which folder to pass with `-I`. Matched on the path
/// as written in the `#include` (a folder prefix such as `GLFW/`, or a file
/// name prefix).
pub fn non_toolkit_header(header: &str) -> Option<&'static str> {
    let name = header.rsplit('/').next().unwrap_or(header);
    let folders: &[(&str, &str)] = &[
        ("GLFW/", "GLFW (Debian: libglfw3-dev)"),
        ("GL/", "OpenGL (Debian: libgl-dev, freeglut3-dev, libglew-dev)"),
        ("GLES", "OpenGL ES (Debian: libgles-dev)"),
        ("EGL/", "EGL (Debian: libegl-dev)"),
        ("KHR/", "Khronos' platform headers (Debian: libegl-dev)"),
        ("vulkan/", "Vulkan (Debian: libvulkan-dev)"),
        ("X11/", "X11 (Debian: libx11-dev)"),
        ("libdrm/", "libdrm (Debian: libdrm-dev)"),
    ];
    let files: &[(&str, &str)] = &[
        ("omp.h", "OpenMP (clang-19's OpenMP runtime; Debian: libomp-19-dev)"),
        ("mpi.h", "MPI (Debian: libopenmpi-dev)"),
        ("d3d", "Direct3D (the Windows SDK)"),
        ("D3D", "Direct3D (the Windows SDK)"),
        ("DirectXMath", "DirectXMath (the Windows SDK)"),
        ("dxgi", "DXGI (the Windows SDK)"),
        ("windows.h", "the Windows SDK"),
        ("drm", "libdrm (Debian: libdrm-dev)"),
        ("xf86drm", "libdrm (Debian: libdrm-dev)"),
        ("cudla", "cuDLA (NVIDIA's JetPack or DRIVE OS for Tegra, not the desktop CUDA toolkit)"),
        ("nvmedia", "NvMedia (NVIDIA's JetPack or DRIVE OS for Tegra)"),
        ("nvsci", "NvSci (NVIDIA's JetPack or DRIVE OS for Tegra)"),
        ("FreeImage", "FreeImage (Debian: libfreeimage-dev)"),
    ];
    folders
        .iter()
        .find(|(folder, _)| header.starts_with(folder))
        .or_else(|| files.iter().find(|(prefix, _)| name.starts_with(prefix)))
        .map(|(_, what)| *what)
}

/// Whether `name` is spelt like an identifier of the CUDA runtime or driver
/// API (`cudaGraphAddNode`, `cuCtxCreate_v4`, `CUctxCreateParams`,
/// `CU_GRAPH_COND_TYPE_IF`, `CUDA_KERNEL_NODE_PARAMS`): one the toolkit's
/// headers declare, or a newer toolkit's do.
pub fn is_cuda_api_name(name: &str) -> bool {
    let b = name.as_bytes();
    let upper_at = |i: usize| b.get(i).is_some_and(|c| c.is_ascii_uppercase());
    let lower_at = |i: usize| b.get(i).is_some_and(|c| c.is_ascii_lowercase());
    name.starts_with("cuda") && upper_at(4)
        || name.starts_with("cu") && upper_at(2)
        || name.starts_with("CU") && (lower_at(2) || b.get(2) == Some(&b'_'))
        || name.starts_with("CUDA_")
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

    #[test]
    fn headers_from_outside_any_toolkit_name_what_provides_them() {
        assert!(non_toolkit_header("omp.h").unwrap().contains("OpenMP"));
        assert!(non_toolkit_header("GLFW/glfw3.h").unwrap().contains("GLFW"));
        assert!(non_toolkit_header("DirectXMath.h").unwrap().contains("Windows SDK"));
        assert!(non_toolkit_header("d3d12.h").unwrap().contains("Direct3D"));
        assert!(non_toolkit_header("cudla.h").unwrap().contains("cuDLA"));
        assert!(non_toolkit_header("drm_fourcc.h").unwrap().contains("libdrm"));
        assert_eq!(non_toolkit_header("helper_cuda.h"), None);
        assert_eq!(non_toolkit_header("cuda_runtime.h"), None);
    }

    #[test]
    fn runtime_and_driver_api_names_are_recognised() {
        for name in ["cudaGraphAddNode", "cuCtxCreate_v4", "CUctxCreateParams", "CU_GRAPH_COND_TYPE_IF", "CUDA_KERNEL_NODE_PARAMS"] {
            assert!(is_cuda_api_name(name), "{name}");
        }
        for name in ["cudaa", "cube", "CUSTOM", "cuda", "current"] {
            assert!(!is_cuda_api_name(name), "{name}");
        }
    }
}
