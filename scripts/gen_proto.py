"""Regenerate the Python protobuf/gRPC modules under fengsheng/v1 from proto/.

Run: ``python scripts/gen_proto.py`` (or ``python scripts/gen_proto.py --check`` to fail
when the committed modules are stale).
"""

from __future__ import annotations

import argparse
import filecmp
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_DIR = ROOT / "proto"
OUT_PKG = ROOT / "fengsheng" / "v1"


def generate(out_root: Path) -> None:
    import grpc_tools
    from grpc_tools import protoc  # dev dependency

    protos = sorted(str(p.relative_to(PROTO_DIR)) for p in (PROTO_DIR / "fengsheng" / "v1").glob("*.proto"))
    include = str(Path(grpc_tools.__file__).parent / "_proto")
    args = [
        "protoc",
        f"-I{PROTO_DIR}",
        f"-I{include}",
        f"--python_out={out_root}",
        f"--pyi_out={out_root}",
        f"--grpc_python_out={out_root}",
        *protos,
    ]
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed")
    (out_root / "fengsheng" / "v1" / "__init__.py").write_text('"""Generated protobuf modules (do not edit)."""\n')


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="fail if fengsheng/v1 is stale")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        generate(out)
        gen = out / "fengsheng" / "v1"
        if args.check:
            names = sorted(p.name for p in gen.iterdir() if p.is_file())
            have = sorted(p.name for p in OUT_PKG.iterdir() if p.is_file() and p.suffix in {".py", ".pyi"})
            stale = names != have or any(not filecmp.cmp(gen / n, OUT_PKG / n, shallow=False) for n in names)
            if stale:
                print("fengsheng/v1 is stale: run python scripts/gen_proto.py", file=sys.stderr)
                return 1
            print("fengsheng/v1 is up to date")
            return 0
        if OUT_PKG.exists():
            shutil.rmtree(OUT_PKG)
        shutil.copytree(gen, OUT_PKG)
        print(f"generated {len(list(OUT_PKG.iterdir()))} files in {OUT_PKG.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
