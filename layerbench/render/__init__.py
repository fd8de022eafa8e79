"""What every table and exporter draws with: text tables, colour, SVG, the noise notes, the
per-host and memory tables, JSON written atomically."""
