"""A scikit-learn-style estimator (the WellcomeML shape): `fit` makes the model with
`initialise_models()` before the multi-GPU strategy exists and compiles it in the scope; a
subclass overrides `initialise_models` and reaches the base `fit` through `super().fit`. Each
class's own `initialise_models` call makes its model outside the scope."""
# corpus: keras-version=2
import tensorflow as tf
from transformers import TFBertForSequenceClassification


class SemanticEquivalenceClassifier:
    def __init__(self, learning_rate=1e-5):
        self.learning_rate = learning_rate
        self.model = None

    def initialise_models(self):
        self.model = TFBertForSequenceClassification.from_pretrained("bert-base-cased", num_labels=2)
        return self.model

    def _compile_model(self):
        optimizer = tf.keras.optimizers.Adam(learning_rate=self.learning_rate, epsilon=1e-08)
        self.model.compile(optimizer=optimizer, loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))

    def _get_distributed_strategy(self):
        if len(tf.config.list_physical_devices("GPU")) > 1:
            return tf.distribute.MirroredStrategy()
        return tf.distribute.get_strategy()

    def fit(self, X, y, epochs=3):
        self.initialise_models()  # expect: TFS001
        strategy = self._get_distributed_strategy()
        with strategy.scope():
            self._compile_model()
        return self.model.fit(X, y, epochs=epochs)


class SemanticEquivalenceMetaClassifier(SemanticEquivalenceClassifier):
    def __init__(self, n_numerical_features, **kwargs):
        super().__init__(**kwargs)
        self.n_numerical_features = n_numerical_features

    def initialise_models(self):
        bert = super().initialise_models()
        text_ids = tf.keras.layers.Input(shape=(128,), dtype=tf.int32)
        numbers = tf.keras.layers.Input(shape=(self.n_numerical_features,))
        x = tf.keras.layers.concatenate([bert.bert(text_ids)[1], numbers])
        x = tf.keras.layers.Dense(2)(x)
        self.model = tf.keras.Model([text_ids, numbers], x)  # expect: TFS001

    def fit(self, X, y, **kwargs):
        return super().fit(X, y, **kwargs)
