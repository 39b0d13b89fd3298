"""The README's Python examples run as written: every ```python block of its Python section
is a doctest, run from the repository root (the examples read testdata/)."""

import doctest
import os
import re

from conftest import REPO


def python_blocks():
    readme = (REPO / "README.md").read_text()
    section = readme.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def test_the_readme_python_examples_give_what_they_show():
    blocks = python_blocks()
    assert blocks, "the README's Python section has no ```python block"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        for i, block in enumerate(blocks):
            test = parser.get_doctest(block, {}, f"README.md python block {i + 1}", "README.md", 0)
            assert test.examples, f"block {i + 1} has no >>> example"
            runner.run(test)
    finally:
        os.chdir(cwd)
    summary = runner.summarize(verbose=False)
    assert summary.failed == 0, f"{summary.failed} of {summary.attempted} README examples failed (see above)"
