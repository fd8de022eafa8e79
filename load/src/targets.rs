//! What a run requests: one URL, or weighted URLs (`--urls`), each request serialized once
//! into one arena, and the fixed order in which they are sent.
//!
//! The order is one cycle of smooth weighted round-robin (as nginx balances upstreams): over
//! a cycle as long as the weights' sum, each URL comes up exactly its weight's number of
//! times, spread out rather than in runs (9:1 gives the light URL once every ten requests).
//! Each thread walks the cycle from its own offset, so that the mix holds in every thread
//! and at any moment, not only on average.

use std::ops::Range;

use crate::http::request::{self, Request, RequestSpec};
use crate::url_list::WeightedUrl;

/// One URL of the run: its path, weight and serialized request's place in the arena.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub path: String,
    pub weight: u32,
    bytes: Range<usize>,
    head_bytes: usize,
}

/// The run's requests and the order they go out in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Targets {
    /// Every request's bytes, one after another; they never move once built.
    arena: Vec<u8>,
    targets: Vec<Target>,
    /// One cycle of the order: indexes into `targets`.
    cycle: Vec<u16>,
}

impl Targets {
    /// Serializes a request for each URL of `urls` as `spec` describes it (its URL aside).
    pub fn build(urls: &[WeightedUrl], spec: &RequestSpec) -> Targets {
        assert!(
            !urls.is_empty() && urls.len() <= usize::from(u16::MAX),
            "checked by the URL list"
        );
        let mut arena = Vec::new();
        let targets = urls
            .iter()
            .map(|weighted| {
                let Request { bytes, head_bytes } = request::build(&RequestSpec {
                    url: &weighted.url,
                    ..*spec
                });
                let start = arena.len();
                arena.extend_from_slice(&bytes);
                Target {
                    path: weighted.url.path.clone(),
                    weight: weighted.weight,
                    bytes: start..arena.len(),
                    head_bytes,
                }
            })
            .collect::<Vec<_>>();
        let weights: Vec<u32> = targets.iter().map(|target| target.weight).collect();
        Targets {
            arena,
            targets,
            cycle: smooth_weighted_cycle(&weights),
        }
    }

    pub fn len(&self) -> usize {
        self.targets.len()
    }

    pub fn targets(&self) -> &[Target] {
        &self.targets
    }

    /// The serialized request of target `index`.
    pub fn request(&self, index: usize) -> &[u8] {
        &self.arena[self.targets[index].bytes.clone()]
    }

    /// The request of target `index` as head and body.
    pub fn request_of(&self, index: usize) -> Request {
        Request {
            bytes: self.request(index).to_vec(),
            head_bytes: self.targets[index].head_bytes,
        }
    }

    /// Every request's bytes: what a send may point into.
    pub fn arena(&self) -> &[u8] {
        &self.arena
    }

    /// Thread `thread` of `threads` walks the cycle from here.
    pub fn cursor(&self, thread: usize, threads: usize) -> Cursor {
        Cursor {
            position: self.cycle.len() * thread / threads.max(1),
        }
    }

    /// The target of the next request at `cursor`, which moves on.
    pub fn next(&self, cursor: &mut Cursor) -> usize {
        let index = self.cycle[cursor.position];
        cursor.position += 1;
        if cursor.position == self.cycle.len() {
            cursor.position = 0;
        }
        usize::from(index)
    }
}

/// Where a thread is in the cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    position: usize,
}

/// One cycle of smooth weighted round-robin: each turn every index gains its weight, the
/// one with the most (the first of equals) is picked and gives back the sum of the weights.
fn smooth_weighted_cycle(weights: &[u32]) -> Vec<u16> {
    let total: i64 = weights.iter().map(|&w| i64::from(w)).sum();
    let mut current = vec![0i64; weights.len()];
    (0..total)
        .map(|_| {
            for (credit, &weight) in current.iter_mut().zip(weights) {
                *credit += i64::from(weight);
            }
            let (picked, _) =
                current
                    .iter()
                    .enumerate()
                    .fold((0, i64::MIN), |best, (i, &credit)| {
                        if credit > best.1 { (i, credit) } else { best }
                    });
            current[picked] -= total;
            u16::try_from(picked).expect("at most u16::MAX targets")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::url::Url;

    fn targets(list: &[(u32, &str)]) -> Targets {
        let urls: Vec<WeightedUrl> = list
            .iter()
            .map(|&(weight, url)| WeightedUrl {
                weight,
                url: Url::parse(url).unwrap(),
            })
            .collect();
        Targets::build(
            &urls,
            &RequestSpec {
                url: &urls[0].url,
                method: "GET",
                keep_alive: true,
                headers: &[],
                body: None,
            },
        )
    }

    #[test]
    fn each_request_is_its_own_url_in_one_arena() {
        let t = targets(&[(2, "http://h/a"), (1, "http://h/bb?c")]);
        assert!(t.request(0).starts_with(b"GET /a HTTP/1.1\r\nHost: h\r\n"));
        assert!(
            t.request(1)
                .starts_with(b"GET /bb?c HTTP/1.1\r\nHost: h\r\n")
        );
        assert_eq!(t.request(0).len() + t.request(1).len(), t.arena().len());
        assert_eq!(t.request_of(1).bytes, t.request(1));
        assert_eq!(t.targets()[1].path, "/bb?c");
    }

    #[test]
    fn the_cycle_gives_each_url_its_weight_spread_out() {
        assert_eq!(
            smooth_weighted_cycle(&[9, 1]),
            [0, 0, 0, 0, 0, 1, 0, 0, 0, 0]
        );
        assert_eq!(smooth_weighted_cycle(&[5, 1, 1]), [0, 0, 1, 0, 2, 0, 0]);
        assert_eq!(smooth_weighted_cycle(&[1]), [0]);
        let cycle = smooth_weighted_cycle(&[3, 2, 7, 1]);
        for (index, weight) in [3, 2, 7, 1].into_iter().enumerate() {
            let count = cycle.iter().filter(|&&i| usize::from(i) == index).count();
            assert_eq!(count, weight);
        }
        // Never two of the light URL in a row, nor a long run of the heavy one.
        assert!(!cycle.windows(2).any(|w| w == [3, 3]));
        assert!(!cycle.windows(4).any(|w| w.iter().all(|&i| i == 2)));
    }

    #[test]
    fn cursors_wrap_and_start_apart() {
        let t = targets(&[(3, "http://h/a"), (1, "http://h/b")]);
        let mut cursor = t.cursor(0, 1);
        let picks: Vec<usize> = (0..8).map(|_| t.next(&mut cursor)).collect();
        assert_eq!(picks, [0, 0, 1, 0, 0, 0, 1, 0]);
        assert_eq!(t.cursor(1, 2), Cursor { position: 2 });
        let mut second = t.cursor(1, 2);
        assert_eq!(t.next(&mut second), 1);
    }
}
