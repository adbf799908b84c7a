"""Correct: fine-tuning a KerasHub BERT classifier on a Cloud TPU.

TPU initialisation comes first, before any other TensorFlow op; the model and optimizer are
created in the TPUStrategy scope; the tokenizing preprocessor owns no variables and stays outside.
"""

import keras
import keras_hub
import tensorflow as tf

resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="")
tf.config.experimental_connect_to_cluster(resolver)
tf.tpu.experimental.initialize_tpu_system(resolver)
strategy = tf.distribute.TPUStrategy(resolver)
print("TPU cores:", strategy.num_replicas_in_sync)

PRESET = "bert_base_en_uncased"
SEQUENCE_LENGTH = 128
GLOBAL_BATCH_SIZE = 32 * strategy.num_replicas_in_sync

preprocessor = keras_hub.models.BertTextClassifierPreprocessor.from_preset(PRESET, sequence_length=SEQUENCE_LENGTH)


def make_dataset(texts, labels, training: bool) -> tf.data.Dataset:
    dataset = tf.data.Dataset.from_tensor_slices((texts, labels))
    if training:
        dataset = dataset.shuffle(10_000)
    # TPUs need static shapes: drop the last partial batch
    return dataset.batch(GLOBAL_BATCH_SIZE, drop_remainder=True).map(preprocessor, num_parallel_calls=tf.data.AUTOTUNE)


train_ds = make_dataset(["a delight from start to end", "two hours I will not get back"] * 512, [1, 0] * 512, True)
val_ds = make_dataset(["wonderful", "tedious"] * 64, [1, 0] * 64, False)

with strategy.scope():
    classifier = keras_hub.models.BertTextClassifier.from_preset(PRESET, num_classes=2, preprocessor=None)
    classifier.compile(
        optimizer=keras.optimizers.AdamW(learning_rate=5e-5, weight_decay=0.01),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=[keras.metrics.SparseCategoricalAccuracy()],
        jit_compile=True,
    )

classifier.fit(train_ds, validation_data=val_ds, epochs=3)
classifier.save("artifacts/bert_sentiment.keras")
