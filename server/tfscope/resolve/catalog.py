"""The TF/Keras public API as data: canonical names and what calling them makes.

Every import style is first rewritten to one canonical spelling (``tf.keras.layers.Dense``,
``tensorflow.python.keras.layers.Dense`` and ``tf_keras.layers.Dense`` all become
``keras.layers.Dense``), then looked up here. No TensorFlow needed: jedi cannot see through
``tf.keras``'s lazy loader anyway.
"""

from __future__ import annotations

import enum
from functools import lru_cache
from typing import NamedTuple


class Api(str, enum.Enum):
    MODEL = "model"
    LAYER = "layer"
    OPTIMIZER = "optimizer"
    METRIC = "metric"
    VARIABLE = "variable"
    MODULE = "module"
    LOADED_MODEL = "loaded model"
    CHECKPOINT = "checkpoint"
    CHECKPOINT_MANAGER = "checkpoint manager"
    TRAINER = "trainer"  # trains a model under a strategy it is given
    LOSS = "loss"
    SCHEDULE = "schedule"
    INPUT = "input"
    DATA = "data"
    STRATEGY = "strategy"
    GET_STRATEGY = "get_strategy"
    SET_STRATEGY = "set_strategy"
    TPU_INIT = "tpu_init"
    TF_FUNCTION = "tf.function"
    NULL_CONTEXT = "nullcontext"
    EXIT_STACK = "ExitStack"
    CONTEXT_MANAGER = "contextmanager"
    ENVIRON = "environ"
    TF_OP = "tf op"  # any other TensorFlow/Keras call


# Objects that own variables and so must be created inside the strategy scope.
VARIABLE_OWNERS = frozenset(
    {Api.MODEL, Api.LAYER, Api.OPTIMIZER, Api.METRIC, Api.VARIABLE, Api.MODULE, Api.LOADED_MODEL}
)

# Roots of the import graph that tfscope understands; other imports are the user's project.
KNOWN_ROOTS = frozenset(
    {"tensorflow", "keras", "tf_keras", "transformers", "keras_hub", "keras_nlp", "keras_cv",
     "contextlib", "numpy", "pandas", "tensorflow_datasets", "tensorflow_hub", "os", "tf_agents",
     "tensorflow_recommenders"}
)

# Machine-learning frameworks none of whose classes is a TensorFlow or Keras one.
NON_TENSORFLOW_FRAMEWORKS = frozenset({"torch", "jax", "flax", "sklearn"})

# Names that mean one library by convention when the file never binds them (a star import, an
# earlier notebook): `tf.distribute.get_strategy()` is still TensorFlow's.
CONVENTIONAL_ALIASES = {"tf": "tensorflow", "tfds": "tensorflow_datasets", "hub": "tensorflow_hub"}

# Module-path rewrites to the canonical spelling (whole dotted components).
_CANONICAL_PREFIXES = (
    ("tensorflow.compat.v1", "tensorflow"),
    ("tensorflow.compat.v2", "tensorflow"),
    ("tensorflow.python.keras", "keras"),
    ("tensorflow.keras", "keras"),
    ("keras.api._v2.keras", "keras"),
    ("keras._tf_keras.keras", "keras"),
    ("tf_keras", "keras"),
    ("tensorflow.optimizers", "keras.optimizers"),
    ("tensorflow.metrics", "keras.metrics"),
    ("tensorflow.losses", "keras.losses"),
    ("tensorflow_recommenders.Model", "tensorflow_recommenders.models.Model"),
    ("tensorflow.distribute.experimental.TPUStrategy", "tensorflow.distribute.TPUStrategy"),
    ("tensorflow.distribute.experimental.MultiWorkerMirroredStrategy",
     "tensorflow.distribute.MultiWorkerMirroredStrategy"),
    ("tensorflow.distribute.experimental.ParameterServerStrategy",
     "tensorflow.distribute.ParameterServerStrategy"),
    ("tensorflow.distribute.experimental.CentralStorageStrategy",
     "tensorflow.distribute.CentralStorageStrategy"),
    ("keras_nlp", "keras_hub"),
    ("keras_cv", "keras_hub"),
    ("keras.preprocessing.image_dataset_from_directory", "keras.utils.image_dataset_from_directory"),
    ("keras.preprocessing.text_dataset_from_directory", "keras.utils.text_dataset_from_directory"),
    ("keras.saving.load_model", "keras.models.load_model"),
)

