"""Where the tests find the test vectors and the CLI they compare with."""

import os
from pathlib import Path

import pytest

# crates/python/tests -> the repository root, whose `testdata/` holds the test vectors, as the
# Rust tests find them (`CARGO_MANIFEST_DIR/../../testdata`).
REPO = Path(__file__).resolve().parents[3]
DATA = REPO / "testdata"


@pytest.fixture(scope="session")
def data() -> Path:
    assert DATA.is_dir(), f"the test vectors are missing: {DATA}"
    return DATA


@pytest.fixture(scope="session")
def ply_bin() -> Path:
    """The debug CLI (`cargo build -p ply`), or $PLY_BIN."""
    path = Path(os.environ.get("PLY_BIN", REPO / "target" / "debug" / "ply"))
    assert path.is_file(), f"build the CLI first (cargo build -p ply): {path} is missing"
    return path
