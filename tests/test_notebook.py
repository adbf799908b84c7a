"""Notebooks: cells concatenated into one program, IPython syntax masked, edits written back."""

from __future__ import annotations

import ast
import json

import pytest

from tfscope.diagnostics import Edit
from tfscope.notebook import (
    NotebookError,
    cell_position,
    edited_source,
    mask_ipython,
    notebook_source,
    read_notebook,
    updated_notebook,
)


def _notebook(*cells: tuple[str, str | list[str]], language: str = "python", **extra) -> dict:
    return {
        "cells": [
            {"cell_type": kind, "metadata": {}, "source": source, **({"outputs": [], "execution_count": None} if kind == "code" else {})}
            for kind, source in cells
        ],
        "metadata": {"language_info": {"name": language}},
        "nbformat": 4,
        "nbformat_minor": 5,
        **extra,
    }


def _jupyter_json(notebook: dict) -> str:
    """What Jupyter writes: indent 1, non-ASCII kept, a trailing newline."""
    return json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------- masking

IPYTHON_LINES = [
    "%matplotlib inline",
    "!pip install tensorflow",
    "   !ls -la",
    "files = !ls",
    "timing = %timeit -o f()",
    "tf.keras?",
    "tf.keras.Model??",
    "?tf.keras",
    "??tf.keras",
]


@pytest.mark.parametrize("line", IPYTHON_LINES)
def test_ipython_lines_become_a_zero_expression_of_the_same_length(line):
    indent = line[: len(line) - len(line.lstrip())]
    assert mask_ipython(line + "\n") == indent + "0" + " " * (len(line) - len(indent) - 1) + "\n"


PYTHON_LINES = [
    "x = 5 % 3",
    "ok = a != b",
    "if a == b: pass",
    "s = '%d items' % n",
    "print('why?')",
    "x = 1  # really?",
    "d = {'?': 1}",
]


@pytest.mark.parametrize("line", PYTHON_LINES)
def test_python_lines_are_left_alone(line):
    assert mask_ipython(line + "\n") == line + "\n"


def test_magics_inside_strings_and_brackets_are_not_masked():
    text = "s = '''\n%not a magic\n!nor this\n'''\ncall(\n    %s\n)\n"
    assert mask_ipython(text) == text


def test_magic_in_an_indented_block_keeps_the_block_valid():
    text = "for i in range(2):\n    !echo $i\nprint(i)\n"
    masked = mask_ipython(text)
    assert masked == "for i in range(2):\n    0       \nprint(i)\n"
    ast.parse(masked)


def test_backslash_continued_magic_is_masked_to_its_end():
    text = "!pip install \\\n    tensorflow\nimport tensorflow\n"
    masked = mask_ipython(text)
    assert masked.splitlines()[2] == "import tensorflow"
    assert len(masked) == len(text)
    ast.parse(masked)


@pytest.mark.parametrize("magic", ["%%bash", "%%writefile train.sh", "%%html", "%%python2"])
def test_non_python_cell_magic_masks_the_whole_cell(magic):
    text = f"{magic}\necho hi\n  if true; then echo x; fi\nlast"
    masked = mask_ipython(text)
    assert len(masked) == len(text)
    assert masked.count("\n") == text.count("\n")
    assert "echo" not in masked and "last" not in masked
    ast.parse(masked)


@pytest.mark.parametrize("magic", ["%%time", "%%timeit -n 1", "%%capture output"])
def test_python_body_cell_magic_masks_only_its_line(magic):
    body = "model = build()\nmodel.fit(x)"
    masked = mask_ipython(f"\n{magic}\n{body}")
    assert masked.endswith("\n" + body)
    assert masked.splitlines()[1].startswith("0")
    ast.parse(masked)


def test_crlf_line_breaks_are_kept():
    text = "%time f()\r\nx = 1\r\n"
    assert mask_ipython(text) == "0        \r\nx = 1\r\n"


# ---------------------------------------------------------------- concatenation