_EXACT = {
    "keras.Sequential": Api.MODEL,
    "keras.models.Sequential": Api.MODEL,
    "keras.Model": Api.MODEL,
    "keras.models.Model": Api.MODEL,
    "keras.models.clone_model": Api.MODEL,
    "keras.models.model_from_json": Api.MODEL,
    "keras.models.load_model": Api.LOADED_MODEL,
    "tensorflow.saved_model.load": Api.LOADED_MODEL,
    # a hub layer loads its SavedModel, variables included, in its constructor
    "tensorflow_hub.KerasLayer": Api.LOADED_MODEL,
    "tensorflow_hub.load": Api.LOADED_MODEL,
    "transformers.TFTrainer": Api.TRAINER,
    "keras.Input": Api.INPUT,
    "keras.layers.Input": Api.INPUT,
    "keras.layers.InputLayer": Api.INPUT,
    "tensorflow.Variable": Api.VARIABLE,
    "keras.Variable": Api.VARIABLE,
    "keras.backend.variable": Api.VARIABLE,
    "tensorflow.Module": Api.MODULE,
    "tensorflow.train.Checkpoint": Api.CHECKPOINT,
    "tensorflow.train.CheckpointManager": Api.CHECKPOINT_MANAGER,
    "keras.mixed_precision.LossScaleOptimizer": Api.OPTIMIZER,
    "keras.mixed_precision.experimental.LossScaleOptimizer": Api.OPTIMIZER,  # TF 2.1-2.3
    "tensorflow.distribute.get_strategy": Api.GET_STRATEGY,
    "tensorflow.distribute.experimental_set_strategy": Api.SET_STRATEGY,
    "tensorflow.tpu.experimental.initialize_tpu_system": Api.TPU_INIT,
    "tensorflow.function": Api.TF_FUNCTION,
    "contextlib.nullcontext": Api.NULL_CONTEXT,
    "contextlib.ExitStack": Api.EXIT_STACK,
    "contextlib.contextmanager": Api.CONTEXT_MANAGER,
    "os.environ": Api.ENVIRON,
    "keras.utils.image_dataset_from_directory": Api.DATA,
    "keras.utils.text_dataset_from_directory": Api.DATA,
    "keras.utils.timeseries_dataset_from_array": Api.DATA,
    "keras.utils.audio_dataset_from_directory": Api.DATA,
    "tensorflow_datasets.load": Api.DATA,
    "numpy.load": Api.DATA,
    "numpy.loadtxt": Api.DATA,
    "pandas.read_csv": Api.DATA,
    "pandas.read_parquet": Api.DATA,
}

STRATEGY_CLASSES = frozenset(
    {"MirroredStrategy", "MultiWorkerMirroredStrategy", "TPUStrategy", "ParameterServerStrategy",
     "OneDeviceStrategy", "CentralStorageStrategy"}
)

# Strategies whose creation must precede every other TensorFlow op (collectives, TPU system).
STARTUP_STRATEGIES = frozenset({"MultiWorkerMirroredStrategy", "TPUStrategy"})
# Strategies that configure the runtime's collective ops when created: once per program.
COLLECTIVE_STRATEGIES = frozenset({"MultiWorkerMirroredStrategy"})

# (canonical prefix, kind of an upper-case name below it); first match wins.
_CLASS_FAMILIES = (
    ("keras.optimizers.schedules.", Api.SCHEDULE),
    ("keras.optimizers.", Api.OPTIMIZER),
    ("keras.metrics.", Api.METRIC),
    ("keras.losses.", Api.LOSS),
    ("keras.layers.", Api.LAYER),
    ("keras.applications.", Api.MODEL),
    ("keras_hub.layers.", Api.LAYER),
    ("keras_hub.models.", Api.MODEL),
    # TF-Agents networks are Keras layers built at their first call (`create_variables()` makes
    # one): tensorflow/agents, tf_agents/networks/network.py
    ("tf_agents.networks.", Api.MODEL),
    # TensorFlow Recommenders' models subclass `keras.Model` and make their layers' weights at
    # the first call: tensorflow/recommenders, tensorflow_recommenders/models/base.py and
    # experimental/models/ranking.py (`class Ranking(models.Model)`)
    ("tensorflow_recommenders.models.", Api.MODEL),
    ("tensorflow_recommenders.experimental.models.", Api.MODEL),
)

