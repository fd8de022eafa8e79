//! A plain TCP socket driven through the thread's io_uring ([`super::ring`]), with the
//! non-blocking interface the connection's state machine expects of a socket.
//!
//! `write` queues a send and answers `WouldBlock`; when the send completes, the socket
//! becomes writable and the same `write` returns what was sent. `read` hands out what the
//! multishot receive delivered, and `WouldBlock` when nothing has arrived. Completions turn
//! into readiness ([`RingSocket::complete`]), so the state machine is the epoll engine's.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io;
use std::os::fd::AsRawFd;
use std::rc::Rc;

use mio::net::TcpStream;

use super::ring::{Completion, Operation, Owner, Ring};

/// What the multishot receive delivered, in order.
#[derive(Debug)]
enum Arrival {
    /// Bytes in a provided buffer; `read` of them so far.
    Bytes {
        buffer: u16,
        len: usize,
        read: usize,
    },
    End,
    Error(i32),
}

#[derive(Debug)]
enum SendState {
    Idle,
    InFlight,
    Done(io::Result<usize>),
}

#[derive(Debug)]
pub struct RingSocket {
    tcp: TcpStream,
    ring: Rc<RefCell<Ring>>,
    owner: Owner,
    connecting: bool,
    send: SendState,
    receiving: bool,
    arrivals: VecDeque<Arrival>,
    /// The sequence number of the last entry queued for this socket.
    last_queued: u64,
}

impl RingSocket {
    /// A socket whose non-blocking connect is under way: its end is polled for.
    pub fn connecting(tcp: TcpStream, ring: &Rc<RefCell<Ring>>, owner: Owner) -> io::Result<Self> {
        let last_queued = ring.borrow_mut().poll_connect(tcp.as_raw_fd(), owner)?;
        Ok(RingSocket {
            tcp,
            ring: Rc::clone(ring),
            owner,
            connecting: true,
            send: SendState::Idle,
            receiving: false,
            arrivals: VecDeque::new(),
            last_queued,
        })
    }

    pub fn owner(&self) -> Owner {
        self.owner
    }

    pub fn tcp(&self) -> &TcpStream {
        &self.tcp
    }

    /// Takes in a completion for this socket: `(readable, writable)`, the readiness it
    /// brings.
    pub fn complete(&mut self, completion: &Completion) -> (bool, bool) {
        match completion.operation {
            Operation::Connect => {
                self.connecting = false;
                // Armed once connected: a receive on a socket still connecting could end
                // before the connect does. A failed connect (the state machine reads its
                // error from the socket) gets none.
                let failed = libc::POLLERR | libc::POLLHUP;
                let connected =
                    completion.result >= 0 && completion.result & i32::from(failed) == 0;
                if connected && self.arm_receive().is_err() {
                    self.arrivals.push_back(Arrival::Error(libc::ENOMEM));
                }
                (true, true)
            }
            Operation::Send => {
                self.send = SendState::Done(if completion.result >= 0 {
                    Ok(completion.result as usize)
                } else {
                    Err(io::Error::from_raw_os_error(-completion.result))
                });
                (false, true)
            }
            Operation::Receive => {
                if !completion.more {
                    self.receiving = false;
                }
                match (completion.result, completion.buffer) {
                    (n, Some(buffer)) if n > 0 => self.arrivals.push_back(Arrival::Bytes {
                        buffer,
                        len: n as usize,
                        read: 0,
                    }),
                    (0, _) => self.arrivals.push_back(Arrival::End),
                    // Out of buffers for a moment (they are handed back as they are read):
                    // the receive is armed again.
                    (error, _) if -error == libc::ENOBUFS => {
                        if self.arm_receive().is_err() {
                            self.arrivals.push_back(Arrival::Error(libc::ENOMEM));
                        }
                    }
                    (error, _) => self.arrivals.push_back(Arrival::Error(-error)),
                }
                (true, false)
            }
            Operation::Cancel => (false, false),
        }
    }

    fn arm_receive(&mut self) -> io::Result<()> {
        if !self.receiving {
            self.last_queued = self
                .ring
                .borrow_mut()
                .receive(self.tcp.as_raw_fd(), self.owner)?;
            self.receiving = true;
        }
        Ok(())
    }

    /// The result of the send that completed, or `WouldBlock` once a send of `bytes` is
    /// queued (or while one is in flight).
    pub fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match std::mem::replace(&mut self.send, SendState::InFlight) {
            SendState::Done(result) => {
                self.send = SendState::Idle;
                result
            }
            SendState::InFlight => Err(io::ErrorKind::WouldBlock.into()),
            SendState::Idle => {
                let queued = self
                    .ring
                    .borrow_mut()
                    .send(self.tcp.as_raw_fd(), self.owner, bytes);
                match queued {
                    Ok(sequence) => {
                        self.last_queued = sequence;
                        Err(io::ErrorKind::WouldBlock.into())
                    }
                    Err(error) => {
                        self.send = SendState::Idle;
                        Err(error)
                    }
                }
            }
        }
    }

    /// Copies what has arrived into `buffer`; `Ok(0)` at the end of the stream.
    pub fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let Some(front) = self.arrivals.front_mut() else {
            return Err(io::ErrorKind::WouldBlock.into());
        };
        match front {
            Arrival::End => Ok(0),
            Arrival::Error(errno) => Err(io::Error::from_raw_os_error(*errno)),
            Arrival::Bytes {
                buffer: id,
                len,
                read,
            } => {
                let mut ring = self.ring.borrow_mut();
                let bytes = &ring.buffer(*id, *len)[*read..];
                let n = bytes.len().min(buffer.len());
                buffer[..n].copy_from_slice(&bytes[..n]);
                *read += n;
                if *read == *len {
                    ring.give_back(*id);
                    self.arrivals.pop_front();
                }
                Ok(n)
            }
        }
    }
}

impl Drop for RingSocket {
    /// Gives back the buffers nobody read and cancels what is still in flight; the socket
    /// closes for good once the kernel lets go of it. Entries still queued for it are
    /// handed to the kernel first, while the descriptor they name is still this socket's:
    /// after the close, a new socket may get the same number (a receive meant for a
    /// refused connect once consumed the next socket's error, and that connect hung).
    fn drop(&mut self) {
        let mut ring = self.ring.borrow_mut();
        // A failed submit leaves nothing better to do than to close: the operations then
        // fail on a closed descriptor, or act on its successor (whose generation differs,
        // so their completions are still told apart).
        let _ = ring.submit_through(self.last_queued);
        for arrival in self.arrivals.drain(..) {
            if let Arrival::Bytes { buffer, .. } = arrival {
                ring.give_back(buffer);
            }
        }
        if self.connecting {
            ring.cancel(self.owner, Operation::Connect);
        }
        if self.receiving {
            ring.cancel(self.owner, Operation::Receive);
        }
        if matches!(self.send, SendState::InFlight) {
            ring.cancel(self.owner, Operation::Send);
        }
    }
}