def test_cells_are_concatenated_with_a_separator_and_mapped():
    source = notebook_source([(0, "import os", None), (2, "x = 1\n%ls", "cell-uri")], path="nb.ipynb")
    assert source.text == "import os\nx = 1\n%ls\n"
    assert source.code == "import os\nx = 1\n0  \n"
    first, second = source.cells
    assert (first.index, source.text[first.start : first.end], first.uri) == (0, "import os", None)
    assert (second.index, source.text[second.start : second.end], second.uri) == (2, "x = 1\n%ls", "cell-uri")
    assert source.path == "nb.ipynb" and source.is_notebook


def test_cell_position_counts_rows_within_the_cell():
    source = notebook_source([(0, "a = 1\nb = 2", None), (3, "\n\nmodel = M()", None)])
    offset = source.text.index("M()")
    assert cell_position(source, offset) == (3, 2, 8)
    assert cell_position(source, source.text.index("b")) == (0, 1, 0)


def test_cell_position_needs_a_notebook():
    with pytest.raises(ValueError):
        cell_position(notebook_source([]), 0)


# ---------------------------------------------------------------- reading .ipynb


def test_read_notebook_takes_code_cells_in_order_and_counts_every_cell():
    raw = _jupyter_json(
        _notebook(
            ("markdown", "# Title"),
            ("code", ["import tensorflow as tf\n", "!nvidia-smi\n", "x = 1"]),
            ("raw", "raw text"),
            ("code", "y = 2"),
        )
    )
    source = read_notebook(raw, path="train.ipynb")
    assert [cell.index for cell in source.cells] == [1, 3]
    assert source.text == "import tensorflow as tf\n!nvidia-smi\nx = 1\ny = 2\n"
    assert source.code == "import tensorflow as tf\n0          \nx = 1\ny = 2\n"
    assert source.path == "train.ipynb"


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("{not json", "not valid notebook JSON"),
        ("[1, 2]", "not an object"),
        ('{"nbformat": 4}', "no 'cells' list"),
        ('{"nbformat": 3, "worksheets": []}', "nbformat 3"),
        ('{"nbformat": 4, "cells": [{"cell_type": "code", "source": 5}]}', "cell 1"),
        ('{"nbformat": 4, "cells": ["x"]}', "cell 1 is not an object"),
    ],
)
def test_broken_notebooks_raise_a_clear_error(raw, message):
    with pytest.raises(NotebookError, match=message):
        read_notebook(raw)


def test_a_notebook_in_another_language_is_refused():
    raw = _jupyter_json(_notebook(("code", "println(1)"), language="julia"))
    with pytest.raises(NotebookError, match="not a Python notebook.*julia"):
        read_notebook(raw)


def test_a_pyspark_kernel_notebook_is_python():
    """Sparkmagic's PySpark kernel (Databricks exports) names its language `pyspark`; the kernel
    spec and the lexer say Python."""
    notebook = _notebook(("code", "import tensorflow as tf"), language="pyspark")
    notebook["metadata"]["language_info"]["pygments_lexer"] = "python3"
    notebook["metadata"]["kernelspec"] = {"display_name": "PySpark", "language": "python", "name": "pysparkkernel"}
    assert read_notebook(_jupyter_json(notebook)).text.startswith("import tensorflow as tf")


# ---------------------------------------------------------------- edits and write-back


def test_text_inserted_at_a_cell_end_stays_in_that_cell():
    source = notebook_source([(0, "with s.scope():\n    a = 1", None), (1, "model = M()\nfit()", None)])
    model_line = source.text.index("model")
    edits = [
        Edit(source.cells[0].end, source.cells[0].end, "\n    model = M()"),
        Edit(model_line, model_line + len("model = M()\n"), ""),
    ]
    edited = edited_source(source, edits)
    cells = [edited.text[cell.start : cell.end] for cell in edited.cells]
    assert cells == ["with s.scope():\n    a = 1\n    model = M()", "fit()"]
    assert [cell.index for cell in edited.cells] == [0, 1]


def test_an_edit_across_cells_is_refused():
    source = notebook_source([(0, "a = 1", None), (1, "b = 2", None)])
    with pytest.raises(ValueError):
        edited_source(source, [Edit(2, source.cells[1].start + 1, "")])