# Keras's layers make their weights at their first call or `build` (`Layer._maybe_build`), under the
# strategy current there; these keep state made at construction or by `adapt` (lookup tables, a
# vocabulary, statistics), judged apart.
_LAYERS_WITH_CONSTRUCTED_STATE = frozenset({"StringLookup", "IntegerLookup", "TextVectorization", "Normalization",
                                            "Discretization"})


def builds_at_first_call(name: str) -> bool:
    """Whether the Keras layer class ``name`` (canonical) makes no weight until its first call or build."""
    return name.startswith("keras.layers.") and name.rsplit(".", 1)[-1] not in _LAYERS_WITH_CONSTRUCTED_STATE


# Models a library constructs without weights, made at their first call or build (as a subclassed
# Keras model's are): TF-Agents' networks, given only input specs, and TF Recommenders' models.
LAZILY_BUILT_MODELS = ("tf_agents.networks.", "tensorflow_recommenders.models.",
                       "tensorflow_recommenders.experimental.models.")

# Every name below these is data loading, whatever its case.
_DATA_PREFIXES = ("tensorflow.data.", "keras.datasets.")


class EagerContextFact(NamedTuple):
    """Whether calling these names initialises the eager context (`Context.ensure_initialized`),
    as TensorFlow's or Keras' source shows; each name covers the dotted names below it too."""

    names: tuple[str, ...]
    initialises: bool
    why: str
    source: str  # repository, path: function


