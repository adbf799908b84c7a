import keras
import keras_hub
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()

preprocessor = keras_hub.models.BertTextClassifierPreprocessor.from_preset(
    "bert_base_en_uncased", sequence_length=128
)
classifier = keras_hub.models.BertTextClassifier.from_preset(  # expect: TFS001
    "bert_base_en_uncased", num_classes=2, preprocessor=preprocessor
)

with strategy.scope():
    classifier.compile(
        optimizer=keras.optimizers.AdamW(5e-5),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    )

classifier.fit(x=["what a film", "not for me"], y=[1, 0], batch_size=2)
