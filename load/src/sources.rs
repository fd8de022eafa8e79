//! `--source-addresses`: the local addresses connections are spread over.
//!
//! A comma-separated list of addresses and inclusive IPv4 ranges:
//! `127.0.0.1-127.0.0.255`, `127.0.0.1,127.0.0.2`, `::1`.

use std::net::{IpAddr, Ipv4Addr};

/// The most addresses a list may name (a /16's worth).
const MAX_ADDRESSES: u32 = 65_536;

/// The parsed list, as one command-line value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceAddresses(pub Vec<IpAddr>);

pub fn parse_list(text: &str) -> Result<SourceAddresses, String> {
    parse(text).map(SourceAddresses)
}

pub fn parse(text: &str) -> Result<Vec<IpAddr>, String> {
    let mut addresses = Vec::new();
    for part in text.split(',').map(str::trim) {
        match part.split_once('-') {
            Some((first, last)) => addresses.extend(range(first.trim(), last.trim())?),
            None => addresses.push(address(part)?),
        }
    }
    if addresses.len() > MAX_ADDRESSES as usize {
        return Err(format!("more than {MAX_ADDRESSES} source addresses"));
    }
    Ok(addresses)
}

fn address(text: &str) -> Result<IpAddr, String> {
    text.parse()
        .map_err(|_| format!("{text:?} is not an IP address"))
}

fn range(first: &str, last: &str) -> Result<impl Iterator<Item = IpAddr>, String> {
    let ipv4 = |text: &str| match address(text)? {
        IpAddr::V4(v4) => Ok(u32::from(v4)),
        IpAddr::V6(_) => Err(format!("{text}: ranges are IPv4 only; list IPv6 addresses")),
    };
    let (first, last) = (ipv4(first)?, ipv4(last)?);
    if first > last {
        return Err(format!(
            "{}-{} is an empty range",
            Ipv4Addr::from(first),
            Ipv4Addr::from(last)
        ));
    }
    if last - first >= MAX_ADDRESSES {
        return Err(format!("more than {MAX_ADDRESSES} source addresses"));
    }
    Ok((first..=last).map(|n| IpAddr::V4(Ipv4Addr::from(n))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v4(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn a_range_is_inclusive() {
        let addresses = parse("127.0.0.1-127.0.0.255").unwrap();
        assert_eq!(addresses.len(), 255);
        assert_eq!(addresses[0], v4("127.0.0.1"));
        assert_eq!(addresses[254], v4("127.0.0.255"));
    }

    #[test]
    fn lists_ranges_across_octets_and_ipv6() {
        assert_eq!(
            parse("127.0.0.255-127.0.1.0, ::1").unwrap(),
            vec![v4("127.0.0.255"), v4("127.0.1.0"), v4("::1")]
        );
    }

    #[test]
    fn refusals_say_what_is_wrong() {
        assert!(
            parse("127.0.0.9-127.0.0.1")
                .unwrap_err()
                .contains("empty range")
        );
        assert!(
            parse("localhost")
                .unwrap_err()
                .contains("not an IP address")
        );
        assert!(parse("::1-::2").unwrap_err().contains("IPv4 only"));
        assert!(
            parse("10.0.0.0-10.2.0.0")
                .unwrap_err()
                .contains("more than")
        );
        assert!(parse("").is_err());
    }
}