# The most specific name that covers a call decides; a call no name covers is taken to run an
# op, and an eager op initialises the context (`quick_execute` calls `ensure_initialized`).
EAGER_CONTEXT_FACTS = (
    EagerContextFact(
        ("tensorflow.config",), False,
        "device and runtime options are kept until the context starts (and refused after)",
        "tensorflow/tensorflow, tensorflow/python/eager/context.py: Context.list_physical_devices, "
        "set_memory_growth, set_visible_devices, which only discover the physical devices"),
    EagerContextFact(
        ("tensorflow.config.list_logical_devices", "tensorflow.config.experimental.list_logical_devices",
         "tensorflow.config.experimental.get_memory_info", "tensorflow.config.experimental.get_memory_usage",
         "tensorflow.config.experimental.reset_memory_stats"), True,
        "lists or measures the devices of the running context",
        "tensorflow/tensorflow, tensorflow/python/eager/context.py: Context.list_logical_devices, "
        "get_memory_info, reset_memory_stats, each calling `ensure_initialized`"),
    EagerContextFact(
        ("tensorflow.config.experimental_connect_to_cluster", "tensorflow.config.experimental_connect_to_host"),
        True,
        "enters the cluster master's device scope, and `context.device` calls `ensure_initialized`",
        "tensorflow/tensorflow, tensorflow/python/eager/remote.py: connect_to_cluster"),
    EagerContextFact(
        ("tensorflow.distribute",), False,
        "cluster resolvers read the environment (TF_CONFIG, Slurm variables, nvidia-smi); options are "
        "plain objects",
        "tensorflow/tensorflow, tensorflow/python/distribute/cluster_resolver/slurm_cluster_resolver.py: "
        "SlurmClusterResolver.__init__"),
    EagerContextFact(
        ("tensorflow.test.is_built_with_cuda", "tensorflow.test.is_built_with_rocm",
         "tensorflow.test.is_built_with_gpu_support", "tensorflow.test.is_built_with_xla"), False,
        "reads a flag compiled into the binary",
        "tensorflow/tensorflow, tensorflow/python/platform/test.py: is_built_with_cuda, which returns "
        "`_test_util.IsGoogleCudaEnabled()`"),
    EagerContextFact(
        ("tensorflow.python.client.device_lib.list_local_devices", "tensorflow.test.is_gpu_available",
         "tensorflow.test.gpu_device_name"), False,
        "lists the devices through the C++ device factories, not the eager context",
        "tensorflow/tensorflow, tensorflow/python/client/device_lib.py: list_local_devices, which returns "
        "`_pywrap_device_lib.list_devices(...)`; tensorflow/python/framework/test_util.py: is_gpu_available "
        "and gpu_device_name, which iterate `device_lib.list_local_devices()`"),
    EagerContextFact(
        ("tensorflow.executing_eagerly", "tensorflow.compat.v1.executing_eagerly"), False,
        "reads the current thread's execution mode",
        "tensorflow/tensorflow, tensorflow/python/eager/context.py: executing_eagerly, which asks "
        "`context_safe()` and returns `Context.executing_eagerly()`, a thread-local flag"),
    EagerContextFact(
        ("tensorflow.random.set_seed", "tensorflow.set_random_seed", "tensorflow.random.set_random_seed",
         "keras.utils.set_random_seed"), False,
        "stores the global seed; kernel caches are cleared only when a context handle exists",
        "tensorflow/tensorflow, tensorflow/python/framework/random_seed.py: set_random_seed, and "
        "tensorflow/python/eager/context.py: Context._set_global_seed; keras-team/keras, "
        "keras/src/utils/rng_utils.py: set_random_seed"),
    EagerContextFact(
        ("keras.backend.clear_session", "keras.utils.clear_session"), False,
        "resets Keras' global state; kernel caches are cleared only when a context handle exists",
        "keras-team/keras, keras/src/backend/common/global_state.py: clear_session, and tensorflow/tensorflow, "
        "tensorflow/python/eager/context.py: Context.clear_kernel_cache"),
    EagerContextFact(
        ("tensorflow.debugging.set_log_device_placement",), False,
        "stores the option; it reaches the runtime only when a context handle exists",
        "tensorflow/tensorflow, tensorflow/python/eager/context.py: set_log_device_placement, "
        "Context.log_device_placement"),
    EagerContextFact(
        ("tensorflow.get_logger", "tensorflow.logging", "tensorflow.autograph"), False,
        "Python logging and AutoGraph's verbosity",
        "tensorflow/tensorflow, tensorflow/python/platform/tf_logging.py: get_logger, and "
        "tensorflow/python/autograph/utils/ag_logging.py: set_verbosity"),
    EagerContextFact(
        ("keras.mixed_precision.set_global_policy", "keras.mixed_precision.set_dtype_policy",
         "keras.mixed_precision.experimental.set_policy", "keras.mixed_precision.Policy",
         "keras.mixed_precision.DTypePolicy", "keras.mixed_precision.experimental.Policy",
         "keras.config.set_dtype_policy"), False,
        "stores the policy; Keras 2's device check lists physical devices only",
        "keras-team/keras, keras/src/dtype_policies/dtype_policy.py: set_dtype_policy; "
        "keras-team/tf-keras, tf_keras/mixed_precision/device_compatibility_check.py: "
        "log_device_compatibility_check"),
    EagerContextFact(
        ("tensorflow.estimator.RunConfig",), False,
        "parses TF_CONFIG into a cluster spec and a session config",
        "tensorflow/estimator, tensorflow_estimator/python/estimator/run_config.py: RunConfig.__init__"),
    EagerContextFact(
        ("tensorflow.data.Options", "tensorflow.data.experimental.DistributeOptions",
         "tensorflow.data.experimental.OptimizationOptions", "tensorflow.data.experimental.ThreadingOptions",
         "tensorflow.data.ThreadingOptions", "tensorflow.data.experimental.AutoShardPolicy"), False,
        "option holders and their enums, plain Python objects until a dataset is given them",
        "tensorflow/tensorflow, tensorflow/python/data/ops/options.py: Options and DistributeOptions, "
        "`options_lib.OptionsBase` subclasses whose fields `create_option` makes; AutoShardPolicy, an `enum.IntEnum`"),
    EagerContextFact(
        ("tensorflow.io.gfile",), False,
        "file-system calls through the C++ file system, not ops",
        "tensorflow/tensorflow, tensorflow/python/lib/io/file_io.py: file_exists_v2"),
    EagerContextFact(
        ("tensorflow.version", "tensorflow.__version__", "tensorflow.__git_version__",
         "tensorflow.__compiler_version__"), False,
        "build constants, plain strings (`tf.version.VERSION.startswith('2.')`)",
        "tensorflow/tensorflow, tensorflow/python/framework/versions.py: `VERSION = __version__`, set from "
        "`pywrap_tensorflow.__version__` at import"),
    EagerContextFact(
        ("tensorflow.app", "tensorflow.flags"), False,
        "absl's flags, and `app.run`, which parses them and calls `main`",
        "tensorflow/tensorflow, tensorflow/python/platform/app.py: run, which calls absl's `app.run(main=main, "
        "argv=argv, flags_parser=...)`; tensorflow/python/platform/flags.py, an import router for absl.flags"),
    EagerContextFact(
        ("tensorflow.TensorSpec", "tensorflow.sysconfig"), False,
        "a type description; build paths and flags",
        "tensorflow/tensorflow, tensorflow/python/framework/tensor_spec.py: TensorSpec, "
        "tensorflow/python/platform/sysconfig.py"),
    EagerContextFact(
        ("keras.datasets", "keras.utils.get_file", "keras.utils.to_categorical"), False,
        "downloads and numpy arrays on the host",
        "keras-team/keras, keras/src/datasets/mnist.py: load_data, which reads the download with `np.load`; "
        "keras/src/utils/numerical_utils.py: to_categorical"),
)


