"""Short URL-safe identifiers: the seed's scheme (version 0) and its generator."""