def test_updated_notebook_changes_only_the_edited_cell_sources():
    notebook = _notebook(
        ("markdown", ["# Über"]),
        ("code", ["import tensorflow as tf\n", "x = 1"]),
        ("code", "y = 2"),
    )
    notebook["cells"][1]["outputs"] = [{"output_type": "stream", "name": "stdout", "text": ["hi\n"]}]
    raw = _jupyter_json(notebook)
    source = read_notebook(raw)
    x_offset = source.text.index("x = 1")
    new_raw = updated_notebook(raw, edited_source(source, [Edit(x_offset, x_offset + 5, "x = 10\nz = 3")]))

    expected = json.loads(raw)
    expected["cells"][1]["source"] = ["import tensorflow as tf\n", "x = 10\n", "z = 3"]
    assert new_raw == _jupyter_json(expected)
    assert "Über" in new_raw


def test_updated_notebook_keeps_string_sources_and_compact_json():
    notebook = _notebook(("code", "a = 1\nb = 2"))
    raw = json.dumps(notebook)
    source = read_notebook(raw)
    new_raw = updated_notebook(raw, edited_source(source, [Edit(0, 5, "a = 0")]))
    assert new_raw == json.dumps({**notebook, "cells": [{**notebook["cells"][0], "source": "a = 0\nb = 2"}]})


def test_updated_notebook_without_changes_returns_the_file_unchanged():
    raw = '{"cells": [{"cell_type": "code", "source": ["a = 1"], "metadata": {}, "outputs": []}],\n "metadata": {}, "nbformat": 4, "nbformat_minor": 2}'
    assert updated_notebook(raw, read_notebook(raw)) == raw


def test_the_tensorflow_version_a_notebook_printed_decides_its_keras(monkeypatch):
    """A notebook that ran `print(tf.__version__)` under TF 2.4 compiles with Keras 2, whose
    `compile` enters the model's strategy: a string optimizer there is not TFS007."""
    from tfscope import engine

    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("CONDA_PREFIX", raising=False)
    cells = [
        {"cell_type": "code", "metadata": {}, "source": "import tensorflow as tf\nprint(tf.__version__)",
         "outputs": [{"output_type": "stream", "name": "stdout", "text": ["2.4.1\n"]}], "execution_count": 1},
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": 2, "source":
         "strategy = tf.distribute.MirroredStrategy()\nwith strategy.scope():\n"
         "    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])\n"
         "model.compile(optimizer='adam', loss='mse')"},
    ]
    raw = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    source = read_notebook(raw, "train.ipynb")
    assert source.recorded.tensorflow == "2.4.1"
    assert engine.analyze(source).diagnostics == []
    newer = read_notebook(raw.replace("2.4.1", "2.17.0"), "train.ipynb")
    (finding,) = engine.analyze(newer).diagnostics
    assert finding.code == "TFS007" and "TensorFlow 2.17.0" in finding.message


def test_a_tensorflow_version_a_cell_displayed_counts_like_a_printed_one():
    """`tf.__version__` as a cell's last expression shows its repr, quoted, with a pre-release
    suffix on Colab's early builds: `'2.2.0-rc2'` is TensorFlow 2.2."""
    cells = [{"cell_type": "code", "metadata": {}, "source": "import tensorflow as tf\ntf.__version__",
              "outputs": [{"output_type": "execute_result", "execution_count": 1, "metadata": {},
                           "data": {"text/plain": ["'2.2.0-rc2'"]}}], "execution_count": 1}]
    raw = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    assert read_notebook(raw, "train.ipynb").recorded.tensorflow == "2.2.0"
    assert read_notebook(raw.replace("2.2.0-rc2", "2.15.1"), "train.ipynb").recorded.tensorflow == "2.15.1"


