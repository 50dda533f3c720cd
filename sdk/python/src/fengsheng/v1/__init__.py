"""Generated protobuf modules (do not edit)."""
