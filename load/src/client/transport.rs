//! A connection's byte stream: plain TCP, or TLS (rustls) over it, or plain TCP driven
//! through io_uring ([`RingSocket`]).
//!
//! Both are non-blocking and edge-triggered. TLS adds records waiting to be written
//! ([`Stream::has_pending`]): the request and the handshake's messages are encrypted into
//! them, and a socket that is full keeps them until it is writable again.

use std::io::{self, Read, Write};

use mio::net::TcpStream;
use rustls::ClientConnection;
use rustls::HandshakeKind;

use super::ring_socket::RingSocket;
use crate::tls::{TlsClient, protocol_name};

/// A handshake that completed: how, and what it agreed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handshake {
    pub resumed: bool,
    /// `TLSv1.3`, as ab prints it.
    pub protocol: String,
    /// The cipher suite, by its IANA name.
    pub cipher_suite: String,
}

#[derive(Debug)]
pub enum Stream {
    Plain(TcpStream),
    Tls(Box<TlsStream>),
    Ring(Box<RingSocket>),
}

#[derive(Debug)]
pub struct TlsStream {
    tcp: TcpStream,
    tls: ClientConnection,
    /// The server closed the TCP connection.
    eof: bool,
}

impl Stream {
    /// TLS over `tcp` when `tls` is given; its ClientHello waits to be written.
    pub fn new(tcp: TcpStream, tls: Option<&TlsClient>) -> io::Result<Stream> {
        let Some(tls) = tls else {
            return Ok(Stream::Plain(tcp));
        };
        let connection = ClientConnection::new(tls.config.clone(), tls.server_name.clone())
            .map_err(tls_error)?;
        Ok(Stream::Tls(Box::new(TlsStream {
            tcp,
            tls: connection,
            eof: false,
        })))
    }

    pub fn tcp(&self) -> &TcpStream {
        match self {
            Stream::Plain(tcp) => tcp,
            Stream::Tls(stream) => &stream.tcp,
            Stream::Ring(socket) => socket.tcp(),
        }
    }

    /// The TLS handshake is still going on.
    pub fn is_handshaking(&self) -> bool {
        match self {
            Stream::Plain(_) | Stream::Ring(_) => false,
            Stream::Tls(stream) => stream.tls.is_handshaking(),
        }
    }

    /// TLS records are waiting to be written.
    pub fn has_pending(&self) -> bool {
        match self {
            Stream::Plain(_) | Stream::Ring(_) => false,
            Stream::Tls(stream) => stream.tls.wants_write(),
        }
    }

    /// Writes the waiting TLS records: `WouldBlock` when the socket took only part of them.
    pub fn flush_pending(&mut self) -> io::Result<()> {
        match self {
            Stream::Plain(_) | Stream::Ring(_) => Ok(()),
            Stream::Tls(stream) => stream.flush_pending(),
        }
    }

    /// Reads and processes the handshake's messages: `Ok(false)` when the server closed the
    /// connection.
    pub fn read_handshake(&mut self) -> io::Result<bool> {
        match self {
            Stream::Plain(_) | Stream::Ring(_) => Ok(true),
            Stream::Tls(stream) => stream.read_records(),
        }
    }

    /// The handshake as it completed (`None` for plain TCP or before it completed).
    pub fn handshake(&self) -> Option<Handshake> {
        let Stream::Tls(stream) = self else {
            return None;
        };
        let tls = &stream.tls;
        if tls.is_handshaking() {
            return None;
        }
        Some(Handshake {
            resumed: tls.handshake_kind() == Some(HandshakeKind::Resumed),
            protocol: tls
                .protocol_version()
                .map(protocol_name)
                .unwrap_or_default(),
            cipher_suite: tls
                .negotiated_cipher_suite()
                .map(|suite| format!("{:?}", suite.suite()))
                .unwrap_or_default(),
        })
    }

    /// Writes (plain) or encrypts (TLS) bytes of the request. With TLS the bytes are taken
    /// once earlier records are written; records the socket cannot take yet stay pending.
    pub fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Plain(tcp) => tcp.write(bytes),
            Stream::Ring(socket) => socket.write(bytes),
            Stream::Tls(stream) => {
                stream.flush_pending()?;
                let taken = stream.tls.writer().write(bytes)?;
                match stream.flush_pending() {
                    Err(error) if error.kind() != io::ErrorKind::WouldBlock => Err(error),
                    _ => Ok(taken),
                }
            }
        }
    }

    /// Reads response bytes; `Ok(0)` at the end of the stream.
    pub fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Plain(tcp) => tcp.read(buffer),
            Stream::Tls(stream) => stream.read(buffer),
            Stream::Ring(socket) => socket.read(buffer),
        }
    }
}

impl TlsStream {
    fn flush_pending(&mut self) -> io::Result<()> {
        while self.tls.wants_write() {
            if self.tls.write_tls(&mut self.tcp)? == 0 {
                return Err(io::ErrorKind::WriteZero.into());
            }
        }
        Ok(())
    }

    /// Reads records from the socket and processes them; `Ok(false)` at the end of the
    /// stream. Replies they call for (an alert, a key update) are written if the socket
    /// takes them now, and otherwise stay pending.
    fn read_records(&mut self) -> io::Result<bool> {
        if self.tls.read_tls(&mut self.tcp)? == 0 {
            self.eof = true;
            return Ok(false);
        }
        let processed = self.tls.process_new_packets().map(|_| ());
        match self.flush_pending() {
            Err(error) if error.kind() != io::ErrorKind::WouldBlock && processed.is_ok() => {
                return Err(error);
            }
            _ => {}
        }
        processed.map_err(tls_error)?;
        Ok(true)
    }

    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        loop {
            match self.tls.reader().read(buffer) {
                Ok(n) => return Ok(n),
                // Closed without close_notify: HTTP's framing tells whether anything was cut.
                Err(error) if error.kind() == io::ErrorKind::UnexpectedEof => return Ok(0),
                Err(error) if error.kind() == io::ErrorKind::WouldBlock => {}
                Err(error) => return Err(error),
            }
            if self.eof {
                return Ok(0);
            }
            self.read_records()?;
        }
    }
}

/// A TLS failure as an I/O error that carries it (see [`tls_cause`]).
fn tls_error(error: rustls::Error) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, error)
}

/// The TLS failure inside an I/O error from this module, if that is what it is.
pub fn tls_cause(error: &io::Error) -> Option<&rustls::Error> {
    error.get_ref()?.downcast_ref::<rustls::Error>()
}
