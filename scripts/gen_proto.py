"""Regenerate the Python protobuf/gRPC modules ``fengsheng.v1`` from proto/, into both
places that ship them: the platform (``fengsheng/v1``) and the standalone bot SDK
(``sdk/python/src/fengsheng/v1``, docs/decisions.md "One generator, two copies").

Run: ``python scripts/gen_proto.py`` (or ``python scripts/gen_proto.py --check`` to fail
when either committed copy is stale or differs from the other).
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
#: every copy of the generated package: the platform's, the SDK's (byte for byte the same)
OUT_PKGS = (ROOT / "fengsheng" / "v1", ROOT / "sdk" / "python" / "src" / "fengsheng" / "v1")


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
    parser.add_argument("--check", action="store_true", help="fail if a copy of fengsheng/v1 is stale")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        generate(out)
        gen = out / "fengsheng" / "v1"
        names = sorted(p.name for p in gen.iterdir() if p.is_file())
        if args.check:
            stale = []
            for pkg in OUT_PKGS:
                have = sorted(p.name for p in pkg.iterdir() if p.is_file() and p.suffix in {".py", ".pyi"}) \
                    if pkg.is_dir() else []  # fmt: skip
                if names != have or any(not filecmp.cmp(gen / n, pkg / n, shallow=False) for n in names):
                    stale.append(str(pkg.relative_to(ROOT)))
            if stale:
                print(f"{', '.join(stale)} stale: run python scripts/gen_proto.py", file=sys.stderr)
                return 1
            print(f"{', '.join(str(p.relative_to(ROOT)) for p in OUT_PKGS)} up to date")
            return 0
        for pkg in OUT_PKGS:
            if pkg.exists():
                shutil.rmtree(pkg)
            shutil.copytree(gen, pkg)
            print(f"generated {len(names)} files in {pkg.relative_to(ROOT)}")
    return 0

if __name__ == "__main__":
    sys.exit(main())
