//! Files named on the command line (`-p`, `-u`, `--urls`, `--cacert`), each read whole into
//! memory: only regular files are read (`/dev/zero` or a FIFO would never end), and each flag
//! has a size limit, stated in `--help` and in the error.

use std::fs::{File, OpenOptions};
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// `-p`/`-u`: the request body is held in memory once per URL of the run.
pub const MAX_BODY_BYTES: u64 = 64 << 20;
/// `--urls`: at most 256 URLs.
pub const MAX_URL_LIST_BYTES: u64 = 1 << 20;
/// `--cacert`: a whole system bundle is about 200 KiB.
pub const MAX_CA_FILE_BYTES: u64 = 16 << 20;

/// Reads the regular file at `path`, refusing it if it holds more than `limit` bytes; the
/// error is one line that names the file and the limit.
pub fn read(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    let cannot = |reason: String| format!("cannot read {}: {reason}", path.display());
    let over = || cannot(format!("it is larger than the limit of {}", size(limit)));
    // Non-blocking, so that opening a FIFO with no writer does not hang; a regular file
    // reads the same either way.
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(|error| cannot(error.to_string()))?;
    let metadata = file.metadata().map_err(|error| cannot(error.to_string()))?;
    if !metadata.is_file() {
        return Err(cannot(format!(
            "it is not a regular file ({}); give a file",
            kind(&metadata.file_type())
        )));
    }
    if metadata.len() > limit {
        return Err(over());
    }
    let mut bytes = Vec::with_capacity(usize::try_from(metadata.len()).unwrap_or(0));
    // A file that grows while read is cut off past the limit, and refused.
    File::take(file, limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| cannot(error.to_string()))?;
    if bytes.len() as u64 > limit {
        return Err(over());
    }
    Ok(bytes)
}

fn kind(file_type: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if file_type.is_dir() {
        "a directory"
    } else if file_type.is_char_device() || file_type.is_block_device() {
        "a device"
    } else if file_type.is_fifo() {
        "a pipe"
    } else if file_type.is_socket() {
        "a socket"
    } else {
        "not a file"
    }
}

/// `64 MiB` (the flags' limits are whole MiB), else `5 bytes`.
fn size(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes % (1 << 20) == 0 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_file_within_the_limit() {
        let path = std::env::temp_dir().join(format!("input-file-{}", std::process::id()));
        std::fs::write(&path, b"12345").unwrap();
        assert_eq!(read(&path, 5).unwrap(), b"12345");
        let refused = read(&path, 4).unwrap_err();
        std::fs::remove_file(&path).unwrap();
        assert!(
            refused.ends_with("it is larger than the limit of 4 bytes"),
            "{refused}"
        );
    }

    #[test]
    fn refuses_what_is_not_a_regular_file() {
        for (path, kind) in [("/dev/zero", "a device"), ("/", "a directory")] {
            let refused = read(Path::new(path), MAX_BODY_BYTES).unwrap_err();
            assert_eq!(
                refused,
                format!("cannot read {path}: it is not a regular file ({kind}); give a file")
            );
        }
    }
}
