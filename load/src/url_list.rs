//! `--urls FILE`: weighted URLs on one server, one `WEIGHT URL` per line.
//!
//! ```text
//! # 90 % cached page, 10 % page built on every request
//! 9 http://127.0.0.1:8000/v/hello-world
//! 1 http://127.0.0.1:8000/ladder/page
//! ```
//!
//! A weight is a whole number from 1; a line with a URL alone weighs 1. Blank lines and lines
//! starting with `#` are skipped.

use std::path::Path;

use crate::input_file;
use crate::url::Url;

/// At most this many URLs: each has its own latency histogram per thread.
pub const MAX_URLS: usize = 256;
/// The weights add up to at most this: the order of one cycle is kept in memory.
pub const MAX_TOTAL_WEIGHT: u64 = 100_000;

/// A URL and its share of the requests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WeightedUrl {
    pub weight: u32,
    pub url: Url,
}

/// The list of a `--urls` file, in its order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlList(pub Vec<WeightedUrl>);

/// Reads and checks the list in the file at `path`.
pub fn read(path: &str) -> Result<UrlList, String> {
    let bytes = input_file::read(Path::new(path), input_file::MAX_URL_LIST_BYTES)?;
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("cannot read {path}: it is not UTF-8 text"))?;
    parse(&text)
        .map(UrlList)
        .map_err(|error| format!("{path}: {error}"))
}

/// Parses the list: every URL on the scheme, host and port of the first.
pub fn parse(text: &str) -> Result<Vec<WeightedUrl>, String> {
    let mut list: Vec<WeightedUrl> = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at_line = |message: String| format!("line {}: {message}", number + 1);
        let entry = parse_line(line).map_err(at_line)?;
        if let Some(first) = list.first() {
            let server = |url: &Url| (url.scheme, url.host.clone(), url.port);
            if server(&entry.url) != server(&first.url) {
                return Err(at_line(format!(
                    "{} is not on the server of {}: every URL of a run goes to one server",
                    entry.url.text, first.url.text
                )));
            }
        }
        list.push(entry);
        if list.len() > MAX_URLS {
            return Err(format!("more than {MAX_URLS} URLs"));
        }
    }
    if list.is_empty() {
        return Err("no URL in the list".to_string());
    }
    let total: u64 = list.iter().map(|entry| u64::from(entry.weight)).sum();
    if total > MAX_TOTAL_WEIGHT {
        return Err(format!(
            "the weights add up to {total}, more than {MAX_TOTAL_WEIGHT}; use smaller whole \
             numbers in the same proportion"
        ));
    }
    Ok(list)
}

fn parse_line(line: &str) -> Result<WeightedUrl, String> {
    let mut words = line.split_whitespace();
    let first = words.next().unwrap_or_default();
    let (weight, url) = match words.next() {
        Some(url) => (parse_weight(first)?, url),
        None => (1, first),
    };
    if let Some(extra) = words.next() {
        return Err(format!(
            "unexpected {extra:?}: a line is WEIGHT URL (spaces in a URL must be %20)"
        ));
    }
    let url = Url::parse(url).map_err(|error| format!("{url}: {error}"))?;
    Ok(WeightedUrl { weight, url })
}

fn parse_weight(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(weight) if weight >= 1 => Ok(weight),
        _ => Err(format!("{text:?} is not a weight (a whole number from 1)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weights_and_paths(text: &str) -> Vec<(u32, String)> {
        parse(text)
            .unwrap()
            .into_iter()
            .map(|entry| (entry.weight, entry.url.path))
            .collect()
    }

    #[test]
    fn weights_urls_comments_and_blank_lines() {
        let text = "# a mix\n\n9 http://h:8/hit\n  1   http://h:8/miss?x=1  \nhttp://h:8/\n";
        assert_eq!(
            weights_and_paths(text),
            vec![
                (9, "/hit".to_string()),
                (1, "/miss?x=1".to_string()),
                (1, "/".to_string())
            ]
        );
    }

    #[test]
    fn refusals_name_the_line() {
        for (text, expected) in [
            ("", "no URL"),
            ("# only a comment\n", "no URL"),
            ("0 http://h/", "line 1: \"0\" is not a weight"),
            ("-1 http://h/", "line 1: \"-1\" is not a weight"),
            ("0.9 http://h/", "line 1: \"0.9\" is not a weight"),
            ("1 http://h/ x", "line 1: unexpected \"x\""),
            ("\n2 ftp://h/", "line 2: ftp://h/: unsupported scheme"),
            (
                "1 http://h/\n1 http://other/",
                "line 2: http://other/ is not on the server",
            ),
            ("1 http://h/\n1 http://h:81/", "line 2"),
            ("1 http://h/\n1 https://h/", "line 2"),
            ("60000 http://h/a\n60000 http://h/b", "add up to 120000"),
        ] {
            let error = parse(text).unwrap_err();
            assert!(error.contains(expected), "{text:?}: {error}");
        }
    }

    #[test]
    fn too_many_urls() {
        let text: String = (0..=MAX_URLS).map(|i| format!("http://h/{i}\n")).collect();
        assert!(parse(&text).unwrap_err().contains("more than 256 URLs"));
    }
}
