"""What every command shares: its numeric option types, its output, its --topology option."""
