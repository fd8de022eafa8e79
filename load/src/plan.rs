//! Options → plan: the resolved address, the serialized requests, and each thread's share.

use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::time::Duration;

use crate::cli::Options;
use crate::client::dial;
use crate::client::engine::{self, IoEngine};
use crate::client::progress;
use crate::error::Error;
use crate::http::request::RequestSpec;
use crate::targets::Targets;
use crate::tls::TlsClient;
use crate::url::Scheme;

/// One thread's part of the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Share {
    pub connections: usize,
    /// Its part of `-n`, in proportion to its connections; `None` = no count limit.
    pub requests: Option<u64>,
}

#[derive(Debug, Clone)]
pub struct Plan {
    pub address: SocketAddr,
    pub source_addresses: Vec<IpAddr>,
    /// `https://`: how connections speak TLS.
    pub tls: Option<TlsClient>,
    /// What is requested, and in which order.
    pub targets: Targets,
    pub keep_alive: bool,
    pub timeout: Duration,
    pub warmup: Duration,
    pub duration: Option<Duration>,
    /// `--rate`: the open loop's requests per second, in all.
    pub rate_per_s: Option<f64>,
    pub shares: Vec<Share>,
    /// -l: bodies of any length are fine.
    pub variable_length: bool,
    /// HEAD requests, whose responses have no body.
    pub bodiless_responses: bool,
    /// -v 2 or more: show the first response's head.
    pub verbose: bool,
    /// Show the progress line (asked for, and stderr is a terminal).
    pub progress: bool,
    pub io_engine: IoEngine,
    /// `--batch-wait`: how long, in microseconds, io_uring's waits may gather completions.
    pub batch_wait_us: Option<u32>,
}

impl Plan {
    pub fn new(options: &Options) -> Result<Plan, Error> {
        let url = &options.url;
        let unresolved = |source| Error::Resolve {
            host: url.host.clone(),
            port: url.port,
            source,
        };
        let address = (url.host.as_str(), url.port)
            .to_socket_addrs()
            .map_err(unresolved)?
            .next()
            .ok_or_else(|| unresolved(std::io::Error::other("no address found")))?;
        if let Some(source) = options
            .source_addresses
            .iter()
            .find(|source| source.is_ipv4() != address.is_ipv4())
        {
            return Err(Error::SourceFamily {
                source_address: *source,
                server: address,
            });
        }
        for source in &options.source_addresses {
            dial::check_source(*source).map_err(|error| Error::SourceAddress {
                source_address: *source,
                error,
            })?;
        }
        let tls = match url.scheme {
            Scheme::Http => None,
            Scheme::Https => Some(TlsClient::new(&url.host, &options.tls).map_err(Error::Tls)?),
        };
        let plain_closed_loop = tls.is_none() && options.rate_per_s.is_none();
        let io_engine = engine::check(options.io, plain_closed_loop, options.batch_wait_us)?;
        Ok(Plan {
            io_engine,
            batch_wait_us: options.batch_wait_us,
            address,
            source_addresses: options.source_addresses.clone(),
            tls,
            targets: Targets::build(
                &options.urls,
                &RequestSpec {
                    url,
                    method: &options.method,
                    keep_alive: options.keep_alive,
                    headers: &options.headers,
                    body: options.body.as_ref(),
                },
            ),
            keep_alive: options.keep_alive,
            timeout: options.timeout,
            warmup: options.warmup,
            duration: options.duration,
            rate_per_s: options.rate_per_s,
            shares: shares(options.concurrency, options.threads, options.requests),
            variable_length: options.variable_length,
            bodiless_responses: options.method.eq_ignore_ascii_case("HEAD"),
            verbose: options.verbosity >= 2,
            progress: progress::wanted(options.progress),
        })
    }
}

/// Connections dealt out as evenly as possible, requests in proportion to connections.
pub fn shares(connections: usize, threads: usize, requests: Option<u64>) -> Vec<Share> {
    let threads = threads.clamp(1, connections.max(1));
    let mut before = 0u128;
    (0..threads)
        .map(|i| {
            let mine = connections / threads + usize::from(i < connections % threads);
            let requests = requests.map(|n| {
                let n = u128::from(n);
                let total = connections as u128;
                let after = before + mine as u128;
                let share = n * after / total - n * before / total;
                u64::try_from(share).unwrap_or(u64::MAX)
            });
            before += mine as u128;
            Share {
                connections: mine,
                requests,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_split() {
        let s = shares(10, 2, Some(1000));
        assert_eq!(
            s,
            vec![
                Share {
                    connections: 5,
                    requests: Some(500)
                };
                2
            ]
        );
    }

    #[test]
    fn uneven_split_adds_up() {
        for (c, t, n) in [(7, 3, 100), (3, 3, 1), (5, 2, 7), (1000, 7, 12345)] {
            let s = shares(c, t, Some(n));
            assert_eq!(s.iter().map(|x| x.connections).sum::<usize>(), c);
            assert_eq!(s.iter().filter_map(|x| x.requests).sum::<u64>(), n);
        }
        assert_eq!(
            shares(7, 3, None)[0],
            Share {
                connections: 3,
                requests: None
            }
        );
    }
}
