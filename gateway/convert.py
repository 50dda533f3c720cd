"""Protobuf messages to JSON-ready dicts.

Unlike ``json_format.MessageToDict`` this keeps 64-bit integers as JSON numbers (decision
numbers are ``int64``), prints every field (defaults included, so clients need no schema
to fill gaps), spells enums by name and keeps the proto field names.
"""

from __future__ import annotations

import base64
import time
from typing import TYPE_CHECKING, Any, TypeAlias

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

if TYPE_CHECKING:
    from google._upb._message import FieldDescriptor as _UpbFieldDescriptor

    # a descriptor's fields are the pure-Python or the upb (C) implementation's class
    _Field: TypeAlias = FieldDescriptor | _UpbFieldDescriptor


def _scalar(field: _Field, value: Any) -> Any:
    if field.type == FieldDescriptor.TYPE_ENUM:
        assert field.enum_type is not None  # an enum field always has its enum's descriptor
        enum_value = field.enum_type.values_by_number.get(int(value))
        return enum_value.name if enum_value is not None else int(value)
    if field.type == FieldDescriptor.TYPE_BYTES:
        return base64.b64encode(value).decode("ascii")
    return value


def _is_map(field: _Field) -> bool:
    return (
        field.type == FieldDescriptor.TYPE_MESSAGE
        and field.message_type is not None
        and field.message_type.GetOptions().map_entry
    )


def _is_repeated(field: _Field) -> bool:
    # ``label`` is deprecated in recent protobuf releases in favour of ``is_repeated``.
    is_repeated = getattr(field, "is_repeated", None)
    if isinstance(is_repeated, bool):
        return is_repeated
    # older protobuf only; the stubs, written for a newer one, no longer declare it
    return bool(field.label == FieldDescriptor.LABEL_REPEATED)  # type: ignore[union-attr]


def to_dict(message: Message) -> dict[str, Any]:
    """Every field of ``message`` (recursively) as plain JSON-ready data."""
    out: dict[str, Any] = {}
    for field in message.DESCRIPTOR.fields:
        value = getattr(message, field.name)
        if _is_map(field):
            assert field.message_type is not None  # _is_map checked it
            value_field = field.message_type.fields_by_name["value"]
            out[field.name] = {
                str(k): to_dict(v) if value_field.type == FieldDescriptor.TYPE_MESSAGE else _scalar(value_field, v)
                for k, v in value.items()
            }
        elif _is_repeated(field):
            if field.type == FieldDescriptor.TYPE_MESSAGE:
                out[field.name] = [to_dict(v) for v in value]
            else:
                out[field.name] = [_scalar(field, v) for v in value]
        elif field.type == FieldDescriptor.TYPE_MESSAGE:
            if field.containing_oneof is not None and not message.HasField(field.name):
                continue
            out[field.name] = to_dict(value)
        else:
            if field.containing_oneof is not None and not message.HasField(field.name):
                continue
            out[field.name] = _scalar(field, value)
    return out


def settings_dict(settings: Message) -> dict[str, Any]:
    """A match's ``MatchSettings`` as JSON: :func:`to_dict`, every duration already integer
    milliseconds (``turn_timeout_ms``, ``bot_delay_ms``, ``time_bank_ms``): one time unit in
    everything the gateway sends (docs/protocol.md)."""
    return to_dict(settings)


def now_ms() -> int:
    """The gateway's clock (Unix ms): ``server_ms`` in every message of its WebSockets."""
    return int(time.time() * 1000)
