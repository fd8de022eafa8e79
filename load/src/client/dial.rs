//! Opening a non-blocking connection to the server, optionally from a chosen local address.
//!
//! Every TCP connection needs a distinct (source address, source port) pair towards the same
//! server. One loopback source has about 28,000 ephemeral ports; a run without keep-alive
//! opens tens of thousands of connections per second, so `--source-addresses` spreads them
//! over several addresses of 127.0.0.0/8. The port is left for `connect` to choose
//! (`IP_BIND_ADDRESS_NO_PORT`), so that a source port is only reserved per destination.

use std::io;
use std::net::{IpAddr, SocketAddr};
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicUsize, Ordering};

use mio::net::TcpStream;
use socket2::{Domain, Protocol, SockAddr, Socket, Type};

use crate::tls::TlsClient;

/// Opens the run's connections: to one server, from the source addresses in turn.
#[derive(Debug)]
pub struct Dialer {
    server: SocketAddr,
    sources: Vec<IpAddr>,
    /// The next source to use, shared by the threads (touched once per connect).
    next: AtomicUsize,
    /// `https://`: what each connection's TLS starts from.
    tls: Option<TlsClient>,
}

impl Dialer {
    pub fn new(server: SocketAddr, sources: Vec<IpAddr>, tls: Option<TlsClient>) -> Dialer {
        Dialer {
            server,
            sources,
            next: AtomicUsize::new(0),
            tls,
        }
    }

    /// The TLS every connection speaks over TCP, for an `https://` URL.
    pub fn tls(&self) -> Option<&TlsClient> {
        self.tls.as_ref()
    }

    /// Starts a non-blocking connect, from the next source address if there are any.
    pub fn connect(&self) -> io::Result<TcpStream> {
        let source = match self.sources.len() {
            0 => None,
            n => Some(self.sources[self.next.fetch_add(1, Ordering::Relaxed) % n]),
        };
        connect(self.server, source)
    }
}

/// Starts a non-blocking connect to `server`, from `source` when given.
pub fn connect(server: SocketAddr, source: Option<IpAddr>) -> io::Result<TcpStream> {
    let Some(source) = source else {
        return TcpStream::connect(server);
    };
    let socket = Socket::new(
        Domain::for_address(server),
        Type::STREAM,
        Some(Protocol::TCP),
    )?;
    socket.set_nonblocking(true)?;
    if source.is_ipv4() {
        bind_address_no_port(&socket)?;
    }
    socket.bind(&SockAddr::from(SocketAddr::new(source, 0)))?;
    match socket.connect(&SockAddr::from(server)) {
        Ok(()) => {}
        Err(error) if error.raw_os_error() == Some(libc::EINPROGRESS) => {}
        Err(error) => return Err(error),
    }
    Ok(TcpStream::from_std(socket.into()))
}

/// Fails when `source` is not an address of this machine (binding to it is refused).
pub fn check_source(source: IpAddr) -> io::Result<()> {
    let socket = Socket::new(
        Domain::for_address(SocketAddr::new(source, 0)),
        Type::STREAM,
        None,
    )?;
    if source.is_ipv4() {
        bind_address_no_port(&socket)?;
    }
    socket.bind(&SockAddr::from(SocketAddr::new(source, 0)))
}

fn bind_address_no_port(socket: &Socket) -> io::Result<()> {
    let enable: libc::c_int = 1;
    // SAFETY: setsockopt reads an int we own, of the size we pass, on an open socket.
    let result = unsafe {
        libc::setsockopt(
            socket.as_raw_fd(),
            libc::IPPROTO_IP,
            libc::IP_BIND_ADDRESS_NO_PORT,
            (&raw const enable).cast(),
            size_of::<libc::c_int>() as libc::socklen_t,
        )
    };
    if result == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::ErrorKind;
    use std::net::TcpListener;
    use std::time::{Duration, Instant};

    /// Waits for the non-blocking connect to finish and the server to accept it.
    fn accepted_peer(listener: &TcpListener) -> SocketAddr {
        listener.set_nonblocking(true).unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            match listener.accept() {
                Ok((_, peer)) => return peer,
                Err(error)
                    if error.kind() == ErrorKind::WouldBlock && Instant::now() < deadline =>
                {
                    std::thread::sleep(Duration::from_millis(1));
                }
                Err(error) => panic!("accept: {error}"),
            }
        }
    }

    #[test]
    fn connects_from_the_chosen_loopback_address() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let source: IpAddr = "127.0.0.7".parse().unwrap();
        let _stream = connect(listener.local_addr().unwrap(), Some(source)).unwrap();
        assert_eq!(accepted_peer(&listener).ip(), source);
    }

    #[test]
    fn connects_from_the_default_address_without_a_source() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let _stream = connect(listener.local_addr().unwrap(), None).unwrap();
        assert_eq!(accepted_peer(&listener).ip(), IpAddr::from([127, 0, 0, 1]));
    }

    #[test]
    fn a_dialer_takes_the_sources_in_turn() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let sources: Vec<IpAddr> = vec![[127, 0, 0, 2].into(), [127, 0, 0, 3].into()];
        let dialer = Dialer::new(listener.local_addr().unwrap(), sources.clone(), None);
        let mut streams = Vec::new();
        let mut peers = Vec::new();
        for _ in 0..4 {
            streams.push(dialer.connect().unwrap());
            peers.push(accepted_peer(&listener).ip());
        }
        assert_eq!(peers, [sources[0], sources[1], sources[0], sources[1]]);
    }

    #[test]
    fn a_source_that_is_not_local_is_an_error() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let source: IpAddr = "192.0.2.1".parse().unwrap();
        let error = connect(listener.local_addr().unwrap(), Some(source)).unwrap_err();
        assert_eq!(error.raw_os_error(), Some(libc::EADDRNOTAVAIL));
        assert_eq!(
            check_source(source).unwrap_err().raw_os_error(),
            Some(libc::EADDRNOTAVAIL)
        );
        assert!(check_source(IpAddr::from([127, 0, 0, 200])).is_ok());
    }
}
