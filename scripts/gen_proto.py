"""Regenerate the Python protobuf/gRPC modules ``fengsheng.v1`` from proto/, into the one
place that ships them: the standalone bot SDK (``sdk/python/src/fengsheng/v1``), which the
platform installs beside itself and imports them from (docs/decisions.md, "The bot SDK is
its own distribution": ``fengsheng/__init__.py`` joins the SDK's ``fengsheng.v1`` portion).

Run: ``python scripts/gen_proto.py`` (or ``python scripts/gen_proto.py --check`` to fail
when the committed copy is stale, or when a second copy sits in the platform's
``fengsheng/v1`` again).
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
#: the generated package: the SDK's (the platform imports it from there)
OUT_PKGS = (ROOT / "sdk" / "python" / "src" / "fengsheng" / "v1",)
#: where the platform kept a second copy once: it must not come back (it would shadow nothing,
#: ``fengsheng/__init__.py`` extends the package path, but would go stale unseen)
NO_COPY = ROOT / "fengsheng" / "v1"


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
    # PEP 561: the modules come with their .pyi stubs, so type checkers read them as typed
    (out_root / "fengsheng" / "v1" / "py.typed").write_text("")


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
            if any(NO_COPY.glob("*.py*")):  # a leftover __pycache__ alone imports nothing
                print(f"{NO_COPY.relative_to(ROOT)} is a second copy of the generated modules: delete it (the "
                      "platform imports the SDK's, sdk/python/src/fengsheng/v1)", file=sys.stderr)  # fmt: skip
                return 1
            stale = []
            for pkg in OUT_PKGS:
                have = sorted(p.name for p in pkg.iterdir() if p.is_file() and p.suffix in {".py", ".pyi", ".typed"}) \
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
