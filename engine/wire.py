"""Protobuf wire format, just enough to join serialized pieces of an observation.

A serialized message is its fields' encodings one after another, in any order; parsing
keeps the last value of a singular field and appends a repeated one's values in order
(https://protobuf.dev/programming-guides/encoding/). So a sub-message can be assembled as
bytes from parts (some serialized by protobuf, some encoded here) and parsed once.
Only the shapes :mod:`engine.observation` needs: varints, field keys, packed integers and
length-delimited fields.
"""

from __future__ import annotations

from collections.abc import Sequence

from google.protobuf.message import Message

#: Wire type of a length-delimited field (a string, a sub-message, packed integers).
LENGTH_DELIMITED = 2
_SMALL = [bytes((n,)) for n in range(0x80)]


def varint(n: int) -> bytes:
    """``n`` as a base-128 varint (a negative int32/int64 as its 64-bit two's complement)."""
    if 0 <= n < 0x80:
        return _SMALL[n]
    n &= (1 << 64) - 1
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def key(message: type[Message], field: str, wire_type: int = LENGTH_DELIMITED) -> bytes:
    """The key (field number and wire type) that starts ``message``'s field ``field``."""
    return varint(message.DESCRIPTOR.fields_by_name[field].number << 3 | wire_type)


def delimited(field_key: bytes, body: bytes) -> bytes:
    """A length-delimited field: its key, the length of ``body``, ``body``."""
    return field_key + varint(len(body)) + body


def packed(field_key: bytes, values: Sequence[int]) -> bytes:
    """A repeated integer field (int32, enum …) in packed form; nothing when empty.
    ``field_key`` must have the length-delimited wire type."""
    if not values:
        return b""
    try:
        body = bytes(values)  # each value one byte: right as a varint only below 128
    except ValueError:  # a value below 0 or above 255
        body = b"\x80"
    if not body.isascii():
        body = b"".join(varint(v) for v in values)
    return field_key + varint(len(body)) + body