def test_what_only_tensorflow_2_1_printed_dates_a_notebook(monkeypatch):
    """A notebook whose run printed TF 2.0-2.1's `fit` header (or its `tensorflow_core` paths)
    ran OptimizerV2: an optimizer made outside the scope and compiled in it makes its variables
    under the model's strategy at the first step."""
    from tfscope import engine

    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("CONDA_PREFIX", raising=False)
    fit_output = {"output_type": "stream", "name": "stdout", "text": ["Train for 170 steps\n", "Epoch 1/3\n"]}
    cells = [
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": 1, "source":
         "import tensorflow as tf\nstrategy = tf.distribute.MirroredStrategy()\nwith strategy.scope():\n"
         "    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])"},
        {"cell_type": "code", "metadata": {}, "outputs": [fit_output], "execution_count": 2, "source":
         "model.compile(optimizer=tf.keras.optimizers.Adam(1e-3), loss='mse')\nmodel.fit(x, y, epochs=3)"},
    ]
    raw = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    source = read_notebook(raw, "train.ipynb")
    assert (source.recorded.tensorflow, "fit` header" in source.recorded.tensorflow_shown_by) == ("2.1", True)
    assert engine.analyze(source).diagnostics == []
    traceback = {"output_type": "stream", "name": "stderr",
                 "text": ["W0412 /usr/local/lib/python3.6/site-packages/tensorflow_core/python/ops/x.py:12: warning\n"]}
    cells[1]["outputs"] = [traceback]
    dated = read_notebook(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}), "t.ipynb")
    assert dated.recorded.tensorflow == "2.1" and engine.analyze(dated).diagnostics == []
    cells[1]["outputs"] = []
    undated = read_notebook(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}), "t.ipynb")
    assert [d.code for d in engine.analyze(undated).diagnostics] == ["TFS002"]


def test_a_notebooks_dated_markdown_header_dates_its_code(monkeypatch):
    """keras-io's notebooks open with `**Last modified:** 2020/07/16` in markdown: the code was
    written for TensorFlow 2.3 at the newest, whose OptimizerV2 makes its variables at the first
    step; a header after TensorFlow 2.11 leaves the optimizer reported."""
    from tfscope import engine

    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("CONDA_PREFIX", raising=False)

    def notebook(header: str):
        cells = [
            {"cell_type": "markdown", "metadata": {}, "source": ["# Fine-tuning\n", "\n",
                                                               f"**Author:** someone<br>\n{header}"]},
            {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": 1, "source":
             "import tensorflow as tf\nstrategy = tf.distribute.MirroredStrategy()\nwith strategy.scope():\n"
             "    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])"},
            {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": 2, "source":
             "model.compile(optimizer=tf.keras.optimizers.Adam(1e-3), loss='mse')\nmodel.fit(x, y, epochs=3)"},
        ]
        return read_notebook(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}),
                             "finetune.ipynb")

    dated = notebook("**Last modified:** 2020/07/16<br>")
    assert dated.recorded.last_modified == "Last modified:** 2020/07/16"
    assert engine.analyze(dated).diagnostics == []
    [finding] = engine.analyze(notebook("**Last modified:** 2023/02/14<br>")).diagnostics
    assert finding.code == "TFS002" and "last modified on 2023-02-14, when TensorFlow 2.11" in finding.message
    assert [d.code for d in engine.analyze(notebook("")).diagnostics] == ["TFS002"]