@lru_cache(maxsize=4096)
def initialises_eager_context(name: str) -> bool:
    """Whether calling the canonical TensorFlow/Keras ``name`` may initialise the eager context."""
    covering = [(len(covered), fact.initialises) for fact in EAGER_CONTEXT_FACTS for covered in fact.names
                if name == covered or name.startswith(covered + ".")]
    return max(covering)[1] if covering else True


# Names under these roots are not TensorFlow ops at all.
_NON_TF_ROOTS = ("contextlib.", "numpy.", "pandas.", "os.", "transformers.", "tensorflow_datasets.",
                  "tensorflow_hub.")

# Hub classes that load weights-free helpers, not models.
_NON_MODEL_SUFFIXES = ("Tokenizer", "Preprocessor", "ImageConverter", "AudioConverter", "Config")

# Keras layers that hold no weights: calling them outside the scope distributes nothing wrongly.
# Preprocessing layers whose state is adapted once and only read afterwards (no trainable weight).
READ_ONLY_STATE_LAYERS = frozenset(
    {"Normalization", "StringLookup", "IntegerLookup", "TextVectorization", "Discretization", "Hashing",
     "CategoryEncoding"}
)

WEIGHTLESS_LAYERS = frozenset(
    {"Flatten", "Dropout", "SpatialDropout1D", "SpatialDropout2D", "SpatialDropout3D", "Activation",
     "ReLU", "LeakyReLU", "ELU", "Softmax", "ThresholdedReLU", "Reshape", "Permute", "RepeatVector",
     "Concatenate", "Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum", "Dot",
     "Lambda", "Masking", "GaussianNoise", "GaussianDropout", "AlphaDropout", "ActivityRegularization",
     "MaxPooling1D", "MaxPooling2D", "MaxPooling3D", "AveragePooling1D", "AveragePooling2D",
     "AveragePooling3D", "MaxPool1D", "MaxPool2D", "MaxPool3D", "AvgPool1D", "AvgPool2D", "AvgPool3D",
     "GlobalAveragePooling1D", "GlobalAveragePooling2D", "GlobalAveragePooling3D",
     "GlobalMaxPooling1D", "GlobalMaxPooling2D", "GlobalMaxPooling3D", "GlobalAvgPool1D",
     "GlobalAvgPool2D", "GlobalMaxPool1D", "GlobalMaxPool2D", "Cropping1D", "Cropping2D",
     "Cropping3D", "ZeroPadding1D", "ZeroPadding2D", "ZeroPadding3D", "UpSampling1D",
     "UpSampling2D", "UpSampling3D", "Rescaling", "Resizing", "CenterCrop"}
) | frozenset(
    # Random augmentation layers keep a random generator's state, never a weight: TF 2.3-2.6 kept a
    # `tf.random.Generator` out of the layer's weights (and out of the strategy check, tensorflow/
    # tensorflow#41143), Keras 2.7-2.15 keep no variable, Keras 3 a non-trainable `SeedGenerator`
    # state; keras.io's EfficientNet fine-tuning example makes them before its TPU/GPU scope.
    {"RandomFlip", "RandomRotation", "RandomTranslation", "RandomZoom", "RandomContrast", "RandomCrop",
     "RandomHeight", "RandomWidth", "RandomBrightness", "RandomSaturation", "RandomHue", "RandomGrayscale",
     "RandomSharpness", "RandomShear", "RandomColorJitter", "RandomColorDegeneration", "RandomPosterization",
     "RandomInvert", "RandomErasing", "RandomGaussianBlur", "RandomPerspective", "RandomElasticTransform",
     "AugMix", "RandAugment", "CutMix", "MixUp", "Solarization", "AutoContrast", "Equalization"}
)


