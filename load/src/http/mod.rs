//! HTTP/1.1 on the wire: the request we send (built once) and the responses we parse.

pub mod header;
pub mod request;
pub mod response;
#[cfg(test)]
mod response_properties;
