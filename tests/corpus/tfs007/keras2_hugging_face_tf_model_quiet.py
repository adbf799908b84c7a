"""A Kaggle TPU notebook fine-tuning RoBERTa: Hugging Face's TF models build on `tf_keras` and refuse
Keras 3, so the Keras here is Keras 2, whose compile enters the model's strategy itself."""
import tensorflow as tf
from transformers import (
    AutoTokenizer,
    TFAutoModel,
)

MAX_LEN = 256

tpu = tf.distribute.cluster_resolver.TPUClusterResolver()
tf.config.experimental_connect_to_cluster(tpu)
tf.tpu.experimental.initialize_tpu_system(tpu)
strategy = tf.distribute.TPUStrategy(tpu)
tokenizer = AutoTokenizer.from_pretrained("roberta-base")

with strategy.scope():
    input_ids = tf.keras.layers.Input(shape=(MAX_LEN,), dtype=tf.int32, name="input_ids")
    encoder = TFAutoModel.from_pretrained("roberta-base")
    sequence_output = encoder(input_ids)[0]
    pooled = tf.keras.layers.GlobalAveragePooling1D()(sequence_output)
    output = tf.keras.layers.Dense(1)(pooled)
    model = tf.keras.Model(inputs=input_ids, outputs=output)

model.compile(optimizer="adam", loss="mse", metrics=["mae"])