@lru_cache(maxsize=4096)
def canonical(dotted: str) -> str:
    rewritten = True
    while rewritten:
        rewritten = False
        for old, new in _CANONICAL_PREFIXES:
            if dotted == old or dotted.startswith(old + "."):
                dotted = new + dotted[len(old):]
                rewritten = True
    return dotted


@lru_cache(maxsize=4096)
def classify(name: str) -> Api | None:
    """What calling the canonical ``name`` creates, or None when unknown."""
    if name in _EXACT:
        return _EXACT[name]
    root, _, rest = name.partition(".")
    last = name.rsplit(".", 1)[-1]
    if root == "tensorflow" and rest.startswith("distribute.") and last in STRATEGY_CLASSES:
        return Api.STRATEGY
    if name.startswith(_DATA_PREFIXES):
        return Api.DATA
    if name.startswith("transformers."):
        return _classify_transformers(rest)
    for prefix, kind in _CLASS_FAMILIES:
        if name.startswith(prefix):
            return _classify_family(name[len(prefix):], kind)
    if name.startswith(_NON_TF_ROOTS):
        return None
    if root in ("tensorflow", "keras"):
        return Api.TF_OP
    return None


# Upper-case names of Keras's loss and metric modules that are functions, not classes
# (tensorflow/python/keras/losses.py and metrics.py: `mse = MSE = mean_squared_error`, ...)
_FUNCTION_ALIASES = frozenset({"MSE", "MAE", "MAPE", "MSLE", "KLD"})


def _classify_family(tail: str, kind: Api) -> Api | None:
    parts = tail.split(".")
    if kind is Api.MODEL and parts[-1] in ("from_preset", "from_pretrained"):
        parts = parts[:-1]
    if not parts or not parts[-1][:1].isupper() or (kind in (Api.LOSS, Api.METRIC) and parts[-1] in _FUNCTION_ALIASES):
        return Api.TF_OP
    if "Reduction" in parts:
        return None
    if kind in (Api.MODEL, Api.LAYER) and parts[-1].endswith(_NON_MODEL_SUFFIXES):
        return None
    if kind is Api.LAYER and parts[-1] in ("Input", "InputLayer"):
        return Api.INPUT
    return kind


def _classify_transformers(tail: str) -> Api | None:
    parts = tail.split(".")
    if parts[-1] == "from_pretrained":
        parts = parts[:-1]
    name = parts[-1] if parts else ""
    # TFBertModel, TFAutoModelForSequenceClassification, TFT5ForConditionalGeneration; not TFTrainingArguments
    if name.startswith("TF") and ("Model" in name or "For" in name) and not name.endswith(_NON_MODEL_SUFFIXES):
        return Api.MODEL
    return None


def base_class_kind(name: str) -> Api | None:
    """The kind of object a user class deriving from the canonical ``name`` is."""
    kind = classify(name)
    if kind is Api.INPUT:
        return None
    if kind in VARIABLE_OWNERS or kind is Api.LOSS:
        return kind
    return None