def test_the_python_a_notebook_last_ran_on_rules_out_keras_3(monkeypatch):
    """Keras 3 needs Python 3.9: a notebook its kernel saved under Python 3.6 (`language_info`)
    ran TensorFlow 2.6 at the newest, whose Keras 2 `compile` enters the model's strategy."""
    from tfscope import engine

    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("CONDA_PREFIX", raising=False)
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": 1, "source":
              "import tensorflow as tf\nstrategy = tf.distribute.MirroredStrategy()\nwith strategy.scope():\n"
              "    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])\n"
              "model.compile(optimizer='adam', loss='mse')"}]

    def notebook(python_version):
        metadata = {"language_info": {"name": "python", "version": python_version}}
        return read_notebook(json.dumps({"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}),
                             "train.ipynb")

    assert notebook("3.6.5").recorded.python == "3.6.5"
    assert engine.analyze(notebook("3.6.5")).diagnostics == []
    (finding,) = engine.analyze(notebook("3.10.12")).diagnostics
    assert finding.code == "TFS007"
    assert [d.code for d in engine.analyze(notebook("not a version")).diagnostics] == ["TFS007"]


def test_the_progress_bar_a_notebooks_fit_printed_names_its_keras(monkeypatch):
    """Keras 2 prints `[====] - 2s`, Keras 3 `━━━━`: the notebook's own run says which compiled
    it, so a string optimizer compiled outside the scope is fine under the first only."""
    from tfscope import engine

    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("CONDA_PREFIX", raising=False)

    def notebook(*printed: str):
        fit = {"cell_type": "code", "metadata": {}, "execution_count": 2, "source": "model.fit(x, y, epochs=2)",
               "outputs": [{"output_type": "stream", "name": "stdout", "text": list(printed)}]}
        cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": 1, "source":
                  "import tensorflow as tf\nstrategy = tf.distribute.MirroredStrategy()\nwith strategy.scope():\n"
                  "    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])\n"
                  "model.compile(optimizer='adam', loss='mse')"}, fit]
        return read_notebook(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}),
                             "train.ipynb")

    keras_2 = notebook("Epoch 1/2\n", "\r 1/12 [=>............................] - ETA: 3s - loss: 0.9",
                       "\r12/12 [==============================] - 2s 9ms/step - loss: 0.7\n")
    keras_3 = notebook("Epoch 1/2\n", "\x1b[1m12/12\x1b[0m \x1b[32m\u2501\u2501\u2501\u2501\x1b[0m 2s 9ms/step - loss: 0.7\n")
    assert (keras_2.recorded.keras, keras_3.recorded.keras) == (2, 3)
    assert engine.analyze(keras_2).diagnostics == []
    (finding,) = engine.analyze(keras_3).diagnostics
    assert finding.code == "TFS007" and "Keras 3's progress bar" in finding.message
    both = notebook("12/12 [==============================] - 2s 9ms/step\n", "12/12 \u2501\u2501\u2501 2s\n")
    assert both.recorded.keras is None  # two runs under different Keras: the bars name none


def test_keras_2_bars_and_the_kernels_python_date_the_optimizers(monkeypatch):
    """Keras 2's bar names the major; a kernel on Python 3.6 (TensorFlow 2.6 at the newest) also says
    OptimizerV2, whose variables an optimizer made outside the scope makes at its first step."""
    from tfscope import engine

    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("CONDA_PREFIX", raising=False)

    def notebook(metadata: dict):
        cells = [{"cell_type": "code", "metadata": {}, "execution_count": 1, "source":
                  "import tensorflow as tf\nstrategy = tf.distribute.MirroredStrategy()\n"
                  "optimizer = tf.keras.optimizers.Adam(1e-3)\nwith strategy.scope():\n"
                  "    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])\n"
                  "    model.compile(optimizer=optimizer, loss='mse')\nmodel.fit(x, y, epochs=2)",
                  "outputs": [{"output_type": "stream", "name": "stdout",
                               "text": ["12/12 [==============================] - 2s 9ms/step - loss: 0.7\n"]}]}]
        raw = json.dumps({"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5})
        return [d.code for d in engine.analyze(read_notebook(raw, "train.ipynb")).diagnostics]

    assert notebook({"language_info": {"name": "python", "version": "3.6.9"}}) == []
    assert notebook({}) == ["TFS002"]


def test_a_saved_notebook_too_large_to_parse_quickly_records_nothing(tmp_path, monkeypatch):
    """The editor reads a saved notebook's last run when it is opened or saved: a huge file is
    skipped rather than holding up the open (outputs full of images)."""
    from tfscope import notebook

    path = tmp_path / "train.ipynb"
    path.write_text(json.dumps({"cells": [], "metadata": {"language_info": {"name": "python", "version": "3.6.9"}},
                                "nbformat": 4, "nbformat_minor": 5}))
    assert notebook.saved_run(str(path)).python == "3.6.9"
    monkeypatch.setattr(notebook, "_SAVED_RUN_MAX_BYTES", path.stat().st_size - 1)
    assert notebook.saved_run(str(path)).python is None
