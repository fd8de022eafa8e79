//! Exporters: each writes the same [`crate::results::Results`] in one format.

pub mod json;
pub mod text;
pub mod verbose;
