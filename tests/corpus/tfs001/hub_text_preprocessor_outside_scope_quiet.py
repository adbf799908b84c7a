"""BERT on TPU: the text preprocessing model from TF Hub has no trainable parameters (its model
card: "can be used in an input pipeline outside the training loop"), so building it before the
scope is fine; the encoder, which holds the weights, is made inside."""
import tensorflow as tf
import tensorflow_hub as hub
import tensorflow_text  # noqa: F401  (registers the preprocessing ops)

PREPROCESSOR_URL = "https://tfhub.dev/tensorflow/bert_en_uncased_preprocess/3"
ENCODER_URL = "https://tfhub.dev/tensorflow/bert_en_uncased_L-12_H-768_A-12/4"

resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="")
tf.config.experimental_connect_to_cluster(resolver)
tf.tpu.experimental.initialize_tpu_system(resolver)
strategy = tf.distribute.TPUStrategy(resolver)

preprocessor = hub.KerasLayer(PREPROCESSOR_URL, name="preprocessing")
text_input = tf.keras.layers.Input(shape=(), dtype=tf.string, name="text")
encoder_inputs = preprocessor(text_input)

with strategy.scope():
    encoder = hub.KerasLayer(ENCODER_URL, trainable=True, name="encoder")
    pooled = encoder(encoder_inputs)["pooled_output"]
    logits = tf.keras.layers.Dense(1)(pooled)
    model = tf.keras.Model(text_input, logits)
    model.compile(optimizer=tf.keras.optimizers.Adam(2e-5), loss=tf.keras.losses.BinaryCrossentropy(from_logits=True))
