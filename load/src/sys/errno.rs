//! Names for the errors a load generator meets, as `errors_by_kind` keys.

use std::io;

/// `ECONNREFUSED` for a connection refused; `EIO` style names for the usual socket errors,
/// `errno N` for the rest, and the I/O kind for errors that carry no errno.
pub fn name(error: &io::Error) -> String {
    let Some(code) = error.raw_os_error() else {
        return format!("{:?}", error.kind());
    };
    let name = match code {
        libc::ECONNREFUSED => "ECONNREFUSED",
        libc::ECONNRESET => "ECONNRESET",
        libc::ECONNABORTED => "ECONNABORTED",
        libc::ETIMEDOUT => "ETIMEDOUT",
        libc::EHOSTUNREACH => "EHOSTUNREACH",
        libc::ENETUNREACH => "ENETUNREACH",
        libc::ENETDOWN => "ENETDOWN",
        libc::EADDRNOTAVAIL => "EADDRNOTAVAIL",
        libc::EADDRINUSE => "EADDRINUSE",
        libc::EPIPE => "EPIPE",
        libc::EMFILE => "EMFILE",
        libc::ENFILE => "ENFILE",
        libc::ENOBUFS => "ENOBUFS",
        libc::ENOMEM => "ENOMEM",
        libc::EACCES => "EACCES",
        libc::EPERM => "EPERM",
        libc::EINVAL => "EINVAL",
        libc::EAGAIN => "EAGAIN",
        libc::EINTR => "EINTR",
        libc::EIO => "EIO",
        libc::ENOTCONN => "ENOTCONN",
        libc::EHOSTDOWN => "EHOSTDOWN",
        libc::EPROTO => "EPROTO",
        _ => return format!("errno {code}"),
    };
    name.to_string()
}

/// `Connection refused (ECONNREFUSED)`: the system's message with the name.
pub fn describe(error: &io::Error) -> String {
    let text = error.to_string();
    let message = match text.rfind(" (os error ") {
        Some(index) => &text[..index],
        None => &text,
    };
    format!("{message} ({})", name(error))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_descriptions() {
        let refused = io::Error::from_raw_os_error(libc::ECONNREFUSED);
        assert_eq!(name(&refused), "ECONNREFUSED");
        assert_eq!(describe(&refused), "Connection refused (ECONNREFUSED)");
        assert_eq!(name(&io::Error::from_raw_os_error(4095)), "errno 4095");
        assert_eq!(
            name(&io::Error::from(io::ErrorKind::UnexpectedEof)),
            "UnexpectedEof"
        );
    }
}
