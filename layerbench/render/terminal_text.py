"""Text from outside (a label, a rung's or a server's name from an imported or hand-edited
document, a setting's value) made safe to print on a terminal: every character a terminal
would act on rather than show is written as its escape, ``\\x1b``, ``\\n``, ``\\u202e``. A
label of escape sequences recoloured the terminal, rang its bell, or with a newline forged a
row of ``results list``; shown escaped, it is one cell of one row, as typed."""


def escaped(text: str) -> str:
    """``text`` with every control character (C0, DEL, C1), line or paragraph separator and
    format character (the bidirectional overrides among them) escaped; printable text as is."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else _escape(char) for char in text)


def _escape(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"
